//! No import runs in a circle between the modules inside one crate (issue 29, "Done when";
//! docs/architecture.md, "Crates"): the crates' layering is checked by `layering`, and inside
//! each crate the files import one another in one direction only, so each can be read, tested
//! and moved with what is below it. Read from the sources: every `crate::…` and `super::…`
//! path of a file (grouped `use` lists included) names a module; a module's imports of its own
//! parent or children (a `lib.rs` or `mod.rs` re-exporting, a file naming the crate root's
//! items) are not counted, nor test files and inline test modules.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::layering::workspace;

/// One crate's modules: module path (`a::b`, the root is "") → file.
fn modules(src: &Path) -> BTreeMap<String, PathBuf> {
    let mut found = BTreeMap::new();
    collect(src, src, &mut found);
    // `#[path = "x.rs"] mod y;` puts file x.rs at module `parent::y`.
    let declared: Vec<(String, PathBuf)> = found
        .iter()
        .flat_map(|(module, file)| {
            let text = std::fs::read_to_string(file).unwrap();
            path_attributes(&text)
                .into_iter()
                .map(|(target, name)| (join(module, &name), file.parent().unwrap().join(target)))
                .collect::<Vec<_>>()
        })
        .collect();
    for (module, file) in declared {
        found.retain(|_, f| *f != file);
        found.insert(module, file);
    }
    found.retain(|_, file| !is_test_file(file));
    found
}

fn collect(src: &Path, dir: &Path, found: &mut BTreeMap<String, PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let rel = path.strip_prefix(src).unwrap();
        if path.is_dir() {
            if rel != Path::new("bin") {
                collect(src, &path, found);
            }
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let mut parts: Vec<String> =
            rel.with_extension("").iter().map(|p| p.to_string_lossy().into_owned()).collect();
        if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
            parts.pop();
        }
        found.insert(parts.join("::"), path);
    }
}

fn is_test_file(file: &Path) -> bool {
    let name = file.file_stem().unwrap_or_default().to_string_lossy();
    name == "tests" || name.ends_with("_tests") || file.iter().any(|p| p == "tests")
}

/// `(file, module name)` of each `#[path = "file"] mod name;`.
fn path_attributes(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut pending: Option<String> = None;
    for line in text.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("#[path = \"") {
            pending = rest.split('"').next().map(String::from);
        } else if let Some(target) = pending.take() {
            let decl = line.trim_start_matches("pub(crate) ").trim_start_matches("pub ");
            if let Some(name) = decl.strip_prefix("mod ").and_then(|n| n.strip_suffix(';')) {
                out.push((target, name.to_string()));
            } else if line.starts_with("#[") {
                pending = Some(target);
            }
        }
    }
    out
}

fn join(parent: &str, name: &str) -> String {
    if parent.is_empty() { name.to_string() } else { format!("{parent}::{name}") }
}

/// The file's text without inline test modules (`#[cfg(test)] mod x { … }` to the end) and
/// without comments.
fn code(text: &str) -> String {
    let cut = text.find("#[cfg(test)]\nmod tests {").unwrap_or(text.len());
    text[..cut].lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// Every path a file names from `crate::` or `super::`, as absolute module paths (segments).
fn named_paths(module: &str, text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let starts_word = i == 0 || !is_ident_byte(bytes[i - 1]) && bytes[i - 1] != b'$';
        let (base, prefix_len) = if starts_word && rest.starts_with("crate::") {
            (Vec::new(), "crate::".len())
        } else if starts_word && rest.starts_with("super::") {
            // Each `super` is one module up, whichever file the module lives in.
            let mut base = split(module);
            let mut prefix_len = 0;
            while text[i + prefix_len..].starts_with("super::") {
                prefix_len += "super::".len();
                base.pop();
            }
            (base, prefix_len)
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        let (tails, used) = tree(&text[i + prefix_len..]);
        for tail in tails {
            let mut path = base.clone();
            path.extend(tail);
            out.push(path);
        }
        i += prefix_len + used.max(1);
    }
    out
}

fn split(module: &str) -> Vec<String> {
    if module.is_empty() { Vec::new() } else { module.split("::").map(String::from).collect() }
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The paths of a `use` tree at the start of `text` (`a::b`, `a::{b, c::d}`, `{a, b}`), and
/// the bytes it spans.
fn tree(text: &str) -> (Vec<Vec<String>>, usize) {
    let bytes = text.as_bytes();
    let mut segments = Vec::new();
    let mut i = 0;
    loop {
        if bytes.get(i) == Some(&b'{') {
            let mut out = Vec::new();
            i += 1;
            loop {
                while bytes.get(i).is_some_and(|b| b.is_ascii_whitespace() || *b == b',') {
                    i += 1;
                }
                if i >= bytes.len() || bytes[i] == b'}' {
                    break;
                }
                let (tails, used) = tree(&text[i..]);
                for tail in tails {
                    let mut path: Vec<String> = segments.clone();
                    path.extend(tail);
                    out.push(path);
                }
                i += used.max(1);
                // Past `as name` and anything up to the next `,` or `}` at this level.
                while bytes.get(i).is_some_and(|b| *b != b',' && *b != b'}' && *b != b'{') {
                    i += 1;
                }
            }
            return (out, i + 1);
        }
        let start = i;
        while bytes.get(i).is_some_and(|b| is_ident_byte(*b)) {
            i += 1;
        }
        if i == start {
            return (vec![segments], i);
        }
        segments.push(text[start..i].to_string());
        if text[i..].starts_with("::") {
            i += 2;
        } else {
            return (vec![segments], i);
        }
    }
}

/// The module a path names: its longest prefix that is a module of the crate.
fn module_of<'m>(path: &[String], modules: &'m BTreeMap<String, PathBuf>) -> Option<&'m str> {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].join("::"))
        .find_map(|p| modules.get_key_value(&p).map(|(k, _)| k.as_str()))
}

/// Whether one module is the other or contains it.
fn nested(a: &str, b: &str) -> bool {
    let inside = |outer: &str, inner: &str| {
        outer.is_empty() || inner == outer || inner.starts_with(&format!("{outer}::"))
    };
    inside(a, b) || inside(b, a)
}

/// The import edges between modules of one crate: importer → (imported, names used).
fn edges(modules: &BTreeMap<String, PathBuf>) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, file) in modules {
        let text = code(&std::fs::read_to_string(file).unwrap());
        for path in named_paths(module, &text) {
            if let Some(target) = module_of(&path, modules)
                && !nested(module, target)
            {
                out.entry(module.clone()).or_default().insert(target.to_string());
            }
        }
    }
    out
}

/// The circles of a graph: its strongly connected components with more than one module.
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let nodes: BTreeSet<&String> = edges.keys().chain(edges.values().flatten()).collect();
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(n) = todo.pop() {
            for next in edges.get(&n).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    todo.push(next.clone());
                }
            }
        }
        seen
    };
    let reachable: BTreeMap<&String, BTreeSet<String>> =
        nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for n in &nodes {
        if done.contains(*n) {
            continue;
        }
        let circle: Vec<String> = nodes
            .iter()
            .filter(|m| reachable[n].contains(**m) && reachable[*m].contains(*n))
            .map(|m| (*m).clone())
            .collect();
        if circle.len() > 1 {
            done.extend(circle.iter().cloned());
            out.push(circle);
        }
    }
    out
}

#[test]
fn no_import_runs_in_a_circle_inside_a_crate() {
    let mut found = Vec::new();
    for (name, krate) in workspace() {
        let mods = modules(&krate.dir.join("src"));
        let graph = edges(&mods);
        for circle in circles(&graph) {
            let ties: Vec<String> = circle
                .iter()
                .flat_map(|a| {
                    graph[a]
                        .iter()
                        .filter(|b| circle.contains(b))
                        .map(move |b| format!("{a} -> {b}"))
                })
                .collect();
            found.push(format!("{name}: {}", ties.join(", ")));
        }
    }
    assert!(found.is_empty(), "modules importing each other in a circle:\n{}", found.join("\n"));
}

#[test]
fn the_reader_sees_a_circle_when_there_is_one() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("inner")).unwrap();
    std::fs::write(src.join("lib.rs"), "mod a;\nmod b;\nmod inner;\npub use a::A;\n").unwrap();
    std::fs::write(src.join("a.rs"), "use crate::{Thing, b::{self, B}};\npub struct A;\n").unwrap();
    std::fs::write(src.join("b.rs"), "use super::inner::c::C;\npub struct B;\n").unwrap();
    std::fs::write(src.join("inner/mod.rs"), "pub mod c;\n").unwrap();
    std::fs::write(src.join("inner/c.rs"), "use super::super::a::A;\npub struct C;\n").unwrap();
    std::fs::write(src.join("a_tests.rs"), "use crate::b::B;\n").unwrap();
    let mods = modules(src);
    assert!(!mods.contains_key("a_tests"), "test files are left out: {mods:?}");
    let graph = edges(&mods);
    assert_eq!(graph["a"], BTreeSet::from(["b".to_string()]), "the root is not counted");
    assert_eq!(graph["b"], BTreeSet::from(["inner::c".to_string()]));
    assert_eq!(graph["inner::c"], BTreeSet::from(["a".to_string()]));
    assert_eq!(
        circles(&graph),
        vec![vec!["a".to_string(), "b".to_string(), "inner::c".to_string()]]
    );
    // Cut one tie: no circle.
    std::fs::write(src.join("inner/c.rs"), "pub struct C;\n").unwrap();
    assert!(circles(&edges(&modules(src))).is_empty());
}
