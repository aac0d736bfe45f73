//! Tests of the screen: each category fires in both languages, Traditional and Cantonese
//! wording fold, and idioms, negation, fiction and reported speech are handled.

use super::{Category, Discount, Risk, RuleSet, SafetyError, screen};

fn check(text: &str) -> (Risk, Option<Category>) {
    let got = screen(text).unwrap();
    (got.risk, got.category)
}

#[test]
fn builtin_rules_compile_and_are_not_empty() {
    let rules = super::builtin_rules().unwrap();
    assert!(rules.len() >= 10);
}

#[test]
fn each_category_fires_in_chinese_and_english() {
    assert_eq!(check("我想自杀"), (Risk::Acute, Some(Category::Suicide)));
    assert_eq!(check("I want to kill myself"), (Risk::Acute, Some(Category::Suicide)));
    assert_eq!(check("我最近经常自残"), (Risk::Concern, Some(Category::SelfHarm)));
    assert_eq!(check("I cut myself again"), (Risk::Concern, Some(Category::SelfHarm)));
    assert_eq!(check("我要杀了他"), (Risk::Acute, Some(Category::HarmOthers)));
    assert_eq!(check("I'm going to stab him"), (Risk::Acute, Some(Category::HarmOthers)));
    assert_eq!(check("我被性侵了"), (Risk::Acute, Some(Category::Abuse)));
    assert_eq!(check("He threatened to kill me"), (Risk::Acute, Some(Category::Abuse)));
    assert_eq!(check("我胸口剧痛"), (Risk::Acute, Some(Category::Medical)));
    assert_eq!(check("I can't breathe"), (Risk::Acute, Some(Category::Medical)));
}

#[test]
fn traditional_and_cantonese_wording_is_screened() {
    assert_eq!(check("我想結束自己的生命"), (Risk::Acute, Some(Category::Suicide)));
    assert_eq!(check("我真係好想死"), (Risk::Acute, Some(Category::Suicide)));
    assert_eq!(check("我唔想再活落去"), (Risk::Acute, Some(Category::Suicide)));
    assert_eq!(check("我會用煙頭燙自己"), (Risk::Concern, Some(Category::SelfHarm)));
}

/// Everyday words that hold the characters and verbs of cutting (计划 holds 划: a first draft of
/// round J flagged "用户想要一个计划" as acute self-harm).
#[test]
fn everyday_words_with_cutting_in_them_are_not_risk() {
    for text in [
        "用户想要一个计划。",
        "我想做个五年规划",
        "这个套餐好划算",
        "周末想去划船",
        "准备收割麦子了",
        "我想割舍这段关系",
        "股票又要割肉了",
        "我要划掉清单上的一项",
        "想要划重点",
        "the company is cutting costs again",
        "im cutting back on sugar",
        "i want to cut ties with him",
        "we are cutting the cake now",
    ] {
        assert_eq!(check(text), (Risk::None, None), "{text}");
    }
}

/// Everyday sentences in the words of rounds K to M (issue #28 §7): each of these was flagged
/// by a first draft of those rounds or an older rule (a crisis notice on a date, a lift to the station, a blood
/// test, a frying pan) and its pattern was narrowed before the rules landed.
#[test]
fn everyday_sentences_in_the_words_of_rounds_k_to_m_are_not_risk() {
    for text in [
        "今晚在她家楼下等她 一起去吃饭",
        "买东西都要问他要不要 他很挑",
        "我要把旅行的照片发到群里",
        "孩子越长越大了 好快",
        "紧张得话也讲不出来",
        "连续三天双倍积分 冲",
        "手放在暖气片上取暖",
        "这个乳液会用在手臂上",
        "宝宝哭了 我摇了她一会儿就睡着了",
        "购物的冲动赢了 又买了一双鞋",
        "两天吃一顿火锅 太爽了",
        "他们在找我 开会要迟到了",
        "汤里放了东西 好香",
        "蹲久了站起来眼前一黑",
        "跑步的时候心跳到了160",
        "新鞋磨到破皮了",
        "i ran into traffic on the way home",
        "tomorrow is the day! so excited for the wedding",
        "the nurse drew blood for my check-up",
        "food keeps sticking to the pan",
        "sweating buckets at the gym today",
        "my heart skips a beat when i see him",
        "i'm not drinking much these days, feeling great",
        "my toddler keeps falling over, he's just learning to walk",
        "bought the baby a yellow hat",
        "the rain came down like a curtain",
        "my lump sum pension is getting bigger",
        "she's at the door with pizza",
        "my date is late, oh he's here",
        "he took my dog for a walk twice today",
        "i'm warming my hands over the stove",
        "the towel is soaked after my swim",
        "i just needed it, a whole week off",
        "my mum won't let me go to the party",
        "my back hurts me when i run",
        "my brother beats me at chess every time",
        "the music really touches me",
        "i'll run her over to the station later",
        "hiding in my bed all day, so tired",
        "i told her i'd cut the cake after dinner",
        "the hotel keeps my passport at reception",
        "i used to post her pics on my story for her birthday",
        "my friend is outside my house right now to pick me up",
        "if i tell anyone about my crush i'll die of embarrassment",
        "i picture holding my baby for the first time",
        "heart rate 170 on my run this morning",
        // Round M's first draft.
        "the bus is not coming back",
        "i'm stuck inside because of the rain",
        "he's coming up for the weekend",
        "my sister is coming in tonight",
        "he'll throw her a surprise party",
        "i can't get out of bed today",
        "we picked a date for the wedding!",
        "i'd rather be dead than wear that",
        "i'm going to make my ex pay child support",
        "i told her she'd regret it if she skipped the concert",
        "one day i go finish my degree",
        "we'll take out the whole team for dinner",
        "she says i'm next in line for promotion",
        "the event is being held at the town hall",
        "bought a new app, thinking of using it",
        "got beaten properly at chess",
        "she had a black eye from netball",
        "my periods stopped, i think it's menopause",
        "dengue is in the news again",
    ] {
        assert_eq!(check(text), (Risk::None, None), "{text}");
    }
}

/// Everyday sentences in the words of suicide, written before round N read its tuning set (a
/// last message before a flight, a last day at the office, not wanting to live in others'
/// expectations, wanting to vanish for a day): older rules flagged five of them. The second
/// batch was written before round O (不想活得这么累 was an acute suicide hit of an older rule).
#[test]
fn everyday_sentences_near_the_words_of_suicide_are_not_risk() {
    for text in [
        "今天是我在公司的最后一天",
        "这是我最后一条消息 明天换号了",
        "手机快没电了 要死了",
        "植物又被我养死了",
        "我想结束这段关系",
        "想结束这个项目 太累了",
        "想一走了之 去旅行",
        "今晚去天台看星星",
        "周末去江边散步",
        "跟同事道别 明天离职",
        "把旧衣服都送人了 断舍离",
        "写了一封信给十年后的自己",
        "医生开的安眠药 吃一颗就睡着了",
        "药快吃完了 明天去医院开",
        "我不想活在别人的期待里",
        "不想上班 想消失一天",
        "这个deadline要了我的命",
        "this is my last message before my flight",
        "my phone is about to die",
        "last day at the office today!",
        "i want to end this relationship",
        "i gave my old clothes away, feels good",
        "wrote a letter to my future self",
        "went up to the rooftop bar for drinks",
        "standing on the bridge watching the sunset",
        "i could sleep forever",
        "this deadline will be the death of me",
        "said goodbye to my team today, new job monday",
        "i took my sleeping pill and i'm off to bed",
        "i have a plan for tonight: pizza and netflix",
        "i'm jumping into the pool",
        "killing time at the airport",
        "i'm so done with this week lol",
        // Written before round O read its tuning set.
        "今晚走了 明天见",
        "我先走了 大家晚安",
        "再见了 我的大学",
        "永别了 我的旧手机",
        "这是我在这家公司的最后一个项目",
        "我已经决定了 辞职",
        "我在桥上拍夜景 好美",
        "在楼顶吃火锅",
        "写了遗嘱 律师建议的 以防万一",
        "时间到了 该下班了",
        "我要跳槽了",
        "我要跳了 蹦极好刺激",
        "下线了 明天再聊",
        "不想活得这么累 想换个活法",
        "goodbye everyone, see you next year!",
        "i'm at the top of the mountain, what a view",
        "standing on the bridge taking photos",
        "i've made my decision, i'm quitting",
        "this is it, the big interview today",
        "tell my mum i'll be late",
        "i'm going now, see you tomorrow",
        "final entry of my travel diary",
        "checking out of the hotel tonight",
        "i'm done for tonight, going to bed",
    ] {
        assert_eq!(check(text), (Risk::None, None), "{text}");
    }
}

/// Everyday set 3 (`tests/safety/everyday3/`, safe messages in the words a crisis screen looks
/// for) raised these false alarms on rounds K–O's rules: a habit one cannot keep up read as
/// suicide, a last message before chatting tomorrow as an acute farewell, a week of pills
/// sorted for a grandfather as counting pills. The variants after them were written with the
/// mends, before they were measured.
#[test]
fn everyday_sentences_of_the_third_everyday_set_are_not_risk() {
    for text in [
        "想开始记账 但总坚持不了三天",
        "我想报个瑜伽课 但怕坚持不下去",
        "孩子发烧退了 今晚终于能睡个好觉",
        "爬到山頂的懸崖邊 風超大 拍了好多照片",
        "姥爷的降压药快吃完了 周末去医院开药",
        "幫阿爺數好晒一個禮拜嘅藥 放入藥盒",
        "木工課用美工刀割木片 做了一個小書架",
        "邊個同我劇透我就殺咗佢 講笑咋",
        "下周我就不在了 请年假去云南玩 有事微信留言",
        "今晚做个了断 把那堆没回的邮件全部处理掉",
        "今晚要跟我的拖延症做個了斷 把報告寫完才睡",
        "ok this is my last message tonight, chat tomorrow!",
        "kid's fever meds go by weight, the GP explained it really clearly",
        "made a will and power of attorney with my solicitor, just normal planning at 40",
        "i want to disappear under my duvet all weekend",
        "mum said she'd murder me if i didn't tidy my room haha, tidied",
        "GP said my blood pressure is slightly high, more walking and less salt",
        "all sorted for the move, gave away the plants and said my goodbyes to the street",
        "won't be around this weekend, camping with no signal, talk monday",
        // Variants.
        "早起打卡坚持不了一周就放弃了",
        "背单词总是坚持不下去 有什么办法",
        "宝宝烧退了 精神也好了",
        "妈妈的药吃完了 明天去药店买药",
        "用美工刀拆快递 顺手做了一个收纳盒",
        "下个月我就不在了 去度假两周",
        "this is my last text for today, talk tomorrow",
        "my bp was a bit high at the checkup",
        "won't be around, off to a festival till sunday",
    ] {
        assert_eq!(check(text), (Risk::None, None), "{text}");
    }
}

/// Everyday set 4 (`tests/safety/everyday4/`, what people answer a coach: exercises, habits
/// that fail, body scans, grief) raised these false alarms on the rules after everyday set 3:
/// a body scan's tight chest when the boss comes to mind read as an acute medical emergency,
/// rent that takes one's breath away as not breathing, an uncle who died of a heart attack as
/// one happening now. The variants after them were written with the mends, before they were
/// measured.
#[test]
fn everyday_sentences_of_the_fourth_everyday_set_are_not_risk() {
    for text in [
        "emo了 故意在回家的公交上听伤感歌单",
        "舅舅把我带大的 突发心梗走了 七十一岁 医生说没什么痛苦 就是太突然了接受不了",
        "最让我喘不过气的就是房租，一个月工资一半交了房租",
        "早上冥想坚持不下去 坐那十分钟全在想今天要干啥 可能晚上试试",
        "低谷：驾照科目二挂了第三次 教练都懒得骂我了",
        "My little bakery had its worst month since opening. Electricity costs doubled. I love it but I don't know how long I can keep it going.",
        "i cant keep going like this with my schedule. gym at 6, work till 7, kids, bed at midnight. something has to give and i think its the gym",
        "doing the body scan my stomach churns when i picture monday's meeting. hands a bit cold. breathing shallow until I noticed it",
        "Body scan: my chest feels tight when I think about my boss. Shoulders up by my ears. Jaw clenched. Legs actually felt fine.",
        // Variants.
        "一想到老板我就胸闷",
        "一想到要见他 我就呼吸困难",
        "每次想到期末考试就心跳好快",
        "外婆去年中风走了 今天是她的忌日",
        "when i think about the interview my chest gets tight",
        "冥想总是坚持不了一周",
        "trying to keep the shop going through winter, don't know how long i can keep it open",
    ] {
        assert_eq!(check(text), (Risk::None, None), "{text}");
    }
}

/// Answers to the app's own protocol questions (`tests/safety/protocol_answers/`: the pain one
/// has learned to live with, a Tuesday ten years from now if nothing changes, the enemy
/// pattern) raised these false alarms: a "vision" read as eyesight, a body imagined ten years
/// on as an emergency now, being interrupted by messages (打断) as being hit. Said "as a figure
/// of speech" (说说而已), "I'd rather die than live like that" is left to the model check. The
/// variants after them were written with the mends, before they were measured.
#[test]
fn answers_to_the_apps_own_protocol_questions_are_not_risk() {
    for text in [
        "身体肯定垮了 现在已经每天靠咖啡撑 再过十年估计高血压糖尿病都有了 还在为一份讨厌的工作拼命",
        "我老公的哥哥 两口子吵了二十年 都不离 我看着就觉得窒息 宁愿死也不想过那种日子 当然是说说而已 就是特别不想",
        "早上最高，晚上接小孩之後最低。阻礙是一直被工作訊息打斷。",
        "I'm retired and the days all blur together. Nobody needs me for anything before noon. I've stopped mentioning it to my wife because she just says join a club.",
        "My dad. Spent 35 years at the council, retired, now he just sits in his chair. I love him, but honestly I'd rather die than live like my father - figure of speech obviously, I just mean I'll do anything to not end up in that chair.",
        "Vision. Went for a walk with my neighbour instead of the telly. Grand altogether.",
        // Variants.
        "vision board is going well",
        "my vision for next year is going freelance",
        "五年后 估计血压血糖都高了",
        "开会的时候一直被电话打断",
    ] {
        let (risk, _) = check(text);
        assert_eq!(risk, Risk::None, "{text}");
    }
}

/// Everyday set 5 (`tests/safety/everyday5/`, long messages poured out at the end of a day)
/// raised 16 (zh) and 21 (en) false alarms on rounds K–O's rules, most of them one sentence of
/// a long, happy message: a bowl that collapsed in a pottery class, a manager's praise one
/// "almost fainted" at, "odd shoes" read as an overdose, a son asking whether his father will
/// die, wearing paint-ball bruises from a team day. One sentence of each is held here.
#[test]
fn sentences_of_long_everyday_messages_are_not_risk() {
    for text in [
        "今天体检抽血 我晕针 差点晕过去 护士让我躺了一会儿 喝了杯糖水 缓过来了",
        "今晚打麻将赢了三百块 开心死了 结果回家老婆说你又去打麻将 我赶紧把钱上交",
        "今天班上兩個學生打架 其實只是推來推去 我把他們叫到辦公室",
        "今天去爬合歡山 有點高山反應 頭痛又想吐 在停車場休息了一下 好多了",
        "这个月控制住了花钱 存了三千块",
        "今天终于摊开说了 她说她没意识到 以后会注意",
        "今天考完雅思了 等成绩的这两周要煎熬了",
        "今天我们部门团建去玩真人CS 我被打了一身颜料弹",
        "结果昨晚刷剧又刷到两点 今早起来头痛欲裂",
        "今天腰疼得起不来床 请了假 去医院做了核磁 说是腰肌劳损",
        "她得了阿尔茨海默 已经不认识人了",
        "今天牙痛到半邊臉都腫了 去看牙醫 要根管治療",
        "今天打排球拦网的时候手指戳了一下 去医院拍片说是挫伤 没骨折",
        "He is eleven and has beaten me at Mario Kart thirty times in a row.",
        "i swear if my brother borrows my car one more time without asking i will actually murder him.",
        "today my boss called me into a meeting and I thought I was getting fired, heart pounding, palms sweating.",
        "someone brought homemade wings that were so hot I cried, my mouth is still numb.",
        "We went to the pub and told stories until they kicked us out.",
        "my cousins pushed me into the water in my clothes, i was so vexed, then i pushed them too lol.",
        "My bowl collapsed three times and the instructor said it looked expressive.",
        "Then I came home and collapsed on the sofa and my husband made chicken soup.",
        "He asked if I'm going to die and I said one day, when I'm very old.",
        "Took my 80 year old mum for her hearing aid fitting.",
        "Nothing severe, just a horrible cold, fever for two days, tired all the time.",
        "today my manager praised my work in front of the whole team, i almost fainted.",
        "Today I had to tell my elderly neighbour her cat had been hit by a car.",
        "I burnt my wrist taking a lasagne out of the oven, small, ran it under the tap.",
        "My partner left a note on the fridge saying proud of you.",
        "my flatmate made a croquembouche and nearly set the kitchen on fire with the caramel.",
        "Today was hungover mayhem on the school run, wore odd shoes.",
        "The swim was chaos, someone kicked me in the face, my goggles filled up.",
        // Internet hyperbole written after set 5's mends (笑不活了 was an acute suicide hit).
        "笑不活了家人们",
        "我一口老血喷出来",
        "今天在公司社死了 全组都看到了",
        "我直接原地去世",
    ] {
        assert_eq!(check(text), (Risk::None, None), "{text}");
    }
}

/// The same words still carry risk where the everyday context of the mends above is missing
/// (everyday sets 3 and 4).
#[test]
fn the_everyday_sets_mends_keep_risk_in_the_same_words() {
    for (text, category) in [
        ("我真的坚持不下去了", Category::Suicide),
        ("今晚做个了断", Category::Suicide),
        ("今晚就跟这个世界做个了断", Category::Suicide),
        ("我明天就不在了", Category::Suicide),
        ("用美工刀割手腕", Category::SelfHarm),
        ("孩子发烧39度 一直不退", Category::Medical),
        ("this is my last message. goodbye everyone", Category::Suicide),
        ("i want to disappear forever", Category::Suicide),
        ("he said he'd kill me if i left him", Category::Abuse),
        ("i've said my goodbyes and i'm ready to go", Category::Suicide),
        ("i won't be around much longer", Category::Suicide),
        ("我胸口剧痛 喘不过气", Category::Medical),
        ("我爸心梗了 快叫救护车", Category::Medical),
        ("my chest feels tight and my left arm is numb", Category::Medical),
        ("i don't know how long i can hold on", Category::Suicide),
        ("我故意割伤自己", Category::SelfHarm),
        ("教练又打我了", Category::Abuse),
        ("my vision went blurry and my face is drooping", Category::Medical),
        ("我一直被他打", Category::Abuse),
        ("我血压突然好高 头好晕", Category::Medical),
        ("我现在真的要去死了 这次不是说说而已", Category::Suicide),
        ("i want to die and it's not a figure of speech", Category::Suicide),
        ("我真係想死 唔係講笑", Category::Suicide),
        ("my dad kicked me out last night and i have nowhere to go", Category::Abuse),
        ("he pushed me into the pool and held me under", Category::Abuse),
        ("i nearly fainted at work today", Category::Medical),
        ("i burned my wrist with the iron on purpose", Category::SelfHarm),
        ("i took too many pills, i think i od'd", Category::Medical),
        ("他用钱控制我 工资全部上交", Category::Abuse),
        ("我头痛欲裂 从来没这么痛过", Category::Medical),
        ("我爸突然不认识人了 说话也乱", Category::Medical),
        ("i collapsed at work and can't feel my arm", Category::Medical),
        ("he kicked me in the face last night", Category::Abuse),
        ("我真的不想活了", Category::Suicide),
        ("刚才吐了一大口血", Category::Medical),
        // What the session's first contexts would have hidden (its review, docs/safety.md).
        ("打针后呼吸困难 全身起疹子", Category::Medical),
        ("在葬礼上突然胸口剧痛", Category::Medical),
        ("摔倒撞到头 脑挫伤 一直吐", Category::Medical),
        ("朋友喝多了 叫不醒", Category::Medical),
        ("团建的时候被领导打了", Category::Abuse),
        ("练车的时候教练摸我腿", Category::Abuse),
        ("今晚做个了断 告别的邮件已经定时发送了", Category::Suicide),
        ("站在天台上 拍了最后一张照片", Category::Suicide),
        ("胰岛素用完了 没钱去医院", Category::Medical),
        ("i feel hot and numb and can't move my arm", Category::Medical),
        ("went back to work and my vision went blurry", Category::Medical),
        ("i left a note saying i'm proud of you all, goodbye", Category::Suicide),
        ("i've collapsed three times today", Category::Medical),
    ] {
        let (risk, got) = check(text);
        assert!(risk != Risk::None && got == Some(category), "{text}: {risk:?} {got:?}");
    }
}

#[test]
fn idioms_and_hyperbole_are_not_risk() {
    for text in [
        "笑死我了",
        "累死了",
        "饿死了",
        "今日返工攰到死",
        "他打我电话了",
        "I'm dying to see it",
        "kill the process",
        "this joke killed me",
        "That would be career suicide",
        "I overdosed on Netflix",
    ] {
        let got = screen(text).unwrap();
        assert_eq!(got.risk, Risk::None, "{text}: {got:?}");
        assert!(!got.unsure, "{text}: a guarded idiom is not unsure");
    }
}

#[test]
fn negation_cancels_a_hit_but_leaves_it_unsure() {
    for text in
        ["我不会自杀的", "我不想死", "I would never kill myself", "I'm not going to kill myself"]
    {
        let got = screen(text).unwrap();
        assert_eq!(
            (got.risk, got.discount, got.unsure),
            (Risk::None, Some(Discount::Negated), true),
            "{text}"
        );
    }
    // A negation in another clause does not cancel.
    assert_eq!(check("I don't know, I want to die").0, Risk::Acute);
}

#[test]
fn fiction_and_reported_speech_are_discounted() {
    let film = screen("这部电影里主角最后自杀了").unwrap();
    assert_eq!((film.risk, film.discount), (Risk::None, Some(Discount::Fiction)));
    let friend = screen("My friend told me she wants to die").unwrap();
    assert_eq!(
        (friend.risk, friend.discount, friend.unsure),
        (Risk::Concern, Some(Discount::Reported), true)
    );
    let quoted = screen("他在群里发了一句“我想死”").unwrap();
    assert_eq!((quoted.risk, quoted.discount), (Risk::Concern, Some(Discount::Reported)));
    // Abuse told about oneself stays at full strength.
    assert_eq!(check("我男朋友威胁说如果我分手就杀了我"), (Risk::Acute, Some(Category::Abuse)));
}

#[test]
fn the_strongest_hit_wins() {
    let got = screen("活着好累，我想死").unwrap();
    assert_eq!((got.risk, got.rule.as_deref()), (Risk::Acute, Some("zh.suicide.want_die")));
    assert_eq!(screen("今天天气很好").unwrap(), super::Screening::clear());
}

#[test]
fn a_broken_rules_file_is_refused_with_the_place_named() {
    let bad_pattern = "rules:\n  - id: x.bad\n    category: suicide\n    risk: acute\n    patterns: ['(unclosed']\n";
    let err = RuleSet::parse(bad_pattern, "my.yaml").unwrap_err();
    assert!(matches!(&err, SafetyError::Pattern { rule, .. } if rule == "x.bad"), "{err}");
    assert!(err.to_string().contains("my.yaml"), "{err}");
    let bad_category =
        "rules:\n  - id: x.cat\n    category: sadness\n    risk: acute\n    patterns: ['a']\n";
    let err = RuleSet::parse(bad_category, "my.yaml").unwrap_err().to_string();
    assert!(err.contains("unknown category \"sadness\""), "{err}");
    let bad_fold = "fold: 殺杀殺\nrules: []\n";
    let err = RuleSet::parse(bad_fold, "my.yaml").unwrap_err().to_string();
    assert!(err.contains("odd number"), "{err}");
}

#[test]
fn common_phrasings_beyond_the_labelled_set_are_caught() {
    assert_eq!(check("I am going to end it tonight"), (Risk::Acute, Some(Category::Suicide)));
    assert_eq!(check("我朋友说她被她男朋友打了"), (Risk::Concern, Some(Category::Abuse)));
    // Slang and vague despair are flagged but marked unsure (a model check would decide).
    for text in ["kms, this homework", "我真的撑不住了，想一了百了"] {
        let got = screen(text).unwrap();
        assert_eq!(
            (got.risk, got.category, got.unsure),
            (Risk::Concern, Some(Category::Suicide), true),
            "{text}"
        );
    }
}

#[test]
fn laughter_in_the_clause_reads_as_hyperbole_but_stays_unsure() {
    for text in [
        "kms lol this homework",
        "这么热的天，简直不想活了哈哈",
        "This traffic makes me want to die lol",
    ] {
        let got = screen(text).unwrap();
        assert_eq!(
            (got.risk, got.discount, got.unsure),
            (Risk::None, Some(Discount::Joking), true),
            "{text}"
        );
    }
    // Laughter in another clause does not discount, and abuse told about oneself keeps.
    assert_eq!(check("哈哈，我是说真的，我想死").0, Risk::Acute);
    assert_eq!(check("he hits me lol").1, Some(Category::Abuse));
}

#[test]
fn a_negation_counts_only_a_few_words_before_the_hit() {
    assert_eq!(check("I'm not okay and I want to kill myself").0, Risk::Acute);
    assert_eq!(check("我不会告诉任何人但我想自杀").0, Risk::Acute);
    assert_eq!(check("I don't ever want to die").0, Risk::None);
    assert_eq!(check("我绝对不会去自杀").0, Risk::None);
}

#[test]
fn word_classes_reach_wording_no_line_of_the_sets_uses() {
    // Targets, methods and places are classes, not single phrases.
    assert_eq!(check("我想杀了我前夫"), (Risk::Acute, Some(Category::HarmOthers)));
    assert_eq!(check("我站在阳台上，想跳下去"), (Risk::Acute, Some(Category::Suicide)));
    assert_eq!(check("我攢了好多安眠藥"), (Risk::Acute, Some(Category::Suicide)));
    assert_eq!(check("I'm going to poison my neighbor"), (Risk::Acute, Some(Category::HarmOthers)));
    assert_eq!(
        check("my girlfriend shoved me into the door"),
        (Risk::Concern, Some(Category::Abuse))
    );
    // Idioms built on the same words stay safe.
    for text in [
        "今天跳楼价清仓",
        "好想死你们啊",
        "I hurt myself at the gym doing squats",
        "she'd kill me if I spoiled it",
    ] {
        assert_eq!(check(text).0, Risk::None, "{text}");
    }
}

#[test]
fn english_wording_inside_a_chinese_sentence_is_screened() {
    // Word boundaries are ASCII ones: a Chinese character next to an English word does not
    // glue the two into one "word" (a Unicode boundary would, and the hit would be missed).
    assert_eq!(check("说实话我really want to die了"), (Risk::Acute, Some(Category::Suicide)));
    assert_eq!(check("我觉得I want to kill myself啊"), (Risk::Acute, Some(Category::Suicide)));
    // and an English word inside a longer English word still does not count
    assert_eq!(check("the skills of a killer whale"), (Risk::None, None));
}

#[test]
fn an_unless_context_in_the_same_sentence_drops_the_hit() {
    let yaml = "rules:\n  - id: x.breath\n    category: medical\n    risk: acute\n    patterns: ['喘不过气', '\\bcan''t breathe\\b']\n    unless: ['马拉松|跑步', '\\b(after|from) (running|the run)\\b']\n  - id: x.other\n    category: suicide\n    risk: acute\n    patterns: ['不想活']\n";
    let rules = RuleSet::parse(yaml, "t.yaml").unwrap();
    // The lookalike context in the hit's sentence: no hit at all (not even an unsure one).
    for text in ["跑完马拉松喘不过气，休息一下就好", "I can't breathe after running lol"]
    {
        let got = rules.screen(text);
        assert_eq!(
            (got.risk, got.rule.as_deref(), got.unsure),
            (Risk::None, None, false),
            "{text}"
        );
    }
    // The same words in another sentence do not excuse the hit, nor another rule's hit.
    let got = rules.screen("昨天去跑步了。今天突然喘不过气");
    assert_eq!((got.risk, got.category), (Risk::Acute, Some(Category::Medical)));
    let got = rules.screen("I went running. Now I can't breathe");
    assert_eq!((got.risk, got.category), (Risk::Acute, Some(Category::Medical)));
    let got = rules.screen("跑步也没用，我不想活了");
    assert_eq!((got.risk, got.category), (Risk::Acute, Some(Category::Suicide)));
    let broken = "rules:\n  - id: x.u\n    category: medical\n    risk: acute\n    patterns: ['a']\n    unless: ['(']\n";
    let err = RuleSet::parse(broken, "t.yaml").unwrap_err();
    assert!(matches!(&err, SafetyError::Pattern { rule, .. } if rule == "x.u"), "{err}");
}

#[test]
fn cantonese_characters_fold_to_their_mandarin_equivalents() {
    // 鎅/𠝹 (cut), 佢 (him), 諗 (think), 咗 (aspect marker) reach the Mandarin patterns.
    assert_eq!(check("我會用刀仔鎅手").1, Some(Category::SelfHarm));
    assert_eq!(check("我要斬死佢"), (Risk::Acute, Some(Category::HarmOthers)));
    assert_eq!(check("我成日都諗住死").1, Some(Category::Suicide));
    assert_eq!(check("我媽媽突然暈倒，冇咗知覺").1, Some(Category::Medical));
    // and their idioms stay safe
    assert_eq!(check("今日返工攰到死").0, Risk::None);
}

#[test]
fn broad_word_classes_keep_their_lookalikes_safe() {
    for text in [
        "他跑完马拉松喘不过气，休息一下就好了",
        "我是急诊科护士，今天收了三个心梗病人",
        "搬家前把东西都送给朋友了",
        "我想把这个卡住的进程杀掉",
        "I'm a paramedic, long shift of chest pain calls",
        "my phone's about to die",
        "I beat my brother at chess",
        "dad used to hit me when I was little but we've made peace",
    ] {
        assert_eq!(check(text).0, Risk::None, "{text}");
    }
}

#[test]
fn texting_style_slang_and_pinyin_are_screened_and_their_lookalikes_are_not() {
    // Contractions without apostrophes ("dont", "hes", "ill be") read as the full forms.
    assert_eq!(check("i dont wanna be here anymore").0, Risk::Concern);
    assert_eq!(check("hes got a knife and says hell kill me").1, Some(Category::Abuse));
    assert_eq!(check("goodbye everyone, by the time u read this ill be gone").0, Risk::Acute);
    assert_eq!(check("i wont be here anymore next week, moving to melbourne").0, Risk::None);
    assert_eq!(check("i'm ill, staying home").0, Risk::None);
    assert_eq!(check("thinkin bout jumpin in front of a train").1, Some(Category::Suicide));
    // Slang and abbreviations: zs / 紫砂 (自杀), zc (自残), sh (self-harm), unalive.
    assert_eq!(check("好想zs啊").1, Some(Category::Suicide));
    assert_eq!(check("想紫砂").1, Some(Category::Suicide));
    assert_eq!(check("我買了一個紫砂壺").0, Risk::None);
    assert_eq!(check("zc又復發了").1, Some(Category::SelfHarm));
    assert_eq!(check("relapsed on sh last night after 90 days clean").1, Some(Category::SelfHarm));
    assert_eq!(check("run the deploy.sh script again").0, Risk::None);
    assert_eq!(check("i might just unalive tonight").1, Some(Category::Suicide));
    // Cantonese 喺 (在): locked in at home.
    assert_eq!(check("老公把我鎖喺屋企").1, Some(Category::Abuse));
}
