//! Temporary stand-ins for `brickyard_core::{prg, hash}` with exactly the API
//! announced for core, so this crate could be written and tested before those
//! kernels landed. Delete this file once core has them; every other file
//! imports through here only.

/// Stand-in for `brickyard_core::prg`.
pub mod prg {
    use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};
    use brickyard_core::Block;

    /// AES-128 in counter mode, keyed from the OS or (tests) a fixed seed.
    pub struct Prg {
        aes: aes::Aes128,
        counter: u128,
    }

    impl Prg {
        /// A PRG seeded from the operating system.
        pub fn new() -> Self {
            let mut seed = [0u8; 16];
            getrandom::fill(&mut seed).expect("OS randomness unavailable");
            Self::from_seed(Block::from_bytes(seed))
        }
        /// A PRG with a fixed seed (tests only).
        pub fn from_seed(seed: Block) -> Self {
            Prg {
                aes: aes::Aes128::new(&Array(seed.to_bytes())),
                counter: 0,
            }
        }
        /// One pseudo-random block.
        pub fn random_block(&mut self) -> Block {
            let mut b = [Block::ZERO];
            self.fill_blocks(&mut b);
            b[0]
        }
        /// Fills `out` with pseudo-random blocks.
        pub fn fill_blocks(&mut self, out: &mut [Block]) {
            for b in out.iter_mut() {
                *b = Block(self.counter);
                self.counter += 1;
            }
            let bytes: &mut [[u8; 16]] = bytemuck::cast_slice_mut(out);
            self.aes
                .encrypt_blocks(Array::cast_slice_from_core_mut(bytes));
        }
        /// One pseudo-random bit.
        pub fn random_bool(&mut self) -> bool {
            self.random_block().lsb()
        }
        /// `n` pseudo-random bits.
        pub fn random_bits(&mut self, n: usize) -> Vec<bool> {
            (0..n).map(|_| self.random_bool()).collect()
        }
    }

    impl Default for Prg {
        fn default() -> Self {
            Self::new()
        }
    }
}

/// Stand-in for `brickyard_core::hash`.
pub mod hash {
    use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};
    use brickyard_core::Block;
    use std::sync::OnceLock;

    fn pi() -> &'static aes::Aes128 {
        static PI: OnceLock<aes::Aes128> = OnceLock::new();
        PI.get_or_init(|| aes::Aes128::new(&Array(*b"brickyard-fixed!")))
    }

    fn permute(x: &mut [Block]) {
        let bytes: &mut [[u8; 16]] = bytemuck::cast_slice_mut(x);
        pi().encrypt_blocks(Array::cast_slice_from_core_mut(bytes));
    }

    /// TCCR of Guo–Katz–Wang–Yu: `π(π(x) ⊕ i) ⊕ π(x)`, in place.
    pub fn tccr_batch(x: &mut [Block], tweaks: &[Block]) {
        assert_eq!(x.len(), tweaks.len());
        permute(x);
        let mut y: Vec<Block> = x.iter().zip(tweaks).map(|(a, t)| *a ^ *t).collect();
        permute(&mut y);
        for (a, b) in x.iter_mut().zip(&y) {
            *a ^= *b;
        }
    }
}
