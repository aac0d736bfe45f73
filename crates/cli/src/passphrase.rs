//! Asking for the database passphrase on the terminal (`/dev/tty`, never echoed), for a data
//! dir encrypted with one when `VIBE_DB_PASSPHRASE` is not set. The core never reads a
//! terminal; it gets the passphrase through `Overrides`.

use std::path::Path;

use zeroize::Zeroizing;

/// The passphrase typed for `data_dir`; `None` when standard input is not a terminal (a
/// script, a pipe) or there is no terminal to ask on.
pub fn ask(data_dir: &Path) -> anyhow::Result<Option<Zeroizing<String>>> {
    #[cfg(unix)]
    {
        use rustix::termios::{LocalModes, OptionalActions, tcgetattr, tcsetattr};
        use std::io::{BufRead as _, Write as _};
        use std::os::fd::AsFd as _;

        use std::io::IsTerminal as _;
        // Only for a person at a terminal: a script's or a test's input is not asked from.
        if !std::io::stdin().is_terminal() {
            return Ok(None);
        }
        let Ok(tty) = std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty") else {
            return Ok(None);
        };
        let Ok(saved) = tcgetattr(tty.as_fd()) else { return Ok(None) };
        let mut quiet = saved.clone();
        quiet.local_modes.remove(LocalModes::ECHO);
        quiet.local_modes.insert(LocalModes::ECHONL);
        let mut out = &tty;
        write!(out, "Passphrase for the database in {}: ", data_dir.display())?;
        out.flush()?;
        tcsetattr(tty.as_fd(), OptionalActions::Flush, &quiet)?;
        let mut line = Zeroizing::new(String::new());
        let read = std::io::BufReader::new(&tty).read_line(&mut line);
        // Echo comes back whatever the read did.
        tcsetattr(tty.as_fd(), OptionalActions::Now, &saved)?;
        read?;
        let text = line.trim_end_matches(['\n', '\r']);
        if text.is_empty() {
            anyhow::bail!("no passphrase was given; nothing was opened");
        }
        Ok(Some(Zeroizing::new(text.to_string())))
    }
    #[cfg(not(unix))]
    {
        let _ = data_dir;
        Ok(None)
    }
}
