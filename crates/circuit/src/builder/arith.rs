//! Word-level operations. Integers are LSB first. Binary operations take
//! equal-width operands; a width mismatch is a bug in the circuit code and
//! panics with the operation's name.

use super::{Bit, BitVec, CircuitBuilder};

fn same_width(op: &str, a: &BitVec, b: &BitVec) {
    assert_eq!(
        a.len(),
        b.len(),
        "{op}: operand widths differ ({} vs {})",
        a.len(),
        b.len()
    );
}

impl CircuitBuilder {
    /// Bitwise XOR.
    pub fn xor(&mut self, a: &BitVec, b: &BitVec) -> BitVec {
        same_width("xor", a, b);
        a.iter()
            .zip(b.iter())
            .map(|(x, y)| self.xor_bit(x, y))
            .collect()
    }

    /// Bitwise AND.
    pub fn and(&mut self, a: &BitVec, b: &BitVec) -> BitVec {
        same_width("and", a, b);
        a.iter()
            .zip(b.iter())
            .map(|(x, y)| self.and_bit(x, y))
            .collect()
    }

    /// Bitwise NOT (free).
    pub fn not(&mut self, a: &BitVec) -> BitVec {
        a.iter().map(|x| !x).collect()
    }

    /// `if s { a } else { b }`, one AND per bit.
    pub fn mux(&mut self, s: Bit, a: &BitVec, b: &BitVec) -> BitVec {
        same_width("mux", a, b);
        a.iter()
            .zip(b.iter())
            .map(|(x, y)| self.mux_bit(s, x, y))
            .collect()
    }

    /// `a + b + cin`, returning the sum (width of `a`) and the carry out.
    /// One AND per bit: `c' = c ⊕ ((a ⊕ c) ∧ (b ⊕ c))` is the majority.
    pub fn add_carry(&mut self, a: &BitVec, b: &BitVec, cin: Bit) -> (BitVec, Bit) {
        same_width("add", a, b);
        let mut c = cin;
        let mut sum = Vec::with_capacity(a.len());
        for (x, y) in a.iter().zip(b.iter()) {
            let t = self.xor_bit(x, y);
            sum.push(self.xor_bit(t, c));
            let xc = self.xor_bit(x, c);
            let yc = self.xor_bit(y, c);
            let m = self.and_bit(xc, yc);
            c = self.xor_bit(c, m);
        }
        (BitVec(sum), c)
    }

    /// `a + b` mod 2^n (n−1 ANDs: the last carry is not computed).
    pub fn add(&mut self, a: &BitVec, b: &BitVec) -> BitVec {
        same_width("add", a, b);
        let n = a.len();
        if n == 0 {
            return BitVec::default();
        }
        let (low, c) = self.add_carry(&a.slice(0..n - 1), &b.slice(0..n - 1), Bit::ZERO);
        let t = self.xor_bit(a.bit(n - 1), b.bit(n - 1));
        let top = self.xor_bit(t, c);
        low.concat(&BitVec(vec![top]))
    }

    /// `a − b` mod 2^n = a + ¬b + 1.
    pub fn sub(&mut self, a: &BitVec, b: &BitVec) -> BitVec {
        same_width("sub", a, b);
        let n = a.len();
        if n == 0 {
            return BitVec::default();
        }
        let nb = self.not(b);
        let (low, c) = self.add_carry(&a.slice(0..n - 1), &nb.slice(0..n - 1), Bit::ONE);
        let t = self.xor_bit(a.bit(n - 1), nb.bit(n - 1));
        let top = self.xor_bit(t, c);
        low.concat(&BitVec(vec![top]))
    }

    /// `a + bit` mod 2^n (a half-adder chain, n−1 ANDs).
    pub fn add_bit(&mut self, a: &BitVec, bit: Bit) -> BitVec {
        let mut c = bit;
        let mut out = Vec::with_capacity(a.len());
        for (i, x) in a.iter().enumerate() {
            out.push(self.xor_bit(x, c));
            if i + 1 < a.len() {
                c = self.and_bit(x, c);
            }
        }
        BitVec(out)
    }

    /// `a · b` mod 2^n (schoolbook, only the partial products below 2^n).
    pub fn mul(&mut self, a: &BitVec, b: &BitVec) -> BitVec {
        same_width("mul", a, b);
        let n = a.len();
        let mut acc = BitVec::constant(0, n);
        for i in 0..n {
            // Row i contributes (a << i) & b_i to bits i..n.
            let row: BitVec = (0..n - i)
                .map(|j| self.and_bit(a.bit(j), b.bit(i)))
                .collect();
            let high = self.add(&acc.slice(i..n), &row);
            acc = acc.slice(0..i).concat(&high);
        }
        acc
    }

    /// Unsigned `a < b`: the borrow of `a − b`, one AND per bit.
    pub fn lt(&mut self, a: &BitVec, b: &BitVec) -> Bit {
        same_width("lt", a, b);
        let nb = self.not(b);
        // Carry of a + ¬b + 1 is 1 iff a ≥ b.
        let mut c = Bit::ONE;
        for (x, y) in a.iter().zip(nb.iter()) {
            let xc = self.xor_bit(x, c);
            let yc = self.xor_bit(y, c);
            let m = self.and_bit(xc, yc);
            c = self.xor_bit(c, m);
        }
        !c
    }

    /// `a == b` (n−1 ANDs in a balanced tree, so depth is log n).
    pub fn eq(&mut self, a: &BitVec, b: &BitVec) -> Bit {
        same_width("eq", a, b);
        let d = self.xor(a, b);
        let ne = self.or_all(&d);
        !ne
    }

    /// OR of all bits (balanced tree; 0 for an empty vector).
    pub fn or_all(&mut self, a: &BitVec) -> Bit {
        let mut layer: Vec<Bit> = a.0.clone();
        if layer.is_empty() {
            return Bit::ZERO;
        }
        while layer.len() > 1 {
            let mut next = Vec::with_capacity(layer.len().div_ceil(2));
            for pair in layer.chunks(2) {
                next.push(match *pair {
                    [x, y] => self.or_bit(x, y),
                    [x] => x,
                    _ => Bit::ZERO,
                });
            }
            layer = next;
        }
        layer[0]
    }

    /// Number of ones in `a`, as a `width`-bit integer (an adder tree over
    /// growing widths, so small counts use small adders).
    pub fn popcount(&mut self, a: &BitVec, width: usize) -> BitVec {
        let mut items: Vec<BitVec> = a.iter().map(|b| BitVec(vec![b])).collect();
        if items.is_empty() {
            return BitVec::constant(0, width);
        }
        while items.len() > 1 {
            let mut next = Vec::with_capacity(items.len().div_ceil(2));
            let mut it = items.into_iter();
            while let Some(x) = it.next() {
                match it.next() {
                    Some(y) => {
                        let w = x.len().max(y.len());
                        let (x, y) = (self.zext(&x, w), self.zext(&y, w));
                        let (s, c) = self.add_carry(&x, &y, Bit::ZERO);
                        let s = if w < width {
                            s.concat(&BitVec(vec![c]))
                        } else {
                            s
                        };
                        next.push(s);
                    }
                    None => next.push(x),
                }
            }
            items = next;
        }
        let r = items.pop().unwrap_or_default();
        self.zext(&r, width).slice(0..width)
    }

    /// Zero-extends (or keeps) `a` to at least `width` bits.
    pub fn zext(&mut self, a: &BitVec, width: usize) -> BitVec {
        let mut v = a.0.clone();
        while v.len() < width {
            v.push(Bit::ZERO);
        }
        BitVec(v)
    }

    /// Logical shift left by a constant (towards higher bits; free).
    pub fn shl(&mut self, a: &BitVec, k: usize) -> BitVec {
        let n = a.len();
        (0..n)
            .map(|i| if i >= k { a.bit(i - k) } else { Bit::ZERO })
            .collect()
    }

    /// Logical shift right by a constant (towards lower bits; free).
    pub fn shr(&mut self, a: &BitVec, k: usize) -> BitVec {
        let n = a.len();
        (0..n)
            .map(|i| if i + k < n { a.bit(i + k) } else { Bit::ZERO })
            .collect()
    }

    /// Rotate right by a constant (free): bit i takes bit (i + k) mod n.
    pub fn rotr(&mut self, a: &BitVec, k: usize) -> BitVec {
        let n = a.len();
        if n == 0 {
            return BitVec::default();
        }
        (0..n).map(|i| a.bit((i + k) % n)).collect()
    }

    /// Rotate left by a constant (free).
    pub fn rotl(&mut self, a: &BitVec, k: usize) -> BitVec {
        let n = a.len();
        if n == 0 {
            return BitVec::default();
        }
        self.rotr(a, n - k % n)
    }
}
