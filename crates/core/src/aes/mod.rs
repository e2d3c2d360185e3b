//! AES-128 encryption over slices of [`Block`]s.
//!
//! Everything above this module (PRG, hashes, garbling, OT extension) spends
//! most of its time here, so the API is shaped around bulk calls: the
//! kernels keep 32 blocks in flight (VAES-512) or 8 (AES-NI), and a caller
//! that loops over single blocks forfeits most of that.
//!
//! Backends are chosen at run time: on x86-64 with AES-NI, our own kernels
//! in `ni` (VAES-512 with 32 blocks in flight when the CPU has it, else
//! 8-way AES-NI); everywhere else the `aes` crate (its own AES-NI / ARMv8 /
//! constant-time fixslice backends), which is also the portable twin the
//! kernels are tested against. No `RUSTFLAGS` or `target-cpu` settings are
//! needed, so one binary runs on every x86-64.
//!
//! Only encryption is exposed: every construction in the project (CTR PRG,
//! the GKWY hashes, re-keyed MiTCCR) uses AES in the forward direction, and
//! holding only encryption round keys halves the key schedule cost for the
//! re-keyed hash.

use crate::Block;
use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};
use std::sync::OnceLock;

pub mod fan;
pub mod halfgates;
#[cfg(target_arch = "x86_64")]
mod ni;
mod slot_xors;
pub mod soldered;

/// The underlying crate's 16-byte block type.
type AesBlock = aes::Block;

/// AES-128 keyed for encryption. Round keys are zeroized on drop (ours
/// explicitly, the `aes` crate's through its `zeroize` feature).
#[derive(Clone)]
pub struct Aes128 {
    imp: Imp,
}

#[derive(Clone)]
enum Imp {
    /// Our AES-NI / VAES kernels; only constructed after feature detection.
    #[cfg(target_arch = "x86_64")]
    Ni {
        rk: ni::RoundKeys,
        vaes512: bool,
        vaes256: bool,
    },
    /// The `aes` crate: the portable twin (and the path on other CPUs).
    Crate(aes::Aes128Enc),
}

impl Drop for Aes128 {
    fn drop(&mut self) {
        #[cfg(target_arch = "x86_64")]
        if let Imp::Ni { rk, .. } = &mut self.imp {
            zeroize::Zeroize::zeroize(rk);
        }
    }
}

impl std::fmt::Debug for Aes128 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print round keys: some instances are keyed with secrets.
        f.write_str("Aes128 { .. }")
    }
}

impl Aes128 {
    /// Keys AES-128 with the 16 little-endian bytes of `key`
    /// (`key.to_bytes()` is the FIPS-197 key byte string).
    pub fn new(key: Block) -> Aes128 {
        #[cfg(target_arch = "x86_64")]
        {
            let f = ni::Features::detect();
            if f.aesni {
                // SAFETY: AES-NI, SSE2 and SSSE3 were detected just above.
                let rk = unsafe { ni::expand_key(key) };
                return Aes128 {
                    imp: Imp::Ni {
                        rk,
                        vaes512: f.vaes512,
                        vaes256: f.vaes256,
                    },
                };
            }
        }
        Aes128::new_portable(key)
    }

    /// Keys the `aes` crate backend regardless of CPU features: the
    /// portable twin that the kernels are tested against.
    pub fn new_portable(key: Block) -> Aes128 {
        let mut bytes = key.to_bytes();
        let inner = aes::Aes128Enc::new(&Array::from(bytes));
        zeroize::Zeroize::zeroize(&mut bytes);
        Aes128 {
            imp: Imp::Crate(inner),
        }
    }

    /// The round keys, if this instance runs on the VAES-512 kernels.
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn vaes512_keys(&self) -> Option<&ni::RoundKeys> {
        match &self.imp {
            Imp::Ni {
                rk, vaes512: true, ..
            } => Some(rk),
            _ => None,
        }
    }

    /// The round keys, if this instance runs on the VAES-256 (YMM)
    /// kernels (VAES and AVX2 detected).
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn vaes256_keys(&self) -> Option<&ni::RoundKeys> {
        match &self.imp {
            Imp::Ni {
                rk, vaes256: true, ..
            } => Some(rk),
            _ => None,
        }
    }

    /// Encrypts one block. Prefer the slice APIs in loops: they interleave
    /// many blocks to hide the AES latency.
    #[inline]
    pub fn encrypt_block(&self, b: Block) -> Block {
        match &self.imp {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Imp::Ni` exists only if AES-NI was detected in `new`.
            Imp::Ni { rk, .. } => unsafe { ni::encrypt1(rk, b) },
            Imp::Crate(c) => {
                let mut a = AesBlock::from(b.to_bytes());
                c.encrypt_block(&mut a);
                Block::from_bytes(a.into())
            }
        }
    }

    /// Encrypts `blocks` in place.
    #[inline]
    pub fn encrypt_blocks(&self, blocks: &mut [Block]) {
        match &self.imp {
            #[cfg(target_arch = "x86_64")]
            Imp::Ni {
                rk,
                vaes512,
                vaes256,
            } => {
                // Below 8 blocks the ZMM key broadcast costs more than it saves.
                if *vaes512 && blocks.len() >= 8 {
                    // SAFETY: `vaes512` is set only when VAES, AVX-512F and
                    // AES-NI were all detected in `new`.
                    unsafe { ni::encrypt_vaes512(rk, blocks) }
                } else if *vaes256 && blocks.len() >= 8 {
                    // SAFETY: `vaes256` is set only when VAES, AVX2 and
                    // AES-NI were all detected in `new`.
                    unsafe { ni::encrypt_vaes256(rk, blocks) }
                } else {
                    // SAFETY: `Imp::Ni` exists only if AES-NI was detected.
                    unsafe { ni::encrypt_aesni(rk, blocks) }
                }
            }
            Imp::Crate(c) => crate_encrypt_blocks(c, blocks),
        }
    }

    /// Encrypts `input` into `out` without touching `input`.
    ///
    /// # Panics
    /// If `input.len() != out.len()`: both are internal buffers sized by the
    /// caller, so a mismatch is a programming error, not peer input.
    #[inline]
    pub fn encrypt_blocks_to(&self, input: &[Block], out: &mut [Block]) {
        assert_eq!(input.len(), out.len(), "encrypt_blocks_to: length mismatch");
        out.copy_from_slice(input);
        self.encrypt_blocks(out);
    }
}

fn crate_encrypt_blocks(c: &aes::Aes128Enc, blocks: &mut [Block]) {
    #[cfg(target_endian = "little")]
    c.encrypt_blocks(as_aes_blocks_mut(blocks));
    #[cfg(not(target_endian = "little"))]
    for b in blocks.iter_mut() {
        let mut a = AesBlock::from(b.to_bytes());
        c.encrypt_block(&mut a);
        *b = Block::from_bytes(a.into());
    }
}

/// The MiTCCR core: group `g` of `per` consecutive blocks of `x` becomes
/// `E_k(x) ⊕ x` with `k = seed ⊕ tweaks[g]`. Uses the interleaved AES-NI
/// multi-key kernel when available.
///
/// # Panics
/// If `x.len() != tweaks.len() * per`.
pub(crate) fn mmo_rekeyed(seed: Block, tweaks: &[Block], per: usize, x: &mut [Block]) {
    assert_eq!(x.len(), tweaks.len() * per, "MiTccr: length mismatch");
    if per == 0 {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if ni::Features::detect().aesni {
        // SAFETY: AES-NI, SSE2 and SSSE3 were detected just above.
        unsafe { ni::mmo_rekeyed(seed, tweaks, per, x) };
        return;
    }
    mmo_rekeyed_portable(seed, tweaks, per, x);
}

/// The portable twin of [`mmo_rekeyed`]: one `aes` crate key per tweak.
pub(crate) fn mmo_rekeyed_portable(seed: Block, tweaks: &[Block], per: usize, x: &mut [Block]) {
    assert_eq!(x.len(), tweaks.len() * per, "MiTccr: length mismatch");
    if per == 0 {
        return;
    }
    for (xg, t) in x.chunks_mut(per).zip(tweaks) {
        let aes = Aes128::new_portable(seed ^ *t);
        for b in xg.iter_mut() {
            *b ^= aes.encrypt_block(*b);
        }
    }
}

/// Reinterprets blocks as the crate's byte arrays. Sound only on
/// little-endian targets, where a `u128`'s memory bytes are its
/// little-endian bytes, i.e. exactly `Block::to_bytes`.
#[cfg(target_endian = "little")]
#[inline]
fn as_aes_blocks_mut(blocks: &mut [Block]) -> &mut [AesBlock] {
    Array::cast_slice_from_core_mut(bytemuck::cast_slice_mut::<Block, [u8; 16]>(blocks))
}

/// The fixed key of the public permutation π used by the GKWY hashes:
/// the ASCII bytes `"brickyard-pi-v01"`, chosen to be visibly arbitrary
/// (nothing up the sleeve). Changing it breaks compatibility of every
/// transcript, so it is versioned in the string.
pub const FIXED_KEY_BYTES: [u8; 16] = *b"brickyard-pi-v01";

/// The public fixed-key permutation π (key [`FIXED_KEY_BYTES`]), expanded
/// once per process.
pub fn fixed_key() -> &'static Aes128 {
    static FIXED: OnceLock<Aes128> = OnceLock::new();
    FIXED.get_or_init(|| Aes128::new(Block::from_bytes(FIXED_KEY_BYTES)))
}

/// Which AES backend [`Aes128::new`] picks on this machine: `"vaes512"`,
/// `"vaes256"`, `"aesni"`, or `"aes-crate"` (reported by benchmarks so that a slow number
/// can be explained).
pub fn backend_name() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    {
        let f = ni::Features::detect();
        if f.vaes512 {
            return "vaes512";
        }
        if f.vaes256 {
            return "vaes256";
        }
        if f.aesni {
            return "aesni";
        }
    }
    "aes-crate"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex16(s: &str) -> [u8; 16] {
        let mut out = [0u8; 16];
        for (i, o) in out.iter_mut().enumerate() {
            *o = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap();
        }
        out
    }

    /// FIPS-197 Appendix C.1 (AES-128) and Appendix B, with the byte strings
    /// mapped to blocks by `Block::from_bytes`.
    const KATS: [(&str, &str, &str); 2] = [
        (
            "000102030405060708090a0b0c0d0e0f",
            "00112233445566778899aabbccddeeff",
            "69c4e0d86a7b0430d8cdb78070b4c55a",
        ),
        (
            "2b7e151628aed2a6abf7158809cf4f3c",
            "3243f6a8885a308d313198a2e0370734",
            "3925841d02dc09fbdc118597196a0b32",
        ),
    ];

    /// Every backend this machine can run: the default, the `aes` crate, and
    /// (if AES-NI is present) the 8-way AES-NI kernel with VAES disabled and
    /// (if VAES and AVX2 are) the VAES-256 kernel alone.
    fn all_backends(key: Block) -> Vec<Aes128> {
        let mut v = vec![Aes128::new(key), Aes128::new_portable(key)];
        #[cfg(target_arch = "x86_64")]
        if let Imp::Ni { rk, .. } = &v[0].imp {
            let rk = *rk;
            v.push(Aes128 {
                imp: Imp::Ni {
                    rk,
                    vaes512: false,
                    vaes256: false,
                },
            });
            if ni::Features::detect().vaes256 {
                v.push(Aes128 {
                    imp: Imp::Ni {
                        rk,
                        vaes512: false,
                        vaes256: true,
                    },
                });
            }
        }
        v
    }

    #[test]
    fn fips197_known_answers() {
        for (k, p, c) in KATS {
            for aes in all_backends(Block::from_bytes(hex16(k))) {
                let pt = Block::from_bytes(hex16(p));
                let ct = Block::from_bytes(hex16(c));
                assert_eq!(aes.encrypt_block(pt), ct);
                let mut v = vec![pt; 3];
                aes.encrypt_blocks(&mut v);
                assert_eq!(v, vec![ct; 3]);
            }
        }
    }

    #[test]
    fn batch_matches_single_for_all_tail_lengths() {
        let key = Block(0x0123_4567_89ab_cdef_fedc_ba98_7654_3210);
        let portable = Aes128::new_portable(key);
        // Cover the 32-block VAES loop, 4-block steps, 8-block AES-NI, tails.
        for aes in all_backends(key) {
            for n in [
                0usize, 1, 3, 4, 5, 7, 8, 9, 31, 32, 33, 36, 39, 63, 64, 65, 200,
            ] {
                let input: Vec<Block> = (0..n as u128)
                    .map(|i| Block(i.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835)))
                    .collect();
                let expect: Vec<Block> = input.iter().map(|&b| portable.encrypt_block(b)).collect();
                let mut inplace = input.clone();
                aes.encrypt_blocks(&mut inplace);
                assert_eq!(inplace, expect, "in place, n = {n}");
                let mut out = vec![Block::ZERO; n];
                aes.encrypt_blocks_to(&input, &mut out);
                assert_eq!(out, expect, "to, n = {n}");
                let single: Vec<Block> = input.iter().map(|&b| aes.encrypt_block(b)).collect();
                assert_eq!(single, expect, "single, n = {n}");
            }
        }
    }

    #[test]
    fn rekeyed_kernel_matches_portable() {
        let seed = Block(0x5eed);
        for per in [1usize, 2, 3, 5] {
            for ntweaks in [0usize, 1, 7, 8, 9, 20] {
                let tweaks: Vec<Block> = (0..ntweaks as u128).map(|i| Block(i * 77 + 1)).collect();
                let x: Vec<Block> = (0..(ntweaks * per) as u128)
                    .map(|i| Block(i << 64 | i))
                    .collect();
                let mut a = x.clone();
                let mut b = x.clone();
                mmo_rekeyed(seed, &tweaks, per, &mut a);
                mmo_rekeyed_portable(seed, &tweaks, per, &mut b);
                assert_eq!(a, b, "per {per}, tweaks {ntweaks}");
                for (j, (got, xb)) in a.iter().zip(&x).enumerate() {
                    let k = Aes128::new_portable(seed ^ tweaks[j / per]);
                    assert_eq!(*got, k.encrypt_block(*xb) ^ *xb);
                }
            }
        }
    }

    #[test]
    fn fixed_key_is_the_documented_key() {
        let k = Aes128::new(Block::from_bytes(*b"brickyard-pi-v01"));
        let x = Block(42);
        assert_eq!(fixed_key().encrypt_block(x), k.encrypt_block(x));
        assert_ne!(fixed_key().encrypt_block(x), x);
    }

    #[test]
    #[should_panic(expected = "length mismatch")]
    fn encrypt_to_rejects_mismatched_lengths() {
        let mut out = [Block::ZERO; 2];
        fixed_key().encrypt_blocks_to(&[Block::ZERO; 3], &mut out);
    }
}
