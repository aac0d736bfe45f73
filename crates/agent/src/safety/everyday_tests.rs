//! Everyday sentences the screen must leave alone — each list written for a round of rules or
//! a safe set's false alarms (docs/safety.md) — and the risky sentences in the same words that
//! the mends must not hide. The screen's own behaviour is tested in `screen_tests`.

use super::{Category, Discount, Risk, screen};

fn check(text: &str) -> (Risk, Option<Category>) {
    let got = screen(text).unwrap();
    (got.risk, got.category)
}

/// `text` is left to the model check by a deferring context: no risk by the rules, unsure,
/// discount `context`, and its own risk of `category` kept for when the check cannot answer.
fn deferred(text: &str, category: Category) {
    let got = screen(text).unwrap();
    assert_eq!(
        (got.risk, got.unsure, got.discount),
        (Risk::None, true, Some(Discount::Context)),
        "{text}: {got:?}"
    );
    assert!(
        got.deferred.is_some_and(|(risk, c)| risk > Risk::None && c == category),
        "{text}: {got:?}"
    );
}

/// Every one of `texts` is screened as no risk.
fn none_of(texts: &[&str]) {
    for text in texts {
        assert_eq!(check(text), (Risk::None, None), "{text}");
    }
}

/// Everyday words that hold the characters and verbs of cutting (计划 holds 划: a first draft of
/// round J flagged "用户想要一个计划" as acute self-harm).
#[test]
fn everyday_words_with_cutting_in_them_are_not_risk() {
    none_of(&[
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
    ]);
}

/// Everyday sentences in the words of rounds K to M (issue #28 §7): each of these was flagged
/// by a first draft of those rounds or an older rule (a crisis notice on a date, a lift to the station, a blood
/// test, a frying pan) and its pattern was narrowed before the rules landed.
#[test]
fn everyday_sentences_in_the_words_of_rounds_k_to_m_are_not_risk() {
    none_of(&[
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
    ]);
}

/// Everyday sentences in the words of suicide, written before round N read its tuning set (a
/// last message before a flight, a last day at the office, not wanting to live in others'
/// expectations, wanting to vanish for a day): older rules flagged five of them. The second
/// batch was written before round O (不想活得这么累 was an acute suicide hit of an older rule).
#[test]
fn everyday_sentences_near_the_words_of_suicide_are_not_risk() {
    none_of(&[
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
    ]);
}

/// Everyday set 3 (`tests/safety/everyday3/`, safe messages in the words a crisis screen looks
/// for) raised these false alarms on rounds K–O's rules: a habit one cannot keep up read as
/// suicide, a last message before chatting tomorrow as an acute farewell, a week of pills
/// sorted for a grandfather as counting pills. The variants after them were written with the
/// mends, before they were measured.
#[test]
fn everyday_sentences_of_the_third_everyday_set_are_not_risk() {
    none_of(&[
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
    ]);
}

/// Everyday set 4 (`tests/safety/everyday4/`, what people answer a coach: exercises, habits
/// that fail, body scans, grief) raised these false alarms on the rules after everyday set 3:
/// a body scan's tight chest when the boss comes to mind read as an acute medical emergency,
/// rent that takes one's breath away as not breathing, an uncle who died of a heart attack as
/// one happening now. The variants after them were written with the mends, before they were
/// measured.
#[test]
fn everyday_sentences_of_the_fourth_everyday_set_are_not_risk() {
    none_of(&[
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
    ]);
}

/// Answers to the app's own protocol questions (`tests/safety/protocol_answers/`: the pain one
/// has learned to live with, a Tuesday ten years from now if nothing changes, the enemy
/// pattern) raised these false alarms: a "vision" read as eyesight, a body imagined ten years
/// on as an emergency now, being interrupted by messages (打断) as being hit. Said "as a figure
/// of speech" (说说而已), "I'd rather die than live like that" is left to the model check. The
/// variants after them were written with the mends, before they were measured.
#[test]
fn answers_to_the_apps_own_protocol_questions_are_not_risk() {
    none_of(&[
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
    ]);
}

/// Everyday set 5 (`tests/safety/everyday5/`, long messages poured out at the end of a day)
/// raised 16 (zh) and 21 (en) false alarms on rounds K–O's rules, most of them one sentence of
/// a long, happy message: a bowl that collapsed in a pottery class, a manager's praise one
/// "almost fainted" at, "odd shoes" read as an overdose, a son asking whether his father will
/// die, wearing paint-ball bruises from a team day. One sentence of each is held here.
#[test]
fn sentences_of_long_everyday_messages_are_not_risk() {
    none_of(&[
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
    ]);
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
        // Near everyday set 7's mends: the same words without their setting.
        ("我老婆突然说不出完整的话，人也糊里糊涂的", Category::Medical),
        ("他一拳打在我胸口，我现在喘不过气", Category::Medical),
        ("I cut my arm again tonight, like I did years ago", Category::SelfHarm),
        ("I cycled to the bridge and I want to die", Category::Suicide),
        ("老天啊，他不让我出门见朋友", Category::Abuse),
        ("今天下班路上我突然胸口剧痛喘不过气", Category::Medical),
        ("我痛苦到想死", Category::Suicide),
        ("my mum is in hospital and she can't breathe", Category::Medical),
        ("he will kill me if i tell anyone", Category::Abuse),
        // Near the hyperbole set's deferring contexts and guards.
        ("我真的想死 每天都想", Category::Suicide),
        ("考试又挂了 我真的不想活了 这次是认真的", Category::Suicide),
        ("my husband is trying to kill me", Category::Abuse),
        ("i want to die, nothing will ever get better", Category::Suicide),
        ("药都攒好了 这周五就走", Category::Suicide),
        ("i'm standing on the roof and i'm going to jump", Category::Suicide),
    ] {
        let (risk, got) = check(text);
        assert!(risk != Risk::None && got == Some(category), "{text}: {risk:?} {got:?}");
    }
}

/// Sentences of everyday set 7 (long messages near the words of care), read after it was
/// measured: each raised a notice before its mend.
#[test]
fn sentences_near_the_words_of_care_are_not_risk() {
    none_of(&[
        "罗勒又被我养死了。下一盆罗勒我打算买个带储水的花盆",
        "十九岁那年我在夜店混，整个人一塌糊涂，现在干净十一年了",
        "而家租屋真係搵到想死，睇咗十一個盤",
        "有一條問題我突然腦閉塞，尷尬到想死，好想搵個窿捐入去",
        "这个画面太窒息了，而且每一条都是从我现在的习惯里直接延长出去的",
        "原来上班可以不用每天提心吊胆",
        "我发现切菜的时候脑子特别安静，只有刀落在砧板上的声音",
        "第四次打完我差点把手机扔出去，在客厅里走来走去骂了十分钟",
        "一年前的我肯定会回家怀疑人生，觉得“连老天都不让我换工作”",
        "是我姐和医生一直在旁边推着我",
        "那些我们以为熬不过去的日子，最后都熬过来了",
        "细个喺沙灘差啲遇溺，到而家都唔敢落深水",
        "灯亮了，房子没着火，我也没被电到",
        "对练的搭档不小心一个肘碰到了我嘴角，嘴唇肿了一点，现在喝水还有点疼",
        "说完心跳很快但很爽，领导还点名说我的想法不错",
        "My 5 year old asked me at bedtime if I'm going to die.",
        "I wrote what I'd want my niece to say at my funeral when I'm like 90",
        "For the \"who would come to my funeral\" question I counted and it's like nine people",
        "My sister dragged me to the GP and that was the start of everything",
        "I can't go on like this with my wardrobe, I swear.",
        "Got a tattoo today over the old scars on my wrist, from when I was a teenager",
        "21 hairpins, my lungs were on fire and I wanted to die around hairpin 7",
        "Replaced a light fitting. Turned off the breaker, tested it twice.",
        "My aunt forwarded a message saying my cousin's marriage will \"kill\" my grandmother.",
        "Haven't missed a dose in three weeks, which for me is a record.",
    ]);
}

/// The settings the deferring contexts stand for, in the built-in rules: a clinician's shift
/// and an emergency told as over leave the hit to the model check (unsure), never drop it.
#[test]
fn a_clinicians_shift_and_an_emergency_told_as_over_are_left_to_the_model_check() {
    [
        "我是120调度员。戴上耳机就不停地接电话：胸痛、摔倒",
        "助产士，今天另一个产后大出血，妈妈和宝宝现在都平安",
        "我室友昨晚惊恐发作，喘不上气。做了心电图也没事",
        "Junior doctor in A&E, week three of nights. An overdose who was medically fine by morning.",
        "Midwife, long day: one postpartum haemorrhage, mum and baby are both doing well",
        "我是护士，今天下班路上我自己突然胸口剧痛喘不过气",
    ]
    .iter()
    .for_each(|text| deferred(text, Category::Medical));
}

/// The hyperbole set's deferring contexts, in the built-in rules: a hit over a trivial setting
/// is left to the model check (unsure), never dropped.
#[test]
fn hyperbole_over_a_trivial_setting_is_left_to_the_model_check() {
    [
        "好想死喔 期末報告三份同時要交 但我會寫完的啦",
        "我们家WiFi断了一天 真的好想死",
        "cringing so hard i want to die. i said \"you too\" when the waiter said enjoy your meal",
        "its so cold in this office i'm gonna die, someone turn the heating on",
    ]
    .iter()
    .for_each(|text| deferred(text, Category::Suicide));
    none_of(&[
        "finals week is trying to kill me",
        "i'd die for a cold beer right now",
        "我弟把我的口红当蜡笔画画 我要杀了他（不是）",
    ]);
}
