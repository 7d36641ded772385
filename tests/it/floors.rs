//! The floors of the crate (docs/layout.md): a module imports from its
//! floor and those below, so that the import graph of `src/` has no circle
//! through the pipeline, the format list, the codec contract, the
//! container, the options, interchange, spelling, diff, planning or the
//! reports (a room's own modules may name each other). The one circle
//! across rooms allowed is the IR's: `ir` and the families' types, rules
//! and spelling, which name each other.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Module path (`family::chess::pgn`) -> source file, for every module of
/// `src/` but the crate roots.
fn modules(src: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(src).unwrap().with_extension("");
            let mut parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if parts.last().is_some_and(|p| p == "mod") {
                parts.pop();
            }
            if parts == ["lib"] || parts == ["main"] {
                continue;
            }
            out.insert(parts.join("::"), fs::read_to_string(&path).unwrap());
        }
    }
    out
}

/// The code of a file without its unit tests and comments.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .filter(|l| {
            let t = l.trim_start();
            // A child declared (`pub mod pgn;`) is not imported.
            !(t.starts_with("mod ") || t.starts_with("pub mod ")) || !t.ends_with(';')
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The longest module of `mods` that `path` (`a::b::c`) names.
fn resolve<'m>(mods: &'m BTreeMap<String, String>, path: &str) -> Option<&'m str> {
    let parts: Vec<&str> = path.split("::").collect();
    (1..=parts.len())
        .rev()
        .map(|n| parts[..n].join("::"))
        .find_map(|m| mods.get_key_value(&m).map(|(k, _)| k.as_str()))
}

/// The identifiers-and-`::` paths of a text, with the items of a `{...}`
/// group each joined to the group's prefix (one level).
fn paths(text: &str) -> Vec<String> {
    let bytes = text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b':';
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !word(bytes[i]) || (i > 0 && word(bytes[i - 1])) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && word(bytes[i]) {
            i += 1;
        }
        let path = text[start..i].trim_end_matches(':').to_string();
        if text[start..i].ends_with("::") && bytes.get(i) == Some(&b'{') {
            let end = text[i..].find('}').map_or(text.len(), |e| i + e);
            for item in text[i + 1..end].split(',') {
                let item = item.trim().split(' ').next().unwrap_or("");
                if !item.is_empty() && item != "self" {
                    out.push(format!("{path}::{item}"));
                }
            }
        }
        out.push(path);
    }
    out
}

/// The import graph: each module -> the modules it names.
fn graph(mods: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let mut g = BTreeMap::new();
    for (m, text) in mods {
        let parent: Vec<&str> = m.split("::").collect();
        let parent = parent[..parent.len() - 1].join("::");
        let mut to = BTreeSet::new();
        for p in paths(&code(text)) {
            let full = if let Some(rest) = p.strip_prefix("crate::") {
                rest.to_string()
            } else if let Some(rest) = p.strip_prefix("super::") {
                if parent.is_empty() {
                    rest.to_string()
                } else {
                    format!("{parent}::{rest}")
                }
            } else if p.contains("::") {
                // A child module named from its parent (`chess::pgn::X`).
                format!("{m}::{p}")
            } else {
                continue;
            };
            if let Some(r) = resolve(mods, &full) {
                if r != m {
                    to.insert(r.to_string());
                }
            }
        }
        g.insert(m.clone(), to);
    }
    g
}

/// The modules `from` reaches in `g`.
fn reach(g: &BTreeMap<String, BTreeSet<String>>, from: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![from.to_string()];
    while let Some(m) = stack.pop() {
        for n in g.get(&m).into_iter().flatten() {
            if seen.insert(n.clone()) {
                stack.push(n.clone());
            }
        }
    }
    seen
}

#[test]
fn no_import_circle_takes_in_the_floors_above_the_ir() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mods = modules(&src);
    let g = graph(&mods);
    let above = [
        "archive",
        "cli",
        "codec",
        "container",
        "convert",
        "diff",
        "format",
        "interchange",
        "options",
        "plan",
        "policy",
        "report",
        "spell",
    ];
    let mut circles = Vec::new();
    for m in g.keys() {
        let top = m.split("::").next().unwrap();
        if !above.contains(&top) {
            continue;
        }
        // The modules on a circle through `m`: those it reaches that reach
        // it. A room's own modules may name each other (the container and
        // its scanner); a circle through another room may not.
        let back: Vec<String> = reach(&g, m)
            .into_iter()
            .filter(|n| reach(&g, n).contains(m))
            .collect();
        if back.iter().any(|n| n.split("::").next() != Some(top)) {
            circles.push(format!("{m} <-> {back:?}"));
        }
    }
    assert!(
        circles.is_empty(),
        "import circles through the floors above the IR:\n{}",
        circles.join("\n")
    );
}

#[test]
fn the_codec_contract_imports_only_the_floor_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mods = modules(&src);
    let g = graph(&mods);
    let allowed = ["error", "ir", "options", "output", "family"];
    for to in &g["codec"] {
        let top = to.split("::").next().unwrap();
        assert!(
            allowed.contains(&top),
            "src/codec.rs imports {to}: the contract imports only {allowed:?}"
        );
    }
}
