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

use crate::codec::{Framing, SourceNotation, WriteOptions};
use crate::error::Problem;
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
    let o = super::options(opts);
    // The ids of the drawing are named once the section is written (no
    // text of a game holds a bare `<`).
    let placeholder = "<ID>";
    let diagram = crate::family::diagram(game, &super::view(&o, opts, placeholder))?;
    let last = diagram.frames.len() - 1;
    // A page of several games opens each at `ply`, a shorter one at its
    // last position.
    let start = o.ply.unwrap_or(0).min(last);
    let texts = spelling(game, opts.source.as_ref())?;
    let title = super::title(game);
    let result = game.result.map_or("*", |r| r.token());
    let whole = out;
    let out = &mut String::with_capacity(diagram.board.len() * 2);
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
    let mut svg = String::new();
    diagram.open(&mut svg, " class=\"board\"");
    svg.push_str(&diagram.board);
    for (k, frame) in diagram.frames.iter().enumerate() {
        let display = if k == start { "inline" } else { "none" };
        let _ = writeln!(
            svg,
            "<g class=\"ply\" data-ply=\"{k}\" display=\"{display}\">"
        );
        svg.push_str(frame);
        svg.push_str("</g>\n");
    }
    svg.push_str("</svg>\n");
    out.push_str(&svg);
    out.push_str(
        "<div class=\"controls\"><button type=\"button\" data-step=\"first\" title=\"start (Home)\">|&lt;</button>\
         <button type=\"button\" data-step=\"back\" title=\"back (left arrow)\">&lt;</button>\
         <button type=\"button\" data-step=\"forward\" title=\"forward (right arrow)\">&gt;</button>\
         <button type=\"button\" data-step=\"last\" title=\"last (End)\">&gt;|</button>\
         <span class=\"at\"></span></div>\n</div>\n<div class=\"moves\">\n",
    );
    comments(&game.preamble, out);
    let mut moves = Moves {
        texts: texts.into_iter(),
        first: game.variant.first_mover(),
        main: 0,
    };
    moves.line(&game.moves, true, out)?;
    let _ = writeln!(out, "<span class=\"result\">{result}</span>");
    out.push_str("</div>\n</div>\n</section>\n");
    // Ids unique in the page: after what the section holds (two sections
    // alike share their ids, and their shapes).
    let mut hasher = std::hash::DefaultHasher::new();
    std::hash::Hash::hash(out.as_str(), &mut hasher);
    let id = format!("g{:016x}", std::hash::Hasher::finish(&hasher));
    whole.push_str(&out.replace(placeholder, &id));
    Ok(Vec::new())
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
    /// A line: each ply (a link to its position on the main line), its
    /// comments and its variations, in the order the container writes
    /// them (as the texts come).
    fn line(&mut self, line: &Line, main: bool, out: &mut String) -> Result<(), Problem> {
        let mut flowing = false;
        for ply in &line.plies {
            comments(&ply.before, out);
            if ply.side == self.first || !flowing || !ply.before.is_empty() {
                out.push_str("<span class=\"num\">");
                escape(&ply.label(self.first), out);
                out.push_str("</span>");
            }
            let text = self
                .texts
                .next()
                .ok_or_else(|| Problem::whole("the spelling lost its place in the game"))?;
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
                self.line(v, false, out)?;
                out.push_str(")</span>\n");
            }
        }
        comments(&line.trailing, out);
        Ok(())
    }
}
