//! The database passphrase on the terminal (`/dev/tty`, never echoed), when
//! `VIBE_DB_PASSPHRASE` is not set: asked for a data dir encrypted with one, or chosen (typed
//! twice) for a new data dir when there is no keychain to keep a random key. The core never
//! reads a terminal; it gets the passphrase through `Overrides`.

use std::path::Path;

use zeroize::Zeroizing;

/// The passphrase typed for `data_dir`; `None` when standard input is not a terminal (a
/// script, a pipe) or there is no terminal to ask on.
pub fn ask(data_dir: &Path) -> anyhow::Result<Option<Zeroizing<String>>> {
    let Some(tty) = Tty::open() else { return Ok(None) };
    let text =
        tty.read_hidden(&format!("Passphrase for the database in {}: ", data_dir.display()))?;
    if text.is_empty() {
        anyhow::bail!("no passphrase was given; nothing was opened");
    }
    Ok(Some(text))
}

/// A passphrase chosen for the new database in `data_dir`, which cannot keep a random key
/// because `why` (no keychain): explained, typed twice. `None` without a terminal.
pub fn choose(data_dir: &Path, why: &str) -> anyhow::Result<Option<Zeroizing<String>>> {
    let Some(tty) = Tty::open() else { return Ok(None) };
    tty.say(&format!(
        "The database in {} is encrypted, and there is no keychain here to keep its key ({why}).\n\
         Choose a passphrase for it; you will need it every time (set VIBE_DB_PASSPHRASE to skip \
         this question, or run with --no-encryption to store it in clear text).\n",
        data_dir.display()
    ))?;
    let first = tty.read_hidden("New passphrase: ")?;
    if first.is_empty() {
        anyhow::bail!("no passphrase was given; nothing was created in {}", data_dir.display());
    }
    let again = tty.read_hidden("The same passphrase again: ")?;
    if *first != *again {
        anyhow::bail!("the two passphrases differ; nothing was created in {}", data_dir.display());
    }
    Ok(Some(first))
}

/// A secret typed at the terminal after `prompt` (a sync target's password); `None` when
/// standard input is not a terminal.
pub fn ask_secret(prompt: &str) -> anyhow::Result<Option<Zeroizing<String>>> {
    let Some(tty) = Tty::open() else { return Ok(None) };
    Ok(Some(tty.read_hidden(prompt)?))
}

/// The terminal a person is typing at.
struct Tty(std::fs::File);

impl Tty {
    /// The controlling terminal, when standard input is one (a script's or a test's input is
    /// never asked from).
    fn open() -> Option<Self> {
        use std::io::IsTerminal as _;
        if !cfg!(unix) || !std::io::stdin().is_terminal() {
            return None;
        }
        std::fs::OpenOptions::new().read(true).write(true).open("/dev/tty").ok().map(Self)
    }

    fn say(&self, text: &str) -> anyhow::Result<()> {
        use std::io::Write as _;
        let mut out = &self.0;
        write!(out, "{text}")?;
        out.flush()?;
        Ok(())
    }

    /// One line typed without echo, without its line end.
    #[cfg(unix)]
    fn read_hidden(&self, prompt: &str) -> anyhow::Result<Zeroizing<String>> {
        use rustix::termios::{LocalModes, OptionalActions, tcgetattr, tcsetattr};
        use std::io::BufRead as _;
        use std::os::fd::AsFd as _;

        let saved = tcgetattr(self.0.as_fd())?;
        let mut quiet = saved.clone();
        quiet.local_modes.remove(LocalModes::ECHO);
        quiet.local_modes.insert(LocalModes::ECHONL);
        // Echo off (and anything typed ahead dropped) before the prompt shows.
        tcsetattr(self.0.as_fd(), OptionalActions::Flush, &quiet)?;
        let mut line = Zeroizing::new(String::new());
        let read = self.say(prompt).and_then(|()| {
            std::io::BufReader::new(&self.0).read_line(&mut line).map_err(anyhow::Error::from)
        });
        // Echo comes back whatever the read did.
        tcsetattr(self.0.as_fd(), OptionalActions::Now, &saved)?;
        read?;
        Ok(Zeroizing::new(line.trim_end_matches(['\n', '\r']).to_string()))
    }

    #[cfg(not(unix))]
    fn read_hidden(&self, _prompt: &str) -> anyhow::Result<Zeroizing<String>> {
        anyhow::bail!("no hidden input on this system; set VIBE_DB_PASSPHRASE")
    }
}
