//! The workspace's layout rules, checked on the source tree: in the engine (`src/`), one
//! folder per idea; in each of the three crates (`src/`, `protocol/src/`,
//! `tournaments/src/`), no import cycle between the top-level modules; and no source file
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

/// Top-level module of a file under `root` (`board` for `src/board/scan.rs`).
fn module_of(root: &Path, path: &Path) -> String {
    let rel = path
        .strip_prefix(root)
        .expect("under the crate's source folder");
    let first = rel.components().next().expect("a component");
    first
        .as_os_str()
        .to_string_lossy()
        .trim_end_matches(".rs")
        .to_string()
}

/// `crate::x` paths named in the code of `text` (a comment's mention, such as a doc
/// link, is no dependency).
fn crate_paths(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let code = text.lines().map(|l| l.split("//").next().unwrap_or(""));
    for line in code {
        for (i, _) in line.match_indices("crate::") {
            let rest = &line[i + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

/// Panics naming the cycle when two top-level modules of the crate whose sources are under
/// `root` reach each other through `crate::` paths (binaries under `bin/`, the crate root
/// and `tests.rs` files are left out: they may use everything).
fn assert_no_import_cycle(root: &Path) {
    let mut files = Vec::new();
    rust_files(root, &mut files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &files {
        let module = module_of(root, f);
        let skipped = ["bin", "lib", "main"].contains(&module.as_str())
            || f.file_name().is_some_and(|n| n == "tests.rs");
        if skipped {
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
            assert_ne!(
                m,
                start,
                "import cycle through {start} in {}: {edges:?}",
                root.display()
            );
            if seen.insert(m.clone()) {
                stack.extend(edges.get(m).into_iter().flatten());
            }
        }
    }
}

#[test]
fn top_level_modules_do_not_depend_on_each_other_both_ways() {
    assert_no_import_cycle(&src());
    // The layout the module map in lib.rs describes.
    for room in ["board", "eval", "threat", "search", "tt", "brain"] {
        assert!(
            src().join(room).join("mod.rs").exists(),
            "src/{room}/mod.rs"
        );
    }
}

#[test]
fn the_protocol_and_tournament_crates_have_no_import_cycle_either() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for dir in ["protocol/src", "tournaments/src"] {
        let dir = root.join(dir);
        assert!(dir.is_dir(), "{} is a folder", dir.display());
        assert_no_import_cycle(&dir);
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
