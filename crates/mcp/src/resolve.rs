//! Finding a stdio server's program: an absolute path as given, or a bare command looked up on
//! the app's `PATH` and then in the folders node, npx, uv, uvx, python and cargo usually
//! install to (a desktop app does not get a terminal's `PATH`); and the folders a confined
//! server may read by default (the program's own, a Python's venv or installation, and the
//! package of a script it is given).
//! Nothing here starts anything.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// Where to look for a bare command: the app's `PATH` entries, then the usual install
/// folders under `home` and the system's (only those not already listed).
pub fn search_dirs(path_env: Option<&OsStr>, home: Option<&Path>) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> =
        path_env.map(|p| std::env::split_paths(p).collect()).unwrap_or_default();
    if let Some(home) = home {
        for d in
            [".local/bin", ".npm-global/bin", ".cargo/bin", ".volta/bin", ".bun/bin", ".deno/bin"]
        {
            dirs.push(home.join(d));
        }
        // Every node nvm installed, newest first.
        let nvm = home.join(".nvm/versions/node");
        let mut nodes: Vec<PathBuf> = std::fs::read_dir(&nvm)
            .map(|rd| rd.flatten().map(|e| e.path().join("bin")).collect())
            .unwrap_or_default();
        nodes.sort();
        nodes.reverse();
        if nodes.is_empty() {
            nodes.push(nvm.join("*/bin"));
        }
        dirs.extend(nodes);
    }
    for d in ["/usr/local/bin", "/opt/homebrew/bin", "/usr/bin", "/bin"] {
        dirs.push(PathBuf::from(d));
    }
    let mut seen = std::collections::HashSet::new();
    dirs.retain(|d| !d.as_os_str().is_empty() && seen.insert(d.clone()));
    dirs
}

/// The program for `command`: itself when it is an absolute path to an executable file, else
/// the first executable of that name in `dirs`. `Err` lists where it looked.
pub fn resolve_program(command: &str, dirs: &[PathBuf]) -> Result<PathBuf, Vec<PathBuf>> {
    let path = Path::new(command);
    if path.is_absolute() {
        return if is_executable(path) {
            Ok(path.to_path_buf())
        } else {
            Err(vec![path.to_path_buf()])
        };
    }
    if command.contains('/') || command.is_empty() {
        return Err(Vec::new());
    }
    dirs.iter().map(|d| d.join(command)).find(|p| is_executable(p)).ok_or_else(|| dirs.to_vec())
}

#[cfg(unix)]
fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &Path) -> bool {
    path.is_file()
}

/// What a confined server may read without being granted it: the program's folder (and, for
/// a link, its target's), a Python interpreter's venv or installation ([`python_prefix`]), and
/// for each argument that is an existing absolute path, the package it belongs to (the folder
/// holding its outermost `node_modules`, else its folder).
pub fn default_read(program: &Path, args: &[String]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut add = |p: Option<&Path>| {
        if let Some(p) = p
            && !out.iter().any(|o: &PathBuf| o == p)
        {
            out.push(p.to_path_buf());
        }
    };
    add(program.parent());
    add(python_prefix(program));
    if let Ok(real) = program.canonicalize() {
        add(real.parent());
        add(python_prefix(&real));
    }
    for arg in args {
        let path = Path::new(arg);
        if !path.is_absolute() || !path.exists() {
            continue;
        }
        let real = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        add(package_root(&real).as_deref().or(if real.is_dir() {
            Some(&real)
        } else {
            real.parent()
        }));
    }
    out
}

/// For a Python interpreter (a program named `python…`) in `PREFIX/bin`: `PREFIX` when it is
/// a venv (it holds `pyvenv.cfg`; its packages are under it) or the interpreter's installation
/// (its standard library, `PREFIX/lib/pythonX.Y/os.py`): without it the interpreter cannot
/// start. Nothing for any other program or folder (a `~/.local` holding only `pip --user`
/// packages is not an installation).
fn python_prefix(program: &Path) -> Option<&Path> {
    let name = program.file_name()?.to_str()?;
    let bin = program.parent()?;
    let prefix = bin.parent()?;
    if !name.starts_with("python") || bin.file_name() != Some(OsStr::new("bin")) {
        return None;
    }
    let stdlib = |e: std::fs::DirEntry| {
        e.file_name().to_str().is_some_and(|n| n.starts_with("python"))
            && e.path().join("os.py").is_file()
    };
    let installed =
        std::fs::read_dir(prefix.join("lib")).is_ok_and(|entries| entries.flatten().any(stdlib));
    (prefix.join("pyvenv.cfg").is_file() || installed).then_some(prefix)
}

/// The folder holding the outermost `node_modules` above `path`.
fn package_root(path: &Path) -> Option<PathBuf> {
    let mut root = None;
    for a in path.ancestors() {
        if a.file_name() == Some(OsStr::new("node_modules")) {
            root = a.parent().map(Path::to_path_buf);
        }
    }
    root
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_command_is_found_in_the_usual_folders_when_path_lacks_it() {
        let home = tempfile::tempdir().unwrap();
        let bin = home.path().join(".nvm/versions/node/v22.1.0/bin");
        std::fs::create_dir_all(&bin).unwrap();
        let npx = bin.join("npx");
        std::fs::write(&npx, "#!/bin/sh\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&npx, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let dirs = search_dirs(Some(OsStr::new("/nonexistent")), Some(home.path()));
        assert_eq!(resolve_program("npx", &dirs), Ok(npx));
    }

    #[test]
    fn a_missing_command_lists_where_it_looked() {
        let home = tempfile::tempdir().unwrap();
        let dirs = search_dirs(Some(OsStr::new("/opt/app/bin")), Some(home.path()));
        let looked = resolve_program("no-such-command-xyz", &dirs).unwrap_err();
        assert_eq!(looked[0], PathBuf::from("/opt/app/bin"));
        assert!(looked.contains(&home.path().join(".local/bin")), "{looked:?}");
        assert!(looked.contains(&home.path().join(".nvm/versions/node/*/bin")), "{looked:?}");
        assert!(looked.contains(&PathBuf::from("/usr/local/bin")), "{looked:?}");
    }

    #[test]
    fn an_absolute_path_must_be_an_executable() {
        assert_eq!(resolve_program("/bin/sh", &[]), Ok(PathBuf::from("/bin/sh")));
        assert_eq!(
            resolve_program("/nonexistent/x", &[]),
            Err(vec![PathBuf::from("/nonexistent/x")])
        );
    }

    #[test]
    fn a_script_inside_node_modules_makes_its_package_readable() {
        let root = tempfile::tempdir().unwrap();
        let dist = root.path().join("node_modules/@scope/pkg/dist");
        std::fs::create_dir_all(&dist).unwrap();
        std::fs::write(dist.join("index.js"), "").unwrap();
        let read = default_read(
            Path::new("/usr/bin/node"),
            &[dist.join("index.js").display().to_string()],
        );
        assert!(read.contains(&PathBuf::from("/usr/bin")), "{read:?}");
        assert!(read.contains(&root.path().canonicalize().unwrap()), "{read:?}");
    }

    #[test]
    fn a_python_in_a_venv_or_its_own_installation_makes_that_readable() {
        let root = tempfile::tempdir().unwrap();
        let (venv, install) = (root.path().join("venv"), root.path().join("py311"));
        std::fs::create_dir_all(venv.join("bin")).unwrap();
        std::fs::write(venv.join("pyvenv.cfg"), "home = /x\n").unwrap();
        std::fs::create_dir_all(install.join("lib/python3.11")).unwrap();
        std::fs::write(install.join("lib/python3.11/os.py"), "").unwrap();
        std::fs::create_dir_all(install.join("bin")).unwrap();
        let read = default_read(&venv.join("bin/python"), &[]);
        assert!(read.contains(&venv), "{read:?}");
        let read = default_read(&install.join("bin/python3.11"), &[]);
        assert!(read.contains(&install), "{read:?}");
        // Not for another program in the venv, nor for a prefix with only `pip --user` packages.
        assert!(!default_read(&venv.join("bin/node"), &[]).contains(&venv));
        let user = root.path().join("local");
        std::fs::create_dir_all(user.join("lib/python3.11/site-packages")).unwrap();
        assert!(!default_read(&user.join("bin/python3"), &[]).contains(&user));
    }
}
