//! The root XORs of a layout and per-root lists, each in one flat array.
//!
//! A circuit has tens of thousands of roots (Lindell–Riva's C, with Bob's
//! matrix E, more than AES-128 itself), and a `Vec` of leaves (and one of
//! readers) per root made allocation ≈ 15 % of a plan's compile, which
//! that protocol pays per run.

/// Lists indexed by `0..len()`, stored back to back (compressed rows).
#[derive(Clone, Debug, Default)]
pub(super) struct Lists {
    items: Vec<u32>,
    /// List `i` is `items[start[i]..start[i + 1]]`.
    start: Vec<u32>,
}

impl Lists {
    pub(super) fn new() -> Self {
        Lists {
            items: Vec::new(),
            start: vec![0],
        }
    }

    /// Lists `0..n` from `(list, item)` pairs in the order given (kept
    /// within each list): a counting pass, then a placing pass.
    pub(super) fn from_pairs<I: Iterator<Item = (usize, u32)>>(
        n: usize,
        pairs: impl Fn() -> I,
    ) -> Self {
        let mut start = vec![0u32; n + 1];
        for (l, _) in pairs() {
            start[l + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut at: Vec<u32> = start[..n].to_vec();
        let mut items = vec![0u32; start[n] as usize];
        for (l, x) in pairs() {
            items[at[l] as usize] = x;
            at[l] += 1;
        }
        Lists { items, start }
    }

    pub(super) fn len(&self) -> usize {
        self.start.len() - 1
    }

    pub(super) fn get(&self, i: usize) -> &[u32] {
        &self.items[self.start[i] as usize..self.start[i + 1] as usize]
    }

    pub(super) fn get_mut(&mut self, i: usize) -> &mut [u32] {
        &mut self.items[self.start[i] as usize..self.start[i + 1] as usize]
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &[u32]> {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Starts a new list (filled by [`Lists::push_item`]).
    pub(super) fn push_list(&mut self) {
        self.start.push(self.items.len() as u32);
    }

    /// Appends `x` to the last list.
    pub(super) fn push_item(&mut self, x: u32) {
        self.items.push(x);
        *self.start.last_mut().expect("start holds 0") += 1;
    }
}

/// The root XORs (`[leaf values…]`, out value), in plan order.
#[derive(Clone, Debug)]
pub(super) struct Roots {
    leaves: Lists,
    out: Vec<u32>,
}

impl Roots {
    pub(super) fn new() -> Self {
        Roots {
            leaves: Lists::new(),
            out: Vec::new(),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.out.len()
    }

    pub(super) fn leaves(&self, r: usize) -> &[u32] {
        self.leaves.get(r)
    }

    pub(super) fn out(&self, r: usize) -> u32 {
        self.out[r]
    }

    /// Adds a root writing `out`; its leaves follow by [`Roots::push_leaf`].
    pub(super) fn push_root(&mut self, out: u32) {
        self.out.push(out);
        self.leaves.push_list();
    }

    pub(super) fn push_leaf(&mut self, x: u32) {
        self.leaves.push_item(x);
    }

    /// Keeps the roots for which `keep(leaves, out)` holds, in order.
    pub(super) fn retain(&mut self, mut keep: impl FnMut(&[u32], u32) -> bool) {
        let (items, start) = (&mut self.leaves.items, &mut self.leaves.start);
        let (mut kept, mut write) = (0usize, 0usize);
        for r in 0..self.out.len() {
            let (a, e) = (start[r] as usize, start[r + 1] as usize);
            if keep(&items[a..e], self.out[r]) {
                items.copy_within(a..e, write);
                // start[kept] is already `write`: it was set when the
                // previous kept root ended (or is 0).
                write += e - a;
                self.out[kept] = self.out[r];
                kept += 1;
                start[kept] = write as u32;
            }
        }
        items.truncate(write);
        start.truncate(kept + 1);
        self.out.truncate(kept);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retain_keeps_order_and_leaves() {
        let mut r = Roots::new();
        for (out, leaves) in [
            (10, &[1, 2][..]),
            (11, &[3, 4, 5]),
            (12, &[6, 7]),
            (13, &[8, 9, 1]),
        ] {
            r.push_root(out);
            for &x in leaves {
                r.push_leaf(x);
            }
        }
        r.retain(|l, out| out != 10 && l.len() != 2 || out == 12);
        assert_eq!(r.len(), 3);
        assert_eq!((r.out(0), r.leaves(0)), (11, &[3, 4, 5][..]));
        assert_eq!((r.out(1), r.leaves(1)), (12, &[6, 7][..]));
        assert_eq!((r.out(2), r.leaves(2)), (13, &[8, 9, 1][..]));
    }

    #[test]
    fn from_pairs_keeps_order_within_lists() {
        let pairs = [(2, 5), (0, 1), (2, 3), (0, 4)];
        let l = Lists::from_pairs(4, || pairs.iter().copied());
        let got: Vec<&[u32]> = l.iter().collect();
        assert_eq!(got, [&[1, 4][..], &[], &[5, 3], &[]]);
    }
}
