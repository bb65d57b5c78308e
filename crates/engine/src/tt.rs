//! The transposition table: buckets of two entries, one kept for the deepest search
//! (depth-preferred) and one always replaced.

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

/// One stored search result.
#[derive(Copy, Clone, Debug, Default)]
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
    /// Search generation, for replacement and `hashfull`.
    pub age: u8,
}

#[derive(Copy, Clone, Debug, Default)]
struct Bucket {
    deep: Entry,
    recent: Entry,
}

/// The table itself.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    age: u8,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket).
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.max(1) * 1024 * 1024;
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        TranspositionTable {
            buckets: vec![Bucket::default(); n],
            age: 0,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buckets.fill(Bucket::default());
        self.age = 0;
    }

    /// Starts a new search (entries of older searches become preferred victims).
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.buckets.len() as u128) >> 64) as usize
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = &self.buckets[self.index(key)];
        if b.deep.key == key && b.deep.bound != Bound::None {
            Some(b.deep)
        } else if b.recent.key == key && b.recent.bound != Bound::None {
            Some(b.recent)
        } else {
            None
        }
    }

    /// Stores a result. The depth-preferred slot takes it when it is at least as deep,
    /// from an older search, or the same position; otherwise the other slot does.
    #[inline]
    pub fn store(&mut self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let age = self.age;
        let i = self.index(key);
        let b = &mut self.buckets[i];
        let mut entry = Entry {
            key,
            mv,
            score: score.clamp(-32767, 32767) as i16,
            eval: eval.clamp(-32767, 32767) as i16,
            depth: depth.clamp(-1, 127) as i8,
            bound,
            age,
        };
        // The same position searched much deeper before: keep that result.
        for old in [&b.deep, &b.recent] {
            if old.key == key
                && old.bound != Bound::None
                && old.age == age
                && bound != Bound::Exact
                && i32::from(old.depth) > depth + 3
            {
                return;
            }
        }
        let slot = if b.deep.key == key
            || b.deep.bound == Bound::None
            || b.deep.age != age
            || i32::from(b.deep.depth) <= depth
        {
            &mut b.deep
        } else {
            &mut b.recent
        };
        // Keep a known move when the new result has none for the same position.
        if entry.mv == Move::default() && slot.key == key {
            entry.mv = slot.mv;
        }
        *slot = entry;
    }

    /// Per mille of the first thousand entries used by the current search.
    pub fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(500);
        let mut used = 0;
        for b in &self.buckets[..n] {
            for e in [&b.deep, &b.recent] {
                if e.bound != Bound::None && e.age == self.age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (2 * n.max(1))) as u32
    }
}
