//! What one Generate call leaves behind, for each party, and the cursors
//! that hand each piece out once (Build reserves, Eval consumes).
//!
//! Alice keeps commitment ids only (her committer holds the values); Bob
//! keeps the garbled tables, the solderings he verified, his Δ-ROTs and
//! the leaked lsbs. Both are plain serialisable values so a store can
//! hold them between processes.

use brickyard_core::{Block, Error, Result};
use serde::{Deserialize, Serialize};

/// Commitment ids both parties agree on after Generate.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Layout {
    /// Commitment to Δ.
    pub delta_id: usize,
    /// Commitments to `r⁰_i` of the `n` usable Δ-ROTs.
    pub r_ids: Vec<usize>,
    /// Commitments to the `m` output blinding values `v_j`.
    pub v_ids: Vec<usize>,
    /// AND buckets: ids of the head gate's `[L⁰, R⁰, O⁰]`.
    pub and_heads: Vec<[usize; 3]>,
    /// Input buckets: id of the head gate's `L⁰` (= the input wire's 0-key).
    pub in_heads: Vec<usize>,
    /// Input authenticators: id of the head authenticator's key.
    pub in_auth_heads: Vec<usize>,
    /// Fresh random commitments Build re-bases long XOR sets onto.
    pub refresh_ids: Vec<usize>,
    /// Next unused AND bucket, input bucket, Δ-ROT, blinding value.
    pub next: Cursors,
}

/// Next unused item of each kind.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Cursors {
    /// AND buckets.
    pub and: usize,
    /// Input buckets and input authenticators (used in pairs).
    pub input: usize,
    /// Δ-ROTs.
    pub rot: usize,
    /// Output blinding values.
    pub out: usize,
    /// Refresh keys.
    pub refresh: usize,
}

/// Wanted amounts for one circuit.
#[derive(Clone, Copy, Debug)]
pub struct Need {
    /// AND gates.
    pub and: usize,
    /// Fresh input wires (buckets + authenticators).
    pub input: usize,
    /// Bob's input wires (Δ-ROTs).
    pub rot: usize,
    /// Output wires.
    pub out: usize,
}

impl Layout {
    /// Reserves material for one circuit; `Exhausted` when Generate did not
    /// make enough. Returns the first index of each kind.
    pub fn reserve(&mut self, need: Need) -> Result<Cursors> {
        let at = self.next;
        let ok = at.and + need.and <= self.and_heads.len()
            && at.input + need.input <= self.in_heads.len()
            && at.rot + need.rot <= self.r_ids.len()
            && at.out + need.out <= self.v_ids.len();
        if !ok {
            return Err(Error::Exhausted(format!(
                "lego: preprocessed material exhausted (have {} AND buckets, {} inputs, {} Δ-ROTs, {} outputs left)",
                self.and_heads.len() - at.and,
                self.in_heads.len() - at.input,
                self.r_ids.len() - at.rot,
                self.v_ids.len() - at.out
            )));
        }
        self.next = Cursors {
            and: at.and + need.and,
            input: at.input + need.input,
            rot: at.rot + need.rot,
            out: at.out + need.out,
            refresh: at.refresh,
        };
        Ok(at)
    }

    /// One fresh refresh key for Build.
    pub fn take_refresh(&mut self) -> Result<usize> {
        let id = *self.refresh_ids.get(self.next.refresh).ok_or_else(|| {
            Error::Exhausted("lego: Build needs more refresh keys than Generate made".into())
        })?;
        self.next.refresh += 1;
        Ok(id)
    }
}

/// A garbled gate as Bob holds it: its table and id, and the solderings
/// that translate the bucket head's keys to its own (`[L, R, O]`; zero for
/// the head). In an input bucket `L` and `R` are both soldered to the
/// head's `L` and `O` is unused.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GateB {
    /// `[T_G, T_E]`.
    pub table: [Block; 2],
    /// Gate id (tweak).
    pub id: u64,
    /// Solderings to the head.
    pub s: [Block; 3],
}

/// A wire authenticator as Bob holds it, with its soldering to the key it
/// guards (the head's output key, or the input wire's key).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AuthB {
    /// `[T[0], T[1]]`.
    pub table: [Block; 2],
    /// Authenticator id (tweak).
    pub id: u64,
    /// Soldering to the guarded key.
    pub s: Block,
}

/// Equal-width groups stored flat: group `i` is `items[i·width..(i+1)·width]`
/// (one allocation for all buckets of a kind, instead of one per bucket).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Flat<T> {
    /// Items per group.
    pub width: usize,
    /// All groups, back to back.
    pub items: Vec<T>,
}

impl<T> Default for Flat<T> {
    fn default() -> Self {
        Flat {
            width: 0,
            items: Vec::new(),
        }
    }
}

impl<T: Clone> Flat<T> {
    /// An empty collection of groups of `width` items.
    pub fn new(width: usize) -> Self {
        Flat {
            width,
            items: Vec::new(),
        }
    }

    /// Number of groups.
    pub fn len(&self) -> usize {
        self.items.len().checked_div(self.width).unwrap_or(0)
    }

    /// Whether there is no group.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Group `i`, if it exists.
    pub fn get(&self, i: usize) -> Option<&[T]> {
        let w = self.width;
        self.items
            .get(i.checked_mul(w)?..i.checked_add(1)?.checked_mul(w)?)
    }

    /// Groups `first..first + count`, moved out; every group from `first`
    /// on leaves `self`. Taking a session's copies last first hands each
    /// its groups without a copy into fresh memory, whose first touch
    /// costs a page fault per 4 KB (≈ 1 650 faults, 3.3 ms, for one
    /// AES-128 copy); the first copy keeps the allocation itself. `None`
    /// (and `self` unchanged) if out of range.
    pub fn take_from(&mut self, first: usize, count: usize) -> Option<Flat<T>> {
        let w = self.width;
        let start = first.checked_mul(w)?;
        let end = first.checked_add(count)?.checked_mul(w)?;
        if end > self.items.len() {
            return None;
        }
        let mut items = if start == 0 {
            std::mem::take(&mut self.items)
        } else {
            self.items.split_off(start)
        };
        items.truncate(end - start);
        Some(Flat { width: w, items })
    }

    /// Whether the items fill whole groups (checked before trusting a
    /// deserialised value).
    pub fn well_formed(&self) -> bool {
        if self.width == 0 {
            self.items.is_empty()
        } else {
            self.items.len().is_multiple_of(self.width)
        }
    }
}

/// Bob's material of one Generate call.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct BobMaterial {
    /// AND buckets' gates (β per bucket; the first of each is the head).
    pub and_gates: Flat<GateB>,
    /// AND buckets' authenticators (α per bucket), soldered to the head's output.
    pub and_auths: Flat<AuthB>,
    /// Input buckets (β̃ gates each).
    pub input: Flat<GateB>,
    /// Input authenticators (α̃ each; the first is soldered with zero).
    pub input_auth: Flat<AuthB>,
    /// Δ-ROT choice bits `b_i`.
    pub rot_b: Vec<bool>,
    /// Δ-ROT strings `r_i^{b_i}`.
    pub rot_r: Vec<Block>,
    /// lsb(r⁰_i), leaked by VerLeak.
    pub r_lsb: Vec<bool>,
    /// lsb(v_j), leaked by VerLeak.
    pub v_lsb: Vec<bool>,
    /// Checked authenticators (opened key, table, id): they confirm a Δ
    /// recovered from a bucket that yields two keys.
    pub checked_auths: Vec<(Block, [Block; 2], u64)>,
}

impl BobMaterial {
    /// Whether the flat groups are whole and the AND gates and
    /// authenticators describe the same number of buckets.
    pub fn well_formed(&self) -> bool {
        self.and_gates.well_formed()
            && self.and_auths.well_formed()
            && self.input.well_formed()
            && self.input_auth.well_formed()
            && (self.and_auths.width == 0 || self.and_auths.len() == self.and_gates.len())
            && self.input.len() == self.input_auth.len()
    }
}

impl Drop for BobMaterial {
    fn drop(&mut self) {
        use zeroize::Zeroize;
        for r in self.rot_r.iter_mut() {
            r.zeroize();
        }
        self.rot_b.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::Flat;

    fn groups(n: u32) -> Flat<u32> {
        Flat {
            width: 2,
            items: (0..2 * n).collect(),
        }
    }

    #[test]
    fn take_from_moves_the_groups_and_drops_the_rest_of_the_tail() {
        let mut f = groups(5);
        let last = f.take_from(3, 1).unwrap();
        assert_eq!(last.items, vec![6, 7]);
        assert_eq!(f.len(), 3);
        let first = f.take_from(0, 2).unwrap();
        assert_eq!(first.items, vec![0, 1, 2, 3]);
        assert!(f.is_empty());
    }

    #[test]
    fn take_from_out_of_range_leaves_the_groups_whole() {
        let mut f = groups(3);
        assert!(f.take_from(2, 2).is_none());
        assert!(f.take_from(usize::MAX, 1).is_none());
        assert_eq!(f.items, (0..6).collect::<Vec<_>>());
    }
}
