//! Adversary mode (cargo feature `adversary`): named deviations a party can
//! be told to make, so tests and `brickyard demo --cheat` attack the real
//! checks. Each strategy lists what the honest party must do and with
//! which probability (k = the MAC's security parameter).

use super::online::Point;
use brickyard_core::prg::Prg;
use brickyard_core::{Error, Result};

/// A named deviation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// Flip the bit(s) sent for one uniformly chosen table.
    FlipTableBit,
    /// Flip the shares sent for every table of the last layer (the one
    /// nearest the output).
    FlipLastLayer,
    /// Flip a table bit and add a random k-bit guess to the MAC, hoping to
    /// hit the correction.
    FlipAndGuessMac,
    /// Send an accumulated table MAC with its lowest bit flipped.
    WrongMac,
    /// Flip the own share of output-mask bit 0 when opening the output.
    WrongOutputShare,
    /// Mask own input bit 0 with the wrong mask (input substitution).
    WrongInputMask,
    /// Real preprocessing: flip the own share of the first value opened in
    /// the first Beaver round (without a matching MAC).
    PrepFlipBeaverShare,
    /// Real preprocessing: send a flipped share of the peer's first input
    /// mask when opening input masks to their owners.
    PrepWrongInputMaskShare,
}

/// Every strategy: name on the command line, what it does, what the honest
/// party must see.
pub const STRATEGIES: &[(Strategy, &str, &str)] = &[
    (
        Strategy::FlipTableBit,
        "flip-table-bit",
        "flips the share it sends for one random table; honest party aborts with table-mac except w.p. 2^-k",
    ),
    (
        Strategy::FlipLastLayer,
        "flip-last-layer",
        "flips the shares it sends for every table of the last layer; honest party aborts with table-mac except w.p. 2^-k",
    ),
    (
        Strategy::FlipAndGuessMac,
        "flip-and-guess-mac",
        "flips a table share and XORs a random k-bit guess into its MAC; aborts with table-mac except w.p. 2^-k",
    ),
    (
        Strategy::WrongMac,
        "wrong-mac",
        "sends its accumulated table MAC with one bit flipped; honest party always aborts with table-mac",
    ),
    (
        Strategy::WrongOutputShare,
        "wrong-output-share",
        "flips its share of output-mask bit 0 when opening the output (only if it sends shares); aborts with output-mac except w.p. 2^-k",
    ),
    (
        Strategy::WrongInputMask,
        "wrong-input-mask",
        "masks its input bit 0 with the wrong mask: an input substitution the ideal functionality allows; honest party outputs f(x with bit 0 flipped, y)",
    ),
    (
        Strategy::PrepFlipBeaverShare,
        "prep-flip-beaver-share",
        "real preprocessing only: flips its share of the first value opened by Beaver multiplication; honest party aborts with TinyOT's mac-check except w.p. 2^-126",
    ),
    (
        Strategy::PrepWrongInputMaskShare,
        "prep-wrong-input-mask-share",
        "real preprocessing only: sends a flipped share of the peer's first input mask; honest party aborts with input-mask-mac except w.p. 2^-126 (no effect if the peer has no inputs)",
    ),
];

/// A deviation bound to a run: the strategy plus its random choices.
#[derive(Clone, Copy, Debug)]
pub struct Cheat {
    /// The strategy.
    pub strategy: Strategy,
    /// The table it attacks (for the table strategies), chosen uniformly.
    pub gate: usize,
    /// The random MAC guess (for `flip-and-guess-mac`).
    pub guess: u64,
}

impl Cheat {
    /// Parses a strategy name for a program with `tables` table gates.
    pub fn new(name: &str, tables: usize) -> Result<Cheat> {
        let strategy = STRATEGIES
            .iter()
            .find(|s| s.1 == name)
            .map(|s| s.0)
            .ok_or_else(|| {
                let names: Vec<&str> = STRATEGIES.iter().map(|s| s.1).collect();
                Error::config(format!(
                    "unknown tinytable cheat `{name}` (available: {})",
                    names.join(", ")
                ))
            })?;
        let mut prg = Prg::new();
        Ok(Cheat {
            strategy,
            gate: prg.gen_range(tables.max(1) as u64) as usize,
            guess: prg.random_u64() | 1,
        })
    }

    /// The XOR mask applied at `p`.
    pub fn deviation(&self, p: Point) -> u64 {
        use Strategy::*;
        match (self.strategy, p) {
            (FlipTableBit | FlipAndGuessMac, Point::TableShare { g, .. }) if g == self.gate => 1,
            (FlipLastLayer, Point::TableShare { layer, layers, .. }) if layer + 1 == layers => 1,
            (FlipAndGuessMac, Point::TableMac) => self.guess,
            (WrongMac, Point::TableMac) => 1,
            (WrongOutputShare, Point::OutputShare(0)) => 1,
            (WrongInputMask, Point::InputMask(0)) => 1,
            _ => 0,
        }
    }
}

/// `--list-cheats` lines: `ROLE:NAME — what it does`.
pub fn list() -> Vec<String> {
    let mut v = Vec::new();
    for role in ["alice", "bob"] {
        for (_, name, what) in STRATEGIES {
            v.push(format!("{role}:{name} — {what}"));
        }
    }
    v
}
