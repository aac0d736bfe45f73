//! Compaction (docs/sync.md, "Compaction"): so the target does not grow without bound, a device
//! whose own batch files since its last snapshot reach a count writes a snapshot of its own
//! log — its earlier snapshot and batches merged, keeping per register only what still counts —
//! as `devices/<id>/snapshot-<through>.vlsync`, then removes the files it covers. A device that
//! had not read them reads the snapshot instead (`run`). It owns which operations a snapshot
//! keeps and the order of the steps, not reading other devices (`run`), where files go (`files`)
//! nor the merge (`vibe_store`).

use std::collections::{BTreeSet, HashMap};

use vibe_store::{LoggedOp, SyncOp};

use crate::content::{Content, open_content, seal_content};
use crate::error::Result;
use crate::files::{Folder, batch_path, snapshot_path};
use crate::keyring::Keyring;
use crate::target::Target;

/// A device compacts once this many of its batch files follow its last snapshot.
pub const COMPACT_AFTER: u64 = 100;

/// The register an operation writes, for keeping the last write to each.
fn register(op: &SyncOp) -> (&'static str, String) {
    match op {
        SyncOp::ListPut { entry_id, .. } | SyncOp::ListDelete { entry_id, .. } => {
            ("entry", entry_id.clone())
        }
        SyncOp::ConversationPut { id, .. } | SyncOp::ConversationDelete { id } => {
            ("conversation", id.clone())
        }
        SyncOp::MessagePut { id, .. } => ("message", id.clone()),
        SyncOp::DocSet { user, path, .. } => ("doc", format!("{user}\u{1f}{path}")),
        SyncOp::MemoryPut { id, .. } | SyncOp::MemoryForget { id, .. } => ("memory", id.clone()),
        SyncOp::ProtocolRunPut { id, .. } => ("run", id.clone()),
    }
}

fn is_tombstone(op: &SyncOp) -> bool {
    matches!(
        op,
        SyncOp::ListDelete { .. } | SyncOp::ConversationDelete { .. } | SyncOp::MemoryForget { .. }
    )
}

/// One device's operations (oldest first) reduced to what applying them still does: per
/// register its deletion (final) or else its last write, and no message of a conversation it
/// deleted; a deleted list entry keeps its first put, emptied (it made the list). Every merge rule is a function of the registers, so applying the result gives what
/// applying all of them gives, on a device that read none, some or all of them.
pub fn compact_ops(ops: Vec<LoggedOp>) -> Vec<LoggedOp> {
    let mut keep: HashMap<(&'static str, String), usize> = HashMap::new();
    // An entry's first put made its list where there was none: a deleted entry keeps it,
    // emptied, so its list exists on a device that reads only the snapshot, as after the put.
    let mut first_put: HashMap<String, usize> = HashMap::new();
    for (i, op) in ops.iter().enumerate() {
        if let SyncOp::ListPut { entry_id, .. } = &op.op {
            first_put.entry(entry_id.clone()).or_insert(i);
        }
        let key = register(&op.op);
        let wins = match keep.get(&key) {
            Some(&j) => !is_tombstone(&ops[j].op) || is_tombstone(&op.op),
            None => true,
        };
        if wins {
            keep.insert(key, i);
        }
    }
    let deleted: BTreeSet<&str> = ops
        .iter()
        .filter_map(|o| match &o.op {
            SyncOp::ConversationDelete { id } => Some(id.as_str()),
            _ => None,
        })
        .collect();
    let mut emptied = BTreeSet::new();
    for &i in keep.values() {
        if let SyncOp::ListDelete { entry_id, .. } = &ops[i].op {
            emptied.extend(first_put.get(entry_id).copied());
        }
    }
    let kept: BTreeSet<usize> = keep
        .into_values()
        .chain(emptied.iter().copied())
        .filter(|&i| match &ops[i].op {
            SyncOp::MessagePut { conversation, .. } => !deleted.contains(conversation.as_str()),
            _ => true,
        })
        .collect();
    let mut out = Vec::with_capacity(kept.len());
    for (i, mut op) in ops.into_iter().enumerate() {
        if !kept.contains(&i) {
            continue;
        }
        if let (true, SyncOp::ListPut { entry, .. }) = (emptied.contains(&i), &mut op.op) {
            *entry = serde_json::json!({});
        }
        out.push(op);
    }
    out
}

/// Compact this device's files when `after` or more of its batches follow its last snapshot
/// (everything through `uploaded`, its last batch on the target): write the snapshot, then
/// remove the batches and the earlier snapshot it covers. Answers the snapshot's number when
/// one was written. A file of its own it cannot read leaves everything as it is (the next run
/// tries again); a run killed at any step leaves files that still read the same.
pub(crate) async fn compact(
    target: &impl Target,
    keys: &Keyring,
    me: &str,
    uploaded: u64,
    device_name: Option<&str>,
    after: u64,
) -> Result<Option<u64>> {
    let folder = Folder::list(target, me).await?;
    let base = folder.snapshots.range(..=uploaded).last().copied().unwrap_or(0);
    if base > 0 {
        // What a compaction stopped half-way left: files its snapshot covers.
        remove_covered(target, me, &folder, base).await?;
    }
    if uploaded <= base || (folder.batches.range(base + 1..=uploaded).count() as u64) < after.max(1)
    {
        return Ok(None);
    }
    let mut ops = Vec::new();
    if base > 0 {
        let Some(content) = read_own(target, keys, me, base, true).await? else { return Ok(None) };
        ops.extend(content.ops);
    }
    for number in base + 1..=uploaded {
        let Some(content) = read_own(target, keys, me, number, false).await? else {
            return Ok(None);
        };
        ops.extend(content.ops);
    }
    let content = Content {
        device_name: device_name.map(str::to_string),
        ops: compact_ops(ops),
        through: Some(uploaded),
    };
    let path = snapshot_path(me, uploaded);
    let bytes = seal_content(keys, me, uploaded, &content)?;
    target.write(&path, bytes).await?;
    remove_covered(target, me, &folder, uploaded).await?;
    tracing::info!(device = me, through = uploaded, "sync files compacted into a snapshot");
    Ok(Some(uploaded))
}

/// Remove the batches and earlier snapshots of `folder` that the snapshot through `through`
/// covers, oldest first.
async fn remove_covered(
    target: &impl Target,
    me: &str,
    folder: &Folder,
    through: u64,
) -> Result<()> {
    for number in folder.batches.range(..=through) {
        target.delete(&batch_path(me, *number)).await?;
    }
    for number in folder.snapshots.range(..through) {
        target.delete(&snapshot_path(me, *number)).await?;
    }
    Ok(())
}

/// This device's own batch or snapshot `number`, `None` when it is missing or cannot be read.
async fn read_own(
    target: &impl Target,
    keys: &Keyring,
    me: &str,
    number: u64,
    snapshot: bool,
) -> Result<Option<Content>> {
    let path = if snapshot { snapshot_path(me, number) } else { batch_path(me, number) };
    let Some(bytes) = target.read(&path).await? else { return Ok(None) };
    match open_content(keys, &path, me, number, snapshot, &bytes) {
        Ok(content) => Ok(Some(content)),
        Err(e) if e.is_refusal() => {
            tracing::warn!(path, "own sync file unreadable, not compacted: {e}");
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use vibe_store::{Hlc, LoggedOp, SyncOp};

    use super::compact_ops;

    fn at(millis: u64, op: SyncOp) -> LoggedOp {
        LoggedOp { hlc: Hlc { millis, counter: 0, device: "d".into() }, op }
    }

    fn put(id: &str, text: &str) -> SyncOp {
        SyncOp::ListPut {
            user: "u".into(),
            skill: "s".into(),
            path: "journal".into(),
            entry_id: id.into(),
            entry: json!({ "text": text }),
        }
    }

    fn message(conversation: &str, id: &str) -> SyncOp {
        SyncOp::MessagePut {
            user: "u".into(),
            conversation: conversation.into(),
            id: id.into(),
            role: "user".into(),
            content: "hi".into(),
            tool_calls: None,
            tool_call_id: None,
            token_count: 1,
            interrupted: false,
            created_at: "2026-01-01T00:00:00Z".into(),
            safety: None,
            safety_category: None,
        }
    }

    #[test]
    fn the_last_write_per_register_stays_a_deletion_is_final_and_a_deleted_conversation_goes_whole()
    {
        let delete = SyncOp::ListDelete {
            user: "u".into(),
            skill: "s".into(),
            path: "journal".into(),
            entry_id: "b".into(),
        };
        let ops = vec![
            at(1, put("a", "first")),
            at(2, put("b", "x")),
            at(3, message("c1", "m1")),
            at(4, put("a", "edited")),
            at(5, delete),
            at(6, put("b", "a put after the deletion")),
            at(7, message("c2", "m2")),
            at(8, SyncOp::ConversationDelete { id: "c1".into() }),
        ];
        let kept = compact_ops(ops);
        let millis: Vec<u64> = kept.iter().map(|o| o.hlc.millis).collect();
        assert_eq!(millis, vec![2, 4, 5, 7, 8]);
        // The deleted entry's first put stays, without its content: it made the list.
        assert!(matches!(&kept[0].op, SyncOp::ListPut { entry, .. } if *entry == json!({})));
    }
}
