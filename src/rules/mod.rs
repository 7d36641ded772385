//! Board geometry and move rules, per family.

pub mod chess;
pub mod draughts;
