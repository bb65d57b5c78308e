//! The house's shape, checked: no module of the server imports in a circle, and
//! no file is longer than one can read in one sitting.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The longest a source file of the server may be, in lines.
const MAX_LINES: usize = 800;

fn sources() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(&root).unwrap().with_extension("");
                let parts: Vec<String> = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                let module = match parts.as_slice() {
                    [only] if only == "lib" => String::new(),
                    [init @ .., last] if last == "mod" => init.join("::"),
                    all => all.join("::"),
                };
                out.push((module, path));
            }
        }
    }
    out
}

/// Every `crate::a::b::c` path named in `text`, braces of `use` lists expanded.
fn crate_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().last();
        rest = &rest[i + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        expand("", rest, &mut out);
    }
    out
}

/// The paths starting at `text` (after `prefix::`).
fn expand(prefix: &str, text: &str, out: &mut Vec<String>) {
    let text = text.trim_start();
    if let Some(inner) = text.strip_prefix('{') {
        // A group: split at top-level commas up to the matching brace.
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    expand(prefix, &inner[start..i], out);
                    return;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(prefix, &inner[start..i], out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        return;
    }
    let name: String = text
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if name.is_empty() {
        if !prefix.is_empty() {
            out.push(prefix.to_string());
        }
        return;
    }
    let path = if prefix.is_empty() {
        name.clone()
    } else {
        format!("{prefix}::{name}")
    };
    let after = &text[name.len()..];
    match after.strip_prefix("::") {
        Some(more) => expand(&path, more, out),
        None => out.push(path),
    }
}

/// The module a path lies in: its longest prefix that is a module.
fn owner<'a>(path: &str, modules: &'a BTreeSet<String>) -> Option<&'a String> {
    let parts: Vec<&str> = path.split("::").collect();
    (1..=parts.len())
        .rev()
        .map(|n| parts[..n].join("::"))
        .find_map(|candidate| modules.get(&candidate))
}

fn import_graph() -> BTreeMap<String, BTreeSet<String>> {
    let files = sources();
    let modules: BTreeSet<String> = files.iter().map(|(m, _)| m.clone()).collect();
    let mut graph = BTreeMap::new();
    for (module, path) in &files {
        if module.is_empty() {
            // The crate root declares the modules and re-exports for users.
            continue;
        }
        let text = std::fs::read_to_string(path).unwrap();
        let mut uses = BTreeSet::new();
        for used in crate_paths(&text) {
            if let Some(target) = owner(&used, &modules) {
                // A module's own items, and its parent's declarations, are home.
                if target != module && !target.is_empty() {
                    uses.insert(target.clone());
                }
            }
        }
        graph.insert(module.clone(), uses);
    }
    graph
}

fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for node in graph.keys() {
        if let Some(cycle) = visit(node, graph, &mut Vec::new(), &mut done) {
            return Some(cycle);
        }
    }
    None
}

#[test]
fn no_module_of_the_server_imports_in_a_circle() {
    let graph = import_graph();
    assert!(graph.len() > 20, "the modules were not found: {graph:?}");
    // The layers: nothing below `services` uses it, nothing uses `routes` but
    // `state`'s neighbours up top.
    for (module, uses) in &graph {
        for used in uses {
            let lower = [
                "http", "auth", "cluster", "live", "domain", "protocol", "metrics",
            ];
            if lower
                .iter()
                .any(|l| module == l || module.starts_with(&format!("{l}::")))
            {
                assert!(
                    !used.starts_with("services") && !used.starts_with("routes"),
                    "{module} (a lower layer) uses {used}"
                );
            }
            if module.starts_with("services") {
                assert!(!used.starts_with("routes"), "{module} uses {used}");
            }
        }
    }
    if let Some(cycle) = find_cycle(&graph) {
        panic!("modules import in a circle: {}", cycle.join(" -> "));
    }
}

#[test]
fn the_cycle_finder_finds_a_planted_cycle_and_reads_use_groups() {
    let paths = crate_paths("use crate::a::{b::C, d::{e, f::G}};\nlet x = crate::h::i();");
    assert_eq!(paths, ["a::b::C", "a::d::e", "a::d::f::G", "h::i"]);
    let mut graph = BTreeMap::new();
    graph.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    graph.insert("b".to_string(), BTreeSet::from(["c".to_string()]));
    graph.insert("c".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(find_cycle(&graph).unwrap(), ["a", "b", "c", "a"]);
    graph.insert("c".to_string(), BTreeSet::new());
    assert_eq!(find_cycle(&graph), None);
}

#[test]
fn no_source_file_is_longer_than_one_sitting() {
    for (module, path) in sources() {
        let lines = std::fs::read_to_string(&path).unwrap().lines().count();
        assert!(
            lines <= MAX_LINES,
            "{} ({module}) has {lines} lines; split it (at most {MAX_LINES})",
            path.display()
        );
    }
}
