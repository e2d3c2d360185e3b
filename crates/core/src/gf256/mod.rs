//! Arithmetic in the small binary fields GF(2^σ), σ ∈ {6, 8}.
//!
//! JIMU's interactive hash (Zhu–Huang, Sec. 4.2) encodes messages with a
//! Reed–Solomon code over GF(2^σ) and compresses long labels with a matrix
//! over GF(2^8); both reduce to "add a constant multiple of one byte row to
//! another", which is what the slice kernels here do, many bytes at a time.
//!
//! Elements are `u8`s holding a polynomial in x over GF(2) (bit i = the
//! coefficient of x^i). GF(2^8) uses the AES polynomial x^8+x^4+x^3+x+1
//! (`0x11B`), the one GFNI's `gf2p8mulb` multiplies in; GF(2^6) uses the
//! primitive x^6+x+1 (`0x43`). Multiplication by a constant is GF(2)-linear,
//! so GFNI's `gf2p8affineqb` serves both fields.
//!
//! Three ways to multiply, tested against each other in `tests`:
//! [`reference`] (shift-and-add; the definition), the log/exp tables of
//! [`Field`] (scalar work), and the slice kernels of [`slice`] (bulk work;
//! a portable twin, AVX2 nibble tables, GFNI + AVX-512, chosen at run time).

pub mod afft;
pub mod combine;
pub mod layout;
pub mod lookup;
pub mod matrix;
pub mod reference;
pub mod slice;
mod tables;
#[cfg(test)]
mod tests;
#[cfg(target_arch = "x86_64")]
mod x86;

pub use afft::SubspaceCode;
pub use combine::{combine_rows, combine_rows_many, const_muls};
pub use lookup::NibbleMap;
pub use matrix::{GfMatrix, StridedMap};
pub use slice::{mul_add_const, mul_const, mul_slices, ConstMul, Kernel};

/// One of the two supported fields, with its log/exp tables.
#[derive(Debug)]
pub struct Field {
    sigma: u32,
    poly: u16,
    /// The primitive element whose powers `exp` lists.
    generator: u8,
    /// `exp[i]` = g^i for i < 2·(2^σ − 1), so `exp[log a + log b]` needs no
    /// reduction modulo the group order.
    exp: [u8; 512],
    /// `log[a]` = i with g^i = a, for a ≠ 0 (`log[0]` is unused, 0).
    log: [u8; 256],
}

/// GF(2^8) modulo x^8+x^4+x^3+x+1.
pub static GF256: Field = Field::build(8, 0x11B);
/// GF(2^6) modulo x^6+x+1.
pub static GF64: Field = Field::build(6, 0x43);

impl Field {
    const fn build(sigma: u32, poly: u16) -> Field {
        let (generator, exp, log) = tables::build(sigma, poly);
        Field {
            sigma,
            poly,
            generator,
            exp,
            log,
        }
    }

    /// The field for σ = 8 or 6; `None` for any other σ.
    pub fn of(sigma: u32) -> Option<&'static Field> {
        match sigma {
            8 => Some(&GF256),
            6 => Some(&GF64),
            _ => None,
        }
    }

    /// σ: elements have σ bits.
    pub fn sigma(&self) -> u32 {
        self.sigma
    }

    /// The number of elements, 2^σ.
    pub fn order(&self) -> usize {
        1 << self.sigma
    }

    /// The reduction polynomial, bit i = coefficient of x^i (bit σ set).
    pub fn poly(&self) -> u16 {
        self.poly
    }

    /// A primitive element (its powers are all nonzero elements).
    pub fn generator(&self) -> u8 {
        self.generator
    }

    /// Whether `a` is an element (its bits above σ are clear).
    pub fn contains(&self, a: u8) -> bool {
        (a as usize) < self.order()
    }

    /// a + b (XOR).
    #[inline]
    pub fn add(&self, a: u8, b: u8) -> u8 {
        a ^ b
    }

    /// a · b through the log/exp tables.
    #[inline]
    pub fn mul(&self, a: u8, b: u8) -> u8 {
        if a == 0 || b == 0 {
            0
        } else {
            self.exp[self.log[a as usize] as usize + self.log[b as usize] as usize]
        }
    }

    /// a⁻¹, or `None` for 0.
    #[inline]
    pub fn inv(&self, a: u8) -> Option<u8> {
        if a == 0 {
            None
        } else {
            let q = self.order() - 1;
            Some(self.exp[(q - self.log[a as usize] as usize) % q])
        }
    }

    /// a / b, or `None` when b = 0.
    #[inline]
    pub fn div(&self, a: u8, b: u8) -> Option<u8> {
        self.inv(b).map(|ib| self.mul(a, ib))
    }

    /// g^i for the primitive element g.
    #[inline]
    pub fn exp(&self, i: usize) -> u8 {
        self.exp[i % (self.order() - 1)]
    }

    /// log_g(a), or `None` for 0.
    #[inline]
    pub fn log(&self, a: u8) -> Option<usize> {
        (a != 0).then(|| self.log[a as usize] as usize)
    }

    /// a^e.
    pub fn pow(&self, a: u8, e: u64) -> u8 {
        if e == 0 {
            return 1;
        }
        if a == 0 {
            return 0;
        }
        let q = (self.order() - 1) as u64;
        self.exp[((self.log[a as usize] as u64 * (e % q)) % q) as usize]
    }

    /// Σ a_i · b_i over two equally long slices (a scalar dot product).
    pub fn dot(&self, a: &[u8], b: &[u8]) -> u8 {
        assert_eq!(a.len(), b.len(), "gf256::dot: lengths differ");
        a.iter()
            .zip(b)
            .fold(0, |acc, (&x, &y)| acc ^ self.mul(x, y))
    }
}
