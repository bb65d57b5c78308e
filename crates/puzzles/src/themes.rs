//! lichess's puzzle theme keys with their English names, for the ones the
//! generator tags and the common ones an imported collection carries.

/// `(key, name)` of each theme, in the order a theme list shows them.
pub const THEMES: &[(&str, &str)] = &[
    ("mix", "Healthy mix"),
    ("mate", "Checkmate"),
    ("mateIn1", "Mate in 1"),
    ("mateIn2", "Mate in 2"),
    ("mateIn3", "Mate in 3"),
    ("mateIn4", "Mate in 4"),
    ("mateIn5", "Mate in 5 or more"),
    ("backRankMate", "Back rank mate"),
    ("smotheredMate", "Smothered mate"),
    ("fork", "Fork"),
    ("pin", "Pin"),
    ("skewer", "Skewer"),
    ("discoveredAttack", "Discovered attack"),
    ("doubleCheck", "Double check"),
    ("hangingPiece", "Hanging piece"),
    ("sacrifice", "Sacrifice"),
    ("promotion", "Promotion"),
    ("underPromotion", "Underpromotion"),
    ("enPassant", "En passant"),
    ("castling", "Castling"),
    ("advantage", "Advantage"),
    ("crushing", "Crushing"),
    ("opening", "Opening"),
    ("middlegame", "Middlegame"),
    ("endgame", "Endgame"),
    ("pawnEndgame", "Pawn endgame"),
    ("rookEndgame", "Rook endgame"),
    ("bishopEndgame", "Bishop endgame"),
    ("knightEndgame", "Knight endgame"),
    ("queenEndgame", "Queen endgame"),
    ("queenRookEndgame", "Queen and Rook"),
    ("oneMove", "One-move puzzle"),
    ("short", "Short puzzle"),
    ("long", "Long puzzle"),
    ("veryLong", "Very long puzzle"),
    ("attraction", "Attraction"),
    ("deflection", "Deflection"),
    ("clearance", "Clearance"),
    ("interference", "Interference"),
    ("intermezzo", "Intermezzo"),
    ("quietMove", "Quiet move"),
    ("defensiveMove", "Defensive move"),
    ("trappedPiece", "Trapped piece"),
    ("zugzwang", "Zugzwang"),
    ("xRayAttack", "X-Ray attack"),
    ("kingsideAttack", "Kingside attack"),
    ("queensideAttack", "Queenside attack"),
    ("exposedKing", "Exposed king"),
    ("advancedPawn", "Advanced pawn"),
    ("capturingDefender", "Capture the defender"),
    ("attackingF2F7", "Attacking f2 or f7"),
    ("equality", "Equality"),
    ("master", "Master games"),
];

/// The English name of a theme key; the key itself when it is not known.
pub fn theme_name(key: &str) -> &str {
    THEMES
        .iter()
        .find(|(k, _)| *k == key)
        .map_or(key, |(_, name)| name)
}
