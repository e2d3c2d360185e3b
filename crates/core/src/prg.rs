//! AES-128 counter-mode PRG, the only source of randomness in Brickyard.
//!
//! The stream is `AES_k(0), AES_k(1), AES_k(2), …` (counter as a `Block`),
//! where `k` is the seed. Every method draws from that one stream in order,
//! so a seed fixes everything the PRG ever outputs; this is what lets two
//! parties expand a shared OT seed into the same pad. [`Prg::new`] takes the
//! seed from the operating system (`getrandom`); fixed seeds belong in tests
//! and in deterministic expansion of already-random seeds.
//!
//! AES-CTR with a uniformly random key is a PRG as long as AES is a PRP and
//! fewer than ~2^64 blocks are drawn per key (birthday bound on the PRP/PRF
//! switch); the counter is a `u128`, so it never wraps in practice.

use crate::aes::Aes128;
use crate::Block;
use zeroize::Zeroize;

/// Blocks produced per refill for the small-output methods, so even
/// `random_block` loops reach AES eight blocks at a time.
const BUF_BLOCKS: usize = 8;

/// Blocks encrypted per AES call by the byte filler (stack scratch size).
const BYTES_CHUNK_BLOCKS: usize = 64;

/// AES-CTR pseudo-random generator. Not `Clone`: two copies of one PRG would
/// silently emit the same "random" values. The feature `fuzzing` (never in
/// default builds) makes it `Clone` for the fuzz harnesses, which replay
/// fixed-seed sessions and copy a session built once instead of keying
/// hundreds of PRGs per run.
#[cfg_attr(feature = "fuzzing", derive(Clone))]
pub struct Prg {
    aes: Aes128,
    /// Counter of the next block to be generated into `buf` or the output.
    counter: u128,
    buf: [Block; BUF_BLOCKS],
    /// Index of the next unread block in `buf`; `BUF_BLOCKS` means empty.
    pos: usize,
    /// Unread random bits for `random_bool`, least significant first.
    bits: u128,
    nbits: u32,
}

impl std::fmt::Debug for Prg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Prg { .. }")
    }
}

impl Default for Prg {
    fn default() -> Self {
        Prg::new()
    }
}

impl Prg {
    /// A PRG seeded with 128 bits from the operating system.
    ///
    /// # Panics
    /// If the OS randomness source fails; continuing without randomness
    /// would be silently insecure, and no caller can do anything useful.
    pub fn new() -> Prg {
        let mut seed = [0u8; 16];
        getrandom::fill(&mut seed).expect("OS randomness source (getrandom) failed");
        let prg = Prg::from_seed(Block::from_bytes(seed));
        seed.zeroize();
        prg
    }

    /// A deterministic PRG: the same seed gives the same stream. Use for
    /// tests and for expanding seeds that are themselves random (OT seeds).
    pub fn from_seed(seed: Block) -> Prg {
        Prg {
            aes: Aes128::new(seed),
            counter: 0,
            buf: [Block::ZERO; BUF_BLOCKS],
            pos: BUF_BLOCKS,
            bits: 0,
            nbits: 0,
        }
    }

    fn refill(&mut self) {
        for (i, b) in self.buf.iter_mut().enumerate() {
            *b = Block(self.counter.wrapping_add(i as u128));
        }
        self.counter = self.counter.wrapping_add(BUF_BLOCKS as u128);
        self.aes.encrypt_blocks(&mut self.buf);
        self.pos = 0;
    }

    /// The next block of the stream.
    #[inline]
    pub fn random_block(&mut self) -> Block {
        if self.pos == BUF_BLOCKS {
            self.refill();
        }
        let b = self.buf[self.pos];
        self.buf[self.pos] = Block::ZERO;
        self.pos += 1;
        b
    }

    /// Fills `out` with the next `out.len()` blocks of the stream; after any
    /// buffered blocks are used, the rest is encrypted in one AES call.
    pub fn fill_blocks(&mut self, out: &mut [Block]) {
        let buffered = (BUF_BLOCKS - self.pos).min(out.len());
        for o in &mut out[..buffered] {
            *o = self.random_block();
        }
        let rest = &mut out[buffered..];
        if rest.is_empty() {
            return;
        }
        for (i, b) in rest.iter_mut().enumerate() {
            *b = Block(self.counter.wrapping_add(i as u128));
        }
        self.counter = self.counter.wrapping_add(rest.len() as u128);
        self.aes.encrypt_blocks(rest);
    }

    /// A fresh vector of `n` random blocks.
    pub fn random_blocks(&mut self, n: usize) -> Vec<Block> {
        let mut v = vec![Block::ZERO; n];
        self.fill_blocks(&mut v);
        v
    }

    /// Fills `out` with the little-endian bytes of the next
    /// `ceil(out.len() / 16)` blocks; the unused bytes of a final partial
    /// block are discarded (never reused).
    pub fn fill_bytes(&mut self, out: &mut [u8]) {
        // A 16-aligned whole number of blocks is the block stream's own
        // memory on a little-endian target: encrypt the counters in
        // place instead of through the scratch (saves one copy of every
        // byte; JIMU's i-hash fills its PRG rows this way).
        if cfg!(target_endian = "little") {
            if let Ok(blocks) = bytemuck::try_cast_slice_mut::<u8, Block>(out) {
                self.fill_blocks(blocks);
                return;
            }
        }
        let mut scratch = [Block::ZERO; BYTES_CHUNK_BLOCKS];
        for chunk in out.chunks_mut(16 * BYTES_CHUNK_BLOCKS) {
            let nblocks = chunk.len().div_ceil(16);
            let s = &mut scratch[..nblocks];
            self.fill_blocks(s);
            for (dst, b) in chunk.chunks_mut(16).zip(s.iter()) {
                dst.copy_from_slice(&b.to_bytes()[..dst.len()]);
            }
        }
        scratch.zeroize();
    }

    /// One uniformly random bit; 128 bits are drawn from the stream at a time.
    #[inline]
    pub fn random_bool(&mut self) -> bool {
        if self.nbits == 0 {
            self.bits = self.random_block().0;
            self.nbits = 128;
        }
        let b = self.bits & 1 == 1;
        self.bits >>= 1;
        self.nbits -= 1;
        b
    }

    /// `n` uniformly random bits, drawn from whole fresh blocks (bit `i` is
    /// bit `i % 128` of block `i / 128`); independent of `random_bool`'s cache.
    pub fn random_bits(&mut self, n: usize) -> Vec<bool> {
        let blocks = self.random_blocks(n.div_ceil(128));
        (0..n).map(|i| blocks[i / 128].bit(i % 128)).collect()
    }

    /// 64 uniformly random bits (the low half of the next block).
    #[inline]
    pub fn random_u64(&mut self) -> u64 {
        self.random_block().0 as u64
    }

    /// A uniform integer in `[0, n)`, without modulo bias (Lemire's
    /// multiply-and-reject method: rejection probability < n / 2^64).
    ///
    /// # Panics
    /// If `n == 0`; the range is chosen by our own code, never by a peer.
    pub fn gen_range(&mut self, n: u64) -> u64 {
        assert!(n > 0, "gen_range: empty range");
        let mut m = (self.random_u64() as u128) * (n as u128);
        if (m as u64) < n {
            // 2^64 mod n: low words below this threshold would be over-represented.
            let threshold = n.wrapping_neg() % n;
            while (m as u64) < threshold {
                m = (self.random_u64() as u128) * (n as u128);
            }
        }
        (m >> 64) as u64
    }

    /// Uniformly random permutation of `v` (Fisher–Yates with `gen_range`).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.gen_range(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }
}

impl Drop for Prg {
    fn drop(&mut self) {
        // The AES key schedule zeroizes itself; clear the unread output too,
        // since it may already be destined to be a secret (a label, a Δ).
        self.buf.zeroize();
        self.bits.zeroize();
        self.counter.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_determines_stream_and_seeds_differ() {
        let mut a = Prg::from_seed(Block(7));
        let mut b = Prg::from_seed(Block(7));
        let mut c = Prg::from_seed(Block(8));
        let va = a.random_blocks(100);
        assert_eq!(va, b.random_blocks(100));
        let vc = c.random_blocks(100);
        assert!(va.iter().zip(&vc).all(|(x, y)| x != y));
    }

    #[test]
    fn stream_is_aes_ctr_of_the_seed() {
        let seed = Block(0xdead_beef);
        let aes = Aes128::new(seed);
        let mut p = Prg::from_seed(seed);
        for i in 0..20u128 {
            assert_eq!(p.random_block(), aes.encrypt_block(Block(i)));
        }
    }

    #[test]
    fn fill_blocks_and_random_block_share_one_stream() {
        let seed = Block(99);
        let mut reference = Prg::from_seed(seed);
        let expect: Vec<Block> = (0..300).map(|_| reference.random_block()).collect();
        // Mix single draws and bulk fills of awkward sizes.
        let mut p = Prg::from_seed(seed);
        let mut got = vec![p.random_block(), p.random_block(), p.random_block()];
        for n in [1usize, 5, 13, 64, 100] {
            let mut v = vec![Block::ZERO; n];
            p.fill_blocks(&mut v);
            got.extend(v);
            got.push(p.random_block());
        }
        assert_eq!(got, expect[..got.len()]);
    }

    #[test]
    fn fill_bytes_is_the_block_stream_in_le_bytes() {
        let seed = Block(5);
        let mut r = Prg::from_seed(seed);
        let blocks = r.random_blocks(80);
        let mut p = Prg::from_seed(seed);
        let mut bytes = vec![0u8; 16 * 70 + 5];
        p.fill_bytes(&mut bytes);
        for (i, chunk) in bytes.chunks(16).enumerate() {
            assert_eq!(chunk, &blocks[i].to_bytes()[..chunk.len()]);
        }
        // The partial block is consumed whole.
        assert_eq!(p.random_block(), blocks[71]);
    }

    #[test]
    fn aligned_and_unaligned_fills_give_one_stream() {
        let seed = Block(6);
        let blocks = Prg::from_seed(seed).random_blocks(200);
        let expect: Vec<u8> = blocks.iter().flat_map(|b| b.to_bytes()).collect();
        // A 16-aligned buffer: the in-place path for whole blocks, the
        // scratch path at an odd offset and for a partial block.
        let mut store = vec![Block::ZERO; 200];
        let buf: &mut [u8] = bytemuck::cast_slice_mut(&mut store);
        let mut p = Prg::from_seed(seed);
        p.fill_bytes(&mut buf[..48]); // aligned, 3 blocks
        p.fill_bytes(&mut buf[49..49 + 32]); // unaligned, 2 blocks
        p.fill_bytes(&mut buf[96..96 + 1024]); // aligned, 64 blocks
        p.fill_bytes(&mut buf[1120..1120 + 7]); // partial: 1 block
        p.fill_bytes(&mut buf[1136..1136 + 160]); // aligned, 10 blocks
        assert_eq!(&buf[..48], &expect[..48]);
        assert_eq!(&buf[49..81], &expect[48..80]);
        assert_eq!(&buf[96..1120], &expect[80..1104]);
        assert_eq!(&buf[1120..1127], &expect[1104..1111]);
        assert_eq!(&buf[1136..1296], &expect[1120..1280]);
    }

    #[test]
    fn os_seeded_prgs_differ() {
        let mut a = Prg::new();
        let mut b = Prg::new();
        assert_ne!(a.random_block(), b.random_block());
    }

    #[test]
    fn bits_are_balanced() {
        let mut p = Prg::from_seed(Block(1));
        let n = 20_000;
        let ones = p.random_bits(n).iter().filter(|&&b| b).count();
        // Mean 10000, sd ~71: 6 sd bounds.
        assert!((9_575..=10_425).contains(&ones), "ones = {ones}");
        let ones = (0..n).filter(|_| p.random_bool()).count();
        assert!((9_575..=10_425).contains(&ones), "ones = {ones}");
    }

    #[test]
    fn gen_range_is_bounded_and_roughly_uniform() {
        let mut p = Prg::from_seed(Block(2));
        assert_eq!(p.gen_range(1), 0);
        // n = 3 * 2^62: plain `x % n` would put half the mass on [0, 2^62).
        let big = 3u64 << 62;
        let low = (0..6000)
            .filter(|_| p.gen_range(big) < (1u64 << 62))
            .count();
        // Unbiased: P = 1/3 (2000, sd ~37); the biased `%` would give ~3000.
        assert!((1800..=2200).contains(&low), "low = {low}");
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            let x = p.gen_range(7);
            assert!(x < 7);
            counts[x as usize] += 1;
        }
        // Each mean 10000, sd ~93: 6 sd.
        for c in counts {
            assert!((9_440..=10_560).contains(&c), "counts = {counts:?}");
        }
    }

    #[test]
    #[should_panic(expected = "empty range")]
    fn gen_range_zero_panics() {
        Prg::from_seed(Block(0)).gen_range(0);
    }

    #[test]
    fn shuffle_is_a_permutation_and_moves_things() {
        let mut p = Prg::from_seed(Block(3));
        let mut v: Vec<u32> = (0..1000).collect();
        p.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..1000).collect::<Vec<_>>());
        let fixed = v
            .iter()
            .enumerate()
            .filter(|(i, &x)| *i as u32 == x)
            .count();
        assert!(fixed < 10, "fixed points = {fixed}");
        // Every position of a 3-element shuffle is reachable.
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200 {
            let mut w = [0, 1, 2];
            p.shuffle(&mut w);
            seen.insert(w);
        }
        assert_eq!(seen.len(), 6);
    }
}
