//! The game as PGN, with its clocks and the arbiter's notes.

use caissa_rules::san::San;

use super::Game;

impl Game {
    /// The game in PGN with `[%clk]` after each move and `TimeControl`,
    /// `Termination` and `Ruleset` tags.
    pub fn pgn(&self) -> String {
        self.pgn_with(&[])
    }

    /// The game in PGN, with `tags` (what the game does not know: `Site`, `Date`,
    /// ratings ...) set after its own, replacing any of the same name.
    pub fn pgn_with(&self, tags: &[(&str, String)]) -> String {
        let mut tree = caissa_pgn::GameTree::default();
        let result = self.finish.map_or("*", |f| f.result.pgn());
        for (name, value) in [
            ("Event", "Caissa game".to_string()),
            ("White", self.setup.white.clone()),
            ("Black", self.setup.black.clone()),
            ("Result", result.to_string()),
            ("TimeControl", self.setup.time_control.to_string()),
            ("Ruleset", self.setup.ruleset.name().to_string()),
        ] {
            tree.set_tag(name, &value);
        }
        if let Some(finish) = self.finish {
            tree.set_tag("Termination", finish.termination.pgn_tag());
        }
        if self.setup.fen.is_some() || self.setup.chess960 {
            tree.set_tag("SetUp", "1");
            tree.set_tag("FEN", &self.line.start().fen());
        }
        if self.setup.chess960 {
            tree.set_tag("Variant", "Chess960");
        }
        for (name, value) in tags {
            tree.set_tag(name, value);
        }
        let mut pos = *self.line.start();
        for (i, &m) in self.line.moves().iter().enumerate() {
            let mut node = caissa_pgn::Node::new(San::from_move(&pos, m));
            if let Some(Some(ms)) = self.move_clocks.get(i) {
                node.comments.push(caissa_pgn::clock::clk_command(
                    std::time::Duration::from_millis(*ms),
                ));
            }
            tree.mainline.moves.push(node);
            pos.play_unchecked(m);
        }
        for note in self.arbiter_notes() {
            // Braces would end the comment early.
            let text = note.text().replace('{', "(").replace('}', ")");
            let at = (note.ply as usize).min(tree.mainline.moves.len());
            match at.checked_sub(1) {
                Some(i) => tree.mainline.moves[i].comments.push(text),
                None => tree.mainline.comments.push(text),
            }
        }
        tree.result = result.to_string();
        caissa_pgn::write_game(&tree).unwrap_or_default()
    }
}
