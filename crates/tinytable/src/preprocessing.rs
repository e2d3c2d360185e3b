//! Real two-party preprocessing (Sec. 4, Fig. 8) on TinyOT authenticated
//! bits and AND triples ([`brickyard_ot::tinyot`]).
//!
//! Every wire mask is an authenticated sharing `⟦r⟧` in TinyOT format (A
//! holds `r_A` and `M_A = K_B ⊕ r_A·Δ_B`, B symmetrically). Per chunk of
//! executions:
//!
//! 1. **aBits** (Fig. 8 step 2): one random `⟦r_w⟧` per input wire and per
//!    table output wire.
//! 2. **Linear gates** (step 3, XOR/NOT): locally, `⟦r_a⟧ ⊕ ⟦r_b⟧`, and
//!    `⟦r_a⟧ ⊕ 1` for NOT (our programs use the NOT-removal convention of
//!    the dealer, `r_o = 1 ⊕ r_a`). After this every table's input masks
//!    are known as sharings, so all tables are done in parallel (the
//!    paper's constant-round remark).
//! 3. **Monomials** (step 3, AND): for a table on `n` input bits with masks
//!    `R = (r_0 … r_{n−1})`, every monomial `Π_{j∈S} r_j` (`|S| ≥ 2`) by
//!    Beaver multiplication with AND triples (step 1), in `⌈log2 n⌉`
//!    rounds: [`mults_per_table`] multiplications (1 for an AND gate,
//!    247 for an 8-bit S-box).
//! 4. **Entries**: `T[c]_b = f(c ⊕ R)_b ⊕ r_{o,b}` is, as a polynomial in
//!    `R`, `⊕_S a_{c,b,S}·Π_{j∈S} r_j ⊕ r_{o,b}` with public coefficients
//!    (the algebraic normal form of `v ↦ f(c ⊕ v)_b`), so every entry is a
//!    local linear combination. For an AND gate this is exactly Fig. 8's
//!    `⟦t_cd⟧ = ⟦r_u r_v⟧ ⊕ c⟦r_v⟧ ⊕ d⟦r_u⟧ ⊕ cd ⊕ ⟦r_o⟧`. Each party's
//!    share of `⟦T[c]⟧` is its table entry.
//! 5. **MACs in the online format** ([`MacScheme`]), from the TinyOT MACs
//!    and keys of the entry bits (see [`entry_macs`]).
//! 6. **Masks** (step 4): input-wire masks opened to their owner with a
//!    MAC check (`input-mask-mac`); output-wire masks stay shared and
//!    MACed (verified output opening, see the protocol page).
//!
//! Security of every step rests on TinyOT: Beaver openings are MAC-checked
//! (`mac-check`), triples are bucketed (`leaky-and-equality`,
//! `coin-toss-commitment`), and everything else is local and linear.

use super::mac::{write_le, MacScheme, LOOKUP_TWEAK};
use super::material::{set_bit, set_share, Layout};
use super::program::{Lin, Program, TableFn};
use brickyard_core::hash::tccr_batch;
use brickyard_core::prg::Prg;
use brickyard_core::{Block, Channel, Error, Result};
use brickyard_driver::Role;
use brickyard_ot::tinyot::{self, AndTriple, AuthShare, TinyOt};
use zeroize::{Zeroize, Zeroizing};

/// Name of the check on opened input-wire masks.
pub const INPUT_MASK_CHECK: &str = "input-mask-mac";

const INPUT_MASK_CONTEXT: &str = "brickyard 2025-01 TinyTable input-mask opening v1";

/// Binary multiplications (AND triples) per table on `n` input bits: all
/// monomials of degree ≥ 2 built by merging halves, `Σ over merges of
/// (2^|A|−1)(2^|B|−1)`; equals `2^n − n − 1`.
pub fn mults_per_table(n: u32) -> usize {
    (1usize << n) - n as usize - 1
}

/// Beaver rounds per chunk: `⌈log2 n⌉` (1 for AND, 3 for the S-box).
pub fn mult_rounds(n: u32) -> usize {
    (n.max(1) as usize).next_power_of_two().trailing_zeros() as usize
}

/// The public coefficients of step 4: for entry `c` and output bit `b`, the
/// monomials `S` (bit masks over the `n` input masks) with `a_{c,b,S} = 1`.
struct Anf {
    n: u32,
    m: u32,
    /// `terms[c·m + b]`: the non-empty monomials of the entry.
    terms: Vec<Vec<u16>>,
    /// `constant[c·m + b]`: the coefficient of the empty monomial.
    constant: Vec<bool>,
}

impl Anf {
    fn new(f: &TableFn) -> Anf {
        let (n, m) = (f.n_in, f.n_out);
        let e = 1usize << n;
        let mut terms = Vec::with_capacity(e * m as usize);
        let mut constant = Vec::with_capacity(e * m as usize);
        let mut g = vec![false; e];
        for c in 0..e {
            for b in 0..m {
                for (v, gv) in g.iter_mut().enumerate() {
                    *gv = (f.values[c ^ v] >> b) & 1 == 1;
                }
                // Möbius transform: truth table → ANF coefficients.
                for i in 0..n {
                    for v in 0..e {
                        if (v >> i) & 1 == 1 {
                            g[v] ^= g[v ^ (1 << i)];
                        }
                    }
                }
                constant.push(g[0]);
                terms.push((1..e).filter(|&s| g[s]).map(|s| s as u16).collect());
            }
        }
        Anf {
            n,
            m,
            terms,
            constant,
        }
    }
}

/// Who owns which input wires, and this party's record layout.
pub struct PrepPlan<'a> {
    /// The program.
    pub program: &'a Program,
    /// This party.
    pub role: Role,
    /// Input wires `[alice's, bob's]`, in each party's input order.
    pub inputs: [Vec<u32>; 2],
    /// This party's record layout.
    pub layout: Layout,
    /// A preprocessing deviation (adversary builds only).
    #[cfg(feature = "adversary")]
    pub cheat: Option<super::cheat::Cheat>,
}

/// Receives one execution's records: `(table records, execution record)`.
pub type PrepSink<'s> = dyn FnMut(&[u8], &[u8]) -> Result<()> + 's;

/// A TinyOT session plus what the table construction reuses across chunks.
pub struct Preprocessor {
    ot: TinyOt,
    /// Tweak counter of the lookup-MAC hash (advanced identically by both
    /// parties, so every entry's strings are domain-separated).
    counter: u64,
    anf: Option<Anf>,
    bufs: Bufs,
}

impl std::fmt::Debug for Preprocessor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Preprocessor {{ {:?} }}", self.ot)
    }
}

fn ot_role(r: Role) -> tinyot::Role {
    match r {
        Role::Alice => tinyot::Role::Alice,
        Role::Bob => tinyot::Role::Bob,
    }
}

fn wipe(v: &mut [AuthShare]) {
    for s in v.iter_mut() {
        s.mac.zeroize();
        s.key.zeroize();
        s.bit = false;
    }
}

fn wipe_triples(v: &mut [AndTriple]) {
    for t in v.iter_mut() {
        for s in [&mut t.x, &mut t.y, &mut t.z] {
            s.mac.zeroize();
            s.key.zeroize();
            s.bit = false;
        }
    }
}

/// Makes `v` hold `n` shares, reusing its memory (a fresh page costs more
/// than the work done on it): kept elements are overwritten by the caller.
fn share_len(v: &mut Vec<AuthShare>, n: usize) {
    if v.capacity() < n {
        wipe(v);
        *v = Vec::with_capacity(n);
    }
    v.resize(n, AuthShare::default());
}

/// The buffers of a chunk, kept across chunks (they hold MACs and keys:
/// wiped when the preprocessor drops).
#[derive(Default)]
struct Bufs {
    abits: Vec<AuthShare>,
    triples: Vec<AndTriple>,
    /// `mono[t·2^n + S]`: ⟦Π_{j∈S} r_j⟧ of table `t` (S ≠ ∅).
    mono: Vec<AuthShare>,
    rout: Vec<AuthShare>,
    w: Vec<AuthShare>,
    mine_in: Vec<AuthShare>,
    peer_in: Vec<AuthShare>,
    out_masks: Vec<AuthShare>,
    /// One execution's entry bits (`g · 2^n · m`).
    ent: Vec<AuthShare>,
    de: Vec<bool>,
    mac: MacScratch,
    gates: Vec<u8>,
}

impl Drop for Bufs {
    fn drop(&mut self) {
        for v in [
            &mut self.abits,
            &mut self.mono,
            &mut self.rout,
            &mut self.w,
            &mut self.mine_in,
            &mut self.peer_in,
            &mut self.out_masks,
            &mut self.ent,
        ] {
            wipe(v);
        }
        wipe_triples(&mut self.triples);
        self.gates.zeroize();
    }
}

/// Reused hash buffers of [`entry_macs`] (wiped on drop).
#[derive(Default)]
struct MacScratch {
    xs: Vec<Block>,
    tw: Vec<Block>,
}

impl Drop for MacScratch {
    fn drop(&mut self) {
        self.xs.zeroize();
    }
}

impl Preprocessor {
    /// Sets up TinyOT (base OTs both ways), its buckets sized for the
    /// run's `s` plus the margin of [`super::security::component_s`].
    pub fn setup(ch: &mut Channel, role: Role, s: u32) -> Result<Preprocessor> {
        let s = super::security::component_s(s) as usize;
        Ok(Preprocessor {
            ot: TinyOt::setup_with(ch, ot_role(role), &mut Prg::new(), s)?,
            counter: 0,
            anf: None,
            bufs: Bufs::default(),
        })
    }

    /// Most executions preprocessed together: as many as one TinyOT triple
    /// batch ([`tinyot::bucket::TRIPLE_BATCH`]) holds, at least one.
    /// [`Preprocessor::run`] splits a request into equal chunks of at most
    /// this many, so the triples of each chunk keep the smallest bucket
    /// size (82 binary AES = 524,800 triples: one chunk, B = 3).
    pub fn chunk_executions(program: &Program) -> usize {
        let per = program.table_count() * mults_per_table(program.table.n_in);
        tinyot::bucket::TRIPLE_BATCH
            .checked_div(per)
            .unwrap_or(usize::MAX)
            .max(1)
    }

    /// Preprocesses `executions` executions; each one's records go to `sink`
    /// in execution order.
    pub fn run(
        &mut self,
        ch: &mut Channel,
        plan: &PrepPlan<'_>,
        executions: usize,
        sink: &mut PrepSink<'_>,
    ) -> Result<()> {
        if self.anf.as_ref().map(|a| (a.n, a.m))
            != Some((plan.program.table.n_in, plan.program.table.n_out))
        {
            self.anf = Some(Anf::new(&plan.program.table));
        }
        let chunks = executions.div_ceil(Self::chunk_executions(plan.program));
        for e in tinyot::bucket::batch_sizes(executions, chunks).filter(|&e| e > 0) {
            self.chunk(ch, plan, e, sink)?;
        }
        Ok(())
    }

    fn chunk(
        &mut self,
        ch: &mut Channel,
        plan: &PrepPlan<'_>,
        execs: usize,
        sink: &mut PrepSink<'_>,
    ) -> Result<()> {
        let mut bufs = std::mem::take(&mut self.bufs);
        let r = self.chunk_with(ch, plan, execs, sink, &mut bufs);
        self.bufs = bufs;
        r
    }

    fn chunk_with(
        &mut self,
        ch: &mut Channel,
        plan: &PrepPlan<'_>,
        execs: usize,
        sink: &mut PrepSink<'_>,
        bf: &mut Bufs,
    ) -> Result<()> {
        let p = plan.program;
        let (n, m) = (p.table.n_in as usize, p.table.n_out as usize);
        let e = 1usize << n;
        let g = p.table_count();
        let in_wires: usize = p.inputs.iter().map(Vec::len).sum();
        let per_exec = in_wires + g * m;
        let me = match plan.role {
            Role::Alice => 0,
            Role::Bob => 1,
        };

        // Steps 1–2: random masks and triples (function-independent TinyOT).
        share_len(&mut bf.abits, execs * per_exec);
        self.ot.abits_into(ch, &mut bf.abits)?;
        self.ot
            .and_triples_into(ch, execs * g * mults_per_table(n as u32), &mut bf.triples)?;

        // Step 3, linear part: masks of every wire, locally.
        share_len(&mut bf.mono, execs * g * e);
        share_len(&mut bf.rout, execs * g * m);
        share_len(&mut bf.w, p.num_wires as usize);
        bf.mine_in.clear();
        bf.peer_in.clear();
        bf.out_masks.clear();
        let outs: Vec<u32> = p.outputs.iter().flatten().copied().collect();
        let (w, mono, rout) = (&mut bf.w, &mut bf.mono, &mut bf.rout);
        for x in 0..execs {
            let mut fresh = bf.abits[x * per_exec..(x + 1) * per_exec].iter();
            let mut next = || fresh.next().copied().unwrap_or_default();
            for &wi in p.inputs.iter().flatten() {
                w[wi as usize] = next();
            }
            let mut t = x * g;
            for layer in &p.layers {
                for lin in &layer.linear {
                    match *lin {
                        Lin::Xor(a, b, o) => w[o as usize] = w[a as usize].xor(w[b as usize]),
                        Lin::Not(a, o) => w[o as usize] = self.ot.add_public(w[a as usize], true),
                    }
                }
                for (ins, os) in layer.table_ins.chunks(n).zip(layer.table_outs.chunks(m)) {
                    for (j, &wi) in ins.iter().enumerate() {
                        mono[t * e + (1 << j)] = w[wi as usize];
                    }
                    for (j, &wo) in os.iter().enumerate() {
                        let r = next();
                        w[wo as usize] = r;
                        rout[t * m + j] = r;
                    }
                    t += 1;
                }
            }
            bf.mine_in
                .extend(plan.inputs[me].iter().map(|&wi| w[wi as usize]));
            bf.peer_in
                .extend(plan.inputs[1 - me].iter().map(|&wi| w[wi as usize]));
            bf.out_masks.extend(outs.iter().map(|&wo| w[wo as usize]));
        }

        // Step 3, AND part: all monomials by Beaver, merging bit groups.
        let r = self.monomials(ch, plan, execs * g, n, bf);
        wipe_triples(&mut bf.triples);
        r?;

        // Step 4: input masks to their owners.
        let my_masks = self.open_to_owners(ch, plan, &bf.mine_in, &bf.peer_in)?;

        // Step 4 (entries), step 5 (MACs) and the records, one execution
        // at a time.
        let l = plan.layout;
        let anf = self
            .anf
            .take()
            .ok_or_else(|| Error::config("tinytable: no ANF"))?;
        share_len(&mut bf.ent, g * e * m);
        bf.gates.clear();
        bf.gates.resize(g * l.gate_bytes, 0);
        let mut res = Ok(());
        for x in 0..execs {
            bf.gates.fill(0);
            for (t, ent) in bf.ent.chunks_exact_mut(e * m).enumerate() {
                let tt = x * g + t;
                let mono_t = &bf.mono[tt * e..(tt + 1) * e];
                for (i, s) in ent.iter_mut().enumerate() {
                    let mut acc = bf.rout[tt * m + i % m];
                    for &sub in &anf.terms[i] {
                        acc = acc.xor(mono_t[sub as usize]);
                    }
                    *s = self.ot.add_public(acc, anf.constant[i]);
                }
                let rec = &mut bf.gates[t * l.gate_bytes..(t + 1) * l.gate_bytes];
                for c in 0..e {
                    let v = (0..m).fold(0u8, |v, b| v | (ent[c * m + b].bit as u8) << b);
                    set_share(rec, c, l.m, v);
                }
            }
            // Step 5 for every table of the execution in one pass.
            let first = self.counter;
            self.counter += (g * e) as u64;
            let recs = Records {
                bytes: &mut bf.gates,
                size: l.gate_bytes,
                entries: e,
                tags: l.tags_at(),
                ver: l.verify_at(),
            };
            entry_macs(
                l.scheme,
                self.ot.delta(),
                me,
                first,
                l.m,
                &bf.ent,
                recs,
                &mut bf.mac,
            );
            let mut exec = Zeroizing::new(vec![0u8; l.exec_bytes]);
            let parts = l.exec_parts();
            for (i, &b) in my_masks[x * l.my_inputs..(x + 1) * l.my_inputs]
                .iter()
                .enumerate()
            {
                set_bit(&mut exec[parts[0]..], i, b);
            }
            let o = outs.len();
            let om = &bf.out_masks[x * o..(x + 1) * o];
            self.write_outputs(&l, me, om, &mut exec, &mut bf.mac);
            if let MacScheme::Linear { k } = l.scheme {
                let kb = l.scheme.key_bytes();
                write_le(
                    &mut exec[parts[4]..parts[4] + kb],
                    linear_part(self.ot.delta(), k) as u128,
                );
            }
            res = sink(&bf.gates, &exec);
            if res.is_err() {
                break;
            }
        }
        self.anf = Some(anf);
        res
    }

    /// Computes `mono[t·2^n + S]` for every `|S| ≥ 2` from the singletons,
    /// one Beaver round per merge level.
    fn monomials(
        &mut self,
        ch: &mut Channel,
        plan: &PrepPlan<'_>,
        tables: usize,
        n: usize,
        bf: &mut Bufs,
    ) -> Result<()> {
        let e = 1usize << n;
        let _ = plan;
        // Groups of input bits, as bit masks; merged pairwise each round.
        let mut groups: Vec<usize> = (0..n).map(|j| 1 << j).collect();
        let mut used = 0;
        while groups.len() > 1 {
            let mut pairs = Vec::new();
            let mut merged = Vec::new();
            for gp in groups.chunks(2) {
                if let [a, b] = *gp {
                    for sa in submasks(a) {
                        for sb in submasks(b) {
                            pairs.push((sa, sb));
                        }
                    }
                    merged.push(a | b);
                } else {
                    merged.push(gp[0]);
                }
            }
            let k = pairs.len();
            #[allow(unused_mut)]
            let mut flip = false;
            #[cfg(feature = "adversary")]
            if let Some(c) = &plan.cheat {
                flip = c.strategy == super::cheat::Strategy::PrepFlipBeaverShare && used == 0;
            }
            let tr = bf
                .triples
                .get(used..used + tables * k)
                .ok_or_else(|| Error::config("tinytable: triple count mismatch"))?;
            let mono = &bf.mono;
            let operands = (0..tables).flat_map(|t| {
                pairs
                    .iter()
                    .map(move |&(sa, sb)| (mono[t * e + sa], mono[t * e + sb]))
            });
            let operands = operands.enumerate().map(|(i, (mut x, y))| {
                x.bit ^= flip && i == 0;
                (x, y)
            });
            self.ot.beaver_open(ch, tr, operands, &mut bf.de)?;
            let nm = tables * k;
            for t in 0..tables {
                for (i, &(sa, sb)) in pairs.iter().enumerate() {
                    let j = t * k + i;
                    bf.mono[t * e + (sa | sb)] =
                        self.ot.beaver_product(&tr[j], bf.de[j], bf.de[nm + j]);
                }
            }
            used += nm;
            groups = merged;
        }
        Ok(())
    }

    /// Fig. 8 step 4: each party sends its shares of the *peer's* input
    /// masks with a digest of their MACs; the owner checks them against its
    /// keys (`K ⊕ b·Δ`) and learns its masks. Alice speaks first.
    fn open_to_owners(
        &mut self,
        ch: &mut Channel,
        plan: &PrepPlan<'_>,
        mine: &[AuthShare],
        peer: &[AuthShare],
    ) -> Result<Vec<bool>> {
        #[allow(unused_mut)]
        let mut bits: Vec<bool> = peer.iter().map(|s| s.bit).collect();
        #[cfg(feature = "adversary")]
        if let Some(c) = &plan.cheat {
            if c.strategy == super::cheat::Strategy::PrepWrongInputMaskShare {
                if let Some(b) = bits.first_mut() {
                    *b ^= true;
                }
            }
        }
        let _ = plan;
        let send = |ch: &mut Channel| -> Result<()> {
            ch.send_bits(&bits)?;
            let mut macs: Vec<Block> = peer.iter().map(|s| s.mac).collect();
            ch.send_bytes(&mask_digest(&macs))?;
            macs.zeroize();
            ch.flush()
        };
        let delta = self.ot.delta();
        let recv = |ch: &mut Channel| -> Result<Vec<bool>> {
            let theirs = ch.recv_bits(mine.len())?;
            let mut got = [0u8; 32];
            ch.recv_bytes(&mut got)?;
            let mut want: Vec<Block> = mine
                .iter()
                .zip(&theirs)
                .map(|(s, &b)| s.key ^ delta.and_bit(b))
                .collect();
            let d = mask_digest(&want);
            want.zeroize();
            if got.iter().zip(&d).fold(0u8, |a, (x, y)| a | (x ^ y)) != 0 {
                return Err(Error::Cheating {
                    check: INPUT_MASK_CHECK,
                });
            }
            Ok(mine.iter().zip(theirs).map(|(s, b)| s.bit ^ b).collect())
        };
        match plan.role {
            Role::Alice => {
                send(ch)?;
                recv(ch)
            }
            Role::Bob => {
                let r = recv(ch)?;
                send(ch)?;
                Ok(r)
            }
        }
    }

    /// The output-mask part of the execution record (1-bit entries).
    fn write_outputs(
        &mut self,
        l: &Layout,
        me: usize,
        om: &[AuthShare],
        exec: &mut [u8],
        sc: &mut MacScratch,
    ) {
        let parts = l.exec_parts();
        for (i, s) in om.iter().enumerate() {
            set_bit(&mut exec[parts[1]..], i, s.bit);
        }
        let first = self.counter;
        self.counter += om.len() as u64;
        let recs = Records {
            bytes: &mut exec[parts[2]..parts[4]],
            size: parts[4] - parts[2],
            entries: om.len(),
            tags: 0,
            ver: parts[3] - parts[2],
        };
        entry_macs(l.scheme, self.ot.delta(), me, first, 1, om, recs, sc);
    }
}

/// Digest of the MACs of opened input masks (32 bytes per opening).
fn mask_digest(macs: &[Block]) -> [u8; 32] {
    let mut h = blake3::Hasher::new_derive_key(INPUT_MASK_CONTEXT);
    h.update(bytemuck::cast_slice(macs));
    *h.finalize().as_bytes()
}

/// The non-empty sub-masks of `mask`.
fn submasks(mask: usize) -> impl Iterator<Item = usize> {
    let mut s = mask;
    std::iter::from_fn(move || {
        if s == 0 {
            return None;
        }
        let r = s;
        s = (s - 1) & mask;
        Some(r)
    })
    .collect::<Vec<_>>()
    .into_iter()
    .rev()
}

/// `k` bits of a TinyOT MAC value, starting at bit 2: the two low bits of
/// every Δ are public (bit 0 = 1, bit 1 = the role), so the linear MAC key
/// `α = Δ[2..k+2]` keeps k unknown bits, and because the map is XOR-linear,
/// `M = K ⊕ s·Δ` becomes `y = β ⊕ s·α` with `y, β` the same bits of `M, K`.
#[inline]
fn linear_part(v: Block, k: u32) -> u64 {
    let x = (v.0 >> 2) as u64;
    if k >= 64 {
        x
    } else {
        x & ((1u64 << k) - 1)
    }
}

/// `x^b·v` in GF(2^128): the public, injective weights that fold an entry's
/// `m` bit-MACs into one value for the lookup MAC.
#[inline]
fn times_x_pow(mut v: Block, b: usize) -> Block {
    for _ in 0..b {
        v = v.double();
    }
    v
}

/// Planar records that [`entry_macs`] writes MACs into: record `r` is
/// `bytes[r·size..(r+1)·size]`, its tags at offset `tags`, its verifier
/// data at offset `ver`; each record holds `entries` entries.
struct Records<'a> {
    bytes: &'a mut [u8],
    size: usize,
    entries: usize,
    tags: usize,
    ver: usize,
}

/// Step 5: the online-format MACs of entries of `m` bits each, from the
/// TinyOT MACs and keys of their bits (`ent[c·m + b]` is ⟦bit b of entry
/// c⟧, entries of consecutive records one after the other, entry `c` with
/// hash tweak `first + c`). Writes my tags (on my shares) and my verifier
/// data (for the peer's shares) into the records.
///
/// * **Linear-k.** Bit `b`'s MAC gives `y_b = β_b ⊕ s_b·α` (bits 2..k+2 of
///   `M = K ⊕ s·Δ`, [`linear_part`]); the entry's tag is `y = ⊕_b y_b·x^b`
///   (unreduced), which is `β ⊕ α·s` with `β = ⊕_b β_b·x^b` — exactly the
///   paper's `α·s + β` over 𝔾 for an `m`-bit `s`. `α` goes into the
///   execution record.
/// * **Lookup-k.** The entry's MAC value `L = ⊕_b x^b·M_b` over GF(2^128);
///   the verifier's value for a peer share `v` is `⊕_b x^b·K_b ⊕
///   (⊕_b v_b x^b)·Δ`, equal to the peer's `L` exactly when `v` is its
///   share. Strings are `F(L)` (Fig. 8: "`a^v = F(mac^v)`"), with `F` =
///   TCCR under a per-entry, per-owner tweak, truncated to k bits. Forging
///   `v' ≠ s` needs `F` at `L ⊕ δ(x)·Δ` with `δ ≠ 0`, i.e. Δ. All entries
///   of a call are hashed in one batch.
#[allow(clippy::too_many_arguments)]
fn entry_macs(
    scheme: MacScheme,
    delta: Block,
    me: usize,
    first: u64,
    m: u32,
    ent: &[AuthShare],
    recs: Records<'_>,
    sc: &mut MacScratch,
) {
    let mu = m as usize;
    let per = recs.entries;
    let entries = ent.len() / mu;
    // Entry `c` lives in record `c / per` as its entry `c % per`.
    let at = |c: usize, off: usize, width: usize| {
        let r = (c / per) * recs.size + off + (c % per) * width;
        r..r + width
    };
    match scheme {
        MacScheme::Passive => {}
        MacScheme::Linear { k } => {
            let (t, v) = (scheme.tag_bytes(m), scheme.verify_bytes(m));
            for c in 0..entries {
                let (mut y, mut beta) = (0u128, 0u128);
                for b in 0..mu {
                    let s = ent[c * mu + b];
                    y ^= (linear_part(s.mac, k) as u128) << b;
                    beta ^= (linear_part(s.key, k) as u128) << b;
                }
                write_le(&mut recs.bytes[at(c, recs.tags, t)], y);
                write_le(&mut recs.bytes[at(c, recs.ver, v)], beta);
            }
        }
        MacScheme::Lookup { .. } => {
            let kb = scheme.key_bytes();
            let vals = 1usize << m;
            let dx: Vec<Block> = (0..mu).map(|b| times_x_pow(delta, b)).collect();
            let (xs, tw) = (&mut sc.xs, &mut sc.tw);
            // Whole records per hash call, about 2^16 blocks (1 MiB).
            let group = per * (LOOKUP_HASH_BLOCKS / (per * (1 + vals))).max(1);
            for start in (0..entries).step_by(group) {
                let end = (start + group).min(entries);
                xs.clear();
                tw.clear();
                for c in start..end {
                    let (mut lm, mut lk) = (Block::ZERO, Block::ZERO);
                    for b in 0..mu {
                        let s = ent[c * mu + b];
                        lm ^= times_x_pow(s.mac, b);
                        lk ^= times_x_pow(s.key, b);
                    }
                    let id = first + c as u64;
                    xs.push(lm);
                    // Tweak space of the lookup strings (`mac::LOOKUP_TWEAK`),
                    // apart from TinyOT's leaky-AND hashes under the same Δ.
                    tw.push(Block::from_halves(id, LOOKUP_TWEAK | me as u64));
                    let peer_tw = Block::from_halves(id, LOOKUP_TWEAK | (1 - me as u64));
                    for v in 0..vals {
                        let d = (0..mu)
                            .filter(|&b| (v >> b) & 1 == 1)
                            .fold(lk, |a, b| a ^ dx[b]);
                        xs.push(d);
                        tw.push(peer_tw);
                    }
                }
                tccr_batch(xs, tw);
                for c in start..end {
                    let row = &xs[(c - start) * (1 + vals)..(c - start + 1) * (1 + vals)];
                    recs.bytes[at(c, recs.tags, kb)].copy_from_slice(&row[0].to_bytes()[..kb]);
                    let ver = at(c, recs.ver, vals * kb);
                    for (v, dst) in recs.bytes[ver].chunks_exact_mut(kb).enumerate() {
                        dst.copy_from_slice(&row[1 + v].to_bytes()[..kb]);
                    }
                }
            }
        }
    }
}

/// Blocks hashed per call by the lookup MACs of [`entry_macs`].
const LOOKUP_HASH_BLOCKS: usize = 1 << 16;

/// One measurement of real preprocessing (`brickyard bench tinytable-tables`,
/// JSON field `preprocessing`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct PrepRate {
    /// `binary` or `sbox`.
    pub variant: &'static str,
    /// MAC scheme name.
    pub mac: String,
    /// Always `real` (Fig. 8 on TinyOT): the dealer is never measured here.
    pub source: &'static str,
    /// AES executions preprocessed.
    pub executions: usize,
    /// Tables produced per party.
    pub tables: usize,
    /// Binary multiplications (AND triples) per table.
    pub mults_per_table: usize,
    /// `tables` / wall time of the dependent phase (both parties).
    pub tables_per_second: f64,
    /// Bytes both parties sent per table.
    pub bytes_per_table: f64,
    /// TinyOT setup (base OTs both ways), ms.
    pub setup_ms: f64,
    /// Wall time of the table production, ms.
    pub wall_ms: f64,
    /// Alice's thread CPU time per table, ns (Linux; unlike wall time,
    /// barely affected by other processes on the machine).
    pub alice_cpu_ns_per_table: Option<f64>,
    /// Bob's thread CPU time per table, ns (Linux).
    pub bob_cpu_ns_per_table: Option<f64>,
}

/// Preprocesses `executions` AES-128 executions for real between two
/// threads over loopback TCP, discarding the records, and reports the rate.
pub fn measure_aes(variant: super::Variant, mac: MacScheme, executions: usize) -> Result<PrepRate> {
    use brickyard_core::channel::{self, NetOptions};
    use std::time::Instant;
    let aes = brickyard_circuit::builtin("aes128").map_err(Error::config)?;
    let program = variant.compile(&aes)?;
    let inputs = [program.inputs[0].clone(), program.inputs[1].clone()];
    use brickyard_ot::bench::thread_cpu_ns;
    type Side = (f64, Instant, Instant, u64, Option<u64>);
    let go = |ch: &mut Channel, role: Role| -> Result<Side> {
        let me = (role == Role::Bob) as usize;
        let t0 = Instant::now();
        let mut p = Preprocessor::setup(ch, role, super::security::DEFAULT_S)?;
        let setup_ms = t0.elapsed().as_secs_f64() * 1e3;
        // Barrier, so both clocks start together.
        match role {
            Role::Alice => {
                ch.send_bytes(&[1])?;
                ch.flush()?;
            }
            Role::Bob => ch.recv_bytes(&mut [0u8])?,
        }
        let before = ch.stats();
        let start = Instant::now();
        let cpu0 = thread_cpu_ns();
        let plan = PrepPlan {
            program: &program,
            role,
            inputs: inputs.clone(),
            layout: Layout::new(&program, mac, inputs[me].len()),
            #[cfg(feature = "adversary")]
            cheat: None,
        };
        p.run(ch, &plan, executions, &mut |g, e| {
            std::hint::black_box((g, e));
            Ok(())
        })?;
        let cpu = cpu0.zip(thread_cpu_ns()).map(|(a, b)| b.saturating_sub(a));
        Ok((
            setup_ms,
            start,
            Instant::now(),
            ch.stats().since(&before).bytes_sent,
            cpu,
        ))
    };
    let listener = channel::listen("127.0.0.1:0")?;
    let addr = listener.local_addr()?.to_string();
    let opts = NetOptions::default();
    let (ra, rb) = std::thread::scope(|sc| {
        let bob = sc.spawn(|| {
            let mut ch = channel::connect(&addr, &opts)?;
            go(&mut ch, Role::Bob)
        });
        let ra = channel::accept(&listener, &opts).and_then(|mut ch| go(&mut ch, Role::Alice));
        (ra, bob.join())
    });
    let (setup_ms, sa, ea, ba, ca) = ra?;
    let (_, sb, eb, bb, cb) = rb.map_err(|_| Error::config("preprocessing thread panicked"))??;
    let secs = ea.max(eb).duration_since(sa.min(sb)).as_secs_f64();
    let tables = executions * program.table_count();
    Ok(PrepRate {
        variant: variant.name(),
        mac: mac.name(),
        source: "real",
        executions,
        tables,
        mults_per_table: mults_per_table(program.table.n_in),
        tables_per_second: tables as f64 / secs,
        bytes_per_table: (ba + bb) as f64 / tables.max(1) as f64,
        setup_ms,
        wall_ms: secs * 1e3,
        alice_cpu_ns_per_table: ca.map(|c| c as f64 / tables.max(1) as f64),
        bob_cpu_ns_per_table: cb.map(|c| c as f64 / tables.max(1) as f64),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multiplication_counts() {
        assert_eq!(mults_per_table(2), 1);
        assert_eq!(mults_per_table(8), 247);
        assert_eq!(mult_rounds(2), 1);
        assert_eq!(mult_rounds(8), 3);
        // The merge schedule of `monomials` uses exactly that many.
        for n in [2usize, 3, 5, 8] {
            let mut groups: Vec<usize> = (0..n).map(|j| 1 << j).collect();
            let mut count = 0;
            while groups.len() > 1 {
                let mut merged = Vec::new();
                for gp in groups.chunks(2) {
                    if let [a, b] = *gp {
                        count += submasks(a).count() * submasks(b).count();
                        merged.push(a | b);
                    } else {
                        merged.push(gp[0]);
                    }
                }
                groups = merged;
            }
            assert_eq!(count, mults_per_table(n as u32), "n = {n}");
        }
    }

    /// Measurement, not a check: `cargo test -p brickyard-protocols --lib
    /// -- --ignored --nocapture prep_rate` (docs/testing.md).
    #[test]
    #[ignore]
    fn prep_rate() {
        use super::super::Variant;
        let n: usize = std::env::var("TT_PREP_EXECS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(82);
        // TT_PREP_ONLY=binary|sbox restricts the rows (for profiling).
        let only = std::env::var("TT_PREP_ONLY").ok();
        for (v, mac, e) in [
            (Variant::Binary, "lookup-64", n),
            (Variant::Binary, "linear-64", n),
            (Variant::Sbox, "linear-64", n.div_ceil(8)),
        ] {
            if only.as_deref().is_some_and(|o| o != v.name()) {
                continue;
            }
            let r = measure_aes(v, MacScheme::parse(mac).unwrap(), e).unwrap();
            println!("{r:?}");
        }
    }

    #[test]
    fn anf_reproduces_every_shifted_table() {
        for f in [TableFn::and(), super::super::aes_sbox::sbox_fn()] {
            let anf = Anf::new(&f);
            let (e, m) = (f.entries(), f.n_out as usize);
            for r in [0usize, 1, e / 2 + 1, e - 1] {
                for c in 0..e {
                    for b in 0..m {
                        let i = c * m + b;
                        let v = anf.terms[i]
                            .iter()
                            .fold(anf.constant[i], |a, &s| a ^ ((s as usize & !r) == 0));
                        assert_eq!(v, (f.values[c ^ r] >> b) & 1 == 1);
                    }
                }
            }
        }
    }
}
