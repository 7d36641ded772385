//! Games for the printable scoresheet's tests (`sllavcco-html`): any
//! number of moves with any number of tags of varied lengths (long
//! values, Unicode, a Fischer random start), made from a seed, so that the
//! fast suite and the printing one (`tests/conformance`) check the same
//! class of games.

/// A small deterministic generator (no dependency): the same seed, the
/// same games.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407))
    }

    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }
}

/// The Fischer random start the generated Chess960 games use: knights on
/// b and h, so that the knights' shuffle below is legal in it too.
pub const CHESS960_FEN: &str = "bnrbkrqn/pppppppp/8/8/8/8/PPPPPPPP/BNRBKRQN w KQkq - 0 1";

/// Tag values: short, long, Unicode (accents, Cyrillic, CJK, figurines).
const VALUES: [&str; 8] = [
    "A",
    "Novi Sad",
    "Ђорђе Петровић-Његош",
    "国际象棋公开赛 第三轮 北京",
    "Grand International Invitational Memorial Championship of the Shuffling Knights, Open Section A, played over nine rounds",
    "♔♕♖♗♘ Ünïcödé Ålesund Øresund Łódź",
    "40/5400+30:1800+30",
    "2450",
];

/// A value of `rng`'s choosing, sometimes very long (several of them
/// joined).
fn value(rng: &mut Rng) -> String {
    let parts = 1 + rng.below(4) * rng.below(3);
    (0..parts)
        .map(|_| VALUES[rng.below(VALUES.len())])
        .collect::<Vec<_>>()
        .join(" ")
}

/// A pgn game of `moves` moves (the knights go out and back) with the
/// seven-tag roster and `extra` more tags of varied names and values; a
/// Fischer random game (Variant, SetUp and FEN among the extra tags) when
/// `chess960`. The roster's values are varied too (long names, Unicode),
/// its Date partial or unknown by turns.
pub fn game(moves: usize, extra: usize, chess960: bool, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let dates = [
        "1951.??.??",
        "1951.03.??",
        "1951.03.07",
        "????.??.??",
        "2026.11.23",
    ];
    let mut tags: Vec<(String, String)> = vec![
        ("Event".into(), value(&mut rng)),
        ("Site".into(), value(&mut rng)),
        ("Date".into(), dates[rng.below(dates.len())].into()),
        (
            "Round".into(),
            format!("{}.{}", 1 + rng.below(11), 1 + rng.below(40)),
        ),
        ("White".into(), value(&mut rng)),
        ("Black".into(), value(&mut rng)),
        ("Result".into(), "1/2-1/2".into()),
    ];
    let known = [
        "WhiteElo",
        "BlackElo",
        "WhiteTitle",
        "BlackTitle",
        "ECO",
        "Opening",
        "Variation",
        "TimeControl",
        "Annotator",
        "EventDate",
        "EventSponsor",
        "Board",
        "WhiteFideId",
        "BlackFideId",
        "Termination",
        "Mode",
        "PlyCount",
    ];
    let mut more = Vec::new();
    if chess960 {
        more.push(("Variant".to_string(), "Chess960".to_string()));
        more.push(("SetUp".to_string(), "1".to_string()));
        more.push(("FEN".to_string(), CHESS960_FEN.to_string()));
    }
    for i in 0.. {
        if more.len() >= extra {
            break;
        }
        let name = match known.get(i) {
            Some(n) => n.to_string(),
            None if rng.below(5) == 0 => format!("AVeryLongTagNameThatSaysMuchAboutLittle{i}"),
            None => format!("Custom{i}"),
        };
        let v = match name.as_str() {
            "PlyCount" => (moves * 2).to_string(),
            "EventDate" => "????.??.??".to_string(),
            _ => value(&mut rng),
        };
        more.push((name, v));
    }
    more.truncate(extra.max(if chess960 { 3 } else { 0 }));
    tags.extend(more);
    let mut text = String::new();
    for (n, v) in &tags {
        text.push_str(&format!("[{n} \"{v}\"]\n"));
    }
    text.push('\n');
    text.push_str(&out_and_back(moves, ["Nc3", "Nc6", "Nb1", "Nb8"]));
    text
}

/// The movetext of `moves` moves that play `cycle` over and over (knights
/// going out and back: legal forever), drawn: `1. Nc3 Nc6 2. Nb1 Nb8 ...
/// 1/2-1/2` and a line end.
pub fn out_and_back(moves: usize, cycle: [&str; 4]) -> String {
    let mut text = String::new();
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

/// The game of issue 27: 55 moves of Fischer random chess with 17 tags.
pub fn issue_27() -> String {
    game(55, 10, true, 27)
}
