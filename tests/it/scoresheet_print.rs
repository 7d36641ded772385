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

/// Converts pgn `text` to the printable sheet.
fn page_of(text: &str) -> String {
    let out = crate::common::convert("pgn", "sllavcco-html", &["-q"], text.as_bytes());
    assert!(out.status.success(), "{}", stderr(&out));
    String::from_utf8(out.stdout).unwrap()
}

/// The DATE box says a date as a person writes it: the unknown day, then
/// the unknown month, left out; nothing for a date of which nothing is
/// known; a full date as the sheet writes it; a value that is no
/// `YYYY.MM.DD` as it is.
#[test]
fn the_date_box_reads_as_a_person_writes_a_date() {
    for (date, shown) in [
        ("1951.??.??", "1951"),
        ("1951.03.??", "03.1951"),
        ("1951.03.07", "07.03.1951"),
        ("????.??.??", ""),
        ("1951.??.07", "07.??.1951"),
        ("195?.??.??", "195?"),
        ("????.03.07", "07.03.????"),
        ("1951", "1951"),
        ("March 1951", "March 1951"),
    ] {
        let page = page_of(&format!(
            "[Event \"E\"]\n[Date \"{date}\"]\n[Result \"*\"]\n\n1. e4 *\n"
        ));
        let want = format!("<tr><th>DATE</th><td>{shown}</td>");
        assert!(page.contains(&want), "{date}: {want} not in\n{page}");
        // Said once: the date is not in the note too.
        assert!(!page.contains("<span>Date: "), "{date}: {page}");
    }
}

/// The tags of a sheet's header boxes (those the form has a box for),
/// and those shown nowhere (the sheet says them, or they say nothing).
const BOXED: [&str; 16] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "Board",
    "WhiteTitle",
    "BlackTitle",
    "WhiteElo",
    "BlackElo",
    "WhiteCountry",
    "BlackCountry",
    "EventSponsor",
    "SetUp",
];

/// How wide a text is set at `font` mm, at most (as the writer bounds it).
fn width_mm(text: &str, font: f32) -> f32 {
    text.chars()
        .map(|c| if c.is_ascii() { 0.62 } else { 1.0 })
        .sum::<f32>()
        * font
}

/// The text of an element's content, its inner tags taken out, entities
/// left.
fn inner_text(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// Whatever its tags (0 to 40 more than the roster, long values, Unicode,
/// a Fischer random start), a sheet's note holds at most three lines of
/// its type, and says how many tags it leaves out: every tag without a
/// header box is in the note or counted there; the header's boxes hold
/// at most two lines each. (The pages Chromium prints:
/// `tests/conformance/scoresheet_print.rs`.)
#[test]
fn the_tag_block_is_bounded_and_every_tag_is_accounted_for() {
    use crate::common::scoresheet::{game, issue_27};
    let mut games = vec![issue_27()];
    for extra in 0..=40 {
        games.push(game(1 + extra % 60, extra, extra % 3 == 0, extra as u64));
        games.push(game(60, extra, extra % 2 == 1, 1000 + extra as u64));
    }
    // The opening named last of 47 tags is still named.
    let last = game(60, 40, true, 7);
    let (tags, moves) = last.split_once("\n\n").unwrap();
    let tags: Vec<&str> = tags.lines().filter(|l| !l.starts_with("[ECO ")).collect();
    games.push(format!("{}\n[ECO \"B33\"]\n\n{moves}", tags.join("\n")));
    for record in &games {
        let page = page_of(record);
        let tags: Vec<(&str, &str)> = record
            .lines()
            .filter_map(|l| l.strip_prefix('[')?.split_once(" \""))
            .map(|(n, v)| (n, v.trim_end_matches("\"]")))
            .collect();
        let unboxed = tags
            .iter()
            .filter(|(n, v)| !BOXED.contains(n) && *n != "PlyCount" && *v != "????.??.??")
            .count();
        let note = page
            .split_once("<p class=\"note\">")
            .map_or("", |(_, rest)| rest.split_once("</p>").unwrap().0);
        let spans: Vec<&str> = note.split("<span").skip(1).collect();
        let entries = spans.iter().filter(|s| s.starts_with('>')).count();
        let left: usize = spans
            .iter()
            .find(|s| s.starts_with(" class=\"left\""))
            .and_then(|s| s.split_whitespace().nth(1))
            .map_or(0, |n| n.parse().unwrap());
        assert_eq!(entries + left, unboxed, "{record}\n{note}");
        let wide: f32 = spans
            .iter()
            .map(|s| width_mm(&inner_text(&format!("<span{s}")), 2.2) + 2.0)
            .sum();
        assert!(wide <= 3.0 * 186.0, "{wide} mm: {note}");
        // The start position and the opening come first, and fit.
        for first in ["FEN", "ECO"] {
            if tags.iter().any(|(n, _)| *n == first) {
                assert!(note.contains(&format!("<span>{first}: ")), "{note}");
            }
        }
        let head = page.split_once("<table class=\"head\">").unwrap().1;
        let head = head.split_once("</table>").unwrap().0;
        for td in head.split("<td").skip(1) {
            let text = inner_text(&format!("<td{}", td.split_once("</td>").unwrap().0));
            // Two lines of the smallest type of the widest box.
            assert!(width_mm(&text, 1.8) <= 2.0 * 162.0, "{text}");
        }
    }
}
