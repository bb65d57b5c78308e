//! Arbiter tests: one binary, one module per topic. Tests are named after the
//! article of the Laws (2023 numbering; `art_10_13_…` and the like follow the seed's
//! older edition, see RULES.md), the Appendix or Guideline, or the house rule.

mod support;

mod clock;
mod game_rules;
mod online_play;
mod pgn;
mod properties;
mod replay;
mod rulesets;
mod seat;
mod time_control;
