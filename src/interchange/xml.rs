//! `xml`: the IR as an XML document of games, valid against
//! `schema/kifu.xsd`. Any game written and read back is the same game.
//!
//! The vocabulary (no namespace):
//!
//! ```xml
//! <?xml version="1.0" encoding="UTF-8"?>
//! <games>
//! <game>
//!   <variant family="chess"/>
//!   <preamble kind="line">a comment before the tags</preamble>
//!   <tag><name>Event</name><value>Hastings &amp; District</value></tag>
//!   <setup><chess>8/8/8/8/8/8/8/K1k5 w - - 0 1</chess></setup>
//!   <moves>
//!     <ply number="1" side="white" glyph="!" nags="14">
//!       <before>a comment before the move</before>
//!       <chess><move role="pawn" from="e2" to="e4"/></chess>
//!       <after kind="line">after it</after>
//!       <variation><ply number="1" side="white">..</ply><trailing>..</trailing></variation>
//!     </ply>
//!     <trailing>a comment after the last ply</trailing>
//!   </moves>
//!   <result>1-0</result>
//! </game>
//! </games>
//! ```
//!
//! `<game>`, `<tag>`, comments (`<preamble>`, `<before>`, `<after>`,
//! `<trailing>`, with `kind` `line` or `escape` where not a brace comment),
//! `<moves>`, `<ply>` and `<variation>` are the same for every family and
//! written here. The family's own parts (the attributes of `<variant>`, the
//! element in `<setup>`, the move element in `<ply>`, named after the
//! family) come from its types' serde derives, the definition `json` dumps
//! (`xml/fields.rs`).
//!
//! Text is written as it is, `&`, `<` and `>` escaped, a carriage return
//! as `&#13;`; a character XML 1.0 cannot hold (U+0000 to U+001F but tab,
//! line feed and carriage return; U+FFFE, U+FFFF) is the empty element
//! `<char code="001B"/>` (four hexadecimal digits) in its place.
//!
//! Each `<game>` element is a record, read in parallel with the others; the
//! document around the games belongs to no game. A DOCTYPE, an entity
//! declaration and any entity reference but the five predefined ones and
//! character references are refused with their position, never resolved.

mod fields;
mod schema;

pub use schema::xsd;

use quick_xml::escape::EscapeError;
use quick_xml::events::{BytesStart, Event};
use quick_xml::XmlVersion;
use serde::Deserialize;

use super::Last;
use crate::codec::{
    line_col, too_deep, Frame, Framing, Oversize, Parsed, ReadOptions, RunWriter, Scan, Skip,
    WriteOptions,
};
use crate::error::{Kind, Problem};
use crate::family::{Move, Setup, Variant};
use crate::ir::MAX_VARIATION_DEPTH;
use crate::ir::{Comment, CommentKind, Game, GameResult, Line, Ply, Side, Tag};
use fields::{push_attr, push_children, push_element, push_text, to_value, unholdable, De, Node};

/// What the writer puts around the games: the XML declaration and the
/// `<games>` root.
pub const FRAMING: Framing = Framing {
    head: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<games>\n",
    between: "\n",
    tail: "\n</games>\n",
    title: None,
};

/// How deeply elements nest in a game whose variations nest
/// [`MAX_VARIATION_DEPTH`] deep: a `<ply>` and a `<variation>` a level,
/// under `<game>` and `<moves>`, with room for a move's own elements.
const MAX_XML_DEPTH: usize = 2 * MAX_VARIATION_DEPTH + 16;

// ---------------------------------------------------------------- writing

/// The kind of the error of a game that XML cannot hold (a character XML
/// 1.0 cannot hold in an attribute): the game fails, nothing is lost.
pub const CANNOT_HOLD: crate::error::Kind = crate::error::Kind::XmlCannotHold;

/// Writes one game as a `<game>` element, without a newline after it.
pub fn write(game: &Game, opts: &WriteOptions, out: &mut String) -> Result<Vec<Problem>, Problem> {
    crate::codec::write_runs(runs(opts), game, out)
}

/// The writer of a game as a `<game>` element a run at a time
/// ([`crate::codec::RunsFn`]).
pub fn runs(_opts: &WriteOptions) -> Box<dyn RunWriter> {
    Box::new(XmlRuns {
        head_written: false,
        lines: vec![(2, Last::None)],
    })
}

/// The error of a game XML cannot hold.
fn cannot_hold(e: fields::Error) -> Problem {
    Problem::whole(format!("cannot be written as XML: {e}")).of_kind(CANNOT_HOLD)
}

/// A game being written as a `<game>` element a run at a time: the head
/// (up to `<moves>`), each ply with its variations, its `</ply>` left for
/// the next ply, the end of its line or a variation of it; the end.
struct XmlRuns {
    /// Whether [`RunWriter::head`] wrote the head first.
    head_written: bool,
    /// Each open line's depth (its plies' indent) and its last ply, the
    /// main line first.
    lines: Vec<(usize, Last)>,
}

impl XmlRuns {
    /// The line open.
    fn line(&mut self) -> Result<&mut (usize, Last), Problem> {
        self.lines.last_mut().ok_or_else(crate::codec::not_open)
    }

    /// Closes the open line's last ply, if open.
    fn close_ply(&mut self, out: &mut String) -> Result<(), Problem> {
        let (depth, last) = self.line()?;
        close_ply(out, std::mem::replace(last, Last::None), *depth);
        Ok(())
    }
}

impl RunWriter for XmlRuns {
    fn head(&mut self, game: &Game, out: &mut String) -> Result<(), Problem> {
        write_head(game, out).map_err(cannot_hold)?;
        self.head_written = true;
        Ok(())
    }

    fn run(&mut self, run: &Game, out: &mut String) -> Result<(), Problem> {
        for ply in &run.moves.plies {
            self.close_ply(out)?;
            let (depth, last) = self.line()?;
            indent(out, *depth);
            push_ply_open(out, ply, *depth).map_err(cannot_hold)?;
            *last = Last::of(ply);
        }
        Ok(())
    }

    fn open(&mut self, out: &mut String) -> Result<(), Problem> {
        let (depth, last) = self.line()?;
        if *last == Last::None {
            return Err(crate::codec::opened_first());
        }
        *last = Last::InVariations;
        let depth = *depth;
        indent(out, depth + 1);
        out.push_str("<variation>");
        self.lines.push((depth + 2, Last::None));
        Ok(())
    }

    fn close(&mut self, trailing: &[Comment], out: &mut String) -> Result<(), Problem> {
        if self.lines.len() < 2 {
            return Err(crate::codec::not_open());
        }
        self.close_ply(out)?;
        let (depth, _) = self.lines.pop().expect("checked above");
        push_trailing(out, trailing, depth).map_err(cannot_hold)?;
        indent(out, depth - 1);
        out.push_str("</variation>");
        Ok(())
    }

    fn end(
        mut self: Box<Self>,
        game: &Game,
        head: &mut String,
        out: &mut String,
    ) -> Result<Vec<Problem>, Problem> {
        if self.lines.len() != 1 {
            return Err(crate::codec::left_open());
        }
        self.close_ply(out)?;
        if !self.head_written {
            write_head(game, head).map_err(cannot_hold)?;
        }
        push_trailing(out, &game.moves.trailing, 2).map_err(cannot_hold)?;
        out.push_str("\n  </moves>");
        if let Some(r) = game.result {
            out.push_str("\n  <result>");
            push_text(out, r.token());
            out.push_str("</result>");
        }
        out.push_str("\n</game>");
        Ok(Vec::new())
    }
}

/// A game's element up to its main line's plies.
fn write_head(game: &Game, out: &mut String) -> Result<(), fields::Error> {
    out.push_str("<game>\n  ");
    push_element(out, "variant", &to_value(&game.variant)?)?;
    for c in &game.preamble {
        out.push_str("\n  ");
        push_comment(out, "preamble", c)?;
    }
    for t in &game.tags {
        out.push_str("\n  <tag><name>");
        push_text(out, &t.name);
        out.push_str("</name><value>");
        push_text(out, &t.value);
        out.push_str("</value></tag>");
    }
    if let Some(setup) = &game.setup {
        out.push_str("\n  <setup>");
        push_children(out, &to_value(setup)?)?;
        out.push_str("</setup>");
    }
    out.push_str("\n  <moves>");
    Ok(())
}

/// A new line indented for an element nested `depth` deep (no deeper than
/// a few levels: a deep variation is not pushed off the screen).
fn indent(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth.min(12) {
        out.push_str("  ");
    }
}

fn push_comment(out: &mut String, name: &str, c: &Comment) -> Result<(), fields::Error> {
    out.push('<');
    out.push_str(name);
    if c.kind != CommentKind::Brace {
        if let fields::Value::Text(kind) = to_value(&c.kind)? {
            push_attr(out, "kind", &kind)?;
        }
    }
    out.push('>');
    push_text(out, &c.text);
    out.push_str("</");
    out.push_str(name);
    out.push('>');
    Ok(())
}

/// A line's plies, each closed, and its trailing comments.
fn push_line(out: &mut String, line: &Line, depth: usize) -> Result<(), fields::Error> {
    for ply in &line.plies {
        indent(out, depth);
        push_ply_open(out, ply, depth)?;
        close_ply(out, Last::of(ply), depth);
    }
    push_trailing(out, &line.trailing, depth)
}

/// A line's trailing comments.
fn push_trailing(
    out: &mut String,
    trailing: &[Comment],
    depth: usize,
) -> Result<(), fields::Error> {
    for c in trailing {
        indent(out, depth);
        push_comment(out, "trailing", c)?;
    }
    Ok(())
}

/// A `<ply>` element up to its end: the move, its comments and the
/// variations it holds ([`close_ply`] ends it).
fn push_ply_open(out: &mut String, ply: &Ply, depth: usize) -> Result<(), fields::Error> {
    out.push_str("<ply");
    push_attr(out, "number", &ply.number.to_string())?;
    push_attr(out, "side", side_name(ply.side))?;
    if let Some(g) = &ply.glyph {
        push_attr(out, "glyph", g)?;
    }
    if !ply.nags.is_empty() {
        let nags: Vec<String> = ply.nags.iter().map(u32::to_string).collect();
        push_attr(out, "nags", &nags.join(" "))?;
    }
    out.push('>');
    for c in &ply.before {
        push_comment(out, "before", c)?;
    }
    push_children(out, &to_value(&ply.mv)?)?;
    for c in &ply.after {
        push_comment(out, "after", c)?;
    }
    for v in &ply.variations {
        indent(out, depth + 1);
        out.push_str("<variation>");
        push_line(out, v, depth + 2)?;
        indent(out, depth + 1);
        out.push_str("</variation>");
    }
    Ok(())
}

/// Ends a ply [`push_ply_open`] left open, as it stands (`</ply>` on a
/// line of its own after its variations).
fn close_ply(out: &mut String, last: Last, depth: usize) {
    match last {
        Last::None => {}
        Last::Open => out.push_str("</ply>"),
        Last::InVariations => {
            indent(out, depth);
            out.push_str("</ply>");
        }
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

// ---------------------------------------------------------------- reading

/// Reads one record: a `<game>` element. Anything else the scanner hands
/// over (a DOCTYPE, text or an element outside any game) is refused.
pub fn read(text: &str, _opts: &ReadOptions) -> Result<Parsed, Problem> {
    let root = parse(text)?;
    let at = |n: &Node| line_col(text, n.at);
    let game = game_of(&root, &at)?;
    let game = super::json::settle(game)?;
    Ok(Parsed {
        game,
        warnings: Vec::new(),
    })
}

/// The error for what kifu refuses to resolve or read at a byte offset.
fn refused(text: &str, offset: usize, what: &str) -> Problem {
    Problem::at(line_col(text, offset), what.to_string()).of_kind(Kind::Document)
}

const DOCTYPE_REFUSED: &str =
    "a DOCTYPE is refused: kifu reads no document type definition and resolves no entities";
const ENTITY_REFUSED: &str =
    "an entity declaration is refused: kifu resolves no entities but the five predefined ones";

/// The one element a record holds, as a tree; every error located.
fn parse(text: &str) -> Result<Node, Problem> {
    let mut reader = quick_xml::Reader::from_str(text);
    let config = reader.config_mut();
    config.trim_text(false);
    config.check_end_names = true;
    config.check_comments = true;
    config.expand_empty_elements = false;
    let mut stack: Vec<Node> = Vec::new();
    let mut root: Option<Node> = None;
    loop {
        let before = reader.buffer_position() as usize;
        let event = match reader.read_event() {
            Ok(e) => e,
            Err(e) => {
                if text[before..].trim_start().starts_with("<!ENTITY") {
                    return Err(refused(text, before, ENTITY_REFUSED));
                }
                let at = reader.error_position() as usize;
                return Err(refused(text, at, &format!("malformed XML: {e}")));
            }
        };
        let outside =
            |what: &str| refused(text, before, &format!("{what} outside a <game> element"));
        match event {
            Event::Start(_) | Event::Empty(_) if root.is_some() && stack.is_empty() => {
                return Err(outside("an element"));
            }
            Event::Start(e) => {
                if stack.len() >= MAX_XML_DEPTH {
                    return Err(too_deep(line_col(text, before)));
                }
                stack.push(node_of(text, &e, before)?);
            }
            Event::Empty(e) => {
                let node = node_of(text, &e, before)?;
                close(text, node, &mut stack, &mut root)?;
            }
            Event::End(_) => {
                let node = stack.pop().ok_or_else(|| outside("an end tag"))?;
                close(text, node, &mut stack, &mut root)?;
            }
            Event::Text(t) => {
                let s = t.xml10_content();
                check_chars(text, before, &s)?;
                match stack.last_mut() {
                    Some(n) => n.text.push_str(&s),
                    None if s.trim_ascii().is_empty() => {}
                    None => return Err(outside("text")),
                }
            }
            Event::CData(t) => {
                let s = t.xml10_content();
                check_chars(text, before, &s)?;
                match stack.last_mut() {
                    Some(n) => n.text.push_str(&s),
                    None => return Err(outside("a CDATA section")),
                }
            }
            Event::GeneralRef(r) => {
                let c = match r.resolve_char_ref() {
                    Ok(Some(c)) if !unholdable(c) => Some(c),
                    Ok(Some(c)) => {
                        return Err(refused(
                            text,
                            before,
                            &format!(
                                "&{}; is U+{:04X}, which XML 1.0 cannot hold (kifu writes <char code=\"{:04X}\"/>)",
                                &*r, c as u32, c as u32
                            ),
                        ))
                    }
                    Ok(None) => None,
                    Err(e) => return Err(refused(text, before, &format!("malformed XML: {e}"))),
                };
                let s = match c {
                    Some(c) => c.to_string(),
                    None => match quick_xml::escape::resolve_predefined_entity(&r) {
                        Some(s) => s.to_string(),
                        None => {
                            return Err(refused(
                                text,
                                before,
                                &format!(
                                    "the entity reference &{}; is refused: kifu resolves only &amp;, &lt;, &gt;, &quot;, &apos; and character references",
                                    &*r
                                ),
                            ))
                        }
                    },
                };
                match stack.last_mut() {
                    Some(n) => n.text.push_str(&s),
                    None => return Err(outside("a reference")),
                }
            }
            Event::DocType(_) => return Err(refused(text, before, DOCTYPE_REFUSED)),
            Event::Decl(_) => {
                return Err(refused(
                    text,
                    before,
                    "an XML declaration after the start of the document",
                ))
            }
            Event::Comment(_) | Event::PI(_) => {}
            Event::Eof => break,
        }
    }
    if let Some(open) = stack.last() {
        return Err(refused(
            text,
            open.at,
            &format!("malformed XML: <{}> is not closed", open.name),
        ));
    }
    root.ok_or_else(|| Problem::whole("no <game> element").of_kind(Kind::Document))
}

/// A character a parser must refuse in the text, at its position.
fn check_chars(text: &str, at: usize, s: &str) -> Result<(), Problem> {
    match s.chars().find(|&c| unholdable(c)) {
        Some(c) => Err(refused(
            text,
            at,
            &format!(
                "malformed XML: U+{:04X} cannot appear in XML 1.0 (kifu writes <char code=\"{:04X}\"/>)",
                c as u32, c as u32
            ),
        )),
        None => Ok(()),
    }
}

/// An element's name and attributes, read.
fn node_of(text: &str, e: &BytesStart<'_>, at: usize) -> Result<Node, Problem> {
    let name = e.name().as_ref().to_string();
    let mut node = Node {
        name,
        at,
        ..Node::default()
    };
    for a in e.attributes() {
        let a = a.map_err(|err| refused(text, at, &format!("malformed XML: {err}")))?;
        let key = a.key.as_ref().to_string();
        let value = a.normalized_value(XmlVersion::Implicit1_0).map_err(|err| {
            let msg = err.to_string();
            if matches!(
                err,
                quick_xml::Error::Escape(
                    EscapeError::UnrecognizedEntity(..) | EscapeError::TooManyNestedEntities
                )
            ) {
                refused(
                    text,
                    at,
                    &format!("an entity reference in the attribute {key} is refused: kifu resolves only the five predefined entities and character references ({msg})"),
                )
            } else {
                refused(text, at, &format!("malformed XML: {msg}"))
            }
        })?;
        check_chars(text, at, &value)?;
        node.attrs.push((key, value.into_owned()));
    }
    Ok(node)
}

/// Ends an element: a `<char>` goes into its parent's text, any other
/// element into its parent's children (or is the record's element).
fn close(
    text: &str,
    node: Node,
    stack: &mut [Node],
    root: &mut Option<Node>,
) -> Result<(), Problem> {
    if node.name == "char" {
        let c = match (
            node.attrs.as_slice(),
            node.children.is_empty() && node.text.is_empty(),
        ) {
            ([(k, v)], true) if k == "code" => {
                u32::from_str_radix(v, 16).ok().and_then(char::from_u32)
            }
            _ => None,
        };
        let c = c.ok_or_else(|| {
            refused(
                text,
                node.at,
                "<char> must be empty with one attribute, code, the character's number in hexadecimal",
            )
        })?;
        return match stack.last_mut() {
            Some(parent) => {
                parent.text.push(c);
                Ok(())
            }
            None => Err(refused(text, node.at, "<char> outside a <game> element")),
        };
    }
    match stack.last_mut() {
        Some(parent) => parent.children.push(node),
        None => *root = Some(node),
    }
    Ok(())
}

/// Locates a node (line and column in the record).
type At<'a> = dyn Fn(&Node) -> (usize, usize) + 'a;

fn problem(at: &At<'_>, n: &Node, message: impl Into<String>) -> Problem {
    Problem::at(at(n), message.into()).of_kind(Kind::Document)
}

/// Checks that an element holds no text but blanks, and only the
/// attributes named.
fn expect(at: &At<'_>, n: &Node, attrs: &[&str]) -> Result<(), Problem> {
    if !n.text.trim_ascii().is_empty() {
        return Err(problem(
            at,
            n,
            format!("<{}> holds text where elements are expected", n.name),
        ));
    }
    if let Some((k, _)) = n.attrs.iter().find(|(k, _)| !attrs.contains(&k.as_str())) {
        return Err(problem(at, n, format!("<{}> has no attribute {k}", n.name)));
    }
    Ok(())
}

/// What a family element of a node deserializes into, or its error.
fn family<'a, T: Deserialize<'a>>(at: &At<'_>, n: &Node, de: De<'a>) -> Result<T, Problem> {
    T::deserialize(de).map_err(|e| problem(at, n, format!("invalid <{}>: {e}", n.name)))
}

/// The text of an element that holds only text.
fn text_of<'a>(at: &At<'_>, n: &'a Node) -> Result<&'a str, Problem> {
    if !n.children.is_empty() {
        return Err(problem(at, n, format!("<{}> holds only text", n.name)));
    }
    Ok(&n.text)
}

fn game_of(n: &Node, at: &At<'_>) -> Result<Game, Problem> {
    if n.name != "game" {
        return Err(problem(
            at,
            n,
            format!("<{}> where a <game> is expected", n.name),
        ));
    }
    expect(at, n, &[])?;
    let (mut variant, mut setup, mut moves, mut result) = (None, None, None, None);
    let (mut preamble, mut tags) = (Vec::new(), Vec::new());
    for c in &n.children {
        match c.name.as_str() {
            "variant" => once(at, c, &mut variant, || family(at, c, De::Node(c)))?,
            "preamble" => preamble.push(comment_of(at, c)?),
            "tag" => tags.push(tag_of(at, c)?),
            "setup" => once(at, c, &mut setup, || {
                expect(at, c, &[])?;
                match c.children.as_slice() {
                    [one] => family::<Setup>(at, one, De::Tagged(one)),
                    _ => Err(problem(
                        at,
                        c,
                        "<setup> holds one element, named after the family",
                    )),
                }
            })?,
            "moves" => once(at, c, &mut moves, || line_of(at, c))?,
            "result" => once(at, c, &mut result, || {
                let token = text_of(at, c)?;
                GameResult::parse(token).ok_or_else(|| {
                    problem(
                        at,
                        c,
                        format!(
                            "{token} is not a game result",
                            token = crate::error::quote(token)
                        ),
                    )
                })
            })?,
            other => return Err(problem(at, c, format!("<game> holds no <{other}>"))),
        }
    }
    let variant: Variant = variant.ok_or_else(|| problem(at, n, "the <game> has no <variant>"))?;
    Ok(Game {
        preamble,
        tags,
        setup,
        moves: moves.ok_or_else(|| problem(at, n, "the <game> has no <moves>"))?,
        result,
        ..Game::new(variant)
    })
}

/// Reads an element that may come once.
fn once<T>(
    at: &At<'_>,
    n: &Node,
    slot: &mut Option<T>,
    read: impl FnOnce() -> Result<T, Problem>,
) -> Result<(), Problem> {
    if slot.is_some() {
        return Err(problem(at, n, format!("a second <{}>", n.name)));
    }
    *slot = Some(read()?);
    Ok(())
}

fn comment_of(at: &At<'_>, n: &Node) -> Result<Comment, Problem> {
    let text = text_of(at, n)?.to_string();
    let kind = match n.attrs.as_slice() {
        [] => CommentKind::Brace,
        [(k, v)] if k == "kind" => family(at, n, De::Text(v))?,
        _ => {
            return Err(problem(
                at,
                n,
                format!("<{}> has one attribute, kind", n.name),
            ))
        }
    };
    Ok(Comment {
        text: text.into(),
        kind,
    })
}

fn tag_of(at: &At<'_>, n: &Node) -> Result<Tag, Problem> {
    expect(at, n, &[])?;
    match n.children.as_slice() {
        [name, value]
            if name.name == "name"
                && value.name == "value"
                && name.attrs.is_empty()
                && value.attrs.is_empty() =>
        {
            Ok(Tag::new(text_of(at, name)?, text_of(at, value)?))
        }
        _ => Err(problem(at, n, "<tag> holds <name> and <value>")),
    }
}

fn line_of(at: &At<'_>, n: &Node) -> Result<Line, Problem> {
    expect(at, n, &[])?;
    let mut line = Line::default();
    for c in &n.children {
        match c.name.as_str() {
            "ply" if line.trailing.is_empty() => line.plies.push(ply_of(at, c)?),
            "trailing" => line.trailing.push(comment_of(at, c)?),
            other => {
                return Err(problem(
                    at,
                    c,
                    format!("<{}> holds no <{other}> here", n.name),
                ))
            }
        }
    }
    Ok(line)
}

fn ply_of(at: &At<'_>, n: &Node) -> Result<Ply, Problem> {
    expect(at, n, &["number", "side", "glyph", "nags"])?;
    let attr = |name: &str| {
        n.attr(name)
            .ok_or_else(|| problem(at, n, format!("<ply> has no {name}")))
    };
    let number: u32 = family(at, n, De::Text(attr("number")?))?;
    let side: Side = family(at, n, De::Text(attr("side")?))?;
    let (mut mv, mut before, mut after, mut variations) =
        (None, Vec::new(), Vec::new(), Vec::new());
    for c in &n.children {
        match c.name.as_str() {
            "before" => before.push(comment_of(at, c)?),
            "after" => after.push(comment_of(at, c)?),
            "variation" => variations.push(line_of(at, c)?),
            // The move: the one other element, named after its family.
            other if mv.is_some() => {
                return Err(problem(
                    at,
                    c,
                    format!("<ply> holds one move, and a second <{other}>"),
                ))
            }
            _ => mv = Some(family::<Move>(at, c, De::Tagged(c))?),
        }
    }
    let mv = mv.ok_or_else(|| problem(at, n, "the <ply> has no move"))?;
    Ok(Ply {
        glyph: n.attr("glyph").map(str::to_string),
        nags: match n.attr("nags") {
            Some(nags) => family(at, n, De::Text(nags))?,
            None => Vec::new(),
        },
        before,
        after: after.into(),
        variations,
        ..Ply::new(number, side, mv)
    })
}

// ---------------------------------------------------------------- records

/// The record scanner of `xml`: each `<game>` element is a record; the XML
/// declaration, the `<games>` tags, comments and blanks between games
/// belong to no game. Anything else between games (a DOCTYPE, text,
/// another element) is a record of its own, which the reader refuses.
#[derive(Debug)]
pub struct GameScan;

impl Scan for GameScan {
    fn end(&self, data: &[u8], eof: bool) -> Option<(usize, bool)> {
        let n = data.len();
        let blanks = data.iter().take_while(|b| b.is_ascii_whitespace()).count();
        if blanks > 0 {
            return Some((blanks, false));
        }
        let need = |found: Option<usize>| match found {
            Some(end) => Some(end),
            None if eof => Some(n),
            None => None,
        };
        let find = |pat: &[u8]| memchr::memmem::find(data, pat).map(|i| i + pat.len());
        if data.starts_with(b"<!--") {
            return need(find(b"-->")).map(|e| (e, false));
        }
        if data.starts_with(b"<?") {
            return need(find(b"?>")).map(|e| (e, false));
        }
        if let Some(rest) = data.strip_prefix(b"<game") {
            match rest.first() {
                None if !eof => return None,
                Some(b) if b.is_ascii_whitespace() || matches!(b, b'>' | b'/') => {
                    return need(Markup::default().element_end(data)).map(|e| (e, true));
                }
                Some(b's') => {
                    return need(memchr::memchr(b'>', data).map(|i| i + 1)).map(|e| (e, false));
                }
                _ => {}
            }
        }
        if data.starts_with(b"</games") {
            return need(memchr::memchr(b'>', data).map(|i| i + 1)).map(|e| (e, false));
        }
        // The document's root tags cut short at the end of the input
        // (`<games`, `</gam`) belong to no game: the document's frame
        // reports the cut. (`<gam` may be a game's: a game cut short.)
        let root = |tag: &[u8], from: usize| data.len() >= from && tag.starts_with(data);
        if eof && (root(b"<games>", 6) || root(b"</games>", 2)) {
            return Some((n, false));
        }
        if data.starts_with(b"<!DOCTYPE") {
            return need(doctype_end(data)).map(|e| (e, true));
        }
        if data.starts_with(b"<") {
            return need(Markup::default().element_end(data)).map(|e| (e, true));
        }
        // Text outside any element: up to the next markup. (Markup cut off
        // at the end of the data waits above for more: its scan ends
        // nowhere yet.)
        need(memchr::memchr(b'<', data)).map(|e| (e, true))
    }

    fn oversize(&self) -> Oversize {
        Oversize {
            skip: Box::new(Markup::default()),
            from_start: true,
        }
    }

    fn has_text(&self, bytes: &[u8]) -> bool {
        bytes.trim_ascii_start().starts_with(b"<!--")
    }

    fn frame(&self) -> Option<Box<dyn Frame>> {
        Some(Box::new(Root::default()))
    }
}

/// The `<games>` root around the games: whether its start tag and its end
/// tag came, and whether anything but blanks did (a document is more than
/// its declaration). Games without a root (an XML fragment of `<game>`
/// elements) need none.
#[derive(Default)]
struct Root {
    open: bool,
    closed: bool,
    text: bool,
    games: bool,
}

impl Frame for Root {
    fn record(&mut self, bytes: &[u8], is_game: bool) {
        let tag = bytes.trim_ascii();
        self.games |= is_game;
        self.text |= !tag.is_empty();
        if is_game || !tag.ends_with(b">") {
            return;
        }
        if let Some(rest) = tag.strip_prefix(b"<games") {
            if rest
                .first()
                .is_some_and(|b| b.is_ascii_whitespace() || matches!(b, b'>' | b'/'))
            {
                self.open = true;
                // `<games/>`: a document without games.
                self.closed |= rest.ends_with(b"/>");
            }
        } else if tag.starts_with(b"</games") {
            self.closed = true;
        }
    }

    fn cut(&self) -> Option<String> {
        match (self.open, self.closed) {
            (true, false) => Some("`</games>`".to_string()),
            (false, _) if self.text && !self.games => Some("its `<games>` element".to_string()),
            _ => None,
        }
    }
}

/// Where a DOCTYPE ends: after the `>` outside its internal subset.
fn doctype_end(data: &[u8]) -> Option<usize> {
    let mut subset = false;
    let mut quote = 0u8;
    for (i, &b) in data.iter().enumerate() {
        match b {
            _ if quote != 0 && b == quote => quote = 0,
            _ if quote != 0 => {}
            b'"' | b'\'' => quote = b,
            b'[' => subset = true,
            b']' => subset = false,
            b'>' if !subset => return Some(i + 1),
            _ => {}
        }
    }
    None
}

/// A scan of XML markup a byte at a time that knows how deeply elements
/// nest (start tags, end tags, empty elements; quotes in tags, comments,
/// CDATA sections and processing instructions skipped); it keeps its state
/// across chunks.
#[derive(Debug, Clone, Copy, Default)]
pub struct Markup {
    depth: usize,
    state: State,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum State {
    #[default]
    Text,
    /// After `<`.
    Open,
    /// In a tag: an end tag, the quote it is in, whether the last byte was
    /// `/`, and how many bytes of its name match `game` (a start tag) or
    /// `games` (an end tag), [`MISS`] when it does not.
    Tag {
        end: bool,
        quote: u8,
        slash: bool,
        name: u8,
    },
    /// After `<!`, matched this many bytes of `--` or `[CDATA[`.
    Bang { cdata: bool, matched: u8 },
    /// In a comment, after this many `-`.
    Comment(u8),
    /// In a CDATA section, after this many `]`.
    CData(u8),
    /// In a declaration (`<!DOCTYPE ..>`) or a processing instruction, up
    /// to `>`.
    Decl,
}

/// The name match of a tag that is no longer checked (see [`State::Tag`]).
const MISS: u8 = u8::MAX;

impl Markup {
    /// Where the element (or the markup) this scan starts at ends in the
    /// next chunk of it, if it does: after the tag that closes it; or
    /// before a `<game` start tag or `</games>` end tag met inside it,
    /// where the game before it is broken (a game holds no game).
    pub fn element_end(&mut self, data: &[u8]) -> Option<usize> {
        const CDATA: &[u8] = b"[CDATA[";
        for (i, &b) in data.iter().enumerate() {
            // Markup that ends at depth 0 ends the scan.
            let mut ends = false;
            self.state = match self.state {
                State::Text => match b {
                    b'<' => State::Open,
                    _ => State::Text,
                },
                State::Open => match b {
                    b'/' => State::Tag {
                        end: true,
                        quote: 0,
                        slash: false,
                        name: 0,
                    },
                    b'!' => State::Bang {
                        cdata: false,
                        matched: 0,
                    },
                    b'?' => State::Decl,
                    b'>' => {
                        ends = true;
                        State::Text
                    }
                    _ => State::Tag {
                        end: false,
                        quote: 0,
                        slash: false,
                        name: if b == b'g' { 1 } else { MISS },
                    },
                },
                State::Tag {
                    end,
                    quote,
                    slash,
                    mut name,
                } => {
                    if name != MISS {
                        let pattern: &[u8] = if end { b"games" } else { b"game" };
                        match pattern.get(usize::from(name)) {
                            Some(&p) if p == b => name += 1,
                            Some(_) => name = MISS,
                            None if self.depth > 0
                                && (b.is_ascii_whitespace() || matches!(b, b'>' | b'/')) =>
                            {
                                *self = Markup::default();
                                return Some(
                                    i.saturating_sub(pattern.len() + 1 + usize::from(end)),
                                );
                            }
                            None => name = MISS,
                        }
                    }
                    match b {
                        _ if quote != 0 => State::Tag {
                            end,
                            quote: if b == quote { 0 } else { quote },
                            slash: false,
                            name,
                        },
                        b'"' | b'\'' => State::Tag {
                            end,
                            quote: b,
                            slash: false,
                            name,
                        },
                        b'>' => {
                            if end {
                                self.depth = self.depth.saturating_sub(1);
                            } else if !slash {
                                self.depth += 1;
                            }
                            ends = true;
                            State::Text
                        }
                        _ => State::Tag {
                            end,
                            quote: 0,
                            slash: b == b'/',
                            name,
                        },
                    }
                }
                State::Bang { cdata, matched } => {
                    let m = usize::from(matched);
                    match (matched, b) {
                        (0, b'-') => State::Bang {
                            cdata: false,
                            matched: 1,
                        },
                        (1, b'-') if !cdata => State::Comment(0),
                        (0, b'[') => State::Bang {
                            cdata: true,
                            matched: 1,
                        },
                        _ if cdata && m < CDATA.len() && CDATA[m] == b => {
                            if m + 1 == CDATA.len() {
                                State::CData(0)
                            } else {
                                State::Bang {
                                    cdata,
                                    matched: matched + 1,
                                }
                            }
                        }
                        (_, b'>') => {
                            ends = true;
                            State::Text
                        }
                        _ => State::Decl,
                    }
                }
                State::Comment(dashes) => match b {
                    b'-' => State::Comment(dashes.saturating_add(1)),
                    b'>' if dashes >= 2 => {
                        ends = true;
                        State::Text
                    }
                    _ => State::Comment(0),
                },
                State::CData(brackets) => match b {
                    b']' => State::CData(brackets.saturating_add(1)),
                    b'>' if brackets >= 2 => State::Text,
                    _ => State::CData(0),
                },
                State::Decl => match b {
                    b'>' => {
                        ends = true;
                        State::Text
                    }
                    _ => State::Decl,
                },
            };
            if ends && self.depth == 0 {
                return Some(i + 1);
            }
        }
        None
    }
}

impl Skip for Markup {
    fn end(&mut self, data: &[u8]) -> Option<usize> {
        self.element_end(data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;

    /// An element holding a value, written and parsed back.
    fn written(v: &impl Serialize) -> (String, Node) {
        let mut out = String::new();
        push_element(&mut out, "x", &to_value(v).expect("a value")).expect("written");
        let node = parse(&out).unwrap_or_else(|e| panic!("{out}: {e:?}"));
        (out, node)
    }

    #[test]
    fn attribute_values_come_back_exactly() {
        let awkward = "a<b>&c\"d'e ]]> tab\there\r\nnew\rline  two  spaces \u{e9}\u{1F600}";
        let mut out = String::from("<x");
        push_attr(&mut out, "v", awkward).expect("written");
        out.push_str("/>");
        assert!(!out.contains(['\t', '\n', '\r']), "{out}");
        let node = parse(&out).expect("parsed");
        assert_eq!(node.attr("v"), Some(awkward));
        // What an attribute cannot hold is an error, not a loss.
        assert!(push_attr(&mut String::new(), "v", "a\u{1}b").is_err());
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        Unit,
        Newtype(u8),
        Struct { a: String, b: Vec<u16> },
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Inner {
        name: String,
        kind: Kind,
    }

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Every {
        flag: bool,
        number: i32,
        text: String,
        maybe: Option<u8>,
        none: Option<u8>,
        list: Vec<u32>,
        empty: Vec<Inner>,
        one: Vec<Inner>,
        kinds: Vec<Kind>,
        inner: Inner,
    }

    #[test]
    fn every_shape_of_a_family_type_round_trips() {
        let every = Every {
            flag: true,
            number: -5,
            text: "a \"text\" <with> & \u{1}".to_string(),
            maybe: Some(7),
            none: None,
            list: vec![1, 2, 3],
            empty: Vec::new(),
            one: vec![Inner {
                name: "only".to_string(),
                kind: Kind::Unit,
            }],
            kinds: vec![
                Kind::Unit,
                Kind::Newtype(4),
                Kind::Struct {
                    a: "s".to_string(),
                    b: vec![9, 10],
                },
            ],
            inner: Inner {
                name: "in".to_string(),
                kind: Kind::Newtype(1),
            },
        };
        // A field that holds a character an attribute cannot hold is an
        // error (no family field kifu has can hold one).
        let mut out = String::new();
        assert!(push_element(&mut out, "x", &to_value(&every).expect("a value")).is_err());
        let every = Every {
            text: "a \"text\" <with> &".to_string(),
            ..every
        };
        let (xml, node) = written(&every);
        let back = Every::deserialize(De::Node(&node)).unwrap_or_else(|e| panic!("{xml}: {e}"));
        assert_eq!(back, every, "{xml}");
    }

    #[test]
    fn the_markup_scan_ends_an_element_where_it_ends() {
        for (text, end, cut) in [
            (
                "<game a=\"x>y\">t<!-- </game> --><![CDATA[</game>]]></game>rest",
                57,
                false,
            ),
            ("<game/>rest", 7, false),
            ("<game><gamey/></game>", 21, false),
            ("<game><moves><game>", 13, true),
            ("<game><moves></games>", 13, true),
        ] {
            assert_eq!(
                Markup::default().element_end(text.as_bytes()),
                Some(end),
                "{text}"
            );
            if cut {
                continue;
            }
            // Fed a byte at a time (an oversize record), the same end.
            let mut scan = Markup::default();
            let at = text
                .as_bytes()
                .iter()
                .position(|b| scan.element_end(std::slice::from_ref(b)).is_some());
            assert_eq!(at.map(|i| i + 1), Some(end), "{text}");
        }
    }
}
