//! Integration tests of the rules core, one module per topic.

mod dead;
mod differential;
mod fuzz;
mod illegal;
mod laws;
mod perft;
mod properties;
