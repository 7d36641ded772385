//! Board geometry and move rules, per family.

pub mod draughts;
