//! Fixed-size byte encodings of a Generate batch's store records
//! (`batch.rs`). A batch fixes its bucket widths, so every kind of it has
//! one record size and a copy's records are read as one byte range and cut
//! in place: no per-record allocation or variable-length decoding on the
//! way to Build (postcard spent most of the read time on 16-byte blocks as
//! 19-byte varints). All integers little-endian; a short or malformed
//! record is `Error::Storage`, never a panic.
//!
//! | record | layout |
//! |---|---|
//! | commitment (Alice) | value 16 ‖ share 40 |
//! | gate (Bob) | T_G 16 ‖ T_E 16 ‖ id 8 ‖ solderings 3×16 |
//! | authenticator (Bob) | T[0] 16 ‖ T[1] 16 ‖ id 8 ‖ soldering 16 |
//! | AND bucket (Bob) | 3 rows ‖ β gates ‖ α authenticators |
//! | input (Bob) | 2 rows ‖ β̃ gates ‖ α̃ authenticators |
//! | Δ-ROT (Bob) | row ‖ r^b 16 ‖ flags 1 (bit 0 = b, bit 1 = lsb r⁰) |
//! | output (Bob) | row ‖ flags 1 (bit 0 = lsb v) |
//! | refresh (Bob) | row |

use super::material::{AuthB, GateB};
use brickyard_commit::code::Row;
use brickyard_commit::params::ROW_WORDS;
use brickyard_core::{Block, Error, Result};

/// Bytes of a check row or share.
pub const ROW: usize = 8 * ROW_WORDS;
/// Bytes of one of Alice's commitments.
pub const ACOM: usize = 16 + ROW;
/// Bytes of a gate.
pub const GATE: usize = 2 * 16 + 8 + 3 * 16;
/// Bytes of an authenticator.
pub const AUTH: usize = 2 * 16 + 8 + 16;
/// Bytes of Bob's Δ-ROT record.
pub const BOB_ROT: usize = ROW + 16 + 1;
/// Bytes of Bob's output record.
pub const BOB_OUT: usize = ROW + 1;

/// Bob's AND bucket record with `b` gates and `a` authenticators.
pub fn bob_and(b: usize, a: usize) -> usize {
    3 * ROW + b * GATE + a * AUTH
}

/// Bob's input record with `b` gates and `a` authenticators.
pub fn bob_in(b: usize, a: usize) -> usize {
    2 * ROW + b * GATE + a * AUTH
}

/// Appends records to a byte buffer (zeroized on drop: Alice's hold
/// committed values).
#[derive(Default)]
pub struct Writer(pub Vec<u8>);

impl Drop for Writer {
    fn drop(&mut self) {
        use zeroize::Zeroize;
        self.0.zeroize();
    }
}

impl Writer {
    /// A block.
    pub fn block(&mut self, b: Block) {
        self.0.extend_from_slice(&b.0.to_le_bytes());
    }
    /// A row (share or check row).
    pub fn row(&mut self, r: &Row) {
        for w in r {
            self.0.extend_from_slice(&w.to_le_bytes());
        }
    }
    /// An integer.
    pub fn u64(&mut self, x: u64) {
        self.0.extend_from_slice(&x.to_le_bytes());
    }
    /// A flags byte.
    pub fn flags(&mut self, bits: &[bool]) {
        let f = bits
            .iter()
            .enumerate()
            .fold(0u8, |f, (i, &b)| f | (u8::from(b) << i));
        self.0.push(f);
    }
    /// A commitment as Alice holds it.
    pub fn acom(&mut self, m: Block, t: &Row) {
        self.block(m);
        self.row(t);
    }
    /// A gate.
    pub fn gate(&mut self, g: &GateB) {
        self.block(g.table[0]);
        self.block(g.table[1]);
        self.u64(g.id);
        g.s.iter().for_each(|&s| self.block(s));
    }
    /// An authenticator.
    pub fn auth(&mut self, a: &AuthB) {
        self.block(a.table[0]);
        self.block(a.table[1]);
        self.u64(a.id);
        self.block(a.s);
    }
}

/// Reads one record from its bytes.
pub struct Reader<'a>(&'a [u8]);

fn short() -> Error {
    Error::Storage("lego: a stored record is shorter than its kind says".into())
}

impl<'a> Reader<'a> {
    /// Over one record's bytes.
    pub fn new(b: &'a [u8]) -> Self {
        Reader(b)
    }
    fn take<const N: usize>(&mut self) -> Result<[u8; N]> {
        let (h, t) = self.0.split_at_checked(N).ok_or_else(short)?;
        self.0 = t;
        <[u8; N]>::try_from(h).map_err(|_| short())
    }
    /// A block.
    pub fn block(&mut self) -> Result<Block> {
        Ok(Block(u128::from_le_bytes(self.take()?)))
    }
    /// A row.
    pub fn row(&mut self) -> Result<Row> {
        let mut r = [0u64; ROW_WORDS];
        for w in r.iter_mut() {
            *w = u64::from_le_bytes(self.take()?);
        }
        Ok(r)
    }
    /// An integer.
    pub fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_le_bytes(self.take()?))
    }
    /// A flags byte of `N` bits; other bits set are an error.
    pub fn flags<const N: usize>(&mut self) -> Result<[bool; N]> {
        let [f] = self.take::<1>()?;
        if u32::from(f) >> N != 0 {
            return Err(Error::Storage(
                "lego: a stored flags byte is invalid".into(),
            ));
        }
        Ok(std::array::from_fn(|i| f >> i & 1 == 1))
    }
    /// A gate.
    pub fn gate(&mut self) -> Result<GateB> {
        Ok(GateB {
            table: [self.block()?, self.block()?],
            id: self.u64()?,
            s: [self.block()?, self.block()?, self.block()?],
        })
    }
    /// An authenticator.
    pub fn auth(&mut self) -> Result<AuthB> {
        Ok(AuthB {
            table: [self.block()?, self.block()?],
            id: self.u64()?,
            s: self.block()?,
        })
    }
}

/// Cuts `bytes` into `count` records of `size` bytes; `Storage` if the
/// length disagrees.
pub fn records(bytes: &[u8], size: usize, count: u64) -> Result<std::slice::ChunksExact<'_, u8>> {
    if size == 0 || (bytes.len() as u64) != (size as u64).saturating_mul(count) {
        return Err(Error::Storage(format!(
            "lego: {} stored bytes are not {count} records of {size} bytes",
            bytes.len()
        )));
    }
    Ok(bytes.chunks_exact(size))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_sizes() {
        let g = GateB {
            table: [Block(1), Block(u128::MAX)],
            id: 7,
            s: [Block(2), Block(3), Block(1 << 100)],
        };
        let a = AuthB {
            table: [Block(5), Block(6)],
            id: u64::MAX,
            s: Block(9),
        };
        let row: Row = std::array::from_fn(|i| [1, 2, 3, 4, 1 << 40, 0, 0, 0][i]);
        let mut w = Writer::default();
        w.row(&row);
        w.gate(&g);
        w.auth(&a);
        w.flags(&[true, false]);
        assert_eq!(w.0.len(), ROW + GATE + AUTH + 1);
        let mut r = Reader::new(&w.0);
        assert_eq!(r.row().unwrap(), row);
        let g2 = r.gate().unwrap();
        assert_eq!((g2.table, g2.id, g2.s), (g.table, g.id, g.s));
        let a2 = r.auth().unwrap();
        assert_eq!((a2.table, a2.id, a2.s), (a.table, a.id, a.s));
        assert_eq!(r.flags::<2>().unwrap(), [true, false]);
        assert!(matches!(r.u64(), Err(Error::Storage(_))));
    }

    #[test]
    fn bad_bytes_are_storage_errors() {
        assert!(matches!(
            Reader::new(&[4]).flags::<2>(),
            Err(Error::Storage(_))
        ));
        assert!(matches!(
            Reader::new(&[0; 15]).block(),
            Err(Error::Storage(_))
        ));
        assert!(matches!(records(&[0; 10], 3, 3), Err(Error::Storage(_))));
        assert_eq!(records(&[0; 9], 3, 3).unwrap().count(), 3);
    }
}
