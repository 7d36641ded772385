//! The floors of the crate (docs/layout.md): a module imports from its
//! floor and those below, so that the import graph of `src/` has no circle
//! but inside one room (a family's folder, `family/chess/`, or a folder of
//! shared code, `container/`): none through the IR, the registry, the
//! pipeline, the format list, the codec contract, the options,
//! interchange, spelling, diff, planning or the reports. And a family is
//! named outside its room only where it is registered: its line of
//! `registered!` (`src/family/mod.rs`) and its formats' lines in the format
//! list (`src/format.rs`).
//!
//! The graph is read from the text: every `crate::`, `super::` and child
//! path names a module; a module that expands the registration
//! (`registered!(...)`) depends on each module that implements, for a
//! registered family's type, a trait the module names (the enums of any
//! family on each room's `Kind`, the dispatch on each room's
//! `GameFamily`).

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
        // A path a macro completes (`crate::family::$($ty)::+`) names what
        // its expansion names (see `registration_edges`).
        if text[start..i].ends_with("::") && bytes.get(i) == Some(&b'$') {
            continue;
        }
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
    registration_edges(mods, &mut g);
    g
}

/// The registration (`registered!` in `src/family/mod.rs`): each line's
/// variant name, room module and type (`Chess(chess::Chess) as as_chess;`).
fn registration(mods: &BTreeMap<String, String>) -> Vec<(String, String, String)> {
    let text = &mods["family"];
    let start = text
        .find("macro_rules! registered")
        .expect("src/family/mod.rs registers the families in `registered!`");
    let end = start + text[start..].find("\n}\n").unwrap();
    let mut out = Vec::new();
    for line in text[start..end].lines().map(str::trim) {
        let Some((name, rest)) = line.split_once('(') else {
            continue;
        };
        let Some((path, _)) = rest.split_once(") as ") else {
            continue;
        };
        let Some((room, ty)) = path.split_once("::") else {
            continue;
        };
        out.push((name.to_string(), room.to_string(), ty.to_string()));
    }
    assert!(!out.is_empty(), "no registration line found");
    out
}

/// The edges of the modules that expand the registration: to each module
/// that implements, for a registered type, a trait the module names.
fn registration_edges(mods: &BTreeMap<String, String>, g: &mut BTreeMap<String, BTreeSet<String>>) {
    let types: BTreeSet<String> = registration(mods).into_iter().map(|(_, _, t)| t).collect();
    let mut impls = Vec::new();
    for (m, text) in mods {
        let code = code(text);
        for part in code.split("impl").skip(1) {
            let Some((head, _)) = part.split_once('{') else {
                continue;
            };
            let Some((tr, ty)) = head.split_once(" for ") else {
                continue;
            };
            let tr = tr.trim().rsplit("::").next().unwrap_or("").to_string();
            let ty = ty.trim().rsplit("::").next().unwrap_or("").to_string();
            if types.contains(&ty) {
                impls.push((m.clone(), tr));
            }
        }
    }
    for (m, text) in mods {
        let code = code(text).replace("macro_rules! registered", "");
        if !code.contains("registered!(") {
            continue;
        }
        let names = paths(&code);
        for (im, tr) in &impls {
            if im != m && names.iter().any(|p| p.rsplit("::").next() == Some(tr)) {
                g.get_mut(m).unwrap().insert(im.clone());
            }
        }
    }
}

/// The room a module is in: a family's folder (`family::chess`), a folder
/// of `src/` (`container`), or the module alone (`family::any`, `codec`).
fn room(src: &Path, m: &str) -> String {
    let parts: Vec<&str> = m.split("::").collect();
    match parts.as_slice() {
        ["family", f, ..] if src.join("family").join(f).is_dir() => format!("family::{f}"),
        ["family", ..] => m.to_string(),
        [top, ..] if src.join(top).is_dir() => top.to_string(),
        _ => m.to_string(),
    }
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
fn no_import_circle_crosses_a_rooms_wall() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mods = modules(&src);
    let g = graph(&mods);
    let mut circles = BTreeSet::new();
    for m in g.keys() {
        let back: BTreeSet<String> = reach(&g, m)
            .into_iter()
            .filter(|n| reach(&g, n).contains(m))
            .collect();
        let home = room(&src, m);
        if back.iter().any(|n| room(&src, n) != home) {
            circles.insert(format!("{m} <-> {back:?}"));
        }
    }
    assert!(
        circles.is_empty(),
        "import circles across a room's wall:\n{}",
        circles.into_iter().collect::<Vec<_>>().join("\n")
    );
}

/// The texts that name each registered family: `Family::Chess` and its
/// siblings, the accessor `as_chess`, the room `family::chess`.
fn names_of(name: &str, room: &str) -> Vec<String> {
    let mut out: Vec<String> = ["Family", "Variant", "Move", "Setup"]
        .iter()
        .map(|e| format!("{e}::{name}"))
        .collect();
    out.push(format!("as_{}", name.to_lowercase()));
    out.push(format!("family::{room}"));
    out
}

#[test]
fn a_family_is_named_outside_its_room_only_in_its_registration() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mods = modules(&src);
    // Where the families are registered: the registration lines, and the
    // format list (each format's line names its family and its reader).
    // json reads the JSON of chess tools (lichess, pgn-extract) through
    // chess's PGN reader.
    let registered = ["format", "interchange::json::peers"];
    let mut found = Vec::new();
    for (name, room_dir, _) in registration(&mods) {
        for (m, text) in &mods {
            if registered.contains(&m.as_str())
                || m == &format!("family::{room_dir}")
                || m.starts_with(&format!("family::{room_dir}::"))
            {
                continue;
            }
            let mut code = code(text);
            if m == "family" {
                let start = code.find("macro_rules! registered").unwrap();
                let end = start + code[start..].find("\n}\n").unwrap();
                code.replace_range(start..end, "");
            }
            for text in names_of(&name, &room_dir) {
                let named = code.match_indices(&text).any(|(i, _)| {
                    let after = code[i + text.len()..].chars().next();
                    !after.is_some_and(|c| c.is_alphanumeric() || c == '_')
                });
                if named {
                    found.push(format!("{m} names {text}"));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "a family named outside its room and its registration:\n{}",
        found.join("\n")
    );
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

#[test]
fn the_graph_sees_through_the_registration_and_finds_a_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mods = modules(&src);
    let g = graph(&mods);
    // The enums of any family stand on each room's own module (its `Kind`),
    // the dispatch on each room's hooks (its `GameFamily`): edges the text
    // shows only through the registration.
    for (_, room, _) in registration(&mods) {
        assert!(
            g["family::any"].contains(&format!("family::{room}")),
            "{room}"
        );
        assert!(
            g["family"].contains(&format!("family::{room}::hooks")),
            "{room}"
        );
    }
    // A circle across two rooms' walls is seen: the IR naming a room's
    // rules, which name the IR.
    let mut bent = g.clone();
    bent.get_mut("ir")
        .unwrap()
        .insert("family::chess::rules".to_string());
    assert!(reach(&bent, "ir").contains("ir"));
    assert!(!reach(&g, "ir").contains("ir"));
}
