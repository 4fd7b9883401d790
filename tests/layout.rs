//! The workspace's layout rules, checked on the source tree: in the engine (`src/`), one
//! folder per idea with no import cycle between the top-level modules; and no source file
//! over 500 lines in `src/`, `protocol/src/` or `tournaments/src/` (integration tests under
//! `tests/` are not counted).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable source folder") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Top-level module of a file under `src/` (`board` for `src/board/scan.rs`).
fn module_of(path: &Path) -> String {
    let rel = path.strip_prefix(src()).expect("under src/");
    let first = rel.components().next().expect("a component");
    first
        .as_os_str()
        .to_string_lossy()
        .trim_end_matches(".rs")
        .to_string()
}

/// `crate::x` paths named in `text`, outside `#[cfg(test)]` files.
fn crate_paths(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() {
            out.insert(name);
        }
    }
    out
}

#[test]
fn top_level_modules_do_not_depend_on_each_other_both_ways() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let module = module_of(f);
        if module == "bin" || f.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(f).expect("a source file");
        for dep in crate_paths(&text) {
            if dep != module {
                edges.entry(module.clone()).or_default().insert(dep);
            }
        }
    }
    // Every module that reaches itself is on a cycle.
    for start in edges.keys() {
        let mut stack: Vec<&String> = edges[start].iter().collect();
        let mut seen = BTreeSet::new();
        while let Some(m) = stack.pop() {
            assert_ne!(m, start, "import cycle through {start}: {edges:?}");
            if seen.insert(m.clone()) {
                stack.extend(edges.get(m).into_iter().flatten());
            }
        }
    }
    // The layout the module map in lib.rs describes.
    for room in ["board", "eval", "threat", "search", "tt", "brain"] {
        assert!(
            src().join(room).join("mod.rs").exists(),
            "src/{room}/mod.rs"
        );
    }
}

#[test]
fn no_source_file_is_over_500_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "protocol/src", "tournaments/src"] {
        let dir = root.join(dir);
        assert!(dir.is_dir(), "{} is a folder", dir.display());
        rust_files(&dir, &mut files);
    }
    for f in files {
        let lines = std::fs::read_to_string(&f)
            .expect("a source file")
            .lines()
            .count();
        assert!(lines <= 500, "{} has {lines} lines", f.display());
    }
}
