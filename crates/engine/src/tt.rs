//! The transposition table, shared by every search thread without locks: buckets
//! of two entries, one kept for the deepest search (depth-preferred) and one
//! always replaced.
//!
//! Each entry is two atomic words: the packed data, and the position's key
//! XOR-ed with that data. A probe accepts an entry only when the two agree, so
//! a word torn by a concurrent store (one thread's key with another's data) is
//! read as a miss, never as a wrong entry (Hyatt and Mann's lockless hashing).

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use caissa_rules::Move;

/// What a stored score says about the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
#[repr(u8)]
pub enum Bound {
    /// Nothing stored.
    #[default]
    None = 0,
    /// The true value is at most the score (fail low).
    Upper = 1,
    /// The true value is at least the score (fail high).
    Lower = 2,
    /// The exact value.
    Exact = 3,
}

impl Bound {
    /// The bound a search of window (`alpha`, `beta`) proved with value `best`.
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    /// Whether a stored `score` of this bound settles a search of window
    /// (`alpha`, `beta`) without searching.
    pub fn cuts(self, score: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
            Bound::None => false,
        }
    }
}

/// One stored search result.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Entry {
    /// The full Zobrist key.
    pub key: u64,
    /// Best (or refuting) move; `Move::default()` when none.
    pub mv: Move,
    /// Score, mate scores relative to this node.
    pub score: i16,
    /// Static evaluation (unused when in check).
    pub eval: i16,
    /// Remaining depth of the search that stored it.
    pub depth: i8,
    /// Bound kind.
    pub bound: Bound,
    /// Search generation (six bits), for replacement and `hashfull`.
    pub age: u8,
}

impl Entry {
    /// The entry as one word: move, score, evaluation, depth, bound and age.
    pub fn pack(&self) -> u64 {
        u64::from(self.mv.to_bits())
            | u64::from(self.score as u16) << 16
            | u64::from(self.eval as u16) << 32
            | u64::from(self.depth as u8) << 48
            | u64::from(self.bound as u8) << 56
            | u64::from(self.age & AGE_MASK) << 58
    }

    /// The entry of `key` from its word.
    pub fn unpack(key: u64, data: u64) -> Entry {
        Entry {
            key,
            mv: Move::from_bits(data as u16).unwrap_or_default(),
            score: (data >> 16) as u16 as i16,
            eval: (data >> 32) as u16 as i16,
            depth: (data >> 48) as u8 as i8,
            bound: match (data >> 56) & 3 {
                1 => Bound::Upper,
                2 => Bound::Lower,
                3 => Bound::Exact,
                _ => Bound::None,
            },
            age: (data >> 58) as u8 & AGE_MASK,
        }
    }
}

const AGE_MASK: u8 = 63;

/// One slot: the data word and the key XOR-ed with it.
#[derive(Default)]
struct Slot {
    key_xor_data: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    #[inline(always)]
    fn load(&self) -> (u64, u64) {
        let data = self.data.load(Ordering::Relaxed);
        let key = self.key_xor_data.load(Ordering::Relaxed) ^ data;
        (key, data)
    }

    /// The entry if it holds `key` (and was not torn by a concurrent store).
    #[inline(always)]
    fn entry_for(&self, key: u64) -> Option<Entry> {
        let (k, data) = self.load();
        let e = Entry::unpack(k, data);
        (k == key && e.bound != Bound::None).then_some(e)
    }

    #[inline(always)]
    fn entry(&self) -> Entry {
        let (k, data) = self.load();
        Entry::unpack(k, data)
    }

    #[inline(always)]
    fn store(&self, e: &Entry) {
        let data = e.pack();
        self.data.store(data, Ordering::Relaxed);
        self.key_xor_data.store(e.key ^ data, Ordering::Relaxed);
    }

    fn clear(&self) {
        self.data.store(0, Ordering::Relaxed);
        self.key_xor_data.store(0, Ordering::Relaxed);
    }
}

#[derive(Default)]
struct Bucket {
    deep: Slot,
    recent: Slot,
}

/// The table itself.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.max(1) * 1024 * 1024;
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        TranspositionTable {
            buckets: (0..n).map(|_| Bucket::default()).collect(),
            age: AtomicU8::new(0),
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        for b in &self.buckets {
            b.deep.clear();
            b.recent.clear();
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search (entries of older searches become preferred victims).
    pub fn new_search(&mut self) {
        let age = (self.age.load(Ordering::Relaxed) + 1) & AGE_MASK;
        self.age.store(age, Ordering::Relaxed);
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[((u128::from(key) * self.buckets.len() as u128) >> 64) as usize]
    }

    /// Asks the CPU to bring `key`'s bucket into the cache, so that the probe
    /// at the child node a few hundred cycles later does not wait on memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: a prefetch only hints the cache; it reads nothing and cannot
            // fault, and the address is that of a live bucket anyway.
            #[allow(unsafe_code)]
            unsafe {
                use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
                _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        b.deep.entry_for(key).or_else(|| b.recent.entry_for(key))
    }

    /// Stores a result. The depth-preferred slot takes it when it is at least as deep,
    /// from an older search, or the same position; otherwise the other slot does.
    #[inline]
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let age = self.age.load(Ordering::Relaxed);
        let b = self.bucket(key);
        let mut entry = Entry {
            key,
            mv,
            score: score.clamp(-32767, 32767) as i16,
            eval: eval.clamp(-32767, 32767) as i16,
            depth: depth.clamp(-1, 127) as i8,
            bound,
            age,
        };
        let deep = b.deep.entry();
        let recent = b.recent.entry();
        // The same position searched much deeper before: keep that result.
        for old in [&deep, &recent] {
            if old.key == key
                && old.bound != Bound::None
                && old.age == age
                && bound != Bound::Exact
                && i32::from(old.depth) > depth + 3
            {
                return;
            }
        }
        let (slot, old) = if deep.key == key
            || deep.bound == Bound::None
            || deep.age != age
            || i32::from(deep.depth) <= depth
        {
            (&b.deep, deep)
        } else {
            (&b.recent, recent)
        };
        // Keep a known move when the new result has none for the same position.
        if entry.mv == Move::default() && old.key == key {
            entry.mv = old.mv;
        }
        slot.store(&entry);
    }

    /// Per mille of the first thousand entries used by the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let n = self.buckets.len().min(500);
        let mut used = 0;
        for b in &self.buckets[..n] {
            for e in [b.deep.entry(), b.recent.entry()] {
                if e.bound != Bound::None && e.age == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (2 * n.max(1))) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use caissa_rules::{Role, Square};

    #[test]
    fn entries_pack_and_unpack_with_negative_scores_and_every_bound() {
        for bound in [Bound::Upper, Bound::Lower, Bound::Exact] {
            for (score, eval, depth) in [(-31990, -2000, -1), (0, 0, 0), (31990, 1500, 127)] {
                let e = Entry {
                    key: 0xdead_beef_1234_5678,
                    mv: Move::promotion(Square::A1, Square::B1, Role::Queen),
                    score,
                    eval,
                    depth,
                    bound,
                    age: 45,
                };
                assert_eq!(Entry::unpack(e.key, e.pack()), e);
            }
        }
    }

    #[test]
    fn a_torn_entry_is_a_miss() {
        let tt = TranspositionTable::new(1);
        let key_a = 0x1111_2222_3333_4444;
        tt.store(key_a, Move::default(), 50, 10, 5, Bound::Exact);
        assert_eq!(tt.probe(key_a).map(|e| e.score), Some(50));
        // Another thread's data lands in the slot without its key word.
        let b = tt.bucket(key_a);
        let other = Entry {
            key: 0x9999,
            score: -700,
            depth: 9,
            bound: Bound::Lower,
            ..Entry::default()
        };
        b.deep.data.store(other.pack(), Ordering::Relaxed);
        assert_eq!(tt.probe(key_a), None);
    }

    #[test]
    fn stores_from_many_threads_never_read_back_wrong() {
        let tt = TranspositionTable::new(1);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let tt = &tt;
                s.spawn(move || {
                    for i in 0..20_000u64 {
                        let key = (i % 64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
                        let score = (key % 1000) as i32;
                        tt.store(
                            key,
                            Move::default(),
                            score,
                            0,
                            (t + i % 3) as i32,
                            Bound::Exact,
                        );
                        if let Some(e) = tt.probe(key) {
                            assert_eq!(i32::from(e.score), score);
                        }
                    }
                });
            }
        });
    }
}
