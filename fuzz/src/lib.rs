//! kifu's fuzz targets: the properties they check ([`check`]) and the
//! structure-aware inputs of the `gen_*` targets ([`gen`]). The targets are
//! in `fuzz_targets/`; `run.sh` builds and runs them (see docs/fuzzing.md, "Running the
//! targets").

pub mod check;
pub mod gen;
pub mod seed;
