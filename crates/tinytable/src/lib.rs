//! `tinytable` / `tinytable-sbox`: TinyTable (Damgård–Nielsen–Nielsen–
//! Ranellucci, Crypto 2017), malicious two-party computation from scrambled
//! truth tables. See `docs/protocols/tinytable.md` for the protocol step by
//! step, the reconstruction of the figures lost from the paper's text, the
//! cheating strategies and the Table 1–3 reproduction.
//!
//! | file | paper |
//! |---|---|
//! | [`program`] | the circuit as linear gates + table gates; free XOR (2.1), NOT removal (2.2) |
//! | [`aes_sbox`] | bigger tables (2.3): AES-128 with 8-bit S-box tables |
//! | [`mac`] | lookup MAC (Fig. 3/5) and linear MAC with batched opening (Sec. 3) |
//! | [`material`] | one party's tables, tags and keys as bytes (Table 1's sizes) |
//! | [`dealer`] | F^pre_mal played by a trusted dealer (`--dealer`, Sec. 5's setting) |
//! | [`preprocessing`] | F^pre_mal for real (Fig. 8) on TinyOT aBits and AND triples: the default source |
//! | [`online`] | π_mal (Fig. 5) |
//! | `cheat` | adversary mode (feature `adversary`) |
#![deny(missing_docs)]

pub mod aes_sbox;
pub mod bench;
#[cfg(feature = "adversary")]
pub mod cheat;
pub mod dealer;
pub mod floor;
#[cfg(feature = "fuzzing")]
pub mod fuzzing;
pub mod mac;
pub mod material;
pub mod online;
mod party;
pub mod preprocessing;
pub mod program;
pub mod security;

pub use mac::MacScheme;
pub use party::TinyTableParty;

use brickyard_circuit::Circuit;
use brickyard_core::{Error, Result};
use brickyard_driver::Role;
use program::Program;

/// Which table a circuit is compiled to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Any Boolean circuit, one AND table per AND gate (protocol `tinytable`).
    Binary,
    /// AES-128 with one 8-bit table per S-box (protocol `tinytable-sbox`).
    Sbox,
}

impl Variant {
    /// The variant of a registered protocol name.
    pub fn of_protocol(name: &str) -> Result<Variant> {
        match name {
            "tinytable" => Ok(Variant::Binary),
            "tinytable-sbox" => Ok(Variant::Sbox),
            other => Err(Error::config(format!(
                "`{other}` is not a tinytable protocol"
            ))),
        }
    }
    /// Short name (store kinds, reports).
    pub fn name(self) -> &'static str {
        match self {
            Variant::Binary => "binary",
            Variant::Sbox => "sbox",
        }
    }
    /// The default MAC: lookup-64 (Fig. 5) for AND tables; linear-64 for
    /// S-box tables, where a lookup MAC costs 256 strings per entry (Sec. 3
    /// is "intended to be used with bigger tables").
    pub fn default_mac(self) -> MacScheme {
        match self {
            Variant::Binary => MacScheme::Lookup { k: 64 },
            Variant::Sbox => MacScheme::Linear { k: 64 },
        }
    }
    /// Compiles the run's circuit.
    pub fn compile(self, c: &Circuit) -> Result<Program> {
        match self {
            Variant::Binary => Ok(Program::from_circuit(c)),
            Variant::Sbox => {
                let aes = brickyard_circuit::builtin("aes128")
                    .map_err(|e| Error::config(e.to_string()))?;
                if *c != aes {
                    return Err(Error::config(
                        "tinytable-sbox computes AES-128 only: use --circuit builtin:aes128",
                    ));
                }
                Ok(aes_sbox::aes128_sbox_program())
            }
        }
    }
}

/// Where the tables come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A trusted dealer (simulated in Alice's process): benchmarks and tests
    /// only, and every report says so.
    Dealer,
    /// Two-party preprocessing (Sec. 4, Fig. 8) from TinyOT aBits and AND
    /// triples: the default.
    Real,
}

/// Everything about a TinyTable run beyond the [`brickyard_driver::RunConfig`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Binary or S-box tables.
    pub variant: Variant,
    /// MAC scheme and k.
    pub mac: MacScheme,
    /// Dealer or real preprocessing.
    pub source: Source,
    /// Statistical parameter: the run fails with probability ≤ 2^-s, the
    /// sum of [`security::terms`]; TinyOT's bucketing is sized for
    /// [`security::component_s`]. At least 40 ([`security::MIN_S`]).
    pub s: u32,
    /// `(role, strategy)` to cheat with (adversary builds only).
    pub cheat: Option<(Role, String)>,
}

impl Options {
    /// Defaults for a protocol name: its default MAC and real preprocessing.
    pub fn for_protocol(name: &str) -> Result<Options> {
        let variant = Variant::of_protocol(name)?;
        Ok(Options {
            variant,
            mac: variant.default_mac(),
            source: Source::Real,
            s: security::DEFAULT_S,
            cheat: None,
        })
    }

    /// Refuses options whose failure bound exceeds 2^-s for `triples` AND
    /// triples (`Config` naming the largest term). s below
    /// [`security::MIN_S`] is never accepted, so with real preprocessing
    /// the paper's 32-bit MACs (`lookup-32`, `linear-32`: a 2^-32 term)
    /// are refused for every s. Two runs claim no malicious bound and are
    /// not refused for it: a passive MAC (semi-honest, chosen by name) and
    /// `--dealer` (a trusted dealer: benchmark/test mode, whose notes say
    /// that it is not secure against a corrupt Alice and give the MAC term).
    pub fn check_bound(&self, triples: usize) -> Result<()> {
        if self.s < security::MIN_S {
            return Err(Error::config(format!(
                "tinytable: s = {} refused (need s ≥ {})",
                self.s,
                security::MIN_S
            )));
        }
        if !self.mac.is_malicious() || self.source == Source::Dealer {
            return Ok(());
        }
        security::terms(self.s, self.mac, triples)?.require()
    }

    /// What both parties must agree on (cheats are deliberately left out:
    /// a cheater does not announce itself).
    pub fn describe(&self) -> String {
        format!(
            "tinytable v2 s={} variant={} mac={} source={:?}",
            self.s,
            self.variant.name(),
            self.mac.name(),
            self.source
        )
    }

    /// Notes every report of such a run must carry.
    pub fn notes(&self) -> Vec<String> {
        let mut v = vec![format!(
            "tinytable {} tables, MAC {}{}",
            self.variant.name(),
            self.mac.name(),
            if self.mac.is_malicious() {
                format!(" (a cheat survives w.p. 2^-{})", self.mac.k())
            } else {
                " (PASSIVE: semi-honest only)".into()
            }
        )];
        if self.source == Source::Dealer {
            v.push(
                "preprocessing by a TRUSTED DEALER (simulated in Alice's process): benchmark/test mode, not secure against a corrupt Alice"
                    .into(),
            );
        }
        if let Some((r, s)) = &self.cheat {
            v.push(format!("adversary mode: {} cheats with `{s}`", r.name()));
        }
        v
    }

    /// The bound cheat for `role`, if it is the cheater.
    #[cfg(feature = "adversary")]
    pub fn cheat_for(&self, role: Role, tables: usize) -> Result<Option<cheat::Cheat>> {
        match &self.cheat {
            Some((r, s)) if *r == role => Ok(Some(cheat::Cheat::new(s, tables)?)),
            _ => Ok(None),
        }
    }
}

/// A party of `tinytable` or `tinytable-sbox` with explicit options.
pub fn new_party(
    role: Role,
    cfg: brickyard_driver::RunConfig,
    opts: Options,
) -> Result<Box<dyn brickyard_driver::Party>> {
    #[cfg(not(feature = "adversary"))]
    if opts.cheat.is_some() {
        return Err(Error::config(
            "cheating strategies need a build with `--features adversary`",
        ));
    }
    Ok(Box::new(TinyTableParty::new(role, cfg, opts)?))
}
