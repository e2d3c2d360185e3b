//! π_mal, the online phase (Fig. 5 with free XOR, Sec. 2.1, and NOT
//! removal, Sec. 2.2), for a batch of executions run in lockstep (a batch of
//! one is a single execution; larger batches are the paper's "parallel"
//! columns: one flight per layer carries every execution's shares).
//!
//! | step | paper | here |
//! |---|---|---|
//! | 3 | send `e_u = x_u ⊕ r_u` for own input wires | [`send_inputs`] |
//! | 4(a)–(d) | per table gate: send `A_i[e_u,e_v]`, accumulate `m_A`/`t_B`, `e_o = e_A ⊕ e_B` | `open_layer`, one flight per layer |
//! | 4, end | exchange `m_A`, `m_B`; abort unless `t_A = m_B`, `t_B = m_A` | in the last layer's flight (check `table-mac`); [`check_tables`] for a program without tables |
//! | 5–7 | open output gates with MACs, output `e_o ⊕ r_o` | [`open_outputs`] (check `output-mac`) |
//!
//! **How a batch is evaluated.** Masked wire values are bit-sliced: lane
//! `x` of word `w` is execution `x`'s `e_w`, 64 executions per word
//! ([`LANES`]), so every XOR gate of 64 executions is one `u64` XOR and NOT
//! gates cost nothing (they are resolved to wire aliases when the
//! [`OnlinePlan`] is built, once per program). A table layer then gathers,
//! per execution and gate, the entry index `c` from the lanes of the input
//! words, reads exactly the share, tag and key of entry `c` from the
//! execution's table record (nothing else of the record is touched or
//! copied), and scatters the opened outputs back into lanes. The linear MAC
//! is hashed 128 values per fixed-key AES call ([`super::mac::Acc`]). All
//! buffers live in a [`Scratch`] that a party keeps across executions: no
//! allocation per gate, layer or (after the first) execution.

use super::mac::{acc_key, clmul_small, Acc, MacScheme, Purpose};
use super::material::{get_bit, set_bit, Layout, Material};
use super::program::{Lin, Program};
use brickyard_core::prefetch::prefetch;
use brickyard_core::{Channel, Error, Result};
use brickyard_driver::{OutputMode, Role};
use zeroize::Zeroize;

/// Executions per bit-sliced word.
pub const LANES: usize = 64;

/// Where a cheating party may deviate (see `cheat.rs`); the honest build
/// never deviates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Point {
    /// The mask of own input bit `i` of execution 0.
    InputMask(usize),
    /// The share sent for global table `g` of execution 0, in layer `layer`.
    TableShare {
        /// Global table index.
        g: usize,
        /// Layer index among table layers (0-based).
        layer: usize,
        /// Number of table layers.
        layers: usize,
    },
    /// The accumulated table MAC sent at the check.
    TableMac,
    /// The share of output-mask bit `i` of execution 0.
    OutputShare(usize),
    /// The output-opening MAC.
    OutputMac,
}

/// One layer of a program, compiled for word-wise evaluation.
#[derive(Clone, Debug)]
struct LayerPlan {
    /// `e[o] = e[a] ⊕ e[b]` for `[a, b, o]`, in order (NOT gates removed).
    xors: Vec<[u32; 3]>,
    /// Input words of the table gates, `n` per gate (aliases resolved).
    ins: Vec<u32>,
    /// Output words of the table gates, `m` per gate.
    outs: Vec<u32>,
    /// Global index of the first table gate.
    first: usize,
    /// Table gates in the layer.
    tables: usize,
    /// Index among table layers.
    table_layer: usize,
    /// The last layer with tables: its flight also carries the table MAC.
    last: bool,
}

/// A program compiled once for the online phase: per-layer gate lists with
/// NOT gates turned into wire aliases (Sec. 2.2: the online phase does
/// nothing for them), so that evaluating a layer is a flat loop.
#[derive(Clone, Debug)]
pub struct OnlinePlan {
    n: usize,
    m: usize,
    words: usize,
    layers: Vec<LayerPlan>,
    table_layers: usize,
    tables: usize,
    max_tables: usize,
    /// Output wires (all groups concatenated), aliases resolved.
    outs: Vec<u32>,
    /// Words read before any gate writes them that are not program inputs
    /// (none for a well-formed circuit): cleared at the start of a run.
    unset: Vec<u32>,
    /// Every program input wire (cleared before the input flight, so a
    /// group that no party owns reads as 0, as before).
    inputs: Vec<u32>,
}

impl OnlinePlan {
    /// Compiles `p`.
    pub fn new(p: &Program) -> OnlinePlan {
        let nw = p.num_wires as usize;
        let mut alias: Vec<u32> = (0..p.num_wires).collect();
        let mut written = vec![false; nw];
        let inputs: Vec<u32> = p.inputs.iter().flatten().copied().collect();
        for &w in &inputs {
            written[w as usize] = true;
        }
        let mut unset = Vec::new();
        let read = |w: u32, written: &[bool], unset: &mut Vec<u32>| {
            if !written[w as usize] && !unset.contains(&w) {
                unset.push(w);
            }
        };
        let mut layers = Vec::with_capacity(p.layers.len());
        let mut table_layer = 0;
        let mut max_tables = 0;
        for l in &p.layers {
            let mut xors = Vec::with_capacity(l.linear.len());
            for g in &l.linear {
                match *g {
                    Lin::Xor(a, b, o) => {
                        let (a, b) = (alias[a as usize], alias[b as usize]);
                        read(a, &written, &mut unset);
                        read(b, &written, &mut unset);
                        xors.push([a, b, o]);
                        written[o as usize] = true;
                    }
                    Lin::Not(a, o) => alias[o as usize] = alias[a as usize],
                }
            }
            let ins: Vec<u32> = l.table_ins.iter().map(|&w| alias[w as usize]).collect();
            for &w in &ins {
                read(w, &written, &mut unset);
            }
            for &w in &l.table_outs {
                written[w as usize] = true;
            }
            let tables = l.tables(&p.table);
            max_tables = max_tables.max(tables);
            layers.push(LayerPlan {
                xors,
                ins,
                outs: l.table_outs.clone(),
                first: l.first_table,
                tables,
                table_layer,
                last: false,
            });
            if tables > 0 {
                table_layer += 1;
            }
        }
        if let Some(lp) = layers.iter_mut().rev().find(|lp| lp.tables > 0) {
            lp.last = true;
        }
        let outs: Vec<u32> = p
            .outputs
            .iter()
            .flatten()
            .map(|&w| alias[w as usize])
            .collect();
        for &w in &outs {
            read(w, &written, &mut unset);
        }
        OnlinePlan {
            n: p.table.n_in as usize,
            m: p.table.n_out as usize,
            words: nw,
            layers,
            table_layers: table_layer,
            tables: p.table_count(),
            max_tables,
            outs,
            unset,
            inputs,
        }
    }
}

/// Reusable buffers of the online phase (kept by a party across
/// executions; zeroized on drop).
#[derive(Default)]
pub struct Scratch {
    /// Masked wire values, `words` per group of [`LANES`] executions.
    e: Vec<u64>,
    /// Entry index `c` per (execution, gate) of the current layer,
    /// execution-major (the order pass 2 reads the records in).
    idx: Vec<u8>,
    /// Linear MAC: my key `β` for the entry the peer opens, per (execution,
    /// gate), read from the record in pass 2 together with my tag, so that
    /// pass 4 does not go back to the records (a layer's records of 64
    /// executions are larger than the L2 cache); `u64` when keys fit.
    keys64: Vec<u64>,
    keys128: Vec<u128>,
    /// Linear MAC, `m > 1`: per execution, `α·v` for every nibble `v`
    /// (`α·x = T[x mod 16] ⊕ T[x / 16]·X^4`).
    mul: Vec<[u128; 16]>,
    /// My shares of the current layer: one word per (group, gate) for
    /// 1-bit entries, else one byte per (group, gate, lane).
    mine_w: Vec<u64>,
    mine_b: Vec<u8>,
    /// The peer's shares, same shapes.
    theirs_w: Vec<u64>,
    theirs_b: Vec<u8>,
    /// Linear-MAC values of one group, before hashing.
    vals: Vec<u128>,
    msg: Vec<u8>,
    got: Vec<u8>,
    alpha: Vec<u64>,
}

impl Drop for Scratch {
    fn drop(&mut self) {
        self.e.zeroize();
        self.idx.zeroize();
        self.keys64.zeroize();
        self.keys128.zeroize();
        for t in &mut self.mul {
            t.zeroize();
        }
        self.mine_w.zeroize();
        self.mine_b.zeroize();
        self.theirs_w.zeroize();
        self.theirs_b.zeroize();
        self.vals.zeroize();
        self.msg.zeroize();
        self.got.zeroize();
        self.alpha.zeroize();
    }
}

impl Scratch {
    /// Sizes (and writes, so its pages are mapped) every buffer whose size
    /// follows from the program and layout alone, for batches of up to
    /// `total` executions. A party calls it before its first execution
    /// (`begin_online`): otherwise that execution pays for the first touch
    /// of buffers the later ones reuse (some are larger than the
    /// allocator's mmap threshold, so fresh pages, faulted in one by one).
    pub fn reserve(&mut self, plan: &OnlinePlan, l: &Layout, total: usize) {
        let groups = total.div_ceil(LANES);
        let t = plan.max_tables;
        resize(&mut self.e, groups * plan.words);
        resize(&mut self.idx, groups * t * LANES);
        resize(&mut self.mine_w, groups * t);
        resize(&mut self.theirs_w, groups * t);
        resize(&mut self.mine_b, groups * t * LANES);
        resize(&mut self.theirs_b, groups * t * LANES);
        resize(&mut self.vals, (t * LANES).max(plan.outs.len()));
        match l.scheme {
            MacScheme::Linear { .. } if l.verify > 8 => resize(&mut self.keys128, total * t),
            MacScheme::Linear { .. } => resize(&mut self.keys64, total * t),
            // `a^0 ⊕ a^1` per AND entry read ([`look_up_bit_lookup`]).
            MacScheme::Lookup { .. } if plan.m == 1 && plan.n <= 3 => {
                resize(&mut self.keys64, total * t)
            }
            _ => {}
        }
    }
}

fn resize<T: Copy + Default>(v: &mut Vec<T>, n: usize) {
    if v.len() < n {
        v.resize(n, T::default());
    }
}

/// Everything fixed across executions of one party.
pub struct Ctx<'a> {
    /// The program.
    pub program: &'a Program,
    /// The program compiled for the online phase.
    pub plan: &'a OnlinePlan,
    /// This party's record layout.
    pub layout: Layout,
    /// This party's role (A = Alice, B = Bob).
    pub role: Role,
    /// Who learns the output.
    pub output: OutputMode,
    /// This party's input wires, in its input order.
    pub my_inputs: &'a [u32],
    /// The peer's input wires.
    pub peer_inputs: &'a [u32],
    /// The deviation this party is told to make (adversary builds only).
    #[cfg(feature = "adversary")]
    pub cheat: Option<super::cheat::Cheat>,
}

impl<'a> Ctx<'a> {
    /// An honest party's context.
    pub fn new(
        program: &'a Program,
        plan: &'a OnlinePlan,
        layout: Layout,
        role: Role,
        output: OutputMode,
        my_inputs: &'a [u32],
        peer_inputs: &'a [u32],
    ) -> Ctx<'a> {
        Ctx {
            program,
            plan,
            layout,
            role,
            output,
            my_inputs,
            peer_inputs,
            #[cfg(feature = "adversary")]
            cheat: None,
        }
    }

    /// The prover index of MAC hash tweaks (0 = Alice, 1 = Bob): mine
    /// for the proofs I make, the peer's for those I verify.
    fn prover_id(&self, mine: bool) -> u64 {
        ((self.role == Role::Bob) == mine) as u64
    }

    /// XOR mask to apply at `p` (always 0 in honest builds).
    #[inline(always)]
    fn deviate(&self, p: Point) -> u64 {
        #[cfg(feature = "adversary")]
        if let Some(c) = &self.cheat {
            return c.deviation(p);
        }
        let _ = p;
        0
    }

    /// Whether any deviation is configured (lets the hot loops skip the
    /// per-gate test in honest runs).
    #[inline(always)]
    fn cheating(&self) -> bool {
        #[cfg(feature = "adversary")]
        if self.cheat.is_some() {
            return true;
        }
        false
    }
}

pub(crate) fn recv_packed(ch: &mut Channel, buf: &mut Vec<u8>, nbits: usize) -> Result<()> {
    let len = nbits.div_ceil(8);
    resize(buf, len);
    let b = &mut buf[..len];
    ch.recv_bytes(b)?;
    if !nbits.is_multiple_of(8) && b.last().is_some_and(|l| l >> (nbits % 8) != 0) {
        return Err(Error::malformed("tinytable: non-zero padding bits"));
    }
    Ok(())
}

fn send_check(ch: &mut Channel, scheme: MacScheme, v: u64) -> Result<()> {
    ch.send_bytes(&v.to_le_bytes()[..scheme.key_bytes()])
}

pub(crate) fn recv_check(ch: &mut Channel, scheme: MacScheme) -> Result<u64> {
    let mut b = [0u8; 8];
    ch.recv_bytes(&mut b[..scheme.key_bytes()])?;
    Ok(u64::from_le_bytes(b))
}

/// Little-endian integer of `nbytes ≤ 16` bytes at `buf[at..]`: one
/// unaligned 16-byte load and a mask when the record has room, else a copy.
#[inline(always)]
fn load(buf: &[u8], at: usize, nbytes: usize) -> u128 {
    let v = match buf.get(at..at + 16) {
        Some(w) => u128::from_le_bytes(w.try_into().expect("16 bytes")),
        None => {
            let mut w = [0u8; 16];
            w[..nbytes].copy_from_slice(&buf[at..at + nbytes]);
            return u128::from_le_bytes(w);
        }
    };
    if nbytes >= 16 {
        v
    } else {
        v & ((1u128 << (8 * nbytes)) - 1)
    }
}

/// Little-endian `u64` of `nbytes ≤ 8` bytes at `buf[at..]`.
#[inline(always)]
fn load64(buf: &[u8], at: usize, nbytes: usize) -> u64 {
    let v = match buf.get(at..at + 8) {
        Some(w) => u64::from_le_bytes(w.try_into().expect("8 bytes")),
        None => {
            let mut w = [0u8; 8];
            w[..nbytes].copy_from_slice(&buf[at..at + nbytes]);
            return u64::from_le_bytes(w);
        }
    };
    if nbytes >= 8 {
        v
    } else {
        v & ((1u64 << (8 * nbytes)) - 1)
    }
}

/// A tag or key of `nbytes ≤ 16` bytes: [`load64`] when it fits in a word.
#[inline(always)]
fn load_tag(buf: &[u8], at: usize, nbytes: usize) -> u128 {
    if nbytes <= 8 {
        load64(buf, at, nbytes) as u128
    } else {
        load(buf, at, nbytes)
    }
}

/// Little-endian integer of the `nbytes ≤ 16` bytes that end at
/// `buf[end]` (exclusive), through one unaligned load that also ends
/// there: for the last field of a record entry (the linear key `β`), a
/// window that starts at the field would run past the entry, into a cache
/// line the prefetch did not fetch (S-box linear-64: a 16-byte window on a
/// 9-byte key 10 bytes into a 19-byte entry crosses into the next line for
/// 7 entry positions in 64, each a full-latency demand miss); ending the
/// window at the field's end keeps it inside the entry when the entry is
/// at least as long as the window.
#[inline(always)]
fn load_end(buf: &[u8], end: usize, nbytes: usize) -> u128 {
    if nbytes <= 8 {
        match end.checked_sub(8).and_then(|s| buf.get(s..end)) {
            Some(w) => {
                (u64::from_le_bytes(w.try_into().expect("8 bytes")) >> (64 - 8 * nbytes)) as u128
            }
            None => load64(buf, end - nbytes, nbytes) as u128,
        }
    } else {
        match end.checked_sub(16).and_then(|s| buf.get(s..end)) {
            Some(w) => u128::from_le_bytes(w.try_into().expect("16 bytes")) >> (128 - 8 * nbytes),
            None => load(buf, end - nbytes, nbytes),
        }
    }
}

/// Appends bit fields to a zeroed byte buffer, LSB first.
struct BitWriter<'b> {
    out: &'b mut [u8],
    pos: usize,
    acc: u128,
    nacc: u32,
}

impl<'b> BitWriter<'b> {
    fn new(out: &'b mut [u8]) -> Self {
        BitWriter {
            out,
            pos: 0,
            acc: 0,
            nacc: 0,
        }
    }
    /// Appends the low `nbits ≤ 64` bits of `v` (higher bits must be 0).
    #[inline(always)]
    fn put(&mut self, v: u64, nbits: u32) {
        self.acc |= (v as u128) << self.nacc;
        self.nacc += nbits;
        if self.nacc >= 64 {
            self.out[self.pos..self.pos + 8].copy_from_slice(&(self.acc as u64).to_le_bytes());
            self.pos += 8;
            self.acc >>= 64;
            self.nacc -= 64;
        }
    }
    fn finish(self) {
        let rest = (self.nacc as usize).div_ceil(8);
        self.out[self.pos..self.pos + rest].copy_from_slice(&self.acc.to_le_bytes()[..rest]);
    }
}

/// Reads bit fields written by [`BitWriter`].
struct BitReader<'b> {
    buf: &'b [u8],
    bit: usize,
}

impl BitReader<'_> {
    #[inline(always)]
    fn get(&mut self, nbits: u32) -> u64 {
        let (byte, off) = (self.bit / 8, self.bit % 8);
        let mut w = [0u8; 16];
        let end = (byte + 16).min(self.buf.len());
        w[..end - byte].copy_from_slice(&self.buf[byte..end]);
        self.bit += nbits as usize;
        let v = (u128::from_le_bytes(w) >> off) as u64;
        if nbits >= 64 {
            v
        } else {
            v & ((1u64 << nbits) - 1)
        }
    }
}

/// Lanes in group `gi` of a batch of `total` executions.
#[inline]
fn lanes(total: usize, gi: usize) -> usize {
    (total - gi * LANES).min(LANES)
}

/// Step 3: masked inputs both ways (one flight).
fn send_inputs(
    ch: &mut Channel,
    ctx: &Ctx<'_>,
    mats: &[&Material],
    inputs: &[Vec<bool>],
    s: &mut Scratch,
) -> Result<()> {
    let words = ctx.plan.words;
    let (ni, np) = (ctx.my_inputs.len(), ctx.peer_inputs.len());
    let total = mats.len();
    let groups = total.div_ceil(LANES);
    for gi in 0..groups {
        let ew = &mut s.e[gi * words..(gi + 1) * words];
        for &w in ctx.plan.inputs.iter().chain(&ctx.plan.unset) {
            ew[w as usize] = 0;
        }
    }
    let len = (total * ni).div_ceil(8);
    resize(&mut s.msg, len);
    let msg = &mut s.msg[..len];
    msg.fill(0);
    for (x, (mat, inp)) in mats.iter().zip(inputs).enumerate() {
        if inp.len() != ni {
            return Err(Error::config("tinytable: wrong number of input bits"));
        }
        let ew = &mut s.e[(x / LANES) * words..];
        let lane = x % LANES;
        for (i, (&w, &bit)) in ctx.my_inputs.iter().zip(inp).enumerate() {
            let mut r = get_bit(&mat.exec, i);
            if x == 0 {
                r ^= ctx.deviate(Point::InputMask(i)) & 1 == 1;
            }
            let v = bit ^ r;
            ew[w as usize] |= (v as u64) << lane;
            set_bit(msg, x * ni + i, v);
        }
    }
    ch.send_bytes(msg)?;
    recv_packed(ch, &mut s.got, total * np)?;
    for x in 0..total {
        let ew = &mut s.e[(x / LANES) * words..];
        let lane = x % LANES;
        for (i, &w) in ctx.peer_inputs.iter().enumerate() {
            ew[w as usize] |= (get_bit(&s.got, x * np + i) as u64) << lane;
        }
    }
    Ok(())
}

/// 8×8 bit-matrix transpose of a `u64` (bit `8r + c` ↔ bit `8c + r`): turns
/// byte `k` of `n` bit-sliced words into the `n`-bit entry indices of 8
/// lanes, and 8 lanes' `m`-bit outputs back into bytes of `m` words.
#[inline(always)]
fn transpose8(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^= t ^ (t << 28);
    x
}

/// Pass 2 of [`open_layer_nm`] for AND tables (`n ≤ 3`, 1-bit entries)
/// under the linear MAC with `TB`-byte tags: per table of one execution,
/// my share bit of entry `c` (into `mine`, bit `lane`), my tag on it and my
/// key `β` for the peer's share of it, which are adjacent in the record.
#[inline(always)]
fn look_up_bit_linear<const TB: usize>(
    recs: &[u8],
    cs: &[u8],
    l: &Layout,
    tags: &mut [u128],
    keys: &mut [u64],
    mine: &mut [u64],
    lane: usize,
) {
    let (gb, eb, at) = (l.gate_bytes, l.entry_bytes, l.entries_at + l.tag_off);
    debug_assert!(l.tag == TB && l.verify == TB && l.ver_off == l.tag_off + TB);
    let word = |b: &[u8]| {
        let mut w = [0u8; 8];
        w[..TB].copy_from_slice(&b[..TB]);
        u64::from_le_bytes(w)
    };
    for ((((rec, &c), tag), key), mw) in recs
        .chunks_exact(gb)
        .zip(cs)
        .zip(tags.iter_mut())
        .zip(keys.iter_mut())
        .zip(mine.iter_mut())
    {
        let c = c as usize & 7;
        let e = &rec[at + c * eb..at + c * eb + 2 * TB];
        *tag = word(e) as u128;
        *key = word(&e[TB..]);
        *mw |= (((rec[0] >> c) & 1) as u64) << lane;
    }
}

/// Pass 2 of [`open_layer_nm`] for AND tables (`n ≤ 3`, 1-bit entries)
/// under the lookup MAC with `KB`-byte strings: per table of one
/// execution, my share bit of entry `c` (into `mine`, bit `lane`), my tag
/// (the string `a^{A_i[c]}`) on it, and both strings `a^0`, `a^1` for the
/// peer's share of entry `c`, which are adjacent in the record. Which one
/// the verifier needs is the share the peer sends in pass 3, so pass 2
/// keeps `a^0` in the returned verify sum and `a^0 ⊕ a^1` in `keys`: pass
/// 4 then adds `keys[g]` where the peer's bit is 1 and never goes back to
/// the records (a binary layer's records of 64 executions do not stay in
/// L2 until then). Returns the XOR of my tags and of the `a^0`.
#[inline(always)]
fn look_up_bit_lookup<const KB: usize>(
    recs: &[u8],
    cs: &[u8],
    l: &Layout,
    keys: &mut [u64],
    mine: &mut [u64],
    lane: usize,
) -> (u64, u64) {
    let (gb, eb, at) = (l.gate_bytes, l.entry_bytes, l.entries_at + l.tag_off);
    debug_assert!(l.tag == KB && l.verify == 2 * KB && l.ver_off == l.tag_off + KB);
    let word = |b: &[u8]| {
        let mut w = [0u8; 8];
        w[..KB].copy_from_slice(&b[..KB]);
        u64::from_le_bytes(w)
    };
    let (mut tags, mut zeros) = (0u64, 0u64);
    for (((rec, &c), key), mw) in recs
        .chunks_exact(gb)
        .zip(cs)
        .zip(keys.iter_mut())
        .zip(mine.iter_mut())
    {
        let c = c as usize & 7;
        let e = &rec[at + c * eb..at + c * eb + 3 * KB];
        tags ^= word(e);
        let a0 = word(&e[KB..]);
        zeros ^= a0;
        *key = a0 ^ word(&e[2 * KB..]);
        *mw |= (((rec[0] >> c) & 1) as u64) << lane;
    }
    (tags, zeros)
}

/// Prefetches what pass 2 will read of one execution's layer. S-box-like
/// records (whole-byte shares inside the entries): entry `c` of every
/// table, its first and last byte (an entry may straddle two cache lines);
/// the entries lie in different pages (an S-box record is 4.75 KiB), where
/// the hardware prefetcher does not follow. Bit-packed records (AND: 65
/// bytes under linear-64, of which pass 2 reads the share byte and one
/// 16-byte entry, so most lines are needed anyway): every line of the
/// layer's region, one instruction per 64 bytes instead of three per
/// table.
#[inline(always)]
fn prefetch_entries(recs: &[u8], cs: &[u8], l: &Layout) {
    if !l.share_in_entry {
        for at in (0..recs.len()).step_by(64) {
            prefetch(recs, at);
        }
        return;
    }
    let (gb, eb) = (l.gate_bytes, l.entry_bytes);
    for (g, &c) in cs.iter().enumerate() {
        let at = g * gb + l.entries_at + c as usize * eb;
        prefetch(recs, at);
        prefetch(recs, at + eb - 1);
    }
}

/// Where [`look_up_any`] puts what it reads.
struct LookUp<'a> {
    n: usize,
    m: usize,
    lane: usize,
    prove: &'a mut Acc,
    vals: &'a mut [u128],
    keys64: &'a mut [u64],
    keys128: &'a mut [u128],
    mine_w: &'a mut [u64],
    mine_b: &'a mut [u8],
}

/// Pass 2 of [`open_layer_nm`] for every other table shape and scheme.
#[inline(always)]
fn look_up_any(recs: &[u8], cs: &[u8], l: &Layout, o: LookUp<'_>) {
    let (n, m, lane) = (o.n, o.m, o.lane);
    let (gb, tb, vb) = (l.gate_bytes, l.tag, l.verify);
    let bits = m == 1;
    for (g, (rec, &c)) in recs.chunks_exact(gb).zip(cs).enumerate() {
        let at = g * gb;
        let c = c as usize;
        let sh = if bits && n <= 3 {
            (rec[0] >> c) & 1
        } else if bits {
            (rec[c >> 3] >> (c & 7)) & 1
        } else if l.share_in_entry {
            rec[l.entries_at + c * l.entry_bytes]
        } else {
            super::material::get_share(rec, c, m as u32)
        };
        match l.scheme {
            MacScheme::Passive => {}
            MacScheme::Lookup { .. } => o.prove.add_lookup(load64(recs, at + l.tag_of(c), tb)),
            MacScheme::Linear { .. } => {
                o.vals[g] = load_tag(recs, at + l.tag_of(c), tb);
                // The key is the entry's last field: read it with a window
                // that ends with the entry ([`load_end`]) when the entry is
                // long enough that the window also starts inside it.
                let (key, end) = (at + l.verify_of(c), at + l.verify_of(c) + vb);
                let inside = l.entry_bytes >= if vb > 8 { 16 } else { 8 };
                if vb > 8 {
                    o.keys128[g] = if inside {
                        load_end(recs, end, vb)
                    } else {
                        load(recs, key, vb)
                    };
                } else {
                    o.keys64[g] = if inside {
                        load_end(recs, end, vb) as u64
                    } else {
                        load64(recs, key, vb)
                    };
                }
            }
        }
        if bits {
            o.mine_w[g] |= (sh as u64) << lane;
        } else {
            o.mine_b[g * LANES + lane] = sh;
        }
    }
}

/// Step 4(a)–(d) for one layer of every execution of the batch, in four
/// passes per group of [`LANES`] executions:
///
/// 1. entry indices `c` of every (gate, lane), from the bit-sliced input
///    words by 8×8 transposes;
/// 2. per lane (= per execution record, read front to back), my share of
///    entry `c` and my tag on it (`prove`): one contiguous run of bytes per
///    table in the record order of `material.rs`;
/// 3. one flight: my shares out, the peer's in;
/// 4. per lane, the key for the share the peer sent (`verify`), then the
///    output words `e_o = mine ⊕ theirs`.
///
/// `n`/`m` are the table's input/output widths: constants for the AND and
/// S-box tables (the wrappers below), so the loops unroll.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn open_layer_nm(
    ch: &mut Channel,
    ctx: &Ctx<'_>,
    mats: &[&Material],
    lp: &LayerPlan,
    s: &mut Scratch,
    prove: &mut Acc,
    verify: &mut Acc,
    n: usize,
    m: usize,
) -> Result<()> {
    let plan = ctx.plan;
    let l = &ctx.layout;
    let words = plan.words;
    let t = lp.tables;
    let total = mats.len();
    let groups = total.div_ceil(LANES);
    let gb = l.gate_bytes;
    let (tb, vb) = (l.tag, l.verify);
    let scheme = l.scheme;
    let kb = scheme.key_bytes();
    let cheating = ctx.cheating();
    let bits = m == 1;
    let ins = &lp.ins[..t * n];
    let outs = &lp.outs[..t * m];
    let region = lp.first * gb..(lp.first + t) * gb;

    // Linear MAC keys wider than a word (`k + m − 1 > 64`: S-box linear-64).
    let wide = vb > 8;
    let linear = matches!(scheme, MacScheme::Linear { .. });
    // AND tables under the lookup MAC: both strings of the selected entry
    // are taken in pass 2 ([`look_up_bit_lookup`]).
    let lookup_bits = matches!(scheme, MacScheme::Lookup { .. }) && bits && n <= 3;

    // 1. Entry indices, execution-major: idx[x·t + g].
    for gi in 0..groups {
        let ew = &s.e[gi * words..(gi + 1) * words];
        let idx = &mut s.idx[gi * LANES * t..(gi + 1) * LANES * t];
        // Only the bytes of lanes in use (one for a single execution).
        let used = lanes(total, gi).div_ceil(8);
        for (g, w) in ins.chunks_exact(n).enumerate() {
            for k in 0..used {
                let mut x = 0u64;
                for (j, &wj) in w.iter().enumerate() {
                    x |= ((ew[wj as usize] >> (8 * k)) & 0xff) << (8 * j);
                }
                for (i, c) in transpose8(x).to_le_bytes().into_iter().enumerate() {
                    idx[(8 * k + i) * t + g] = c;
                }
            }
        }
    }

    // 2. Look up and tag.
    for gi in 0..groups {
        let base = gi * LANES;
        let b = lanes(total, gi);
        let mine_w = &mut s.mine_w[gi * t..(gi + 1) * t];
        let mine_b = &mut s.mine_b[gi * t * LANES..(gi + 1) * t * LANES];
        if bits {
            mine_w.fill(0);
        } else {
            mine_b.fill(0);
        }
        // Linear tags are collected first and hashed after the group: the
        // loop that reads the records then has few instructions per entry,
        // so the out-of-order core keeps more record misses in flight.
        let vals = &mut s.vals[..b * t];
        // Executions prefetched ahead: about 64 entries in flight (four
        // S-box executions, one binary one). 16 to 1024 entries measured the
        // same; none measured S-box 23.5–25.1 µs CPU per AES instead of
        // 18.9–20.2.
        let ahead = (64 / t.max(1)).clamp(1, 8);
        for (x, mat) in mats.iter().enumerate().skip(base).take(ahead.min(b)) {
            prefetch_entries(&mat.gates[region.clone()], &s.idx[x * t..(x + 1) * t], l);
        }
        for lane in 0..b {
            let x = base + lane;
            if lane + ahead < b {
                let y = x + ahead;
                prefetch_entries(
                    &mats[y].gates[region.clone()],
                    &s.idx[y * t..(y + 1) * t],
                    l,
                );
            }
            let recs = &mats[x].gates[region.clone()];
            let cs = &s.idx[x * t..(x + 1) * t];
            let vals = &mut vals[lane * t..(lane + 1) * t];
            if lookup_bits {
                let keys = &mut s.keys64[x * t..(x + 1) * t];
                let (tags, zeros) = if kb == 8 {
                    look_up_bit_lookup::<8>(recs, cs, l, keys, mine_w, lane)
                } else {
                    look_up_bit_lookup::<4>(recs, cs, l, keys, mine_w, lane)
                };
                prove.add_lookup(tags);
                verify.add_lookup(zeros);
            } else if linear && bits && n <= 3 && !wide {
                // AND tables under the linear MAC, the binary hot path.
                let keys = &mut s.keys64[x * t..(x + 1) * t];
                if tb == 8 {
                    look_up_bit_linear::<8>(recs, cs, l, vals, keys, mine_w, lane);
                } else {
                    look_up_bit_linear::<4>(recs, cs, l, vals, keys, mine_w, lane);
                }
            } else {
                look_up_any(
                    recs,
                    cs,
                    l,
                    LookUp {
                        n,
                        m,
                        lane,
                        prove: &mut *prove,
                        vals: &mut *vals,
                        keys64: if linear && !wide {
                            &mut s.keys64[x * t..(x + 1) * t]
                        } else {
                            &mut []
                        },
                        keys128: if linear && wide {
                            &mut s.keys128[x * t..(x + 1) * t]
                        } else {
                            &mut []
                        },
                        mine_w: &mut *mine_w,
                        mine_b: &mut *mine_b,
                    },
                );
            }
            if cheating && x == 0 {
                // Execution 0 is lane 0 of group 0; deviations are 0 or 1.
                for g in 0..t {
                    let d = ctx.deviate(Point::TableShare {
                        g: lp.first + g,
                        layer: lp.table_layer,
                        layers: plan.table_layers,
                    });
                    if bits {
                        mine_w[g] ^= d & 1;
                    } else {
                        mine_b[g * LANES] ^= d as u8;
                    }
                }
            }
        }
        if linear {
            prove.extend_linear(vals);
        }
    }

    // 3. One flight: group by group, gate by gate, `b` lanes of `m` bits.
    let nbits = total * t * m;
    let msg_len = nbits.div_ceil(8);
    resize(&mut s.msg, msg_len);
    {
        let msg = &mut s.msg[..msg_len];
        if m == 8 {
            // Whole bytes: the rows as they are, back to back.
            let mut at = 0;
            for gi in 0..groups {
                let b = lanes(total, gi);
                for row in s.mine_b[gi * t * LANES..(gi + 1) * t * LANES].chunks_exact(LANES) {
                    msg[at..at + b].copy_from_slice(&row[..b]);
                    at += b;
                }
            }
        } else if bits {
            let mut w = BitWriter::new(msg);
            for gi in 0..groups {
                let b = lanes(total, gi);
                for &v in &s.mine_w[gi * t..(gi + 1) * t] {
                    w.put(v, b as u32);
                }
            }
            w.finish();
        } else {
            let mut w = BitWriter::new(msg);
            for gi in 0..groups {
                let b = lanes(total, gi);
                for row in s.mine_b[gi * t * LANES..(gi + 1) * t * LANES].chunks_exact(LANES) {
                    for &v in &row[..b] {
                        w.put(v as u64, m as u32);
                    }
                }
            }
            w.finish();
        }
        ch.send_bytes(msg)?;
    }
    // After the last layer my table MAC is complete (it depends only on my
    // own tags), so it goes in this flight instead of one of its own; the
    // peer's is checked below, still before any output mask is sent.
    let check = lp.last && scheme.is_malicious();
    if check {
        let next = prove.fresh();
        let mine = std::mem::replace(prove, next).finish();
        send_check(ch, scheme, mine ^ ctx.deviate(Point::TableMac))?;
    }
    recv_packed(ch, &mut s.got, nbits)?;
    let their_mac = if check {
        Some(recv_check(ch, scheme)?)
    } else {
        None
    };
    if m == 8 {
        let mut at = 0;
        for gi in 0..groups {
            let b = lanes(total, gi);
            let rows = &mut s.theirs_b[gi * t * LANES..(gi + 1) * t * LANES];
            for row in rows.chunks_exact_mut(LANES) {
                row[..b].copy_from_slice(&s.got[at..at + b]);
                row[b..].fill(0);
                at += b;
            }
        }
    } else {
        let mut r = BitReader {
            buf: &s.got[..msg_len],
            bit: 0,
        };
        for gi in 0..groups {
            let b = lanes(total, gi);
            if bits {
                for v in &mut s.theirs_w[gi * t..(gi + 1) * t] {
                    *v = r.get(b as u32);
                }
            } else {
                let rows = &mut s.theirs_b[gi * t * LANES..(gi + 1) * t * LANES];
                rows.fill(0);
                for row in rows.chunks_exact_mut(LANES) {
                    for v in &mut row[..b] {
                        *v = r.get(m as u32) as u8;
                    }
                }
            }
        }
    }

    // 4. Verify what the peer sent; set the output words.
    for gi in 0..groups {
        let base = gi * LANES;
        let b = lanes(total, gi);
        let theirs_w = &s.theirs_w[gi * t..(gi + 1) * t];
        let theirs_b = &s.theirs_b[gi * t * LANES..(gi + 1) * t * LANES];
        match scheme {
            MacScheme::Passive => {}
            MacScheme::Lookup { .. } if lookup_bits => {
                // `a^{s'} = a^0 ⊕ s'·(a^0 ⊕ a^1)`; the `a^0` went in
                // during pass 2.
                let mut sum = 0u64;
                for lane in 0..b {
                    let keys = &s.keys64[(base + lane) * t..(base + lane + 1) * t];
                    for (&k, &tw) in keys.iter().zip(theirs_w) {
                        sum ^= k & 0u64.wrapping_sub((tw >> lane) & 1);
                    }
                }
                verify.add_lookup(sum);
            }
            MacScheme::Lookup { .. } => {
                for lane in 0..b {
                    let x = base + lane;
                    let recs = &mats[x].gates[region.clone()];
                    let cs = &s.idx[x * t..(x + 1) * t];
                    for (g, &c) in cs.iter().enumerate() {
                        let th = if bits {
                            ((theirs_w[g] >> lane) & 1) as usize
                        } else {
                            theirs_b[g * LANES + lane] as usize
                        };
                        let at = g * gb + l.verify_of(c as usize) + th * kb;
                        verify.add_lookup(load64(recs, at, kb));
                    }
                }
            }
            MacScheme::Linear { .. } => {
                // `α·s' ⊕ β`: a masked AND for 1-bit entries, else two
                // nibble-table reads indexed by `s'`, the share the peer
                // sent in the clear (so nothing secret is an index).
                let vals = &mut s.vals[..b * t];
                for (lane, vals) in vals.chunks_exact_mut(t).enumerate() {
                    let x = base + lane;
                    if bits && !wide {
                        let alpha = s.alpha[x];
                        let keys = &s.keys64[x * t..(x + 1) * t];
                        for ((v, &k), &tw) in vals.iter_mut().zip(keys).zip(theirs_w) {
                            let th = (tw >> lane) & 1;
                            *v = (k ^ (alpha & 0u64.wrapping_sub(th))) as u128;
                        }
                    } else {
                        let tab = &s.mul[x];
                        for (g, v) in vals.iter_mut().enumerate() {
                            let th = theirs_b[g * LANES + lane] as usize;
                            let key = if wide {
                                s.keys128[x * t + g]
                            } else {
                                s.keys64[x * t + g] as u128
                            };
                            *v = key ^ tab[th & 15] ^ (tab[th >> 4] << 4);
                        }
                    }
                }
                verify.extend_linear(vals);
            }
        }
        let ew = &mut s.e[gi * words..(gi + 1) * words];
        if bits {
            let mine_w = &s.mine_w[gi * t..(gi + 1) * t];
            for g in 0..t {
                ew[outs[g] as usize] = mine_w[g] ^ theirs_w[g];
            }
        } else {
            let mine_b = &s.mine_b[gi * t * LANES..(gi + 1) * t * LANES];
            for g in 0..t {
                let mut o = [0u64; 8];
                for k in 0..b.div_ceil(8) {
                    let at = g * LANES + 8 * k;
                    let v = u64::from_le_bytes(mine_b[at..at + 8].try_into().expect("8"))
                        ^ u64::from_le_bytes(theirs_b[at..at + 8].try_into().expect("8"));
                    let y = transpose8(v);
                    for (j, oj) in o.iter_mut().enumerate().take(m) {
                        *oj |= ((y >> (8 * j)) & 0xff) << (8 * k);
                    }
                }
                for j in 0..m {
                    ew[outs[g * m + j] as usize] = o[j];
                }
            }
        }
    }
    if let Some(theirs) = their_mac {
        let next = verify.fresh();
        if theirs != std::mem::replace(verify, next).finish() {
            return Err(Error::Cheating { check: "table-mac" });
        }
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn open_layer_and(
    ch: &mut Channel,
    ctx: &Ctx<'_>,
    mats: &[&Material],
    lp: &LayerPlan,
    s: &mut Scratch,
    prove: &mut Acc,
    verify: &mut Acc,
) -> Result<()> {
    open_layer_nm(ch, ctx, mats, lp, s, prove, verify, 2, 1)
}

#[allow(clippy::too_many_arguments)]
fn open_layer_sbox(
    ch: &mut Channel,
    ctx: &Ctx<'_>,
    mats: &[&Material],
    lp: &LayerPlan,
    s: &mut Scratch,
    prove: &mut Acc,
    verify: &mut Acc,
) -> Result<()> {
    open_layer_nm(ch, ctx, mats, lp, s, prove, verify, 8, 8)
}

#[allow(clippy::too_many_arguments)]
fn open_layer_any(
    ch: &mut Channel,
    ctx: &Ctx<'_>,
    mats: &[&Material],
    lp: &LayerPlan,
    s: &mut Scratch,
    prove: &mut Acc,
    verify: &mut Acc,
) -> Result<()> {
    let (n, m) = (ctx.plan.n, ctx.plan.m);
    open_layer_nm(ch, ctx, mats, lp, s, prove, verify, n, m)
}

/// End of step 4: both parties send their accumulated MAC (k bits) and
/// abort unless the peer's equals what their keys predict. Nothing about
/// the output has been revealed yet, so a cheater learns nothing from it.
pub fn check_tables(ch: &mut Channel, ctx: &Ctx<'_>, prove: Acc, verify: Acc) -> Result<()> {
    let scheme = ctx.layout.scheme;
    if !scheme.is_malicious() {
        return Ok(());
    }
    let mine = prove.finish() ^ ctx.deviate(Point::TableMac);
    send_check(ch, scheme, mine)?;
    let theirs = recv_check(ch, scheme)?;
    if theirs != verify.finish() {
        return Err(Error::Cheating { check: "table-mac" });
    }
    Ok(())
}

/// Steps 5–7, "verified output opening": the output-wire masks are
/// additively shared and MACed; the parties who must learn the output
/// receive the peer's shares with one batched MAC, check it, and output
/// `e_o ⊕ r_o`.
fn open_outputs(
    ch: &mut Channel,
    ctx: &Ctx<'_>,
    mats: &[&Material],
    s: &mut Scratch,
) -> Result<Vec<Option<Vec<bool>>>> {
    let l = &ctx.layout;
    let scheme = l.scheme;
    let words = ctx.plan.words;
    let outs = &ctx.plan.outs;
    let no = outs.len();
    let total = mats.len();
    let [_, sh_at, tag_at, ver_at, _] = l.exec_parts();
    let (t1, v1, kb) = (
        scheme.tag_bytes(1),
        scheme.verify_bytes(1),
        scheme.key_bytes(),
    );
    let i_send = ctx.role == Role::Alice || ctx.output == OutputMode::Both;
    let i_learn = ctx.role == Role::Bob || ctx.output == OutputMode::Both;
    if i_send {
        let len = (total * no).div_ceil(8);
        resize(&mut s.msg, len);
        let msg = &mut s.msg[..len];
        msg.fill(0);
        let mut prove = Acc::new(scheme, 1, acc_key(Purpose::Outputs, ctx.prover_id(true)));
        for (x, mat) in mats.iter().enumerate() {
            match scheme {
                MacScheme::Passive => {}
                MacScheme::Lookup { .. } => {
                    for i in 0..no {
                        prove.add_lookup(load64(&mat.exec, tag_at + i * t1, t1));
                    }
                }
                MacScheme::Linear { .. } => {
                    let vals = &mut s.vals[..no];
                    for (i, v) in vals.iter_mut().enumerate() {
                        *v = load_tag(&mat.exec, tag_at + i * t1, t1);
                    }
                    prove.extend_linear(vals);
                }
            }
            if no.is_multiple_of(8) && !ctx.cheating() {
                // Whole bytes (AES: 128 outputs): my shares as stored.
                let nb = no / 8;
                msg[x * nb..(x + 1) * nb].copy_from_slice(&mat.exec[sh_at..sh_at + nb]);
                continue;
            }
            for i in 0..no {
                let mut sh = get_bit(&mat.exec[sh_at..], i);
                if x == 0 {
                    sh ^= ctx.deviate(Point::OutputShare(i)) & 1 == 1;
                }
                set_bit(msg, x * no + i, sh);
            }
        }
        ch.send_bytes(msg)?;
        if scheme.is_malicious() {
            send_check(ch, scheme, prove.finish() ^ ctx.deviate(Point::OutputMac))?;
        }
    }
    if !i_learn {
        ch.flush()?;
        return Ok(vec![None; total]);
    }
    recv_packed(ch, &mut s.got, total * no)?;
    let mut verify = Acc::new(scheme, 1, acc_key(Purpose::Outputs, ctx.prover_id(false)));
    let mut result = Vec::with_capacity(total);
    for (x, mat) in mats.iter().enumerate() {
        let alpha = s.alpha[x];
        let ew = &s.e[(x / LANES) * words..(x / LANES + 1) * words];
        let lane = x % LANES;
        let mut bits = Vec::with_capacity(no);
        match scheme {
            MacScheme::Passive => {}
            MacScheme::Lookup { .. } => {
                for i in 0..no {
                    let theirs = get_bit(&s.got, x * no + i) as usize;
                    verify.add_lookup(load64(&mat.exec, ver_at + i * v1 + theirs * kb, kb));
                }
            }
            MacScheme::Linear { .. } => {
                let vals = &mut s.vals[..no];
                for (i, v) in vals.iter_mut().enumerate() {
                    let theirs = get_bit(&s.got, x * no + i) as u64;
                    *v = ((alpha & 0u64.wrapping_sub(theirs)) as u128)
                        ^ load_tag(&mat.exec, ver_at + i * v1, v1);
                }
                verify.extend_linear(vals);
            }
        }
        for (i, &w) in outs.iter().enumerate() {
            let theirs = get_bit(&s.got, x * no + i);
            let mine = get_bit(&mat.exec[sh_at..], i);
            let masked = (ew[w as usize] >> lane) & 1 == 1;
            bits.push(masked ^ mine ^ theirs);
        }
        result.push(Some(bits));
    }
    if scheme.is_malicious() {
        let theirs = recv_check(ch, scheme)?;
        if theirs != verify.finish() {
            // Nothing computed above leaves this function.
            return Err(Error::Cheating {
                check: "output-mac",
            });
        }
    }
    Ok(result)
}

/// Runs π_mal on a batch of executions (each with its own material and
/// inputs). Returns each execution's output bits (all output groups
/// concatenated) if this party learns them. Any failed check aborts the
/// whole batch before an output exists.
pub fn run_batch(
    ch: &mut Channel,
    ctx: &Ctx<'_>,
    mats: &[Material],
    inputs: &[Vec<bool>],
) -> Result<Vec<Option<Vec<bool>>>> {
    run_batch_with(ch, ctx, mats, inputs, &mut Scratch::default())
}

/// [`run_batch`] with caller-kept buffers.
pub fn run_batch_with(
    ch: &mut Channel,
    ctx: &Ctx<'_>,
    mats: &[Material],
    inputs: &[Vec<bool>],
    s: &mut Scratch,
) -> Result<Vec<Option<Vec<bool>>>> {
    let refs: Vec<&Material> = mats.iter().collect();
    run_batch_refs(ch, ctx, &refs, inputs, s)
}

/// [`run_batch_with`] on borrowed material (the benchmark's "one instance
/// reused" mode hands the same record to every execution; never do that
/// outside a benchmark: reused tables leak the inputs).
pub fn run_batch_refs(
    ch: &mut Channel,
    ctx: &Ctx<'_>,
    mats: &[&Material],
    inputs: &[Vec<bool>],
    s: &mut Scratch,
) -> Result<Vec<Option<Vec<bool>>>> {
    let plan = ctx.plan;
    let l = &ctx.layout;
    if inputs.len() != mats.len() {
        return Err(Error::config("tinytable: one input vector per execution"));
    }
    if plan.tables != ctx.program.table_count() || plan.n != l.n as usize || plan.m != l.m as usize
    {
        return Err(Error::config("tinytable: online plan of another program"));
    }
    for mat in mats {
        if mat.exec.len() != l.exec_bytes || mat.gates.len() != plan.tables * l.gate_bytes {
            return Err(Error::Storage(
                "tinytable: preprocessed material has the wrong size".into(),
            ));
        }
    }
    let total = mats.len();
    let groups = total.div_ceil(LANES);
    s.reserve(plan, l, total);
    s.alpha.clear();
    s.alpha.extend(mats.iter().map(|m| m.alpha(l)));
    if let MacScheme::Linear { .. } = l.scheme {
        if l.m > 1 {
            s.mul.clear();
            s.mul.extend(s.alpha.iter().map(|&a| {
                let mut tab = [0u128; 16];
                for (v, e) in tab.iter_mut().enumerate() {
                    *e = clmul_small(a, v as u8, 4);
                }
                tab
            }));
        }
    }

    send_inputs(ch, ctx, mats, inputs, s)?;
    let mut prove = Acc::new(l.scheme, l.m, acc_key(Purpose::Tables, ctx.prover_id(true)));
    let mut verify = Acc::new(
        l.scheme,
        l.m,
        acc_key(Purpose::Tables, ctx.prover_id(false)),
    );
    let open = match (plan.n, plan.m) {
        (2, 1) => open_layer_and,
        (8, 8) => open_layer_sbox,
        _ => open_layer_any,
    };
    let words = plan.words;
    for lp in &plan.layers {
        for gi in 0..groups {
            let ew = &mut s.e[gi * words..(gi + 1) * words];
            for &[a, b, o] in &lp.xors {
                ew[o as usize] = ew[a as usize] ^ ew[b as usize];
            }
        }
        if lp.tables > 0 {
            open(ch, ctx, mats, lp, s, &mut prove, &mut verify)?;
        }
    }
    if plan.table_layers == 0 {
        // No table flight to carry the MACs (a linear program).
        check_tables(ch, ctx, prove, verify)?;
    }
    open_outputs(ch, ctx, mats, s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dealer::{deal_memory, DealPlan};
    use crate::program::{ProgramBuilder, TableFn};
    use brickyard_core::channel::memory_pair;
    use brickyard_core::prg::Prg;

    /// `load_end` reads the same value as `load`/`load64` at the field's
    /// start, whichever window it can use (short buffers fall back).
    #[test]
    fn load_end_reads_the_field_that_ends_there() {
        let mut prg = Prg::new();
        let buf: Vec<u8> = (0..40).map(|_| prg.random_u64() as u8).collect();
        for nbytes in 1..=16 {
            for end in nbytes..=buf.len() {
                let want = if nbytes <= 8 {
                    load64(&buf, end - nbytes, nbytes) as u128
                } else {
                    load(&buf, end - nbytes, nbytes)
                };
                assert_eq!(load_end(&buf, end, nbytes), want, "{nbytes} {end}");
            }
        }
    }

    #[test]
    fn transpose8_is_the_bit_matrix_transpose() {
        let mut prg = Prg::new();
        for _ in 0..100 {
            let x = prg.random_u64();
            let y = transpose8(x);
            for r in 0..8 {
                for c in 0..8 {
                    assert_eq!((x >> (8 * r + c)) & 1, (y >> (8 * c + r)) & 1);
                }
            }
        }
    }

    /// A program with 3-in, 2-out tables (the generic path), two layers.
    fn odd_tables() -> Program {
        let f = TableFn {
            name: "t32",
            n_in: 3,
            n_out: 2,
            values: vec![3, 1, 0, 2, 2, 3, 1, 0],
        };
        let mut b = ProgramBuilder::new(f);
        let x = b.input(6);
        let y = b.input(5);
        let a = b.table(&[x[0], y[1], x[2]]);
        let n = b.not(x[3]);
        let c = b.table(&[n, y[0], x[5]]);
        let d = b.xor(a[0], c[1]);
        let e = b.table(&[d, a[1], y[4]]);
        let f2 = b.xor(e[0], x[4]);
        b.finish(vec![vec![f2, e[1], c[0], d]])
    }

    /// Runs `batch` executions of `p` in one call per party over memory
    /// channels and compares every output with the plaintext evaluation.
    fn check(p: &Program, scheme: MacScheme, batch: usize, output: OutputMode) {
        let inputs = [p.inputs[0].clone(), p.inputs[1].clone()];
        let layouts = [
            Layout::new(p, scheme, inputs[0].len()),
            Layout::new(p, scheme, inputs[1].len()),
        ];
        let plan = OnlinePlan::new(p);
        let deal = DealPlan {
            program: p,
            alice_inputs: inputs[0].clone(),
            bob_inputs: inputs[1].clone(),
            layouts,
        };
        let mut prg = Prg::new();
        let [ma, mb] = deal_memory(&mut prg, &deal, batch).unwrap();
        let xs: Vec<Vec<bool>> = (0..batch)
            .map(|_| prg.random_bits(inputs[0].len()))
            .collect();
        let ys: Vec<Vec<bool>> = (0..batch)
            .map(|_| prg.random_bits(inputs[1].len()))
            .collect();
        let (ca, cb) = memory_pair();
        let go = |role: Role, mut ch: Channel, mats: Vec<Material>, inp: Vec<Vec<bool>>| {
            let me = (role == Role::Bob) as usize;
            let ctx = Ctx::new(
                p,
                &plan,
                layouts[me],
                role,
                output,
                &inputs[me],
                &inputs[1 - me],
            );
            let mut s = Scratch::default();
            // Twice through the same scratch: buffers are reused.
            let half = mats.len() / 2;
            let mut out = run_batch_with(&mut ch, &ctx, &mats[..half], &inp[..half], &mut s)?;
            out.extend(run_batch_with(
                &mut ch,
                &ctx,
                &mats[half..],
                &inp[half..],
                &mut s,
            )?);
            ch.flush()?;
            Ok::<_, Error>(out)
        };
        let (oa, ob) = std::thread::scope(|sc| {
            let h = sc.spawn(|| go(Role::Bob, cb, mb, ys.clone()));
            (go(Role::Alice, ca, ma, xs.clone()), h.join().unwrap())
        });
        let (oa, ob) = (oa.unwrap(), ob.unwrap());
        for x in 0..batch {
            let want: Vec<bool> = p.eval(&[xs[x].clone(), ys[x].clone()]).unwrap().concat();
            assert_eq!(
                ob[x].as_ref().unwrap(),
                &want,
                "{scheme:?} batch {batch} exec {x}"
            );
            match output {
                OutputMode::Both => assert_eq!(oa[x].as_ref().unwrap(), &want),
                _ => assert!(oa[x].is_none()),
            }
        }
    }

    #[test]
    fn batches_match_the_plaintext_every_shape() {
        let add = Program::from_circuit(&brickyard_circuit::builtin("add8").unwrap());
        let odd = odd_tables();
        for s in [
            "passive",
            "linear-32",
            "linear-64",
            "lookup-32",
            "lookup-64",
        ] {
            let scheme = MacScheme::parse(s).unwrap();
            for batch in [2, 6, 128, 131] {
                check(&add, scheme, batch, OutputMode::Both);
                check(&odd, scheme, batch, OutputMode::Bob);
            }
        }
    }

    #[test]
    fn sbox_batches_match_the_plaintext() {
        let p = crate::aes_sbox::aes128_sbox_program();
        for s in ["passive", "linear-32", "linear-64"] {
            check(&p, MacScheme::parse(s).unwrap(), 70, OutputMode::Both);
        }
        check(&p, MacScheme::Lookup { k: 32 }, 2, OutputMode::Bob);
    }
}
