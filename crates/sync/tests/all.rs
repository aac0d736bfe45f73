//! The scenario tests of `vibe-sync`: devices (stores) converging through a folder target, and
//! refused files.

mod all {
    mod converge;
    mod devices;
    mod refuse;
}
