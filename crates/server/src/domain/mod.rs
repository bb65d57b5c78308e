//! What the server's services talk about besides games: challenges and seeks,
//! and the choices a request makes (a colour, a variant), as types.

pub mod challenge;
pub mod choice;

/// A short random id, as lichess uses for games, challenges and seeks.
pub fn new_id() -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    let mut rng = rand::thread_rng();
    (0..8)
        .map(|_| ALPHABET[rng.gen_range(0..ALPHABET.len())] as char)
        .collect()
}
