//! `html`: a self-contained page to look at the games of an input (write
//! only). Each game is a section: its tags and result, its board (the
//! family's drawing, [`crate::family::draw`], inline: the board once and
//! the pieces after every ply of the main line, one shown at a time) and
//! its moves in the notation it was read from, with comments and
//! variations. A script in the page (no network, no external file) lists
//! the games, numbers the sections and the plies (`#game-3-ply-41`, a link
//! to each), and steps the board by click (a move, or the buttons) and by
//! the arrow keys (Home and End: the start and the last position). Without
//! the script every game is shown, each at the position it opens on; in
//! print, the game chosen.

use std::fmt::Write as _;

use crate::codec::{Framing, RunWriter, SourceNotation, WriteOptions};
use crate::error::{Kind, Problem};
use crate::family::draw::escape;
use crate::family::spell::Lines;
use crate::ir::{Comment, Game, Line, Side};

/// The page around the games: the style, the list of games (made by the
/// script) and the script.
pub const FRAMING: Framing = Framing {
    head: "<!DOCTYPE html>
<html lang=\"en\">
<head>
<meta charset=\"utf-8\">
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">
<title>{title}</title>
<style>
body { font-family: \"DejaVu Sans\", Verdana, Arial, sans-serif; margin: 1em; color: #111; }
nav#games ol { margin: 0 0 1em; padding-left: 2em; }
nav#games li.current a { font-weight: bold; }
section.game { margin-bottom: 2em; }
section.game h2 { font-size: 1.2em; margin: 0 0 0.4em; }
table.tags { border-collapse: collapse; font-size: 0.85em; margin-bottom: 0.6em; }
table.tags th { text-align: left; font-weight: normal; color: #555; padding: 0 1em 0 0; }
div.view { display: flex; flex-wrap: wrap; gap: 1.2em; align-items: flex-start; }
div.board svg { display: block; }
div.controls { margin-top: 0.4em; display: flex; gap: 0.3em; align-items: center; }
div.controls button { font-size: 1em; min-width: 2.2em; }
div.controls span.at { margin-left: 0.6em; color: #555; font-size: 0.9em; }
div.moves { flex: 1 1 18em; max-width: 40em; max-height: 36em; overflow-y: auto; line-height: 1.7; }
div.moves a.move { color: #111; text-decoration: none; padding: 0 0.15em; border-radius: 0.2em; }
div.moves a.move:hover { background: #eee; }
div.moves a.move.current { background: #f7d774; }
div.moves span.variation { color: #555; }
div.moves span.comment { color: #2a6a2a; font-style: italic; }
div.moves span.result { font-weight: bold; margin-left: 0.3em; }
@media print {
  nav#games, div.controls { display: none; }
  div.moves { max-height: none; overflow: visible; }
}
</style>
</head>
<body>
<nav id=\"games\"></nav>
",
    between: "",
    tail: "<script>
(function () {
  \"use strict\";
  var each = function (list, f) { Array.prototype.forEach.call(list, f); };
  var games = Array.prototype.slice.call(document.querySelectorAll(\"section.game\"));
  var list = document.createElement(\"ol\");
  games.forEach(function (g, i) {
    var n = i + 1;
    g.id = \"game-\" + n;
    each(g.querySelectorAll(\"a.move\"), function (a) {
      a.id = \"game-\" + n + \"-ply-\" + a.getAttribute(\"data-ply\");
      a.href = \"#\" + a.id;
    });
    var li = document.createElement(\"li\");
    var a = document.createElement(\"a\");
    a.href = \"#game-\" + n;
    a.textContent = g.getAttribute(\"data-title\") + \"  \" + g.getAttribute(\"data-result\");
    li.appendChild(a);
    list.appendChild(li);
  });
  if (games.length > 1) { document.getElementById(\"games\").appendChild(list); }
  var current = null, ply = 0;
  var frames = function (g) { return g.querySelectorAll(\"g.ply\"); };
  function show(g, p, keep) {
    var f = frames(g);
    p = Math.max(0, Math.min(f.length - 1, p));
    games.forEach(function (s, i) {
      s.hidden = s !== g;
      if (list.children[i]) { list.children[i].className = s === g ? \"current\" : \"\"; }
    });
    each(f, function (x, i) { x.setAttribute(\"display\", i === p ? \"inline\" : \"none\"); });
    var shown = null;
    each(g.querySelectorAll(\"a.move\"), function (a) {
      var on = +a.getAttribute(\"data-ply\") === p;
      a.className = on ? \"move current\" : \"move\";
      if (on) { shown = a; }
    });
    g.querySelector(\"span.at\").textContent =
      p === 0 ? \"start\" : \"ply \" + p + \" of \" + (f.length - 1);
    g.setAttribute(\"data-shown\", p);
    current = g;
    ply = p;
    if (keep) {
      try { history.replaceState(null, \"\", \"#\" + g.id + \"-ply-\" + p); } catch (e) { }
    }
    if (shown && shown.scrollIntoView) { shown.scrollIntoView({ block: \"nearest\" }); }
  }
  function route() {
    var m = /^#game-(\\d+)(?:-ply-(\\d+))?$/.exec(location.hash);
    var g = m && games[+m[1] - 1];
    if (g) { show(g, m[2] !== undefined ? +m[2] : +g.getAttribute(\"data-start\")); }
    else if (games.length) { show(games[0], +games[0].getAttribute(\"data-start\")); }
  }
  window.addEventListener(\"hashchange\", route);
  document.addEventListener(\"keydown\", function (e) {
    if (!current || e.altKey || e.ctrlKey || e.metaKey) { return; }
    var last = frames(current).length - 1;
    var to = { ArrowRight: ply + 1, ArrowLeft: ply - 1, Home: 0, End: last }[e.key];
    if (to === undefined) { return; }
    e.preventDefault();
    show(current, to, true);
  });
  document.addEventListener(\"click\", function (e) {
    var b = e.target.closest && e.target.closest(\"button[data-step]\");
    if (!b || !current) { return; }
    var last = frames(current).length - 1;
    var to = { first: 0, back: ply - 1, forward: ply + 1, last: last }[b.getAttribute(\"data-step\")];
    show(current, to, true);
  });
  route();
})();
</script>
</body>
</html>
",
    title: Some(page_title),
};

/// The page's title: the first game's name, or `Games`.
fn page_title(first: &str) -> String {
    first
        .split_once(" data-title=\"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .map(|(t, _)| t.to_string())
        .filter(|t| !t.is_empty())
        .unwrap_or_else(|| "Games".to_string())
}

/// Each ply's text, in the order the container writes them (each ply, then
/// its variations): as the notation the game was read from spells it, or,
/// read from an interchange format, as the family's canonical notation
/// does.
fn spelling(game: &Game, source: Option<&SourceNotation>) -> Result<Vec<String>, Problem> {
    if let Some(source) = source.filter(|s| s.family == game.family()) {
        if let Ok(texts) = (source.spell)(game, Lines::All, &source.read) {
            return Ok(texts);
        }
    }
    Ok(crate::family::move_fields(game)?
        .into_iter()
        .map(|f| f.written)
        .collect())
}

/// Writes one game as a section of the page.
pub fn write(game: &Game, opts: &WriteOptions, out: &mut String) -> Result<Vec<Problem>, Problem> {
    crate::codec::write_runs(runs(opts), game, out)
}

/// The mark of the ids of a section's drawing in the text written, put
/// in once the section is whole ([`RunWriter::end_filled`]): no text of a
/// game holds a bare `<`.
const ID: &str = "<ID>";

/// The writer of a game as a section of the page a run at a time
/// ([`crate::codec::RunsFn`]): each frame of the board written as its
/// run comes (the last one made held back, the one the section may open
/// on), the move list kept until the board's end, and the section's head
/// (its title, tags, the board) written at the end before them.
pub fn runs(opts: &WriteOptions) -> Box<dyn RunWriter> {
    Box::new(HtmlRuns {
        opts: opts.clone(),
        o: super::options(opts),
        depth: 0,
        frames: 0,
        pending: None,
        moves: String::new(),
        lines: Vec::new(),
        main: 0,
        head: None,
        whole: None,
        body: std::hash::DefaultHasher::new(),
        warnings: Vec::new(),
    })
}

/// A game being written as a section of the page ([`runs`]).
struct HtmlRuns {
    opts: WriteOptions,
    o: super::Options,
    /// How deep in variations the runs coming are (0: the main line).
    depth: usize,
    /// The frames made so far (positions of the main line).
    frames: usize,
    /// The last frame made, not yet written: the section opens on it
    /// where `ply` is past the game's end.
    pending: Option<String>,
    /// The move list so far.
    moves: String,
    /// Of each line open, main line first: whether its last ply flows
    /// on (no comment or variation after it: the next one of the second
    /// side needs no number).
    lines: Vec<bool>,
    /// The plies of the main line written so far.
    main: usize,
    /// Where the section began in the text and the hash of its head,
    /// when the head was written first (a whole game).
    head: Option<(usize, u64)>,
    /// A whole game's drawing, made for its head, for its one run.
    whole: Option<crate::family::draw::Diagram>,
    /// The hash of what was written after the head.
    body: std::hash::DefaultHasher,
    /// What the drawing of the section's board said ([`Diagram::warnings`]).
    ///
    /// [`Diagram::warnings`]: crate::family::draw::Diagram::warnings
    warnings: Vec<crate::error::Problem>,
}

impl HtmlRuns {
    /// The ply the section opens on, of a main line of `last` plies.
    fn start(&self, last: usize) -> usize {
        self.o.ply.unwrap_or(0).min(last)
    }

    /// Writes the frame held back, as frame `k` ([`HtmlRuns::pending`]),
    /// shown where the section opens on it.
    fn flush(&mut self, shown: bool, out: &mut String) {
        if let Some(frame) = self.pending.take() {
            let k = self.frames - 1;
            let display = if shown { "inline" } else { "none" };
            let _ = writeln!(
                out,
                "<g class=\"ply\" data-ply=\"{k}\" display=\"{display}\">"
            );
            out.push_str(&frame);
            out.push_str("</g>\n");
        }
    }

    /// The section's head: its title, tags and the board, up to its
    /// frames.
    fn section_head(
        &self,
        game: &Game,
        diagram: &crate::family::draw::Diagram,
        last: usize,
        out: &mut String,
    ) {
        let start = self.start(last);
        let title = super::title(game);
        let result = game.result.map_or("*", |r| r.token());
        out.push_str("<section class=\"game\" data-title=\"");
        escape(&title, out);
        let _ = write!(
            out,
            "\" data-result=\"{result}\" data-start=\"{start}\" data-plies=\"{last}\">\n<h2>"
        );
        escape(&title, out);
        out.push_str("</h2>\n<table class=\"tags\">\n");
        // A placeholder (`?`, `????.??.??`) says nothing.
        for tag in game
            .tags
            .iter()
            .filter(|t| !crate::ir::placeholder(&t.value))
        {
            out.push_str("<tr><th>");
            escape(&tag.name, out);
            out.push_str("</th><td>");
            escape(&tag.value, out);
            out.push_str("</td></tr>\n");
        }
        out.push_str("</table>\n<div class=\"view\">\n<div class=\"board\">\n");
        diagram.open(out, " class=\"board\"");
        out.push_str(&diagram.board);
    }

    /// The drawing of a game or run (the whole game's, made for its head).
    fn diagram(&mut self, game: &Game) -> Result<crate::family::draw::Diagram, Problem> {
        match self.whole.take() {
            Some(d) => Ok(d),
            None => crate::family::diagram(game, &super::view(&self.o, &self.opts, ID)),
        }
    }
}

/// Hashes the text written after byte `from` of `out`.
fn hash_from(hasher: &mut std::hash::DefaultHasher, out: &str, from: usize) {
    std::hash::Hasher::write(hasher, &out.as_bytes()[from..]);
}

impl RunWriter for HtmlRuns {
    fn head(&mut self, game: &Game, out: &mut String) -> Result<(), Problem> {
        let mut diagram = crate::family::diagram(game, &super::view(&self.o, &self.opts, ID))?;
        self.warnings = std::mem::take(&mut diagram.warnings);
        let from = out.len();
        self.section_head(game, &diagram, diagram.frames.len() - 1, out);
        let mut hasher = std::hash::DefaultHasher::new();
        hash_from(&mut hasher, out, from);
        self.head = Some((from, std::hash::Hasher::finish(&hasher)));
        self.whole = Some(diagram);
        Ok(())
    }

    fn run(&mut self, run: &Game, out: &mut String) -> Result<(), Problem> {
        let from = out.len();
        let first = run.variant.first_mover();
        if self.lines.is_empty() {
            self.lines.push(false);
        }
        if self.depth == 0 {
            let diagram = self.diagram(run)?;
            // A run's first frame is the last one's position.
            let skip = usize::from(self.frames > 0);
            for frame in diagram.frames.into_iter().skip(skip) {
                let k = self.frames;
                self.flush(k.checked_sub(1) == self.o.ply.or(Some(0)), out);
                self.frames += 1;
                self.pending = Some(frame);
            }
        }
        let mut moves = Moves {
            texts: spelling(run, self.opts.source.as_ref())?.into_iter(),
            first,
            main: self.main,
        };
        let flowing = self.lines.last_mut().expect("a line is open");
        *flowing = moves.plies(&run.moves, self.depth == 0, *flowing, &mut self.moves)?;
        self.main = moves.main;
        hash_from(&mut self.body, out, from);
        Ok(())
    }

    fn open(&mut self, _out: &mut String) -> Result<(), Problem> {
        match self.lines.last_mut() {
            Some(flowing) => *flowing = false,
            None => return Err(crate::codec::opened_first()),
        }
        self.moves.push_str("<span class=\"variation\">(");
        self.lines.push(false);
        self.depth += 1;
        Ok(())
    }

    fn close(&mut self, trailing: &[Comment], _out: &mut String) -> Result<(), Problem> {
        self.depth = self
            .depth
            .checked_sub(1)
            .ok_or_else(crate::codec::not_open)?;
        self.lines.pop();
        comments(trailing, &mut self.moves);
        self.moves.push_str(")</span>\n");
        Ok(())
    }

    fn end(
        self: Box<Self>,
        game: &Game,
        head: &mut String,
        out: &mut String,
    ) -> Result<Vec<Problem>, Problem> {
        let from = self.head.map_or(0, |(from, _)| from);
        let ended = self.end_filled(game, head, out);
        crate::output::spill::filled(ended, head, out, from)
    }

    fn end_filled(
        mut self: Box<Self>,
        game: &Game,
        head: &mut String,
        out: &mut String,
    ) -> Result<(Vec<Problem>, crate::output::spill::Fills), Problem> {
        if self.depth > 0 {
            return Err(crate::codec::left_open());
        }
        if self.frames == 0 {
            // No run: the start.
            self.run(
                &Game {
                    moves: Line::default(),
                    ..game.clone()
                },
                &mut String::new(),
            )?;
        }
        let from = out.len();
        let last = self.frames - 1;
        let start = self.start(last);
        self.flush(start == last, out);
        let result = game.result.map_or("*", |r| r.token());
        out.push_str("</svg>\n");
        out.push_str(
            "<div class=\"controls\"><button type=\"button\" data-step=\"first\" title=\"start (Home)\">|&lt;</button>\
             <button type=\"button\" data-step=\"back\" title=\"back (left arrow)\">&lt;</button>\
             <button type=\"button\" data-step=\"forward\" title=\"forward (right arrow)\">&gt;</button>\
             <button type=\"button\" data-step=\"last\" title=\"last (End)\">&gt;|</button>\
             <span class=\"at\"></span></div>\n</div>\n<div class=\"moves\">\n",
        );
        comments(&game.preamble, out);
        out.push_str(&self.moves);
        comments(&game.moves.trailing, out);
        let _ = writeln!(out, "<span class=\"result\">{result}</span>");
        out.push_str("</div>\n</div>\n</section>\n");
        hash_from(&mut self.body, out, from);
        let head_hash = match self.head {
            Some((_, hash)) => hash,
            None => {
                // The board's shapes and squares, from the start.
                let start = Game {
                    moves: Line::default(),
                    ..game.clone()
                };
                let mut diagram =
                    crate::family::diagram(&start, &super::view(&self.o, &self.opts, ID))?;
                self.warnings = std::mem::take(&mut diagram.warnings);
                self.section_head(game, &diagram, last, head);
                let mut hasher = std::hash::DefaultHasher::new();
                hash_from(&mut hasher, head, 0);
                std::hash::Hasher::finish(&hasher)
            }
        };
        // Ids unique in the page: after what the section holds (two
        // sections alike share their ids, and their shapes).
        let mut hasher = std::hash::DefaultHasher::new();
        std::hash::Hash::hash(
            &(head_hash, std::hash::Hasher::finish(&self.body)),
            &mut hasher,
        );
        let id = format!("g{:016x}", std::hash::Hasher::finish(&hasher));
        Ok((self.warnings, vec![(ID, id)]))
    }
}

/// Comments, each in its span.
fn comments(list: &[Comment], out: &mut String) {
    for c in list {
        out.push_str("<span class=\"comment\">");
        escape(c.text.trim(), out);
        out.push_str("</span>\n");
    }
}

/// The move list being written.
struct Moves {
    texts: std::vec::IntoIter<String>,
    first: Side,
    /// The plies of the main line written so far.
    main: usize,
}

impl Moves {
    /// The plies of a line: each ply (a link to its position on the main
    /// line), its comments and its variations, in the order the container
    /// writes them (as the texts come); `flowing` whether the ply before
    /// them flows on to them. Whether the last flows on.
    fn plies(
        &mut self,
        line: &Line,
        main: bool,
        mut flowing: bool,
        out: &mut String,
    ) -> Result<bool, Problem> {
        for ply in &line.plies {
            comments(&ply.before, out);
            if ply.side == self.first || !flowing || !ply.before.is_empty() {
                out.push_str("<span class=\"num\">");
                escape(&ply.label(self.first), out);
                out.push_str("</span>");
            }
            let text = self.texts.next().ok_or_else(|| {
                Problem::whole("the spelling lost its place in the game").of_kind(Kind::Internal)
            })?;
            let (glyph, _) = ply.suffix();
            if main {
                self.main += 1;
                let _ = write!(out, "<a class=\"move\" data-ply=\"{}\">", self.main);
            } else {
                out.push_str("<span class=\"alt\">");
            }
            escape(&text, out);
            escape(glyph.unwrap_or(""), out);
            out.push_str(if main { "</a>\n" } else { "</span>\n" });
            comments(&ply.after, out);
            flowing = ply.after.is_empty() && ply.variations.is_empty();
            for v in &ply.variations {
                out.push_str("<span class=\"variation\">(");
                self.plies(v, false, false, out)?;
                comments(&v.trailing, out);
                out.push_str(")</span>\n");
            }
        }
        Ok(flowing)
    }
}
