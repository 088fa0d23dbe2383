//! The html5lib tree-construction conformance runner.
//!
//! Runs every case of `tests/data/html5lib-tests/tree-construction/*.dat` (the pinned
//! html5lib-tests) and `tests/data/html5lib-tests-updates/tree-construction/*.dat` (the cases
//! the HTML Standard of 16 September 2026 adds or changes; see that folder's README), skipping
//! only the pinned cases listed in `superseded.txt`, whose replacements run instead.
//!
//! One trial per (case, scripting mode): `#script-on` cases run with scripting, `#script-off`
//! cases without, all others in both modes; `#document-fragment` cases are parsed with their
//! context element. A trial passes when the tree is exactly the expected one and, where the
//! case's `#errors` are reliable, the document reports at least one parse error exactly when
//! the case lists errors (the promise a conformance checker makes).
//!
//! Every trial's input is also parsed through the streaming `Parser` in chunks of 1 to 32
//! bytes (a fixed pseudo-random sequence per case, split on character boundaries), which must
//! give the identical tree; and as a lean document (`ParseOptions::keep_source` off; the
//! default keeps the source), whole and in the same chunks.
//!
//! Output: `tree-construction: N passed, M failed`,
//! `tree-construction (chunked): N passed, M failed` and
//! `tree-construction (lean documents, whole and chunked): N passed, M failed`; exit status 1
//! on any failure.

mod common;

use common::{Rng, str_chunks};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use html_arena::{Document, ParseOptions, Parser};

/// The `.dat` files that need a script engine, with the reason this plain runner cannot run
/// them: their trees depend on what the scripts do at each pause. They all run in
/// `tests/scripted.rs`, which drives the `ScriptingParser` and performs each script's effect.
const SCRIPTED: &[(&str, &str)] = &[
    (
        "html5lib-tests/tree-construction/scripted/adoption01.dat",
        "its script changes the id of an open <b> (setting .id), and the expected tree shows the \
         reconstructed <b> with the parser-time attribute",
    ),
    (
        "html5lib-tests/tree-construction/scripted/ark.dat",
        "its script changes an attribute of an open <font> (setAttribute) before the Noah's Ark \
         clause compares attributes",
    ),
    (
        "html5lib-tests/tree-construction/scripted/webkit01.dat",
        "its scripts call document.write, which inserts text into the input stream",
    ),
    (
        "html5lib-tests-updates/tree-construction/scripted/foster01.dat",
        "its scripts move the table out of the document (remove, appendChild) before foster \
         parenting, to reach nodes the DOM would reject",
    ),
];

/// A file, the first and last index of the cases concerned (all cases: `None`), and why.
type CaseList = &'static [(&'static str, Option<(usize, usize)>, &'static str)];

/// Cases whose `#errors` sections are not reliable, so the error check is skipped for them.
const UNRELIABLE_ERRORS: CaseList = &[
    (
        "html5lib-tests-updates/tree-construction/processing-instructions.dat",
        None,
        "wpt added empty #errors sections to this file but never filled them (updates README, \"Parse errors\")",
    ),
    (
        "html5lib-tests/tree-construction/webkit02.dat",
        Some((44, 48)),
        "the selectedcontent cases have empty #errors sections although their inputs have no DOCTYPE, \
         a parse error in the \"initial\" insertion mode (and 48 misnests </font>)",
    ),
];

fn errors_reliable(label: &str, index: usize) -> bool {
    !UNRELIABLE_ERRORS.iter().any(|&(file, range, _)| {
        file == label && range.is_none_or(|(first, last)| (first..=last).contains(&index))
    })
}

struct Case {
    index: usize,
    data: String,
    error_lines: usize,
    fragment: Option<String>,
    scripting: Option<bool>,
    document: String,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// Reads a `.dat` file: UTF-8 bytes split on LF only.
fn read_cases(path: &Path) -> Vec<Case> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
    let text =
        String::from_utf8(bytes).unwrap_or_else(|e| panic!("{} is not UTF-8: {e}", path.display()));
    let lines: Vec<&str> = text.split('\n').collect();
    let mut cases = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i] != "#data" {
            i += 1;
            continue;
        }
        i += 1;
        let mut data = Vec::new();
        while i < lines.len() && lines[i] != "#errors" {
            data.push(lines[i]);
            i += 1;
        }
        i += 1; // #errors
        let mut error_lines = 0;
        let mut fragment = None;
        let mut scripting = None;
        let mut document = Vec::new();
        let mut section = "errors";
        while i < lines.len() && lines[i] != "#data" {
            let line = lines[i];
            match line {
                "#new-errors" => section = "errors",
                "#document-fragment" => section = "fragment",
                "#script-on" => scripting = Some(true),
                "#script-off" => scripting = Some(false),
                "#document" => section = "document",
                _ => match section {
                    "errors" if !line.is_empty() => error_lines += 1,
                    "fragment" if !line.is_empty() => fragment = Some(line.to_owned()),
                    "document" => document.push(line),
                    _ => {}
                },
            }
            i += 1;
        }
        // The blank line before the next #data (or the end of the file) is not part of the tree:
        // a tree's last line is never empty.
        while document.last() == Some(&"") {
            document.pop();
        }
        let mut document = document.join("\n");
        document.push('\n');
        cases.push(Case {
            index: cases.len(),
            data: data.join("\n"),
            error_lines,
            fragment,
            scripting,
            document,
        });
    }
    cases
}

/// `superseded.txt`: (file, index) → expected data prefix, plus the replacement.
fn superseded() -> HashMap<(String, usize), (String, String)> {
    let path = root().join("html5lib-tests-updates/tree-construction/superseded.txt");
    let text = std::fs::read_to_string(&path).expect("superseded.txt");
    let mut map = HashMap::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        assert!(fields.len() >= 6, "bad superseded.txt line: {line}");
        let prefix: String = serde_json::from_str(fields[2]).expect("JSON-quoted data prefix");
        let index: usize = fields[1].parse().expect("index");
        map.insert(
            (fields[0].to_owned(), index),
            (prefix, fields[5].to_owned()),
        );
    }
    map
}

fn dat_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "dat"))
        .collect();
    files.sort();
    files
}

fn seed_for(label: &str, index: usize) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in label.bytes().chain(index.to_le_bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h | 1
}

fn parse_whole(case: &Case, options: &ParseOptions) -> Result<Document, String> {
    match &case.fragment {
        None => Ok(Document::parse_with(&case.data, options)),
        Some(context) => {
            Document::parse_fragment(&case.data, context, options).map_err(|e| e.to_string())
        }
    }
}

fn parse_chunked(case: &Case, options: &ParseOptions, seed: u64) -> Result<Document, String> {
    let mut parser = match &case.fragment {
        None => Parser::new(options),
        Some(context) => Parser::new_fragment(context, options).map_err(|e| e.to_string())?,
    };
    let mut rng = Rng::new(seed);
    str_chunks(
        &case.data,
        || 1 + rng.below(32),
        |chunk| parser.write_str(chunk),
    );
    Ok(parser.finish())
}

struct Failure {
    id: String,
    report: String,
}

/// Passes and failures of one way of parsing.
#[derive(Default)]
struct Tally {
    passed: usize,
    failures: Vec<Failure>,
}

impl Tally {
    /// Counts a trial of `case` (`id`) parsed `how` (for the report): its tree must be the
    /// case's.
    fn check(&mut self, case: &Case, id: &str, how: &str, parsed: &Result<Document, String>) {
        let tree = match parsed {
            Ok(doc) => doc.dump_tree(),
            Err(e) => format!("error: {e}\n"),
        };
        if tree == case.document {
            self.passed += 1;
        } else {
            let report = format!(
                "FAIL ({how}) {id}\n#data\n{}\n#expected\n{}#actual\n{}",
                case.data, case.document, tree
            );
            self.failures.push(Failure {
                id: id.to_owned(),
                report,
            });
        }
    }
}

fn main() -> ExitCode {
    let superseded = superseded();
    let mut folders = vec![
        (
            "html5lib-tests/tree-construction",
            root().join("html5lib-tests/tree-construction"),
        ),
        (
            "html5lib-tests-updates/tree-construction",
            root().join("html5lib-tests-updates/tree-construction"),
        ),
    ];
    folders.sort();
    for (file, reason) in SCRIPTED {
        assert!(
            root().join(file).is_file(),
            "{file} is listed as scripted but missing"
        );
        println!("not run: {file}: {reason}");
    }
    // Every scripted file has its reason above.
    for (folder, dir) in &folders {
        for path in dat_files(&dir.join("scripted")) {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            let label = format!("{folder}/scripted/{name}");
            assert!(
                SCRIPTED.iter().any(|&(f, _)| f == label),
                "{label} needs a reason in SCRIPTED"
            );
        }
    }

    let mut passed = 0usize;
    let mut failures: Vec<Failure> = Vec::new();
    let mut chunked = Tally::default();
    // The default documents keep their source; lean documents (`keep_source` off) store
    // strings, read chunks and find active formatting elements their own way: the same trees,
    // whole and chunked.
    let mut lean = Tally::default();
    let mut superseded_seen = 0usize;
    let mut replacements: Vec<String> = Vec::new();
    let mut case_counts: HashMap<String, usize> = HashMap::new();
    for (folder, dir) in &folders {
        for path in dat_files(dir) {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_owned();
            let label = format!("{folder}/{name}");
            let cases = read_cases(&path);
            case_counts.insert(label.clone(), cases.len());
            for case in cases {
                if folder.starts_with("html5lib-tests/") {
                    if let Some((prefix, replacement)) = superseded.get(&(name.clone(), case.index))
                    {
                        let actual: String = case.data.chars().take(40).collect();
                        assert_eq!(
                            &actual, prefix,
                            "superseded.txt: {label}:{} is not the listed case",
                            case.index
                        );
                        replacements.push(replacement.clone());
                        superseded_seen += 1;
                        continue;
                    }
                }
                let modes: &[bool] = match case.scripting {
                    Some(true) => &[true],
                    Some(false) => &[false],
                    None => &[false, true],
                };
                for &scripting in modes {
                    let options = ParseOptions::default().with_scripting(scripting);
                    let id = format!(
                        "{label}:{} (scripting {})",
                        case.index,
                        if scripting { "on" } else { "off" }
                    );
                    let whole = parse_whole(&case, &options);
                    let (tree, errors) = match &whole {
                        Ok(doc) => (doc.dump_tree(), doc.error_count()),
                        Err(e) => (format!("error: {e}\n"), 0),
                    };
                    let tree_ok = tree == case.document;
                    let errors_ok = !errors_reliable(&label, case.index)
                        || (errors > 0) == (case.error_lines > 0);
                    if tree_ok && errors_ok {
                        passed += 1;
                    } else {
                        let mut report = format!(
                            "FAIL {id}\n#data\n{}\n#expected ({} error lines)\n{}#actual ({} errors)\n{}",
                            case.data, case.error_lines, case.document, errors, tree
                        );
                        if let Ok(doc) = &whole {
                            for e in doc.errors() {
                                report.push_str(&format!(
                                    "  {}:{} {}\n",
                                    e.line,
                                    e.column,
                                    e.message()
                                ));
                            }
                        }
                        failures.push(Failure {
                            id: id.clone(),
                            report,
                        });
                    }
                    let seed = seed_for(&label, case.index);
                    let chunked_doc = parse_chunked(&case, &options, seed);
                    chunked.check(&case, &id, "chunked", &chunked_doc);
                    let lean_options = options.clone().with_keep_source(false);
                    let lean_whole = parse_whole(&case, &lean_options);
                    lean.check(&case, &id, "lean, whole", &lean_whole);
                    let lean_chunked = parse_chunked(&case, &lean_options, seed);
                    lean.check(&case, &id, "lean, chunked", &lean_chunked);
                }
            }
        }
    }
    assert_eq!(
        superseded_seen,
        superseded.len(),
        "every superseded case must be found"
    );
    // Each superseded case's replacement ran (as a case of its file in the updates folder).
    for replacement in &replacements {
        let (file, index) = replacement
            .split_once(':')
            .expect("replacement is file:index");
        let label = format!("html5lib-tests-updates/tree-construction/{file}");
        let index: usize = index.parse().expect("replacement index");
        assert!(
            case_counts.get(&label).is_some_and(|&n| index < n),
            "replacement {replacement} is not a case of {label}"
        );
    }

    let verbose = std::env::var_os("TREE_CONSTRUCTION_QUIET").is_none();
    if verbose {
        for f in failures
            .iter()
            .chain(chunked.failures.iter())
            .chain(lean.failures.iter())
        {
            println!("{}", f.report);
        }
    }
    if !failures.is_empty() || !chunked.failures.is_empty() || !lean.failures.is_empty() {
        println!("failures:");
        for f in failures.iter() {
            println!("  {}", f.id);
        }
        for f in chunked.failures.iter() {
            println!("  (chunked) {}", f.id);
        }
        for f in lean.failures.iter() {
            println!("  (lean) {}", f.id);
        }
    }
    println!(
        "tree-construction: {passed} passed, {} failed",
        failures.len()
    );
    println!(
        "tree-construction (chunked): {} passed, {} failed",
        chunked.passed,
        chunked.failures.len()
    );
    println!(
        "tree-construction (lean documents, whole and chunked): {} passed, {} failed",
        lean.passed,
        lean.failures.len()
    );
    if failures.is_empty() && chunked.failures.is_empty() && lean.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
