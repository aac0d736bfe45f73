//! The scenario tests of `vibe-sync`: devices (stores) converging through a folder target, and
//! refused files.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod all {
    mod compact;
    mod converge;
    mod devices;
    mod every_kind;
    mod interrupted;
    mod refuse;
    mod remove;
    mod twin;
}
