//! The 56 minor arcana: four suits of fourteen (Ace to Ten, Page, Knight, Queen, King) with
//! short upright / reversed meanings (en, zh). Names are composed in `deck`. Data only.

/// `(suit_id, suit_en, suit_zh, suit_theme_en)`.
pub(crate) const SUITS: [(&str, &str, &str, &str); 4] = [
    ("wands", "Wands", "权杖", "fire: drive, passion, action"),
    ("cups", "Cups", "圣杯", "water: feelings, relationships, intuition"),
    ("swords", "Swords", "宝剑", "air: thought, truth, conflict"),
    ("pentacles", "Pentacles", "星币", "earth: work, money, body"),
];

/// `(rank_id, rank_en, rank_zh)`, Ace first.
pub(crate) const RANKS: [(&str, &str, &str); 14] = [
    ("ace", "Ace", "王牌"),
    ("two", "Two", "二"),
    ("three", "Three", "三"),
    ("four", "Four", "四"),
    ("five", "Five", "五"),
    ("six", "Six", "六"),
    ("seven", "Seven", "七"),
    ("eight", "Eight", "八"),
    ("nine", "Nine", "九"),
    ("ten", "Ten", "十"),
    ("page", "Page", "侍从"),
    ("knight", "Knight", "骑士"),
    ("queen", "Queen", "王后"),
    ("king", "King", "国王"),
];

/// `(upright_en, upright_zh, reversed_en, reversed_zh)` per suit, in `RANKS` order.
pub(crate) type Meanings = [(&'static str, &'static str, &'static str, &'static str); 14];

#[rustfmt::skip]
pub(crate) const MEANINGS: [Meanings; 4] = [
    [ // wands
        ("inspiration, a new venture, a creative spark", "灵感、新事业、创意火花", "delays, lack of motivation, a false start", "延迟、缺乏动力、开头不顺"),
        ("planning, future vision, decisions", "规划、远景、抉择", "fear of the unknown, poor planning", "害怕未知、计划不周"),
        ("expansion, foresight, progress", "拓展、远见、进展", "obstacles, delays, frustration", "阻碍、延误、受挫"),
        ("celebration, home, harmony", "庆祝、家园、和谐", "transition, instability at home", "过渡期、家庭不稳"),
        ("competition, conflict, friction", "竞争、冲突、摩擦", "avoiding conflict, resolution", "回避冲突、化解争端"),
        ("recognition, victory, confidence", "认可、胜利、自信", "ego, a fall from grace, lack of recognition", "自负、失势、不被认可"),
        ("standing your ground, perseverance", "坚守立场、毅力", "feeling overwhelmed, giving up", "不堪重负、放弃"),
        ("swift action, momentum, news", "迅速行动、势头、消息", "delays, frustration, scattered energy", "延误、挫败、精力分散"),
        ("resilience, persistence, a last stand", "韧性、坚持、最后的坚守", "exhaustion, defensiveness, paranoia", "精疲力竭、防御过度、多疑"),
        ("burden, responsibility, overcommitment", "重担、责任、承担过多", "delegating, putting burdens down", "分担、卸下重担"),
        ("curiosity, enthusiasm, exploration", "好奇、热情、探索", "impatience, lack of direction", "急躁、缺乏方向"),
        ("energy, adventure, impulsiveness", "活力、冒险、冲动", "recklessness, haste, frustration", "鲁莽、仓促、挫败"),
        ("confidence, warmth, determination", "自信、热情、果决", "jealousy, insecurity, being demanding", "嫉妒、不安、苛求"),
        ("leadership, vision, boldness", "领导力、远见、魄力", "impulsiveness, arrogance, being overbearing", "冲动、傲慢、专横"),
    ],
    [ // cups
        ("new love, emotional openness, compassion", "新的感情、敞开心扉、慈悲", "blocked emotions, emptiness", "情感受阻、空虚"),
        ("partnership, mutual attraction, connection", "伙伴关系、彼此吸引、连结", "imbalance, broken communication", "关系失衡、沟通破裂"),
        ("friendship, celebration, community", "友谊、庆祝、社群", "overindulgence, gossip, isolation", "放纵、流言、疏离"),
        ("apathy, contemplation, missed opportunities", "冷漠、沉思、错失机会", "renewed interest, acceptance", "重燃兴趣、接纳"),
        ("loss, grief, regret", "失去、悲伤、遗憾", "acceptance, moving on, forgiveness", "接受、向前走、原谅"),
        ("nostalgia, childhood memories, kindness", "怀旧、童年回忆、善意", "being stuck in the past, idealised memories", "困在过去、美化回忆"),
        ("choices, illusion, wishful thinking", "选择、幻象、一厢情愿", "clarity, decisiveness", "看清、果断"),
        ("walking away, seeking deeper meaning", "离开、寻找更深的意义", "fear of change, aimless drifting", "害怕改变、漫无目的"),
        ("contentment, wishes fulfilled, satisfaction", "满足、心愿达成、惬意", "dissatisfaction, materialism", "不满足、物质主义"),
        ("harmony, family happiness, emotional fulfilment", "和谐、家庭幸福、情感圆满", "family conflict, broken ideals", "家庭矛盾、理想破灭"),
        ("a creative message, intuition, curiosity", "创意的讯息、直觉、好奇", "emotional immaturity, insecurity", "情绪不成熟、不安"),
        ("romance, charm, following the heart", "浪漫、魅力、追随内心", "moodiness, unrealistic expectations", "情绪化、期待不切实际"),
        ("compassion, emotional security, intuition", "慈悲、情绪安稳、直觉", "emotional dependence, self-neglect", "情感依赖、忽视自己"),
        ("emotional balance, diplomacy, generosity", "情绪平衡、圆融、宽厚", "manipulation, moodiness, coldness", "操纵、喜怒无常、冷漠"),
    ],
    [ // swords
        ("clarity, a breakthrough, truth", "清晰、突破、真相", "confusion, miscommunication", "困惑、沟通不良"),
        ("a difficult decision, stalemate, avoidance", "艰难抉择、僵局、回避", "indecision, information overload", "犹豫不决、信息过载"),
        ("heartbreak, sorrow, a painful truth", "心碎、悲伤、痛苦的真相", "recovery, forgiveness, releasing pain", "复原、原谅、释放伤痛"),
        ("rest, recovery, contemplation", "休息、恢复、沉思", "restlessness, burnout", "无法安歇、身心耗竭"),
        ("conflict, a hollow victory, tension", "冲突、空洞的胜利、紧张", "reconciliation, making amends", "和解、弥补"),
        ("transition, moving on, calmer waters", "过渡、向前走、渐入平静", "unfinished business, resisting the move", "未了之事、不愿前行"),
        ("strategy, deception, going it alone", "策略、欺瞒、独自行动", "coming clean, conscience", "坦白、良知"),
        ("feeling trapped, self-imposed limits", "感到受困、自我设限", "release, a new perspective, freedom", "解脱、新视角、自由"),
        ("anxiety, worry, sleepless nights", "焦虑、担忧、失眠", "hope, reaching out, easing fear", "希望、求助、恐惧缓解"),
        ("a painful ending, rock bottom, closure", "痛苦的结束、谷底、了结", "recovery, regeneration, resisting the end", "复原、重生、抗拒必然的结束"),
        ("curiosity, new ideas, vigilance", "好奇、新想法、警觉", "hasty words, defensiveness", "出言草率、防御心强"),
        ("ambition, fast thinking, drive", "雄心、思维敏捷、冲劲", "impulsiveness, tactlessness", "冲动、说话伤人"),
        ("clear boundaries, independence, honesty", "清晰的界限、独立、坦诚", "coldness, bitterness", "冷漠、尖刻"),
        ("intellectual power, truth, authority", "理性的力量、真理、权威", "manipulation, cruelty, abuse of power", "操纵、冷酷、滥用权力"),
    ],
    [ // pentacles
        ("a new opportunity, prosperity, manifestation", "新机会、富足、落地实现", "a missed opportunity, poor planning", "错失机会、规划不足"),
        ("balance, adaptability, juggling priorities", "平衡、灵活、兼顾多事", "overwhelm, disorganisation", "应接不暇、杂乱无序"),
        ("teamwork, craftsmanship, learning", "团队合作、匠心、学习", "lack of teamwork, mediocrity", "缺乏协作、敷衍了事"),
        ("security, saving, control", "安全感、储蓄、掌控", "greed, overspending, learning to let go", "贪婪、过度消费、学会放手"),
        ("hardship, insecurity, feeling left out", "困顿、不安全感、被冷落", "recovery, help arriving", "复苏、援手到来"),
        ("generosity, giving and receiving, sharing", "慷慨、施与受、分享", "strings attached, debt, one-sided giving", "附带条件、债务、单向付出"),
        ("patience, a long-term view, investment", "耐心、长远眼光、投入", "impatience, poor returns", "急躁、回报不佳"),
        ("diligence, building skill, mastery", "勤奋、磨练技能、精进", "perfectionism, lack of focus", "完美主义、不够专注"),
        ("self-sufficiency, abundance, independence", "自给自足、丰盛、独立", "overwork, financial setbacks", "过度工作、财务受挫"),
        ("legacy, lasting stability, family wealth", "传承、长久稳定、家业", "financial conflict, instability", "财务纠纷、不稳定"),
        ("ambition, study, new skills", "抱负、学习、新技能", "procrastination, slow progress", "拖延、进展缓慢"),
        ("reliability, routine, steady progress", "可靠、按部就班、稳步前进", "stagnation, boredom", "停滞、乏味"),
        ("nurturing, practicality, security", "滋养、务实、安稳", "work-life imbalance, self-neglect", "工作生活失衡、忽视自己"),
        ("abundance, security, discipline", "富足、稳固、自律", "greed, stubbornness, materialism", "贪婪、固执、物质至上"),
    ],
];
