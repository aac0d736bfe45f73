//! Test support shared by the LLM, agent, models and CLI tests: a fake OpenAI-compatible HTTP
//! server on 127.0.0.1 that replays scripted bytes (exact chunk boundaries, delays, status
//! codes, headers), records requests, and notices clients that hang up; builders for SSE
//! chunk events; the check that every tool result has its tool call; a sample run's events;
//! a file server for download tests (Range, 416, redirects, cut connections); and another
//! connection holding a database's write lock; the one way a test skips itself (`skip`, failing
//! under `CI=true` unless allow-listed); waiting for another thread (`eventually`); writing
//! skill folders (`write_skill`); valid step data of the `dankoe` protocol (`dankoe_step`); the
//! data folder v0.1.0 made and its manifest (`copy_v010_data`, `v010_manifest`); real WebDAV
//! and S3 servers and two real Syncthing instances for the sync tests (`WebDavServer`,
//! `S3Server`, `SyncthingPair`). Dev-only:
//! nothing here may be used by production code.

mod check;
mod events;
mod file_server;
mod mcp_servers;
mod model_file;
mod poll;
mod protocol_steps;
mod raw_http;
mod reply;
mod sample;
mod server;
mod skill_folder;
mod skip;
mod sync_servers;
mod syncthing;
mod v010_fixture;
mod write_lock;

pub use check::check_tool_pairs;
pub use events::{
    chunk, ev_error, ev_finish, ev_finish_usage_in_choice, ev_reasoning, ev_role, ev_text,
    ev_tool_args, ev_tool_call, ev_tool_calls_at_index_0, ev_usage, sse, sse_error_field,
    sse_frame,
};
pub use file_server::FileServer;
pub use mcp_servers::{EverythingHttp, everything_server, misbehaving_server, python_server};
pub use model_file::{catalog_entry, gguf_bytes, sha256_hex};
pub use poll::{eventually, within};
pub use protocol_steps::dankoe_step;
pub use reply::Reply;
pub use sample::sample_run;
pub use server::{FakeServer, RecordedRequest};
pub use skill_folder::{write_file, write_skill};
pub use skip::{current_test, skip};
pub use sync_servers::{
    DAV_PASSWORD, DAV_USER, S3_ACCESS_KEY_ID, S3_SECRET_KEY, S3Key, S3Server, WebDavServer,
};
pub use syncthing::{SYNCTHING_FOLDER, Syncthing, SyncthingPair, folder_files};
pub use v010_fixture::{copy_v010_data, v010_fixture_dir, v010_manifest, v010_recorded_message};
pub use write_lock::{WriteLock, on_one_thread};
