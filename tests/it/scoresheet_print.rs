//! The printable scoresheet (`sllavcco-html`) without a browser: the page
//! title names the game. Printing it with Chromium is in
//! `tests/conformance/scoresheet_print.rs`.

use crate::common::{kifu, stderr};

#[test]
fn the_page_title_names_the_game() {
    let out = kifu(
        &[
            "convert",
            "--to",
            "sllavcco-html",
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/corpus/chess/petrosjan-sllavcco.pgn"
            ),
        ],
        b"",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let page = String::from_utf8(out.stdout).unwrap();
    assert!(
        page.contains(
            "<title>Petrosjan - Sllavcco, Simultaneous chess game in the Radio Belgrade, \
             1970.04.07</title>"
        ),
        "{page}"
    );
    // A page of no games keeps a title.
    let out = kifu(
        &["convert", "--from", "pgn", "--to", "sllavcco-html", "-q"],
        b"",
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("<title>Scoresheets</title>"));
}
