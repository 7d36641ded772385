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

/// A game of `moves` moves: the knights go out and back.
pub(crate) fn shuffle(moves: usize) -> String {
    let cycle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let mut text = format!(
        "[Event \"Shuffle {moves}\"]\n[Site \"Novi Sad\"]\n[Date \"2026.11.23\"]\n\
         [Round \"?\"]\n[White \"Knight, A.\"]\n[Black \"Horse, B.\"]\n[Result \"1/2-1/2\"]\n\
         [ECO \"A04\"]\n[PlyCount \"{}\"]\n\n",
        moves * 2
    );
    for ply in 0..moves * 2 {
        if ply % 2 == 0 {
            text.push_str(&format!("{}. ", ply / 2 + 1));
        }
        text.push_str(cycle[ply % 4]);
        text.push(' ');
    }
    text.push_str("1/2-1/2\n");
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
        let out = kifu(
            &[
                "convert",
                "--to",
                "sllavcco-html",
                pgn.to_str().unwrap(),
                "-o",
                html.to_str().unwrap(),
            ],
            b"",
        );
        assert!(out.status.success(), "{}", stderr(&out));
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
