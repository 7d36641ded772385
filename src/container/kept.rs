//! The positions a reader keeps, typed, while it reads a record a run at
//! a time ([`super::stream_record`]), for a family whose positions are no
//! [`crate::family::Setup`] (coerceo, tafl): the lines open, as the
//! pieces of the stream open and close them ([`crate::codec::Piece`]),
//! each with the position its next run starts from.

use crate::codec::Piece;
use crate::error::Problem;

/// A line open: the position its next run starts from, and the position
/// before the last ply handed on (where a variation of that ply starts).
#[derive(Debug)]
pub struct Open<P> {
    /// The position after the line's last run (`None`: not replayed).
    pub pos: Option<P>,
    /// The position before the last ply of its last run.
    pub before_last: Option<P>,
    /// The last ply of its last run said something (a note that the
    /// replay of the whole game says after those of its variations).
    pub noted: bool,
}

/// The lines open of a record read a run at a time, the main line first.
#[derive(Debug)]
pub struct OpenLines<P> {
    open: Vec<Open<P>>,
    /// A variation opened on a ply that said something: what the replay
    /// says is then not in the order the whole game's replay says it.
    pub unordered: bool,
}

impl<P: Clone> OpenLines<P> {
    /// The main line open, from `start`.
    pub fn new(start: Option<P>) -> OpenLines<P> {
        OpenLines {
            open: vec![Open {
                pos: start,
                before_last: None,
                noted: false,
            }],
            unordered: false,
        }
    }

    /// Follows a piece of the stream: a variation of the last ply handed
    /// on opens from the position before it; the variation open closes.
    pub fn follow(&mut self, piece: &Piece<'_>) {
        match piece {
            Piece::Open => {
                let top = self.open.last();
                self.unordered |= top.is_some_and(|t| t.noted);
                let pos = top.and_then(|t| t.before_last.clone());
                self.open.push(Open {
                    pos,
                    before_last: None,
                    noted: false,
                });
            }
            Piece::Close(_) => {
                self.open.pop();
            }
            Piece::Run(_) | Piece::Head(_) => {}
        }
    }

    /// The line open, whose next run is being read.
    pub fn top(&mut self) -> Result<&mut Open<P>, Problem> {
        self.open.last_mut().ok_or_else(|| {
            Problem::whole("a run with no line open").of_kind(crate::error::Kind::Internal)
        })
    }
}

/// How much of a record's text a run holds for these options
/// ([`super::RUN_BYTES`], less with `--run-bytes`), for a reader that
/// cuts its own runs (otn, whose turns are no container's movetext).
pub fn run_bytes(opts: &crate::codec::ReadOptions) -> usize {
    super::walk::run_bytes(opts)
}
