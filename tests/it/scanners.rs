//! The record scanners the formats supply, through the pipeline's public
//! API (`Records` over each format's `split`): scoresheets, JSON arrays and
//! lines, and records over the size limit in each. The container scanner's
//! own cases are beside it, in `src/container/scan.rs`.

use kifu::archive::Records;
use kifu::codec::Scan;
use kifu::format::by_name;

fn scan(format: &str) -> &'static dyn Scan {
    by_name(format).expect("a format").split
}

#[test]
fn sheets_end_at_the_blank_line_after_their_grid() {
    let one = "WHITE\tA\n\nNUMBER OF THE MOVE\ta\tb\tc\td\te\tf\tg\th\n01\t\t\t\t\t4\t\t\t\n\t\t\t\t\t\t\t\t\n";
    let two = "\nWHITE\tB\n\n\nNUMBER OF THE MOVE\ta\tb\tc\td\te\tf\tg\th\n01\t\t\t\t\t4\t\t\t";
    let text = format!("\n{one}{two}\n\n");
    for batch in [1, 9, 1 << 20] {
        let mut r = Records::new(text.as_bytes(), scan("sllavcco"));
        let mut recs = Vec::new();
        while let Some(b) = r.next_batch(batch).unwrap() {
            for rec in b.records {
                let s = String::from_utf8(b.data[rec.range].to_vec()).unwrap();
                recs.push((s, rec.line, rec.is_game));
            }
        }
        // The all-empty Black line (tabs only) stays in the first grid.
        assert_eq!(recs.len(), 3, "batch {batch}: {recs:?}");
        assert_eq!(recs[0], (format!("\n{one}"), 1, true));
        assert_eq!(recs[1], (format!("{two}\n"), 7, true));
        assert_eq!(recs[2], ("\n".to_string(), 13, false));
    }
}

#[test]
fn records_over_the_limit_are_passed_in_every_split() {
    let long = "x".repeat(300);
    let cases = [
        (
            3,
            scan("draughts-num"),
            format!("[E \"a\"]\n1. 32-28 *\n[E \"b\"]\n1. {long}\n[E \"c\"]\n1. 33-29 *\n"),
        ),
        (
            2,
            scan("jsonl"),
            format!("{{\"a\":1}}\n{{\"b\":\"{long}\"}}\n{{\"c\":1}}\n"),
        ),
        (
            2,
            scan("json"),
            format!("[{{\"a\":1}},\n{{\"b\":[\"]\",{{\"{long}\":[]}}]}},\n{{\"c\":1}}]\n"),
        ),
    ];
    for (line, split, text) in cases {
        for batch in [1, 7, 1 << 20] {
            let mut r = Records::new(text.as_bytes(), split).with_limit(100);
            let mut recs = Vec::new();
            while let Some(b) = r.next_batch(batch).unwrap() {
                for rec in b.records.into_iter().filter(|r| r.is_game) {
                    let s = String::from_utf8(b.data[rec.range].to_vec()).unwrap();
                    recs.push((s, rec.line, rec.oversize.is_some()));
                }
            }
            let text = &text;
            assert_eq!(recs.len(), 3, "{batch} {text}: {recs:?}");
            assert!(recs[0].0.contains('a') && !recs[0].2, "{recs:?}");
            assert_eq!((recs[1].1, recs[1].2), (line, true), "{text}: {recs:?}");
            assert!(recs[2].0.contains('c') && !recs[2].2, "{text}: {recs:?}");
        }
    }
}

#[test]
fn json_array_elements() {
    let text = b"[\n{\"a\":\"}\\\"\"},\n{\"b\":[1,{}]}\n]\n";
    let mut r = Records::new(&text[..], scan("json"));
    let b = r.next_batch(1 << 20).unwrap().unwrap();
    let games: Vec<&[u8]> = b
        .records
        .iter()
        .filter(|r| r.is_game)
        .map(|r| &b.data[r.range.clone()])
        .collect();
    assert_eq!(
        games,
        vec![&b"{\"a\":\"}\\\"\"}"[..], &b"{\"b\":[1,{}]}"[..]]
    );
}
