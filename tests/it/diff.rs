//! `kifu diff` through the binary: transcriptions of the same games in
//! different notations, and the errors arbiters meet, each reported at the
//! right move.

use crate::common;

use std::path::{Path, PathBuf};

use common::{files, kifu, no_panic, stdout};

const GAME: &str = "corpus/chess/petrosjan-sllavcco.pgn";

/// Writes `text` to a file named `name` in a fresh folder of the test's own.
fn file(test: &str, name: &str, text: &str) -> PathBuf {
    let dir = common::scratch("diff", test);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn game() -> String {
    std::fs::read_to_string(GAME).unwrap()
}

/// Runs `kifu diff A B ARGS`: the exit code and standard output.
fn diff(a: &Path, b: &Path, args: &[&str]) -> (i32, String) {
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let mut all = vec!["diff", a, b];
    all.extend(args);
    let out = kifu(&all, b"");
    no_panic(&out);
    (out.status.code().unwrap_or(-1), stdout(&out))
}

#[test]
fn the_same_games_in_two_notations_are_equal() {
    let (code, out) = diff(
        Path::new(GAME),
        Path::new("corpus/chess/petrosjan-sllavcco.sllavcco"),
        &[],
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1 equal, 0 different"), "{out}");
    // Every draughts record against its diagonal transcription.
    let mut pairs = 0;
    for num in files(Path::new("corpus/draughts"), ".pdn") {
        let name = num.to_str().unwrap();
        if name.ends_with(".diag.pdn") || name.contains("expected") {
            continue;
        }
        let diag = PathBuf::from(name.replace(".pdn", ".diag.pdn"));
        if !diag.exists() {
            continue;
        }
        let (code, out) = diff(&num, &diag, &[]);
        assert_eq!(code, 0, "{name}: {out}");
        assert!(out.contains(" 0 different"), "{name}: {out}");
        pairs += 1;
    }
    assert!(pairs >= 4, "{pairs}");
}

#[test]
fn a_changed_move_and_a_changed_tag_are_reported_where_they_are() {
    let b = game()
        .replace("[Round \"?\"]", "[Round \"3\"]")
        .replace("17. Be3 Qd6", "17. Be3 Qd7");
    let b = file("changed", "b.pgn", &b);
    let (code, out) = diff(Path::new(GAME), &b, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("tag Round: \"?\" | \"3\""), "{out}");
    assert!(
        out.contains("first divergence at 17... (Black): a Qd6, b Qd7"),
        "{out}"
    );
    // The position before it, as a FEN.
    assert!(
        out.contains("position before it: r2q3r/p1p1bk1p/4pp2/8/4QR2/2N1B3/PP4PP/R5K1 b - - 3 17"),
        "{out}"
    );
    assert!(
        out.contains("- 17... Qd6") && out.contains("+ 17... Qd7"),
        "{out}"
    );
    // Nothing else: the moves before and after agree.
    assert_eq!(out.matches("\n    - ").count(), 1, "{out}");
}

#[test]
fn a_skipped_half_move_is_one_deletion_and_the_illegal_move_is_named() {
    // Black's 12th move left out: every later White move falls on Black's
    // line, and 12... would be White's f-pawn taking on f4.
    let b = file(
        "skipped",
        "b.pgn",
        &game().replace(" 12. f4 exf4", " 12. f4"),
    );
    let (code, out) = diff(Path::new(GAME), &b, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("b: cannot be replayed: "), "{out}");
    assert!(out.contains("illegal move"), "{out}");
    assert!(out.contains("first divergence at 12... (Black)"), "{out}");
    assert!(out.contains("    - 12... exf4\n"), "{out}");
    assert!(
        !out.contains("    + "),
        "one deletion and nothing else: {out}"
    );
}

#[test]
fn a_wrong_piece_letter_and_a_swapped_pair_are_reported_at_their_move() {
    // Bf3 for Nf3: no bishop reaches f3.
    let b = file("letter", "b.pgn", &game().replacen("2. Nf3", "2. Bf3", 1));
    let (code, out) = diff(Path::new(GAME), &b, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("first divergence at 2. (White): a Nf3, b Bf3"),
        "{out}"
    );
    // Two moves of one side swapped: 3. Bc4 and 4. c3.
    let swapped = game().replace("3. Bc4 d6 4. c3 Be7", "3. c3 d6 4. Bc4 Be7");
    let b = file("swapped", "b.pgn", &swapped);
    let (code, out) = diff(Path::new(GAME), &b, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("first divergence at 3. (White): a Bc4, b c3"),
        "{out}"
    );
    // The same position after 4. c3 and 4. Bc4.
    assert!(
        out.contains(
            "a transposition: both reach the same position after 7 plies (a 4. c3, b 4. Bc4)"
        ),
        "{out}"
    );
}

#[test]
fn a_game_on_one_side_only_is_named_and_games_pair_by_tags() {
    let two = format!("{}\n[Event \"second\"]\n\n1. d4 d5 *\n", game());
    let a = file("only", "a.pgn", &two);
    let (code, out) = diff(&a, Path::new(GAME), &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("game 2 ("), "{out}");
    assert!(out.contains("only in "), "{out}");
    assert!(out.contains("1 only in "), "{out}");
    // The same two games in the other order pair by their Event tags.
    let other = format!("[Event \"second\"]\n\n1. d4 d5 *\n\n{}", game());
    let b = file("only", "b.pgn", &other);
    let (code, out) = diff(&a, &b, &[]);
    assert_eq!(code, 1, "paired by order, they differ: {out}");
    let (code, out) = diff(&a, &b, &["--match-tags", "Event"]);
    assert_eq!(code, 0, "paired by Event: {out}");
    assert!(out.contains("2 equal"), "{out}");
}

#[test]
fn json_reports_parse_and_say_the_same() {
    let b = file(
        "json",
        "b.pgn",
        &game().replace("17. Be3 Qd6", "17. Be3 Qd7"),
    );
    let (code, out) = diff(Path::new(GAME), &b, &["--format", "json"]);
    assert_eq!(code, 1, "{out}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(lines.len(), 2, "{out}");
    let d = &lines[0]["differences"];
    assert_eq!(d["first_divergence"]["a"]["move"], "Qd6");
    assert_eq!(d["first_divergence"]["b"]["move"], "Qd7");
    assert_eq!(d["first_divergence"]["a"]["label"], "17...");
    assert_eq!(d["first_divergence"]["a"]["ply"], 34);
    assert_eq!(d["changes"][0]["kind"], "replace");
    assert_eq!(lines[0]["a"]["game"], 1);
    assert_eq!(lines[1]["summary"]["different"], 1);
    assert_eq!(lines[1]["summary"]["equal"], 0);
}

#[test]
fn exit_codes_and_quiet() {
    let b = file(
        "quiet",
        "b.pgn",
        &game().replace("17. Be3 Qd6", "17. Be3 Qd7"),
    );
    let (code, out) = diff(Path::new(GAME), &b, &["--quiet"]);
    assert_eq!((code, out.as_str()), (1, ""));
    let (code, out) = diff(Path::new(GAME), Path::new(GAME), &["-q"]);
    assert_eq!((code, out.as_str()), (0, ""));
    // A file that is not there, and two families, are errors.
    let (code, _) = diff(Path::new(GAME), Path::new("no/such.pgn"), &[]);
    assert_eq!(code, 2);
    let (code, _) = diff(
        Path::new(GAME),
        Path::new("corpus/draughts/english.pdn"),
        &[],
    );
    assert_eq!(code, 2);
}

#[test]
fn ten_thousand_game_pairs_are_diffed_in_order() {
    let one = game();
    let mut text = String::with_capacity(one.len() * 10_000);
    for _ in 0..10_000 {
        text.push_str(&one);
        text.push('\n');
    }
    let a = file("many", "a.pgn", &text);
    let last = text.rfind("17. Be3 Qd6").unwrap();
    text.replace_range(last..last + "17. Be3 Qd6".len(), "17. Be3 Qd7");
    let b = file("many", "b.pgn", &text);
    let (code, out) = diff(&a, &b, &[]);
    assert_eq!(code, 1, "{}", &out[..out.len().min(2000)]);
    assert!(
        out.starts_with("game 10000 ("),
        "{}",
        &out[..out.len().min(2000)]
    );
    assert!(out.contains("9999 equal, 1 different"), "{out}");
}

#[test]
fn draughts_paths_compare_by_meaning_and_black_moves_first_in_english() {
    // A capture written in full on one side and compact on the other is the
    // same move; a changed square is not.
    let english = std::fs::read_to_string("corpus/draughts/english.pdn").unwrap();
    assert!(english.contains("19x10x3") && english.contains("2. 8-11 22-17"));
    let b = english
        .replace("19x10x3", "19x3")
        .replace("2. 8-11 22-17", "2. 8-11 21-17");
    let b = file("draughts", "b.pdn", &b);
    let (code, out) = diff(Path::new("corpus/draughts/english.diag.pdn"), &b, &[]);
    assert_eq!(code, 1, "{out}");
    // Black moves first in English draughts: White's second move is 2...
    assert!(out.contains("first divergence at 2... (White)"), "{out}");
    assert!(out.contains("b 21-17"), "{out}");
    assert_eq!(out.matches("\n    + ").count(), 1, "{out}");
    assert!(out.contains("1 equal, 1 different"), "{out}");
}

#[test]
fn tafl_against_otn_compares_captures_computed_with_captures_written() {
    // The captures left out of the tafl record are computed; the otn record
    // writes them.
    let (code, out) = diff(
        Path::new("corpus/tafl/brandubh.tafl"),
        Path::new("corpus/tafl/brandubh.otg"),
        &[],
    );
    assert_eq!(code, 0, "{out}");
    let tafl = std::fs::read_to_string("corpus/tafl/brandubh.tafl").unwrap();
    let b = file(
        "tafl",
        "b.tafl",
        &tafl.replace("9. g4-g3 d3-f3", "9. g4-g2 d3-f3"),
    );
    let (code, out) = diff(&b, Path::new("corpus/tafl/brandubh.otg"), &[]);
    assert_eq!(code, 1, "{out}");
    // Each side's move as its notation spells it (otn: lower case).
    assert!(
        out.contains("first divergence at 9. (Black): a G4-G2, b g4-g3"),
        "{out}"
    );
}

#[test]
fn moves_written_differently_that_mean_the_same_are_equal() {
    // Nbd2 where Nd2 is unambiguous, exd6 e.p. for exd6, 0-0 for O-O.
    let a = file(
        "meaning",
        "a.pgn",
        "[Event \"m\"]\n\n1. e4 Nf6 2. e5 d5 3. exd6 e.p. cxd6 4. d3 Nc6 5. Nbd2 e6 6. Ngf3 Qb6 7. Be2 Be7 8. O-O *\n",
    );
    let b = file(
        "meaning",
        "b.pgn",
        "[Event \"m\"]\n\n1. e4 Nf6 2. e5 d5 3. exd6 cxd6 4. d3 Nc6 5. Nd2 e6 6. Ngf3 Qb6 7. Be2 Be7 8. 0-0 *\n",
    );
    let (code, out) = diff(&a, &b, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1 equal"), "{out}");
    // Nf3 where two knights can go there is no transcription of Ngf3: the
    // side that wrote it cannot be replayed, and says why.
    let c = file(
        "meaning",
        "c.pgn",
        "[Event \"m\"]\n\n1. e4 Nf6 2. e5 d5 3. exd6 cxd6 4. d3 Nc6 5. Nd2 e6 6. Nf3 Qb6 7. Be2 Be7 8. 0-0 *\n",
    );
    let (code, out) = diff(&a, &c, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("b: cannot be replayed: 3:"), "{out}");
    assert!(
        out.contains("6. Nf3: ambiguous: it can come from g1 or d2"),
        "{out}"
    );
}

#[test]
fn a_scoresheet_side_shows_its_moves_as_its_cells() {
    // The sllavcco side's 2. Nf3 is the cell `N3` in column f.
    let a = file("cells", "a.pgn", &game().replace("2. Nf3", "2. Nc3"));
    let (code, out) = diff(
        &a,
        Path::new("corpus/chess/petrosjan-sllavcco.sllavcco"),
        &[],
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("first divergence at 2. (White): a Nc3, b N3 (f)"),
        "{out}"
    );
}

/// `corpus/tenjiku/seed.tenjiku`, and the same game with a ply pair
/// inserted after move 2 that the board refuses (`3. P-1a`: no pawn
/// reaches 1a), the later move numbers left as they were.
fn tenjiku_pair(test: &str) -> (PathBuf, PathBuf) {
    let seed = std::fs::read_to_string("corpus/tenjiku/seed.tenjiku").unwrap();
    let inserted = seed.replace("2. Nx7d= K-8a ", "2. Nx7d= K-8a 3. P-1a K-8b ");
    assert_ne!(inserted, seed);
    (
        file(test, "a.tenjiku", &seed),
        file(test, "b.tenjiku", &inserted),
    )
}

#[test]
fn a_tenjiku_side_that_cannot_be_replayed_is_aligned_by_its_text() {
    let (a, b) = tenjiku_pair("tenjiku");
    let (code, out) = diff(&a, &b, &[]);
    assert_eq!(code, 1, "{out}");
    // Named where and why, not "unreadable".
    assert!(!out.contains("unreadable"), "{out}");
    assert!(
        out.contains(
            "  b: cannot be replayed: 5:31: 3. P-1a: no P can make this move (from 8g); \
             the moves are aligned as written\n"
        ),
        "{out}"
    );
    assert!(!out.contains("  a: cannot be replayed"), "{out}");
    assert!(out.contains("first divergence at 3. (Black)"), "{out}");
    // One insertion, the two plies, between the moves both sides share:
    // the rest (igui, a promoted pawn, a fire demon's burn) aligns.
    assert!(out.contains("    + 3. P-1a 3... K-8b\n"), "{out}");
    assert_eq!(out.matches("\n    + ").count(), 1, "{out}");
    assert!(!out.contains("\n    - "), "{out}");
    assert!(out.contains("      2... K-8a\n"), "{out}");
    // The other way round, the same plies are one deletion.
    let (code, out) = diff(&b, &a, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("  a: cannot be replayed: 5:31: 3. P-1a"),
        "{out}"
    );
    assert!(out.contains("    - 3. P-1a 3... K-8b\n"), "{out}");
    assert!(!out.contains("\n    + "), "{out}");
}

#[test]
fn a_tenjiku_pair_in_json_names_the_illegal_side_and_one_insertion() {
    let (a, b) = tenjiku_pair("tenjiku-json");
    let (code, out) = diff(&a, &b, &["--format", "json"]);
    assert_eq!(code, 1, "{out}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(lines.len(), 2, "{out}");
    let d = &lines[0]["differences"];
    assert_eq!(d["illegal"]["a"], serde_json::Value::Null, "{out}");
    let why = d["illegal"]["b"].as_str().unwrap_or_default();
    assert!(
        why.starts_with("5:31: 3. P-1a: no P can make this move"),
        "{out}"
    );
    let changes = d["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1, "{out}");
    assert_eq!(changes[0]["kind"], "insert");
    assert_eq!(changes[0]["a"].as_array().unwrap().len(), 0);
    let inserted = changes[0]["b"].as_array().unwrap();
    let plies: Vec<_> = inserted
        .iter()
        .map(|p| (p["ply"].as_u64().unwrap(), p["move"].as_str().unwrap()))
        .collect();
    assert_eq!(plies, [(5, "P-1a"), (6, "K-8b")], "{out}");
    assert_eq!(d["first_divergence"]["b"]["move"], "P-1a");
    assert_eq!(lines[1]["summary"]["different"], 1);
}

#[test]
fn identical_tenjiku_games_are_equal() {
    let (a, _) = tenjiku_pair("tenjiku-same");
    let (code, out) = diff(&a, &a, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1 equal, 0 different"), "{out}");
    // The Japanese, PBeM and Wikipedia long forms of one game are the
    // same moves.
    for form in ["japanese", "pbem", "wikipedia-long"] {
        let (code, out) = diff(
            Path::new("corpus/tenjiku/constructs.tenjiku"),
            Path::new(&format!("corpus/tenjiku/constructs.{form}.tenjiku")),
            &[],
        );
        assert_eq!(code, 0, "{form}: {out}");
    }
}

#[test]
fn a_draughts_move_that_cannot_be_played_is_named_and_the_rest_aligned() {
    // 4... 24-19 goes to a square White holds; 7... 31-27 is another
    // transcription error, and the Round tag differs too.
    let english = std::fs::read_to_string("corpus/draughts/english.pdn").unwrap();
    assert!(english.contains("4. 7x14 24-20") && english.contains("7. 3-8 32-28"));
    let b = english
        .replace("4. 7x14 24-20", "4. 7x14 24-19")
        .replace("7. 3-8 32-28", "7. 3-8 31-27")
        .replace("[Round \"4\"]", "[Round \"40\"]");
    let b = file("impossible", "b.pdn", &b);
    let (code, out) = diff(Path::new("corpus/draughts/english.pdn"), &b, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(
            "  b: cannot be replayed: 10:53: 4... 24-19: 19 is occupied (position: \
             W:W19,21,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,9,11,12,14,15); \
             the moves are aligned as written"
        ),
        "{out}"
    );
    assert!(!out.contains("a: cannot be replayed"), "{out}");
    // The rest is aligned by the text: the other changed move and the tag.
    assert!(out.contains("tag Round: \"4\" | \"40\""), "{out}");
    assert!(
        out.contains("first divergence at 4... (White): a 24-20, b 24-19"),
        "{out}"
    );
    assert!(
        out.contains("    - 7... 32-28\n    + 7... 31-27\n"),
        "{out}"
    );
    assert_eq!(out.matches("\n    + ").count(), 2, "{out}");
    // The same in JSON.
    let (_, json) = diff(
        Path::new("corpus/draughts/english.pdn"),
        &b,
        &["--format", "json"],
    );
    let first: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    let illegal = &first["differences"]["illegal"];
    assert!(illegal["a"].is_null(), "{json}");
    assert!(
        illegal["b"]
            .as_str()
            .unwrap()
            .starts_with("10:53: 4... 24-19: 19 is occupied"),
        "{json}"
    );
}

#[test]
fn a_pair_agreeing_on_an_impossible_draughts_move_is_named_on_both_sides() {
    // Both transcriptions, numbered and diagonal, hold the same impossible
    // move: no move differs, and each side says it cannot be replayed; the
    // pair is no difference, but unreadable on both sides (exit 2).
    let english = std::fs::read_to_string("corpus/draughts/english.pdn").unwrap();
    let num = english.replace("4. 7x14 24-20", "4. 7x14 24-19");
    let a = file("agreeing", "a.pdn", &num);
    let written = kifu(
        &[
            "convert",
            "--no-validate",
            "--to",
            "draughts-diag",
            a.to_str().unwrap(),
        ],
        b"",
    );
    assert!(written.status.success());
    let b = file("agreeing", "b.diag.pdn", &stdout(&written));
    let (code, out) = diff(&a, &b, &[]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("  a: cannot be replayed: 10:53: 4... 24-19: 19 is occupied"),
        "{out}"
    );
    assert!(
        out.contains("  b: cannot be replayed: 10:43: 4... fe5: 19 is occupied"),
        "{out}"
    );
    assert!(!out.contains("first divergence"), "{out}");
    assert!(
        !out.contains("\n    - ") && !out.contains("\n    + "),
        "{out}"
    );
    assert!(
        out.contains("1 equal, 0 different, 1 unreadable on both sides"),
        "{out}"
    );
}

/// Runs `kifu ARGS` with `env`, killing it after `limit`: its output, or
/// `None` when it ran past the limit. Polls the child's peak memory
/// (VmHWM, Linux) while it runs: the largest seen, in KiB.
fn run_watched(
    args: &[&str],
    env: &[(&str, &str)],
    limit: std::time::Duration,
) -> (Option<std::process::Output>, u64) {
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kifu runs");
    // The pipes are drained as the child runs.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut o = Vec::new();
        std::io::Read::read_to_end(&mut out, &mut o).unwrap();
        o
    });
    let err_reader = std::thread::spawn(move || {
        let mut e = Vec::new();
        std::io::Read::read_to_end(&mut err, &mut e).unwrap();
        e
    });
    let start = std::time::Instant::now();
    let status_path = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    let status = loop {
        if let Ok(text) = std::fs::read_to_string(&status_path) {
            for line in text.lines().filter(|l| l.starts_with("VmHWM:")) {
                let kb: u64 = line
                    .split_whitespace()
                    .nth(1)
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0);
                peak = peak.max(kb);
            }
        }
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    };
    let stdout = reader.join().unwrap();
    let stderr = err_reader.join().unwrap();
    let output = status.map(|status| std::process::Output {
        status,
        stdout,
        stderr,
    });
    (output, peak)
}

#[test]
fn tags_are_compared_in_time_linear_in_their_number() {
    // 200,000 tags in one game, one of them different: before, each tag was
    // looked up among all the others (minutes); now one pass each side.
    let tags: String = (0..200_000).map(|i| format!("[T{i} \"v{i}\"]\n")).collect();
    let a = file("tags", "a.pgn", &format!("{tags}\n1. e4 *\n"));
    let b = file(
        "tags",
        "b.pgn",
        &format!(
            "{}\n1. e4 *\n",
            tags.replace("[T77777 \"v77777\"]", "[T77777 \"x\"]")
        ),
    );
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    // A generous bound: the pair takes about a second in a debug build.
    let (out, _) = run_watched(&["diff", a, b], &[], std::time::Duration::from_secs(90));
    let out = out.expect("diff of 200,000 tags ends within 90 s");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("tag T77777: \"v77777\" | \"x\""), "{text}");
    assert_eq!(text.matches("  tag ").count(), 1, "{text}");
}

#[test]
fn a_reader_that_stops_reading_ends_diff_quietly() {
    // Far more than a pipe holds: every pair differs.
    let side = |name: &str| -> String {
        (0..20_000)
            .map(|i| format!("[Event \"{name}{i}\"]\n\n1. e4 *\n\n"))
            .collect()
    };
    let a = file("pipe", "a.pgn", &side("a"));
    let b = file("pipe", "b.pgn", &side("b"));
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["diff", a.to_str().unwrap(), b.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    std::io::Read::read_exact(&mut out, &mut first).unwrap();
    // `| head -c 64`: the reader goes away.
    drop(out);
    let done = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&done.stderr);
    assert!(!err.contains("Broken pipe"), "{err}");
    assert_eq!(err, "", "nothing said on a closed pipe");
    // Differences were found before the pipe closed.
    assert_eq!(done.status.code(), Some(1), "{err}");
}

/// `n` tiny games, each with a Round tag of its number.
fn tiny_games(n: usize) -> String {
    (0..n)
        .map(|i| format!("[Round \"{i}\"]\n\n1. e4 *\n\n"))
        .collect()
}

#[test]
fn diff_streams_both_sides_in_flat_memory() {
    // 60,000 tiny games a side: their IR is far larger than their text, so
    // holding a side (--match-tags before) or a few batches of convert's
    // size (in order before) took 120 to 180 MB; flat now, about 50.
    let text = tiny_games(60_000);
    let a = file("memory", "a.pgn", &text);
    let (a, _) = (a.to_str().unwrap(), ());
    for extra in [&[][..], &["--match-tags", "Round"][..]] {
        let mut args = vec!["diff", a, a, "--quiet"];
        args.extend(extra);
        let (out, peak) = run_watched(
            &args,
            &[("RAYON_NUM_THREADS", "2")],
            std::time::Duration::from_secs(300),
        );
        let out = out.expect("diff ends");
        assert_eq!(out.status.code(), Some(0), "{extra:?}");
        if std::path::Path::new("/proc/self/status").exists() {
            assert!(peak > 0 && peak < 90_000, "{extra:?}: peak {peak} KiB");
        }
    }
}

#[test]
fn games_pair_by_tags_within_a_window_and_those_too_far_apart_are_named() {
    // The second file holds the same games with its first moved to its end:
    // 5,000 games away, past a window of 1,000.
    let games: Vec<String> = (0..5_000)
        .map(|i| format!("[Round \"{i}\"]\n\n1. e4 *\n\n"))
        .collect();
    let a = file("window", "a.pgn", &games.concat());
    let mut moved = games.clone();
    let first = moved.remove(0);
    moved.push(first);
    let b = file("window", "b.pgn", &moved.concat());
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let out = kifu(&["diff", "--match-tags", "Round", a, b], b"");
    no_panic(&out);
    let (text, err) = (stdout(&out), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        text.contains("4999 pairs of games compared: 4999 equal, 0 different; 1 only in"),
        "{text}"
    );
    assert!(
        err.contains(
            "game 1 of the first file and game 5000 of the second have the same Round (0) but \
             are more than 1000 games apart: not paired (--match-window)"
        ),
        "{err}"
    );
    // A wider window pairs them.
    let out = kifu(
        &[
            "diff",
            "--match-tags",
            "Round",
            "--match-window",
            "5000",
            a,
            b,
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(stdout(&out).contains("5000 equal"), "{}", stdout(&out));
}

#[test]
fn each_game_is_named_by_the_line_it_starts_on() {
    // The blank lines before a game belong to its record, not to its place.
    let a = file(
        "lines",
        "a.pgn",
        "[Event \"a\"]\n\n1. e4 e5 *\n\n\n\n[Event \"b\"]\n\n1. d4 d5 *\n",
    );
    let b = file(
        "lines",
        "b.pgn",
        "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4 d6 *\n",
    );
    let (code, out) = diff(&a, &b, &[]);
    assert_eq!(code, 1, "{out}");
    let heading = out.lines().next().unwrap_or("");
    assert!(
        heading.starts_with("game 2 (")
            && heading.contains("a.pgn:7)")
            && heading.contains("b.pgn:5)"),
        "{out}"
    );
    let (_, json) = diff(&a, &b, &["--format", "json"]);
    assert!(
        json.contains(r#""line":7"#) && json.contains(r#""line":5"#),
        "{json}"
    );
}

#[test]
fn the_html_report_sets_the_transcriptions_side_by_side_with_the_board_where_they_part() {
    let a = file(
        "html",
        "a.pgn",
        "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 *\n",
    );
    let b = file(
        "html",
        "b.pgn",
        "[White \"A\"]\n[Black \"B\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Nf6 *\n",
    );
    let (code, page) = diff(&a, &b, &["--format", "html"]);
    assert_eq!(code, 1);
    assert!(page.starts_with("<!DOCTYPE html>") && page.ends_with("</html>\n"));
    assert_eq!(page.matches("<section class=\"pair\">").count(), 1);
    assert_eq!(page.matches("<div class=\"side ").count(), 2);
    // The first divergence on each side, the plies that differ marked.
    assert!(
        page.contains("<span class=\"ply changed first\">Bb5</span>"),
        "{page}"
    );
    assert!(
        page.contains("<span class=\"ply changed first\">Bc4</span>"),
        "{page}"
    );
    assert!(
        page.contains("<span class=\"ply changed\">c3</span>"),
        "{page}"
    );
    assert!(
        !page.contains("<span class=\"ply changed\">Nf6</span>"),
        "{page}"
    );
    // One board, before ply 5: the knight on c6 and the bishop not moved.
    assert_eq!(page.matches("<svg ").count(), 1);
    assert!(page.contains("after 4 plies of both"), "{page}");
    assert!(
        page.contains("<use xlink:href=\"#p0-bn\" x=\"108\" y=\"108\"/>"),
        "{page}"
    );
    // Nothing fetched, no script.
    assert!(!page.contains("<script") && !page.contains("src=\""));
    assert!(page.contains("1 pair of games compared: 0 equal, 1 different"));
    // Equal inputs: the page and the summary, exit 0.
    let (code, page) = diff(&a, &a, &["--format", "html"]);
    assert_eq!(code, 0);
    assert!(!page.contains("<section") && page.contains("1 equal"));
    // Coerceo: the board from the side that replays (the second's `4b-3c`
    // is no step), after the ply both share.
    let c1 = file("html", "c1.coerceo", "1# 3c-3e 2# 4b-3d *\n");
    let c2 = file("html", "c2.coerceo", "1# 3c-3e 2# 4b-3c *\n");
    let (code, page) = diff(&c1, &c2, &["--format", "html"]);
    assert_eq!(code, 1, "{page}");
    assert_eq!(page.matches("<svg ").count(), 1, "{page}");
    assert!(page.contains("after 1 plies of both"), "{page}");
    assert!(page.contains("<use xlink:href=\"#p0-t19\""), "{page}");
    // A game that cannot be drawn (tafl without its rules): the sides, and
    // why there is no board.
    let t1 = file("html", "t1.tafl", "1. d2-e2 c4-c5 *\n");
    let t2 = file("html", "t2.tafl", "1. d2-e2 c4-c6 *\n");
    let (code, page) = diff(&t1, &t2, &["--format", "html"]);
    assert_eq!(code, 1, "{page}");
    assert!(page.contains("No board: the game names no rules"), "{page}");
}

/// A file compared with itself is never "different" (exit 1): its games
/// are equal, and a game neither side can read or replay is counted apart
/// (`unreadable on both sides`, exit 2), for every file of the bundled
/// corpus and for games that cannot be read or replayed. Two files that
/// differ still exit 1 whatever else they hold.
#[test]
fn a_file_against_itself_is_equal_or_unreadable_never_different() {
    let readable = files(Path::new("corpus"), "");
    let readable = readable.iter().filter(|f| kifu::format::guess(f).is_some());
    for f in readable {
        let (code, out) = diff(f, f, &[]);
        assert!(
            code == 0 || code == 2,
            "{}: exit {code}\n{out}",
            f.display()
        );
        assert!(out.contains(" 0 different"), "{}: {out}", f.display());
    }
    let bad =
        "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e5 *\n\n[Event \"c\"]\n\n1. d4 {x *\n";
    let a = file("unreadable", "a.pgn", bad);
    let (code, out) = diff(&a, &a, &[]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains(
            "3 pairs of games compared: 1 equal, 0 different, 2 unreadable on both sides;"
        ),
        "{out}"
    );
    let (_, json) = diff(&a, &a, &["--format", "json"]);
    assert!(json.contains("\"unreadable\":2"), "{json}");
    // A real difference beside them: exit 1.
    let b = file(
        "unreadable",
        "b.pgn",
        &bad.replacen("1. e4 e5", "1. e4 c5", 1),
    );
    let (code, out) = diff(&a, &b, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("0 equal, 1 different, 2 unreadable on both sides"),
        "{out}"
    );
    // Unplayable on both sides but written differently: a difference.
    let c = file(
        "unreadable",
        "c.pgn",
        &bad.replacen("1. e5 *", "1. e5 e6 *", 1),
    );
    let (code, out) = diff(&a, &c, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("1 equal, 1 different, 1 unreadable on both sides"),
        "{out}"
    );
}

/// `kifu diff` takes the read options `convert` takes: a Sllavcco sheet
/// in German pieces compared with its pgn (every game unreadable without
/// them), by `--pieces`, `--from-opt` or `--from-b-opt`; an option one
/// side's format lacks is refused where it is named for that side, and a
/// flag that only sets how games are written is no flag of diff's.
#[test]
fn diff_takes_the_read_options() {
    let dir = tempfile::tempdir().unwrap();
    let de = dir.path().join("p.de.sllavcco");
    std::fs::write(&de, common::german_sheet()).unwrap();
    let (code, out) = diff(Path::new(GAME), &de, &[]);
    assert_eq!(code, 1, "{out}");
    for args in [
        &["--pieces", "de"][..],
        &["--from-opt", "pieces=de"],
        &["--from-b-opt", "pieces=de"],
    ] {
        let (code, out) = diff(Path::new(GAME), &de, args);
        assert_eq!(code, 0, "{args:?}: {out}");
        assert!(out.contains("1 equal, 0 different"), "{args:?}: {out}");
    }
    let refused = kifu(
        &[
            "diff",
            GAME,
            de.to_str().unwrap(),
            "--from-a-opt",
            "pieces=de",
        ],
        b"",
    );
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        common::stderr(&refused).contains("pgn has no option `pieces`"),
        "{}",
        common::stderr(&refused)
    );
    let refused = kifu(&["diff", GAME, de.to_str().unwrap(), "--rotate", "90"], b"");
    assert_eq!(refused.status.code(), Some(2));
}

/// The text a writer adds to a record for one more ply: `longer` less
/// what it shares with `shorter` at its start and its end, widened to
/// whole words (whole lines, where `lines`).
fn added<'t>(shorter: &str, longer: &'t str, lines: bool) -> &'t str {
    let start = shorter
        .bytes()
        .zip(longer.bytes())
        .take_while(|(x, y)| x == y)
        .count();
    let end = shorter[start..]
        .bytes()
        .rev()
        .zip(longer[start..].bytes().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let apart = |c: char| if lines { c == '\n' } else { c.is_whitespace() };
    // The part of a word cut at either side is taken whole.
    let stop = longer.len() - end;
    let (mut start, mut stop) = (start, stop.max(start));
    while start > 0 && start < stop && !longer[start..].starts_with(apart) {
        match longer[..start].chars().next_back() {
            Some(c) if !apart(c) => start -= c.len_utf8(),
            _ => break,
        }
    }
    while stop > start && stop < longer.len() && !longer[..stop].ends_with(apart) {
        match longer[stop..].chars().next() {
            Some(c) if !apart(c) => stop += c.len_utf8(),
            _ => break,
        }
    }
    &longer[start..stop]
}

/// What a notation's writer writes for a ply, from the text it adds for
/// it: a grid line's filled cells with their columns (`B5 (g)`, castling
/// `R (f) K (g)`); otherwise its words but the move number (`12.`,
/// `12...`, `7#`) and, in otn, the line of its turn's comments
/// (`[first|second]`, empty here).
fn ply_as_written(format: &str, text: &str) -> String {
    if format == "sllavcco" {
        let line = text.trim_matches('\n');
        return line
            .split('\t')
            .skip(1)
            .zip('a'..='h')
            .filter(|(cell, _)| !cell.is_empty())
            .map(|(cell, file)| format!("{cell} ({file})"))
            .collect::<Vec<_>>()
            .join(" ");
    }
    text.split_whitespace()
        .filter(|w| !(format == "otn" && w.starts_with('[')))
        .filter(|w| {
            let digits = w.trim_start_matches(|c: char| c.is_ascii_digit());
            digits.len() == w.len() || !(digits.chars().all(|c| c == '.') || digits == "#")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The class of issue 27: in every notation kifu reads and writes, a ply
/// that one side has and the other lacks is shown by `kifu diff` as the
/// whole text the notation's writer writes for it (a scoresheet's cells
/// with their columns, a coerceo ply with its captures, a tafl move with
/// its captures), never a part of it. For each family's game, for each of
/// its first plies: the game up to that ply against the game without it,
/// both written in the notation, both ways round.
#[test]
fn a_changed_ply_is_shown_whole_in_every_notation() {
    use kifu::codec::{ReadOptions, WriteOptions};
    use kifu::format::{by_name, FORMATS};
    let games = [
        ("pgn", "corpus/chess/petrosjan-sllavcco.pgn"),
        ("draughts-num", "corpus/draughts/english.pdn"),
        (
            "coerceo",
            "corpus/coerceo/european-championship-2012.coerceo",
        ),
        ("tafl", "corpus/tafl/brandubh.tafl"),
        ("tenjiku", "corpus/tenjiku/seed.tenjiku"),
    ];
    let (mut checked, mut wrong) = (Vec::new(), Vec::new());
    for (from, path) in games {
        let text = std::fs::read_to_string(path).unwrap();
        let record = text.split("\n\n[").next().unwrap();
        let read = by_name(from).unwrap().read.unwrap();
        let mut game = read.game(record, &ReadOptions::default()).unwrap().game;
        // (No result: a record without moves would share the digits of
        // its result with the first move's number.)
        game.result = None;
        game.tags.retain(|t| t.name != "Result");
        game.preamble.clear();
        game.moves.trailing.clear();
        for p in &mut game.moves.plies {
            (p.glyph, p.nags, p.before, p.after, p.variations) =
                (None, Vec::new(), Vec::new(), Default::default(), Vec::new());
        }
        let n = game.moves.plies.len().min(16);
        assert!(n > 4, "{path}");
        let family = Some(game.family());
        for format in FORMATS.iter().filter(|f| {
            f.family == family && f.read.is_some() && f.write.is_some() && f.spell.is_some()
        }) {
            let write = |k: usize| {
                let mut g = game.clone();
                g.moves.plies.truncate(k);
                let mut out = String::new();
                (format.write.unwrap())(&g, &WriteOptions::default(), &mut out)
                    .unwrap_or_else(|e| panic!("{}: {}", format.name, e.message));
                out
            };
            let (mut a, mut b, mut wanted) = (String::new(), String::new(), Vec::new());
            for k in 1..=n {
                let (shorter, longer) = (write(k - 1), write(k));
                let lines = format.name == "sllavcco";
                wanted.push(ply_as_written(format.name, added(&shorter, &longer, lines)));
                a.push_str(&longer);
                a.push('\n');
                b.push_str(&shorter);
                b.push('\n');
            }
            let ext = format.extensions[0];
            let test = format!("whole-{}", format.name);
            let (fa, fb) = (
                file(&test, &format!("a.{ext}"), &a),
                file(&test, &format!("b.{ext}"), &b),
            );
            for (x, y, sign) in [(&fa, &fb, "- "), (&fb, &fa, "+ ")] {
                let (code, out) = diff(x, y, &[]);
                assert_eq!(code, 1, "{}: {out}", format.name);
                let shown: Vec<String> = out
                    .lines()
                    .filter_map(|l| l.trim_start().strip_prefix(sign))
                    .map(|l| l.split_once(' ').map_or("", |(_, t)| t).to_string())
                    .collect();
                if shown != wanted {
                    wrong.push(format!(
                        "{}: shown {shown:?}, written {wanted:?}",
                        format.name
                    ));
                }
                let firsts = out
                    .lines()
                    .filter(|l| l.contains("first divergence"))
                    .count();
                assert_eq!(firsts, n, "{}: {out}", format.name);
            }
            checked.push(format.name);
        }
    }
    for name in [
        "pgn",
        "sllavcco",
        "draughts-num",
        "draughts-diag",
        "coerceo",
        "tafl",
        "otn",
        "tenjiku",
    ] {
        assert!(checked.contains(&name), "{name} not checked: {checked:?}");
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Issue 27 as the arbiter met it: a pgn transcription and a scoresheet
/// that disagree on one bishop move. Both sides' moves are shown whole:
/// the scoresheet's cell with its column (`6 (h)` alone says h6, `6`
/// did not), in the text, json and html reports.
#[test]
fn a_changed_scoresheet_move_shows_its_whole_cell() {
    let pgn = "[Event \"T\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. d3 d6 6. Bg5 h6 *\n";
    let a = file("whole-cell", "a.pgn", &pgn.replace("6. Bg5", "6. Bf4"));
    let sheet = stdout(&common::convert("pgn", "sllavcco", &["-q"], pgn.as_bytes()));
    // The sheet's 6. Bg5 (`B5` in column g) made 6. Be3 (`B3` in column e).
    let moved = sheet.replace("06\t\t\t\t\t\t\tB5\t\n", "06\t\t\t\t\tB3\t\t\t\n");
    assert_ne!(moved, sheet, "{sheet}");
    let b = file("whole-cell", "b.sllavcco", &moved);
    let (code, out) = diff(&a, &b, &[]);
    assert_eq!(code, 1, "{out}");
    for line in [
        "first divergence at 6. (White): a Bf4, b B3 (e)",
        "    - 6. Bf4\n",
        "    + 6. B3 (e)\n",
    ] {
        assert!(out.contains(line), "{line}: {out}");
    }
    // The other way round, the context is the sheet's: its h6 is `6` in
    // column h.
    let (_, out) = diff(&b, &a, &[]);
    for line in ["    - 6. B3 (e)\n", "      6... 6 (h)\n"] {
        assert!(out.contains(line), "{line}: {out}");
    }
    let (_, json) = diff(&a, &b, &["--format", "json"]);
    assert!(json.contains("\"move\":\"B3 (e)\""), "{json}");
}

/// A scoresheet read in its own letters (`--pieces de`) shows its moves in
/// them: what the arbiter compares is what is on the sheet (`S3` in column
/// f, a German sheet's Nf3), not the English letters it would be written
/// in by default.
#[test]
fn a_scoresheet_side_shows_its_cells_in_the_letters_it_was_read_with() {
    let dir = tempfile::tempdir().unwrap();
    let de = dir.path().join("p.de.sllavcco");
    std::fs::write(&de, common::german_sheet()).unwrap();
    let a = file("letters", "a.pgn", &game().replace("2. Nf3", "2. Nc3"));
    for args in [&["--pieces", "de"][..], &["--from-b-opt", "pieces=de"]] {
        let (code, out) = diff(&a, &de, args);
        assert_eq!(code, 1, "{out}");
        assert!(
            out.contains("first divergence at 2. (White): a Nc3, b S3 (f)"),
            "{args:?}: {out}"
        );
        let (_, html) = diff(&a, &de, &[args, &["--format", "html"]].concat());
        assert!(html.contains(">S3 (f)</span>"), "{args:?}: {html}");
    }
}

/// The text report shows what the records hold with their terminal
/// controls and invisible characters escaped, as messages quote them: a
/// record's ESC sequence or bidi override never reaches the terminal
/// (issue 36). Every tag value and comment of such text, in every place the
/// report shows record text.
#[test]
fn the_text_report_escapes_a_records_terminal_controls() {
    let nasty = ["\u{1b}[2J\u{1b}]0;owned\u{7}", "\u{202e}evil", "a\u{200b}b"];
    for (i, bad) in nasty.iter().enumerate() {
        let test = format!("escape{i}");
        let a = file(
            &test,
            "a.pgn",
            &format!("[Event \"{bad}\"]\n[White \"x\"]\n\n1. e4 e5 2. Nf3 {{{bad}}} Nc6 *\n"),
        );
        let b = file(
            &test,
            "b.pgn",
            "[Event \"y\"]\n[White \"x\"]\n\n1. e4 e5 2. Nf3 Nf6 *\n",
        );
        let (code, out) = diff(&a, &b, &["--color", "never", "--annotations"]);
        assert_eq!(code, 1, "{out}");
        assert!(
            !out.chars()
                .any(|c| c == '\u{1b}' || c == '\u{7}' || c == '\u{202e}' || c == '\u{200b}'),
            "{out:?}"
        );
        assert!(out.contains("tag Event: \""), "{out}");
        assert!(
            out.contains("\\x1b") || out.contains("\\u{202e}") || out.contains("\\u{200b}"),
            "{out}"
        );
    }
    // A file's name is shown as messages show it, escaped too.
    let a = file("escape_name", "a\u{1b}[31m.pgn", "1. e4 e5 *\n");
    let b = file("escape_name", "b.pgn", "1. d4 d5 *\n");
    let (code, out) = diff(&a, &b, &["--color", "never"]);
    assert_eq!(code, 1, "{out}");
    assert!(!out.contains('\u{1b}'), "{out:?}");
    assert!(out.contains("a\\x1b[31m.pgn"), "{out}");
}

/// The warning lines a run of kifu said on standard error.
fn warning_lines(out: &std::process::Output) -> Vec<String> {
    common::stderr(out)
        .lines()
        .filter(|l| l.contains(": warning["))
        .map(str::to_string)
        .collect()
}

#[test]
fn what_the_readers_mend_diff_says_as_convert_does() {
    // A transcription checker hears what a converter mends quietly: a
    // capture mark on a move that captures nothing and castling in lower
    // case are read as meant (the games are equal), and said once a kind
    // per input, with a count, in the very lines `convert` says them. Games
    // of each shape: `n` mends of each kind spread over `games` games (a
    // clean transcription on the other side), with and without --format json
    // (the warnings on standard error either way); -q says nothing.
    let clean = "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O Be7 5. Nc3 O-O";
    let mended = [
        "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. o-o Be7 5. Nc3 o-o",
        "1. e4 e5 2. Nxf3 Nc6 3. Bc4 Nf6 4. O-O Be7 5. Nc3 O-O",
        "1. e4 e5 2. Nf3 Nxc6 3. Bxc4 Nf6 4. O-O Be7 5. Nc3 O-O",
        "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O Be7 5. Nc3 O-O",
    ];
    let record =
        |n: usize, moves: &str| format!("[Event \"{n}\"]\n[Result \"*\"]\n\n{moves} *\n\n");
    for games in 1..=mended.len() {
        let a: String = (0..games).map(|n| record(n, mended[n])).collect();
        let b: String = (0..games).map(|n| record(n, clean)).collect();
        let test = format!("mended-{games}");
        let (a, b) = (file(&test, "a.pgn", &a), file(&test, "b.pgn", &b));
        let a_name = a.to_str().unwrap();
        let converted = kifu(&["convert", "--to", "pgn", a_name, "-o", "-"], b"");
        let want = warning_lines(&converted);
        // The games with capture marks on moves that capture nothing (a
        // warning each, its count within the game said as `(2 times)`).
        let marked = [0, 1, 2, 2][games - 1];
        assert_eq!(want.len(), 1 + usize::from(marked > 0), "{games}: {want:?}");
        assert!(
            want[0].contains("warning[lower-case-castling]: game 1:"),
            "{want:?}"
        );
        if marked > 1 {
            assert!(want[1].ends_with("(1 more like this)"), "{games}: {want:?}");
        }
        for args in [&[][..], &["--format", "json"][..]] {
            let mut all = vec!["diff", a_name, b.to_str().unwrap()];
            all.extend(args);
            let out = kifu(&all, b"");
            no_panic(&out);
            assert_eq!(out.status.code(), Some(0), "{games} {args:?}");
            assert_eq!(warning_lines(&out), want, "{games} {args:?}");
            // The same files the other way round: the second input's.
            let mut all = vec!["diff", b.to_str().unwrap(), a_name];
            all.extend(args);
            assert_eq!(warning_lines(&kifu(&all, b"")), want, "{games} {args:?}");
        }
        let quiet = kifu(&["diff", "-q", a_name, b.to_str().unwrap()], b"");
        assert_eq!(quiet.status.code(), Some(0));
        assert_eq!(common::stderr(&quiet), "", "{games}");
    }
    // Every family's readers mend through the same path: a draughts record
    // whose first tag lost its `[` and which names no board, against a clean
    // one, says the two warnings `convert` says.
    let moves = "1. 32-28 19-23 2. 28x19 14x23 *\n";
    let a = file(
        "mended-pdn",
        "a.pdn",
        &format!("Event \"x\"]\n[Result \"*\"]\n\n{moves}"),
    );
    let b = file(
        "mended-pdn",
        "b.pdn",
        &format!("[Event \"x\"]\n[GameType \"20\"]\n[Result \"*\"]\n\n{moves}"),
    );
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let want = warning_lines(&kifu(
        &["convert", "--to", "draughts-num", a, "-o", "-"],
        b"",
    ));
    assert!(
        want.iter().any(|l| l.contains("warning[tag-repair]")) && want.len() == 2,
        "{want:?}"
    );
    let out = kifu(&["diff", a, b], b"");
    assert_eq!(out.status.code(), Some(0), "{}", common::stderr(&out));
    assert_eq!(warning_lines(&out), want);
}
