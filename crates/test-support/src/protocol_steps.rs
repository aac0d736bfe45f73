//! Valid step data for each step of the built-in `dankoe` protocol (lifecoach), as the model
//! would pass it to `advance_protocol_step`: shared by the protocol engine's own tests and the
//! core's scenario tests, so a change to the protocol's fields is made once.

use serde_json::{Value, json};

/// Step data that satisfies step `n` (1–6) of the `dankoe` protocol; any other `n` gives the
/// last step's.
pub fn dankoe_step(n: usize) -> Value {
    match n {
        1 => {
            json!({"dull_dissatisfaction": "每天都很累", "top_complaints": ["加班", "没时间运动", "刷手机"], "revealed_wants": "安全感"})
        }
        2 => {
            json!({"tuesday_in_5_years": "还在同一个工位", "tuesday_in_10_years": "身体垮了", "cost_of_safe_life": "错过了自己", "identity_to_give_up": "老好人"})
        }
        3 => {
            json!({"tuesday_in_3_years": "早上写作", "identity_statement": "我是那种每天创作的人", "this_week_action": "写一篇文章"})
        }
        4 => json!({"avoidances": ["写作", "运动"]}),
        5 => {
            json!({"why_stuck": "害怕失败", "real_enemy": "完美主义", "anti_vision_sentence": "麻木地过一生", "vision_sentence": "自由地创作"})
        }
        _ => {
            json!({"one_year_goal": "出版一本书", "one_month_project": "写完三章", "daily_levers": ["写 500 字"], "constraints": ["睡够 7 小时"]})
        }
    }
}
