//! [`ModelsError`]: every way handling a model on disk can fail. Messages say what failed,
//! where, and what to do; none is retried by this crate (a front end may pull again, which
//! resumes from the `.part` file where that is kept).

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ModelsError {
    /// The catalogue (shipped, a file or a URL) cannot be read or is invalid.
    #[error("model catalogue {source_name}: {message}")]
    Catalog { source_name: String, message: String },
    /// No catalogue entry has this id.
    #[error("no model \"{id}\" in the catalogue ({source_name}); the ids are: {known}")]
    UnknownModel { id: String, source_name: String, known: String },
    /// No installed model has this id.
    #[error("no installed model \"{id}\" in {}", dir.display())]
    NotInstalled { id: String, dir: PathBuf },
    /// A model id that cannot name a file.
    #[error(
        "\"{id}\" cannot be a model id: use 1 to 80 lowercase letters, digits, '.', '-' or '_', starting with a letter or digit"
    )]
    BadId { id: String },
    /// An id already names an installed model (add by path).
    #[error("a model \"{id}\" is already installed; remove it first or choose another id")]
    AlreadyInstalled { id: String },
    /// The file given is not a GGUF model.
    #[error("{} is not a GGUF model file (it does not start with the bytes \"GGUF\")", path.display())]
    NotGguf { path: PathBuf },
    /// The file starts like GGUF but its metadata cannot be read (cut short or malformed).
    #[error("{} is not a readable GGUF model: {message}; download or copy it again", path.display())]
    BadGguf { path: PathBuf, message: String },
    /// The disk lacks room; nothing was written (or, mid-download, the `.part` file is kept
    /// to resume once space is freed).
    #[error(
        "not enough free disk space in {}: {needed} bytes needed, {available} available; free some space and try again",
        dir.display()
    )]
    NoSpace { dir: PathBuf, needed: u64, available: u64 },
    /// The disk filled up while writing (ENOSPC / quota).
    #[error(
        "the disk holding {} filled up while writing {received} bytes; the partial file is kept: free some space and pull again to resume (or remove the model to delete it)",
        path.display()
    )]
    DiskFull { path: PathBuf, received: u64 },
    /// The file's SHA-256 is not the catalogue's; the partial file was removed.
    #[error(
        "the download of \"{id}\" does not match its checksum (expected sha256 {expected}, got {actual}); the partial file was removed. The mirror may serve a different file or the catalogue entry is wrong"
    )]
    ChecksumMismatch { id: String, expected: String, actual: String },
    /// The server sent more or fewer bytes than the catalogue's size.
    #[error(
        "the download of \"{id}\" has {actual} bytes, the catalogue says {expected}; the partial file was removed"
    )]
    SizeMismatch { id: String, expected: u64, actual: u64 },
    /// The server answered with an error status.
    #[error("downloading \"{id}\" from {url} failed: the server answered HTTP {status}")]
    HttpStatus { id: String, url: String, status: u16 },
    /// Connecting or reading failed; the partial file is kept, pulling again resumes.
    #[error("downloading \"{id}\" from {url} failed: {message}; pull again to resume")]
    Network { id: String, url: String, message: String },
    /// The download was cancelled; the partial file is kept, pulling again resumes.
    #[error("the download of \"{id}\" was cancelled; pull it again to resume")]
    Cancelled { id: String },
    /// Another download of the same model is running (this or another process).
    #[error("\"{id}\" is already being downloaded (by this app or another VibeLife process)")]
    Busy { id: String },
    /// A file or folder cannot be read, written, renamed or removed.
    #[error("{what} {}: {err}", path.display())]
    Io { what: &'static str, path: PathBuf, err: std::io::Error },
}

impl ModelsError {
    pub(crate) fn io(what: &'static str, path: impl Into<PathBuf>, err: std::io::Error) -> Self {
        Self::Io { what, path: path.into(), err }
    }
}
