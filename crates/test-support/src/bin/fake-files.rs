//! `fake-files`: a stand-alone file server on 127.0.0.1 for tests that drive a whole program
//! (the desktop app's real-window test downloads a model from it). `--file PATH=FILE` serves
//! FILE's bytes at PATH (Range, 416, as [`vibe_test_support::FileServer`] does);
//! `--redirect FROM=TO` answers FROM with a 302 to TO. Both repeat. It prints `listening on
//! http://127.0.0.1:PORT` when ready and runs until killed. Test use only.

use std::io::Write as _;

use vibe_test_support::FileServer;

fn pair(flag: &str, value: Option<String>) -> Result<(String, String), String> {
    let value = value.ok_or_else(|| format!("{flag} needs a value"))?;
    let (a, b) = value.split_once('=').ok_or_else(|| format!("{flag} takes A=B, got {value}"))?;
    Ok((a.to_string(), b.to_string()))
}

fn run() -> Result<FileServer, String> {
    let server = FileServer::start();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--file" => {
                let (path, file) = pair(&flag, args.next())?;
                let bytes = std::fs::read(&file).map_err(|e| format!("{file}: {e}"))?;
                server.serve(&path, bytes);
            }
            "--redirect" => {
                let (from, to) = pair(&flag, args.next())?;
                server.redirect(&from, &to);
            }
            other => {
                return Err(format!("unknown argument {other}; see the header of fake-files.rs"));
            }
        }
    }
    Ok(server)
}

fn main() {
    let server = match run() {
        Ok(server) => server,
        Err(e) => {
            eprintln!("fake-files: {e}");
            std::process::exit(2);
        }
    };
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "listening on {}", server.url(""));
    let _ = out.flush();
    drop(out);
    loop {
        std::thread::park();
    }
}
