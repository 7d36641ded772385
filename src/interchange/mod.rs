//! Interchange formats: faithful dumps of the IR.

pub mod json;
pub mod xml;
