//! The MCP client's scenario tests: our misbehaving server, the scripted Node one of
//! test-support (prompts, resources), a real one from npm and one written with the `mcp`
//! package from PyPI.
#![allow(clippy::unwrap_used)] // test helpers outside #[test] fns unwrap too

mod all {
    mod everything;
    mod misbehaving;
    mod offers;
    mod python;
}
