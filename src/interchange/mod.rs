//! Interchange formats: faithful dumps of the IR.

pub mod csv;
pub mod json;
pub mod parquet;
pub mod xml;
