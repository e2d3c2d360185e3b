//! Protocol-specific flags on `demo`, `run`, `preprocess` and `bench`:
//! TinyTable's MAC scheme and trusted-dealer mode, and (feature
//! `adversary`) the named cheating strategies of the malicious protocols
//! (`tinytable`, `tinytable-sbox`, `lego`, `lindell-riva`, `jimu`).

use crate::error::CliError;
use brickyard_protocols::tinytable::{self, MacScheme, Options, Source};
use brickyard_protocols::{Party, Role, RunConfig};
use clap::Args;

/// Flags that only `tinytable` / `tinytable-sbox` read.
#[derive(Args, Debug, Clone, Default)]
pub struct TinyTableArgs {
    /// tinytable: preprocessing by a TRUSTED DEALER (simulated in Alice's
    /// process) — benchmark/test mode. Without it, the tables come from
    /// real two-party preprocessing (Sec. 4, Fig. 8, on TinyOT).
    #[arg(long)]
    pub dealer: bool,
    /// tinytable: MAC scheme: passive, lookup-32, lookup-64, linear-32,
    /// linear-64 (default: lookup-64 for tinytable, linear-64 for
    /// tinytable-sbox). The 32-bit MACs (a 2^-32 failure term, above
    /// 2^-40) are refused with real preprocessing; only --dealer runs them.
    #[arg(long, value_name = "SCHEME")]
    pub mac: Option<String>,
    /// Adversary mode (build with --features adversary): ROLE:STRATEGY,
    /// e.g. alice:flip-table-bit (tinytable) or alice:nand-gate (lego);
    /// --list-cheats lists them.
    #[arg(long, value_name = "ROLE:NAME")]
    pub cheat: Option<String>,
    /// Print the cheating strategies of --protocol and exit.
    #[arg(long)]
    pub list_cheats: bool,
    /// TEST ONLY (hidden; exists only in `--features adversary` builds):
    /// jimu's Setup skips the Step 5b proof, so that CLI tests of other
    /// behaviour fit CI's budget. Both parties must pass it. Without Step
    /// 5b jimu is NOT secure against a malicious Alice; default builds
    /// have no such flag.
    #[cfg(feature = "adversary")]
    #[arg(long, hide = true)]
    pub test_skip_step_5b: bool,
}

fn is_tinytable(protocol: &str) -> bool {
    tinytable::Variant::of_protocol(protocol).is_ok()
}

/// The protocols other than TinyTable's with named cheating strategies.
fn has_cheats(protocol: &str) -> bool {
    matches!(protocol, "lego" | "lindell-riva" | "jimu")
}

impl TinyTableArgs {
    /// The protocol options these flags select.
    pub fn options(&self, protocol: &str) -> Result<Options, CliError> {
        let mut o = Options::for_protocol(protocol)?;
        if let Some(m) = &self.mac {
            o.mac = MacScheme::parse(m)?;
        }
        if self.dealer {
            o.source = Source::Dealer;
        }
        if let Some(c) = &self.cheat {
            let (role, name) = c
                .split_once(':')
                .ok_or_else(|| CliError::Usage(format!("--cheat `{c}`: expected ROLE:NAME")))?;
            let role: Role = role.parse().map_err(CliError::Usage)?;
            o.cheat = Some((role, name.to_string()));
        }
        Ok(o)
    }

    /// Refuses TinyTable flags on other protocols, so a typo is not silently ignored.
    fn check_other(&self, protocol: &str) -> Result<(), CliError> {
        if self.dealer || self.mac.is_some() {
            return Err(CliError::Usage(format!(
                "--dealer and --mac apply to tinytable and tinytable-sbox, not `{protocol}`"
            )));
        }
        if self.cheat.is_some() && !has_cheats(protocol) {
            return Err(CliError::Usage(format!(
                "`{protocol}` has no cheating strategies (tinytable, tinytable-sbox, lego, lindell-riva and jimu do)"
            )));
        }
        Ok(())
    }

    /// A LEGO party with `opts`, following `--cheat` when it names this role.
    pub fn lego_party(
        &self,
        role: Role,
        cfg: RunConfig,
        opts: brickyard_protocols::lego::LegoOptions,
    ) -> Result<Box<dyn Party>, CliError> {
        use brickyard_protocols::lego::{LegoAlice, LegoBob};
        self.check_other("lego")?;
        let Some(spec) = &self.cheat else {
            return Ok(match role {
                Role::Alice => Box::new(LegoAlice::with_options(cfg, opts)?),
                Role::Bob => Box::new(LegoBob::with_options(cfg, opts)?),
            });
        };
        #[cfg(feature = "adversary")]
        {
            let c = brickyard_protocols::lego::Cheat::parse(spec).ok_or_else(|| {
                CliError::Usage(format!(
                    "unknown lego strategy `{spec}` (see --list-cheats)"
                ))
            })?;
            let mine = spec.starts_with(role.name());
            Ok(match role {
                Role::Alice if mine => Box::new(LegoAlice::with_options(cfg, opts)?.cheat(c)),
                // A strategy that rigs Bob's challenges configures him too.
                Role::Bob if mine || c.rigs_bob() => {
                    Box::new(LegoBob::with_options(cfg, opts)?.cheat(c))
                }
                Role::Alice => Box::new(LegoAlice::with_options(cfg, opts)?),
                Role::Bob => Box::new(LegoBob::with_options(cfg, opts)?),
            })
        }
        #[cfg(not(feature = "adversary"))]
        {
            let _ = (role, cfg, opts, LegoAlice::new, LegoBob::new);
            Err(CliError::Usage(format!(
                "--cheat {spec}: cheating strategies need a build with `--features adversary`"
            )))
        }
    }

    /// A Lindell–Riva party, following `--cheat` when it names this role
    /// (or rigs Bob for it).
    pub fn lr_party(&self, role: Role, cfg: RunConfig) -> Result<Box<dyn Party>, CliError> {
        use brickyard_lindell_riva::party::{LrAlice, LrBob};
        self.check_other("lindell-riva")?;
        let Some(spec) = &self.cheat else {
            return Ok(match role {
                Role::Alice => Box::new(LrAlice::new(cfg)?),
                Role::Bob => Box::new(LrBob::new(cfg)?),
            });
        };
        #[cfg(feature = "adversary")]
        {
            let c = brickyard_lindell_riva::protocol::Cheat::parse(spec).ok_or_else(|| {
                CliError::Usage(format!(
                    "unknown lindell-riva strategy `{spec}` (see --list-cheats)"
                ))
            })?;
            let mine = spec.starts_with(role.name());
            Ok(match role {
                Role::Alice if mine => Box::new(LrAlice::new(cfg)?.cheat(c)),
                Role::Bob if mine || c.rigs_bob() => Box::new(LrBob::new(cfg)?.cheat(c)),
                Role::Alice => Box::new(LrAlice::new(cfg)?),
                Role::Bob => Box::new(LrBob::new(cfg)?),
            })
        }
        #[cfg(not(feature = "adversary"))]
        {
            let _ = (role, cfg, LrAlice::new, LrBob::new);
            Err(CliError::Usage(format!(
                "--cheat {spec}: cheating strategies need a build with `--features adversary`"
            )))
        }
    }

    /// A JIMU party (default k, s), following `--cheat` when it names this
    /// role (or rigs Bob's J for it).
    pub fn jimu_party(&self, role: Role, cfg: RunConfig) -> Result<Box<dyn Party>, CliError> {
        self.jimu_party_sized(role, cfg, None)
    }

    /// [`Self::jimu_party`] whose preprocessing into a store makes `size`
    /// (`None`: enough for --executions of --circuit).
    pub fn jimu_party_sized(
        &self,
        role: Role,
        cfg: RunConfig,
        size: Option<brickyard_protocols::jimu::PoolSize>,
    ) -> Result<Box<dyn Party>, CliError> {
        use brickyard_protocols::jimu::{new_party_sized, Cheats};
        let new_party = |role, cfg, opts, cheats| new_party_sized(role, cfg, opts, cheats, size);
        self.check_other("jimu")?;
        #[cfg(feature = "adversary")]
        let test_only = |c: Cheats| {
            if self.test_skip_step_5b {
                c.without_step_5b()
            } else {
                c
            }
        };
        #[cfg(not(feature = "adversary"))]
        let test_only = |c: Cheats| c;
        let Some(spec) = &self.cheat else {
            return Ok(new_party(
                role,
                cfg,
                Default::default(),
                test_only(Cheats::default()),
            )?);
        };
        #[cfg(feature = "adversary")]
        {
            let c = brickyard_protocols::jimu::Cheat::parse(spec).ok_or_else(|| {
                CliError::Usage(format!(
                    "unknown jimu strategy `{spec}` (see --list-cheats)"
                ))
            })?;
            let mine = spec.starts_with(role.name());
            let cheats = if mine || (role == Role::Bob && c.rigs_bob()) {
                Cheats::new(c)
            } else {
                Cheats::default()
            };
            Ok(new_party(role, cfg, Default::default(), test_only(cheats))?)
        }
        #[cfg(not(feature = "adversary"))]
        {
            let _ = (role, cfg, test_only);
            Err(CliError::Usage(format!(
                "--cheat {spec}: cheating strategies need a build with `--features adversary`"
            )))
        }
    }

    /// A party of `protocol`, with these flags for TinyTable.
    pub fn new_party(
        &self,
        protocol: &str,
        role: Role,
        cfg: RunConfig,
    ) -> Result<Box<dyn Party>, CliError> {
        if is_tinytable(protocol) {
            Ok(tinytable::new_party(role, cfg, self.options(protocol)?)?)
        } else {
            self.check_other(protocol)?;
            if protocol == "lego" {
                return self.lego_party(role, cfg, Default::default());
            }
            if protocol == "lindell-riva" {
                return self.lr_party(role, cfg);
            }
            if protocol == "jimu" {
                return self.jimu_party(role, cfg);
            }
            Ok(brickyard_protocols::registry::new_party(
                protocol, role, cfg,
            )?)
        }
    }

    /// Report notes (trusted dealer, MAC scheme, cheats).
    pub fn notes(&self, protocol: &str) -> Vec<String> {
        match self.options(protocol) {
            Ok(o) if is_tinytable(protocol) => o.notes(),
            _ => Vec::new(),
        }
    }

    /// `--list-cheats`: prints the strategies and returns true.
    pub fn list_cheats(&self, protocol: &str) -> Result<bool, CliError> {
        if !self.list_cheats {
            return Ok(false);
        }
        if !is_tinytable(protocol) && !has_cheats(protocol) {
            return Err(CliError::Usage(format!(
                "`{protocol}` has no cheating strategies"
            )));
        }
        #[cfg(feature = "adversary")]
        if protocol == "lindell-riva" {
            for (name, c) in brickyard_lindell_riva::protocol::Cheat::ALL {
                println!("{name} — {}", c.describe());
            }
        } else if protocol == "lego" {
            for (name, _, what) in brickyard_protocols::lego::Cheat::ALL {
                println!("{name} — {what}");
            }
        } else if protocol == "jimu" {
            for (name, _, what) in brickyard_protocols::jimu::Cheat::ALL {
                println!("{name} — {what}");
            }
        } else {
            for line in tinytable::cheat::list() {
                println!("{line}");
            }
        }
        #[cfg(not(feature = "adversary"))]
        return Err(CliError::Usage(
            "cheating strategies need a build with `--features adversary`".into(),
        ));
        #[allow(unreachable_code)]
        Ok(true)
    }
}
