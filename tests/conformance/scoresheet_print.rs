//! The printable scoresheet (`sllavcco-html`) printed by a real browser:
//! headless Chromium prints the page to PDF on Letter and on A4 paper, and
//! the page count says whether a game fits its sheet. Runs where Chromium
//! is installed; skips with a message elsewhere, unless
//! `KIFU_REQUIRE_CHROMIUM` is set (as `.ci/run` does), when its absence fails.
//! (The page without a browser: `tests/it/scoresheet_print.rs`.)

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{kifu, stderr};

/// The browser, if one is installed.
pub(crate) fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

/// The browser, or `None` after saying that the test is skipped (`why`:
/// what it needed the browser for); its absence fails where
/// `KIFU_REQUIRE_CHROMIUM` is set.
pub(crate) fn browser(why: &str) -> Option<&'static str> {
    let found = chromium();
    if found.is_none() {
        assert!(
            std::env::var_os("KIFU_REQUIRE_CHROMIUM").is_none(),
            "KIFU_REQUIRE_CHROMIUM is set but no chromium is installed"
        );
        eprintln!("skipped: no chromium (Debian package `chromium`) {why}");
    }
    found
}

/// Writes the printable scoresheets of the games of `pgn` to `html`.
fn write_sheet(pgn: &std::path::Path, html: &std::path::Path) {
    let out = kifu(
        &[
            "convert",
            "-q",
            "--to",
            "sllavcco-html",
            pgn.to_str().unwrap(),
            "-o",
            html.to_str().unwrap(),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
}

/// A game of `moves` moves: the knights go out and back.
pub(crate) fn shuffle(moves: usize) -> String {
    let cycle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let mut text = format!(
        "[Event \"Shuffle {moves}\"]\n[Site \"Novi Sad\"]\n[Date \"2026.11.23\"]\n\
         [Round \"?\"]\n[White \"Knight, A.\"]\n[Black \"Horse, B.\"]\n[Result \"1/2-1/2\"]\n\
         [ECO \"A04\"]\n[PlyCount \"{}\"]\n\n",
        moves * 2
    );
    text.push_str(&crate::common::scoresheet::out_and_back(moves, cycle));
    text
}

/// The number of pages of a PDF (its page objects).
pub(crate) fn pages(pdf: &[u8]) -> usize {
    let needle = b"/Type /Page";
    pdf.windows(needle.len() + 1)
        .filter(|w| w.starts_with(needle) && w[needle.len()] != b's')
        .count()
}

/// Prints a page with the browser into `pdf`, on the paper `size` (`None`:
/// the browser's default, Letter).
fn print(browser: &str, html: &Path, size: Option<&str>, pdf: &Path, profile: &Path) {
    let page = match size {
        Some(size) => {
            let text = std::fs::read_to_string(html).unwrap();
            let sized = text.replacen("<style>", &format!("<style>@page {{ size: {size}; }}"), 1);
            let path = html.with_extension(format!("{size}.html"));
            std::fs::write(&path, sized).unwrap();
            path
        }
        None => html.to_path_buf(),
    };
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-pdf-header-footer",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--print-to-pdf={}", pdf.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("run the browser");
    assert!(
        pdf.exists(),
        "{browser} printed nothing: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_sheet_of_up_to_sixty_moves_prints_on_one_page_of_a4_and_of_letter() {
    let Some(browser) = browser("to print the scoresheet") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let petrosjan = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/chess/petrosjan-sllavcco.pgn"),
    )
    .unwrap();
    // (name, record, moves, pages on either paper)
    // Long names wrap in their boxes (never cut off) and the game still
    // fits its page; a placeholder of a tag with no field is not in the note.
    let long = shuffle(60)
        .replace(
            "Knight, A.",
            "Knightsbridge-Montgomery-Featherstonehaugh, Alexander Maximilian Bartholomew",
        )
        .replace(
            "Shuffle 60",
            "Grand International Invitational Memorial Championship of the Shuffling Knights, Open Section A",
        )
        .replace("[ECO ", "[EventDate \"????.??.??\"]\n[ECO ");
    let games = [
        ("g20", petrosjan, 20, 1),
        ("g60", shuffle(60), 60, 1),
        ("g60long", long, 60, 1),
        ("g100", shuffle(100), 100, 2),
    ];
    let mut jobs = Vec::new();
    for (name, record, moves, want) in &games {
        let pgn = dir.path().join(format!("{name}.pgn"));
        std::fs::write(&pgn, record).unwrap();
        let html = dir.path().join(format!("{name}.html"));
        write_sheet(&pgn, &html);
        let page = std::fs::read_to_string(&html).unwrap();
        // No placeholders: an unknown field is an empty box.
        assert!(!page.contains(">?<"), "{name}: a `?` is printed\n{page}");
        // Raw tags with no field go in the note, the set-up ones nowhere.
        if record.contains("[ECO ") {
            assert!(page.contains("<span>ECO: "), "{name}: {page}");
        }
        assert!(!page.contains("PlyCount"), "{name}: {page}");
        assert!(!page.contains("EventDate"), "{name}: {page}");
        if name == &"g60long" {
            assert!(page.contains("Bartholomew</td>"), "{name}: {page}");
        }
        // The last move is on the sheet, and the grid's numbers go on.
        assert!(page.contains(&format!(">{moves:02}</th>")), "{name}");
        for size in [None, Some("A4")] {
            jobs.push((
                html.clone(),
                size,
                dir.path()
                    .join(format!("{name}.{}.pdf", size.unwrap_or("letter"))),
                *want,
            ));
        }
    }
    // Each print in its own browser profile, side by side.
    let printed: Vec<(PathBuf, usize, usize)> = std::thread::scope(|s| {
        let handles: Vec<_> = jobs
            .iter()
            .enumerate()
            .map(|(i, (html, size, pdf, want))| {
                let profile = dir.path().join(format!("profile{i}"));
                s.spawn(move || {
                    print(browser, html, *size, pdf, &profile);
                    (pdf.clone(), pages(&std::fs::read(pdf).unwrap()), *want)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (pdf, got, want) in printed {
        assert_eq!(got, want, "{}: {got} pages, not {want}", pdf.display());
    }
}

/// Prints `games` (pgn records) as one page of sheets, on Letter and on
/// A4, and checks that each game takes `want` pages of either: each sheet
/// starts a page, so the page count is `want` times the games exactly
/// when none runs over. On a mismatch, each game is printed alone to
/// name the ones that do.
fn check_pages(browser: &str, dir: &Path, name: &str, games: &[String], want: usize) {
    let print_all = |name: &str, records: &[String]| -> Vec<(String, usize)> {
        let pgn = dir.join(format!("{name}.pgn"));
        std::fs::write(&pgn, records.join("\n")).unwrap();
        let html = dir.join(format!("{name}.html"));
        write_sheet(&pgn, &html);
        let html = &html;
        std::thread::scope(|s| {
            let handles: Vec<_> = [None, Some("A4")]
                .into_iter()
                .map(|size| {
                    s.spawn(move || {
                        let paper = size.unwrap_or("letter");
                        let pdf = dir.join(format!("{name}.{paper}.pdf"));
                        let profile = dir.join(format!("profile-{name}-{paper}"));
                        print(browser, html, size, &pdf, &profile);
                        (paper.to_string(), pages(&std::fs::read(&pdf).unwrap()))
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        })
    };
    let printed = print_all(name, games);
    if printed.iter().all(|(_, got)| *got == want * games.len()) {
        return;
    }
    let mut over = Vec::new();
    for (i, g) in games.iter().enumerate() {
        for (paper, got) in print_all(&format!("{name}-{i}"), std::slice::from_ref(g)) {
            if got != want {
                over.push(format!("{paper}: {got} pages, not {want}:\n{g}"));
            }
        }
    }
    panic!(
        "{name}: {printed:?} for {} games\n{}",
        games.len(),
        over.join("\n")
    );
}

/// Issue 27: every game of up to 60 moves prints on one page, of A4 and
/// of Letter, whatever its tags (0 to 40 more than the roster, long
/// values, Unicode, Fischer random with SetUp and FEN), the 55-move
/// Fischer random game with 17 tags among them; every game of 61 to 120
/// moves on two.
#[test]
fn every_sheet_of_up_to_sixty_moves_is_one_page_and_of_up_to_120_two() {
    use common::scoresheet::{game, issue_27};
    let Some(browser) = browser("to print the scoresheets") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut one = vec![issue_27()];
    for moves in 1..=60 {
        let extra = (moves * 13) % 41;
        one.push(game(moves, extra, moves % 3 == 0, moves as u64));
    }
    for extra in [17, 25, 33, 40] {
        one.push(game(60, extra, true, 100 + extra as u64));
        one.push(game(60, extra, false, 200 + extra as u64));
    }
    let mut two = Vec::new();
    for (i, moves) in [61, 70, 85, 99, 110, 119, 120].into_iter().enumerate() {
        two.push(game(moves, 40 - 5 * i, i % 2 == 0, 300 + moves as u64));
    }
    two.push(game(120, 40, true, 420));
    check_pages(browser, dir.path(), "one", &one, 1);
    check_pages(browser, dir.path(), "two", &two, 2);
}
