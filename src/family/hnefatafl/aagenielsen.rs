//! `aagenielsen-json`: aagenielsen.dk move lists.
