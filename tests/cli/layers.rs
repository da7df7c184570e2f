//! The shape of `src/`: which module may import which. Read from the sources, so a change
//! that breaks a layer fails here, not in review.
//!
//! A module is a file (`foo.rs` or `foo/mod.rs`); it imports another when it names a path
//! under it (`crate::…`, `super::…`, `self::…`, in a `use` or in an expression). Comments
//! and the unit tests at the end of a file (`#[cfg(test)] mod tests`) are not read.

use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Module = Vec<String>;

/// The root of the sources read here.
fn src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `src/`.
fn rust_files() -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![src()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files
}

/// Every module of `src/` and the source it is written in (comments stripped).
fn modules() -> BTreeMap<Module, String> {
    let root = src();
    let mut out = BTreeMap::new();
    for path in rust_files() {
        let relative = path.strip_prefix(&root).unwrap().with_extension("");
        let mut module: Module = relative
            .iter()
            .map(|part| part.to_string_lossy().into_owned())
            .collect();
        if module.last().is_some_and(|last| last == "mod") {
            module.pop();
        }
        if matches!(module.as_slice(), [one] if one == "lib" || one == "main") {
            module.clear();
        }
        // Unit tests moved out of a module's file are its own code, not a module.
        if module.last().is_some_and(|last| last.ends_with("tests")) {
            continue;
        }
        out.insert(module, source_of(&std::fs::read_to_string(&path).unwrap()));
    }
    out
}

/// `text` without its comments and without the unit tests it ends with.
fn source_of(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    Regex::new(r"//[^\n]*")
        .unwrap()
        .replace_all(text, "")
        .into_owned()
}

/// The deepest module of `modules` that `path` (as written in `from`) names.
fn resolve(modules: &BTreeMap<Module, String>, from: &Module, path: &str) -> Option<Module> {
    let mut parts = path.split("::").filter(|p| !p.is_empty()).peekable();
    let mut base: Module = match parts.next()? {
        "crate" => Vec::new(),
        "self" => from.clone(),
        "super" => {
            let mut base = from.clone();
            base.pop();
            while parts.peek() == Some(&"super") {
                parts.next();
                base.pop();
            }
            base
        }
        _ => return None,
    };
    for part in parts {
        base.push(part.to_owned());
        if !modules.contains_key(&base) {
            base.pop();
            break;
        }
    }
    Some(base)
}

/// Who imports whom (a module's imports of itself left out).
fn imports(modules: &BTreeMap<Module, String>) -> BTreeMap<Module, BTreeSet<Module>> {
    let path = Regex::new(r"\b(?:crate|super|self)(?:::\w+)+").unwrap();
    let group = Regex::new(r"\b((?:crate|super|self)(?:::\w+)*)::\{([^}]*)\}").unwrap();
    modules
        .iter()
        .map(|(module, source)| {
            let mut named: Vec<String> = path
                .find_iter(source)
                .map(|m| m.as_str().to_owned())
                .collect();
            for braces in group.captures_iter(source) {
                for item in braces[2].split(',') {
                    let item = item.split(" as ").next().unwrap_or("").trim();
                    if !item.is_empty() && item != "self" {
                        named.push(format!("{}::{item}", &braces[1]));
                    }
                }
            }
            let targets = named
                .iter()
                .filter_map(|p| resolve(modules, module, p))
                .filter(|target| target != module)
                .collect();
            (module.clone(), targets)
        })
        .collect()
}

/// The graph with each module taken together with everything under it, `depth` names
/// deep: at depth 1 `wire::question::read` is `wire`, at depth 2 `wire::question`. A
/// module and its children are one node, so an edge between them is no edge, and a
/// circle through two rooms shows however deep their files are.
fn rooms(
    graph: &BTreeMap<Module, BTreeSet<Module>>,
    depth: usize,
) -> BTreeMap<Module, BTreeSet<Module>> {
    let room = |m: &Module| -> Module { m.iter().take(depth).cloned().collect() };
    let mut out: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, targets) in graph {
        let from = room(module);
        let into = out.entry(from.clone()).or_default();
        for target in targets {
            let to = room(target);
            // A room and the room it is in (`core` and `core::align` at depth 2, for
            // `core/mod.rs`) are one.
            if !from.starts_with(&to) && !to.starts_with(&from) {
                into.insert(to);
            }
        }
    }
    out
}

fn name(module: &Module) -> String {
    if module.is_empty() {
        "crate".into()
    } else {
        module.join("::")
    }
}

/// The modules of every cycle (strongly connected set of more than one module).
fn cycles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<String>> {
    // Two modules are in one cycle when each reaches the other.
    let reach = |from: &Module| {
        let mut seen = BTreeSet::new();
        let mut next = vec![from.clone()];
        while let Some(m) = next.pop() {
            for t in graph.get(&m).into_iter().flatten() {
                if seen.insert(t.clone()) {
                    next.push(t.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&Module, BTreeSet<Module>> =
        graph.keys().map(|m| (m, reach(m))).collect();
    let mut placed = BTreeSet::new();
    let mut out = Vec::new();
    for (m, from_m) in &reaches {
        if placed.contains(*m) || !from_m.contains(*m) {
            continue;
        }
        let cycle: Vec<&Module> = from_m
            .iter()
            .filter(|other| reaches[other].contains(*m))
            .collect();
        placed.extend(cycle.iter().map(|c| (*c).clone()));
        out.push(cycle.into_iter().map(name).collect());
    }
    out
}

/// The circles allowed, each a set of rooms: the `OpenAPI` document is served by a route
/// of the router it documents (`server::openapi` lists `server::routes`, whose table
/// names the route that serves it).
const ALLOWED: &[&[&str]] = &[&["server::openapi", "server::routes"]];

#[test]
fn modules_import_each_other_without_a_cycle() {
    let modules = modules();
    assert!(modules.len() > 100, "read {} modules", modules.len());
    let graph = imports(&modules);
    let deepest = modules.keys().map(Vec::len).max().unwrap_or(1);
    for depth in 1..=deepest {
        let found: Vec<Vec<String>> = cycles(&rooms(&graph, depth))
            .into_iter()
            .filter(|cycle| !ALLOWED.iter().any(|allowed| cycle == allowed))
            .collect();
        assert!(
            found.is_empty(),
            "import cycles between modules, each taken with its children {depth} names deep: \
             {found:#?}"
        );
    }
}

#[test]
fn the_cycle_finder_sees_a_cycle() {
    // The check above must be able to fail: two modules naming each other are a cycle,
    // a child naming its parent is not, and two rooms whose children name each other are.
    let modules: BTreeMap<Module, String> = [
        (vec![], String::new()),
        (vec!["a".into()], "use crate::b::X;".into()),
        (vec!["b".into()], "fn f() { super::a::g() }".into()),
        (vec!["b".into(), "c".into()], "use super::Y;".into()),
        (vec!["d".into()], String::new()),
        (vec!["d".into(), "e".into()], "use crate::f::g::X;".into()),
        (vec!["f".into()], String::new()),
        (vec!["f".into(), "g".into()], "use crate::d::Y;".into()),
    ]
    .into_iter()
    .collect();
    let graph = imports(&modules);
    assert_eq!(
        cycles(&rooms(&graph, 1)),
        vec![vec!["a", "b"], vec!["d", "f"]]
    );
    assert_eq!(cycles(&rooms(&graph, 2)), vec![vec!["a", "b"]]);
}

#[test]
fn lower_layers_import_nothing_above_them() {
    let modules = modules();
    let graph = imports(&modules);
    // `wire` is the contract: it names IDs and limits, and nothing of the program (a
    // checkpoint's learned heads travel beside its questions, never in them).
    // `limits`, `ids` and `telemetry` are leaves every layer uses: they import nothing of
    // the crate. `config` reads the settings into the contract's located faults, with an
    // error of its own (the crate's error maps it, as it maps the store's and git's).
    // `core` knows nothing of the adapters over it (the command line, the server, the client).
    // `ui` renders the contract's types as HTML: it knows nothing of the program either.
    // `cli` reaches a model's repository only through `core` (no `repo` type, not even an
    // error: a bad path converts to the crate's error where it is parsed).
    let rules: [(&str, &[&str]); 8] = [
        (
            "cli",
            &[
                "cli",
                "client",
                "config",
                "core",
                "engine",
                "error",
                "ids",
                "limits",
                "server",
                "store",
                "telemetry",
                "ui",
                "wire",
            ],
        ),
        ("wire", &["ids", "limits", "wire"]),
        ("ui", &["ids", "limits", "ui", "wire"]),
        ("telemetry", &["telemetry"]),
        ("ids", &["ids"]),
        ("limits", &["limits"]),
        ("config", &["config", "ids", "limits", "wire"]),
        (
            "core",
            &[
                "config",
                "core",
                "engine",
                "error",
                "ids",
                "limits",
                "parallel",
                "repo",
                "retry",
                "store",
                "telemetry",
                "wire",
            ],
        ),
    ];
    for (layer, allowed) in rules {
        for (module, targets) in &graph {
            if module.first().map(String::as_str) != Some(layer) {
                continue;
            }
            for target in targets {
                let top = target.first().map_or("crate", String::as_str);
                assert!(
                    allowed.contains(&top),
                    "{} imports {}: {layer} may import only {allowed:?}",
                    name(module),
                    name(target)
                );
            }
        }
    }
    for (module, source) in &modules {
        if module.first().is_some_and(|top| top == "core") {
            for foreign in ["axum::", "clap::", "git2::", "rusqlite::"] {
                assert!(!source.contains(foreign), "{} uses {foreign}", name(module));
            }
        }
    }
}

#[test]
fn no_file_of_src_is_over_600_lines() {
    // A room a newcomer can read (issue 33): a file that grows past this is split by what
    // it holds, its unit tests first (`<module>/tests.rs`).
    const MOST: usize = 600;
    let files = rust_files();
    assert!(files.len() > 100, "read {} files", files.len());
    let over: Vec<String> = files
        .iter()
        .filter_map(|path| {
            let lines = std::fs::read_to_string(path).unwrap().lines().count();
            (lines > MOST).then(|| {
                let shown = path.strip_prefix(src()).unwrap().display().to_string();
                format!("{shown} ({lines})")
            })
        })
        .collect();
    assert!(
        over.is_empty(),
        "files of src/ over {MOST} lines: {over:#?}"
    );
}
