//! Years of use as a data set, for benchmarks and scenario tests: conversations of alternating
//! messages (a person's line, a coach's answer of a few hundred characters) and journal
//! entries, written through the store's own operations (each its own transaction, recorded for
//! sync when sync is set up), so what a sync or an export reads is what a person's data folder
//! holds. Used by the sync benchmark (`crates/sync/benches`) and the CLI's kill -9 sync test;
//! it measures nothing itself and is never called by the app.

use crate::{LOCAL_USER, NewMessage, Role, Store, StoreError};
use serde::Serialize;
use serde_json::json;

/// Where the journal lives (vibe-core's `JOURNAL_SKILL` and `JOURNAL_PATH`).
const JOURNAL: (&str, &str) = ("lifecoach", "journal");

/// Messages per conversation.
const PER_CONVERSATION: usize = 20;

const ASKS: [&str; 4] = [
    "今天又没能早起，感觉有点泄气。",
    "I finished the draft of my portfolio page today.",
    "最近和同事的关系有点紧张，不知道怎么开口。",
    "Can we look at my running plan for next week?",
];

const ANSWER: &str = "谢谢你愿意告诉我。我们先不急着评判自己：今天发生了什么，让你有这样的感受？\
如果把它拆成一件最小的事，明天可以先做哪一步？我记下了你这周的目标，也看到了你已经坚持的部分。\
Let's keep the next step small enough that a tired evening can still hold it, and look back \
at it together at the end of the week.";

/// What [`seed_history`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Seeded {
    pub conversations: u64,
    pub messages: u64,
    pub journal_entries: u64,
}

/// Write `messages` messages (in conversations of 20) and `entries` journal entries into
/// `store`, interleaved as a person would over the years. `tag` goes into every text, so a
/// test can tell two data sets apart.
pub fn seed_history(
    store: &Store,
    messages: usize,
    entries: usize,
    tag: &str,
) -> Result<Seeded, StoreError> {
    let mut seeded = Seeded { conversations: 0, messages: 0, journal_entries: 0 };
    let mut conversation = None;
    let steps = messages.max(entries);
    for n in 0..steps {
        if n < messages {
            if n % PER_CONVERSATION == 0 {
                let title = format!("{tag} conversation {}", n / PER_CONVERSATION);
                conversation = Some(store.create_conversation(LOCAL_USER, Some(&title))?.id);
                seeded.conversations += 1;
            }
            let (role, text) = if n % 2 == 0 {
                (Role::User, format!("{tag} #{n}: {}", ASKS[(n / 2) % ASKS.len()]))
            } else {
                (Role::Assistant, format!("{tag} #{n}: {ANSWER}"))
            };
            if let Some(id) = &conversation {
                store.append_message(id, NewMessage::text(role, text))?;
                seeded.messages += 1;
            }
        }
        // Entries spread evenly among the messages.
        let due = ((n + 1) * entries) / steps;
        while (seeded.journal_entries as usize) < due {
            let i = seeded.journal_entries;
            store.append_to_list(
                LOCAL_USER,
                JOURNAL.0,
                JOURNAL.1,
                json!({
                    "date": format!("20{:02}-{:02}-{:02}", 16 + i / 400, 1 + (i / 31) % 12, 1 + i % 28),
                    "mood": 1 + i % 5,
                    "mood_scale": 5,
                    "feelings": ["平静", "专注"],
                    "text": format!("{tag} entry {i}: 今天散步的时候想清楚了一件事，下个月要把时间留给自己。"),
                    "tags": ["反思"],
                    "source": "journal",
                }),
                usize::MAX,
            )?;
            seeded.journal_entries += 1;
        }
    }
    Ok(seeded)
}
