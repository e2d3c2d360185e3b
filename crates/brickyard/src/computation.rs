//! One computation: a protocol, a circuit, who owns which input, and the
//! ways to run it. Everything here is a thin wrapper over the phase driver
//! (`brickyard_protocols::driver`), which both the CLI and this crate use.

use crate::store::StoreLocation;
use brickyard_circuit::Circuit;
use brickyard_core::{prg::Prg, Channel, Error, Result};
use brickyard_protocols::driver::{self, LocalNet, LocalRun, PartyRun, PhaseSet};
use brickyard_protocols::{registry, OutputMode, Party, PartyInputs, Role, RunConfig};
use brickyard_store::{agree_session_id, Expected, Store, StoreConfig};
use std::sync::Arc;

/// What both parties must agree on for a run: the protocol (by name), the
/// circuit, which input groups each party owns, how many executions and
/// who learns the output. Both sides build the same `Computation`; the
/// driver compares a digest of it before any cryptography and stops both
/// with `Error::Config` if they differ.
///
/// By default Alice owns input group 0, Bob every other group, there is one
/// execution, and only Bob learns the output.
///
/// ```
/// use brickyard::{Computation, OutputMode};
/// let c = Computation::builtin("tinytable", "add8")?
///     .with_output(OutputMode::Both)
///     .with_executions(2)?;
/// assert_eq!(c.protocol(), "tinytable");
/// assert_eq!(c.config().bob_groups, vec![1]);
/// # Ok::<(), brickyard::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Computation {
    protocol: &'static str,
    circuit_name: String,
    config: RunConfig,
    cheat: Option<(Role, String)>,
}

impl Computation {
    /// `protocol` (a name from [`crate::protocols`]) on `circuit`, which the
    /// report calls `custom` (see [`Computation::named`]).
    ///
    /// ```
    /// use brickyard::{CircuitBuilder, Computation};
    /// let mut b = CircuitBuilder::new();
    /// let x = b.input("x", 16);
    /// let y = b.input("y", 16);
    /// let gt = b.lt(&y, &x); // x > y
    /// b.output("x_gt_y", &brickyard::BitVec(vec![gt]));
    /// let c = Computation::new("yao", b.finish())?;
    /// assert_eq!(c.circuit().and_count(), 16);
    /// assert!(Computation::new("no-such-protocol", c.circuit().clone()).is_err());
    /// # Ok::<(), brickyard::Error>(())
    /// ```
    pub fn new(protocol: &str, circuit: Circuit) -> Result<Self> {
        let info = registry::info(protocol)?;
        Ok(Computation {
            protocol: info.name,
            circuit_name: "custom".to_string(),
            config: RunConfig::new(Arc::new(circuit))?,
            cheat: None,
        })
    }

    /// `protocol` on the standard circuit `name` (see
    /// [`crate::circuit::builtin`]).
    ///
    /// ```
    /// let c = brickyard::Computation::builtin("yao", "aes128")?;
    /// assert_eq!(c.circuit().inputs.len(), 2);
    /// # Ok::<(), brickyard::Error>(())
    /// ```
    pub fn builtin(protocol: &str, name: &str) -> Result<Self> {
        Ok(Self::new(protocol, crate::circuit::builtin(name)?)?.named(&format!("builtin:{name}")))
    }

    /// `protocol` on a circuit named as on the command line: `builtin:NAME`
    /// or a Bristol file path.
    ///
    /// ```
    /// let c = brickyard::Computation::resolve("yao", "builtin:add8")?;
    /// assert_eq!(c.circuit().inputs[0].width(), 8);
    /// # Ok::<(), brickyard::Error>(())
    /// ```
    pub fn resolve(protocol: &str, spec: &str) -> Result<Self> {
        Ok(Self::new(protocol, crate::circuit::resolve(spec)?)?.named(spec))
    }

    /// The circuit's name in reports (not part of what the parties agree on).
    ///
    /// ```
    /// use brickyard::{bits, net, Computation};
    /// let c = Computation::builtin("yao", "add8")?.named("my adder");
    /// let run = c.run_local(&[bits(1, 8)], &[bits(1, 8)], net::memory("memory"))?;
    /// assert_eq!(run.report.circuit, "my adder");
    /// # Ok::<(), brickyard::Error>(())
    /// ```
    pub fn named(mut self, name: &str) -> Self {
        self.circuit_name = name.to_string();
        self
    }

    /// Gives Alice and Bob these input groups; every group must be owned by
    /// exactly one of them. Values are passed in the order of these lists.
    ///
    /// ```
    /// let c = brickyard::Computation::builtin("yao", "add8")?.with_groups(vec![1], vec![0])?;
    /// assert_eq!(c.config().alice_groups, vec![1]);
    /// assert!(c.clone().with_groups(vec![0, 1], vec![1]).is_err());
    /// # Ok::<(), brickyard::Error>(())
    /// ```
    pub fn with_groups(mut self, alice: Vec<usize>, bob: Vec<usize>) -> Result<Self> {
        self.config.alice_groups = alice;
        self.config.bob_groups = bob;
        self.config.validate()?;
        Ok(self)
    }

    /// How many online executions a run performs (and preprocessing covers).
    ///
    /// ```
    /// let c = brickyard::Computation::builtin("yao", "add8")?;
    /// assert_eq!(c.clone().with_executions(10)?.config().executions, 10);
    /// assert!(c.with_executions(0).is_err());
    /// # Ok::<(), brickyard::Error>(())
    /// ```
    pub fn with_executions(mut self, executions: usize) -> Result<Self> {
        self.config.executions = executions;
        self.config.validate()?;
        Ok(self)
    }

    /// Who learns the output.
    pub fn with_output(mut self, output: OutputMode) -> Self {
        self.config.output = output;
        self
    }

    /// Makes one party deviate with a named cheating strategy
    /// (`ROLE:NAME`, e.g. `alice:flip-table-bit` for tinytable or
    /// `alice:nand-gate` for lego; `brickyard demo --protocol P
    /// --list-cheats` lists them). Runs then need the `adversary` feature
    /// and fail with `Error::Config` without it. The honest party must
    /// abort with `Error::Cheating { check }` or output the correct result.
    ///
    /// ```
    /// # #[cfg(feature = "adversary")] {
    /// use brickyard::{bits, net, Computation, Error};
    /// let c = Computation::builtin("tinytable", "add8")?.with_cheat("alice:flip-table-bit")?;
    /// match c.run_local(&[bits(5, 8)], &[bits(7, 8)], net::memory("memory")) {
    ///     Err(Error::Cheating { check }) => assert_eq!(check, "table-mac"),
    ///     other => panic!("the cheat went unnoticed: {:?}", other.map(|r| r.bob_outputs)),
    /// }
    /// # }
    /// # Ok::<(), brickyard::Error>(())
    /// ```
    pub fn with_cheat(mut self, spec: &str) -> Result<Self> {
        let (role, name) = spec
            .split_once(':')
            .ok_or_else(|| Error::config(format!("cheat `{spec}`: expected ROLE:NAME")))?;
        let role: Role = role.parse().map_err(Error::config)?;
        self.cheat = Some((role, name.to_string()));
        Ok(self)
    }

    /// The protocol's name.
    pub fn protocol(&self) -> &'static str {
        self.protocol
    }

    /// The circuit.
    pub fn circuit(&self) -> &Circuit {
        &self.config.circuit
    }

    /// The driver's configuration (what the parties agree on).
    pub fn config(&self) -> &RunConfig {
        &self.config
    }

    /// A fresh party of this protocol for `role`, for callers that drive
    /// the phases themselves (`brickyard_protocols::driver`).
    ///
    /// ```
    /// use brickyard::{Computation, Role};
    /// let c = Computation::builtin("lego", "add8")?;
    /// let bob = c.party(Role::Bob)?;
    /// assert!(!bob.pipelines());
    /// # Ok::<(), brickyard::Error>(())
    /// ```
    pub fn party(&self, role: Role) -> Result<Box<dyn Party>> {
        let Some((cheater, name)) = &self.cheat else {
            return registry::new_party(self.protocol, role, self.config.clone());
        };
        let cfg = self.config.clone();
        use brickyard_protocols::tinytable;
        if tinytable::Variant::of_protocol(self.protocol).is_ok() {
            let mut opts = tinytable::Options::for_protocol(self.protocol)?;
            opts.cheat = Some((*cheater, name.clone()));
            return tinytable::new_party(role, cfg, opts);
        }
        if self.protocol != "lego" {
            return Err(Error::config(format!(
                "`{}` has no cheating strategies (tinytable, tinytable-sbox and lego do)",
                self.protocol
            )));
        }
        #[cfg(feature = "adversary")]
        {
            use brickyard_protocols::lego::{Cheat, LegoAlice, LegoBob};
            let spec = format!("{}:{name}", cheater.name());
            let c = Cheat::parse(&spec)
                .ok_or_else(|| Error::config(format!("unknown lego strategy `{spec}`")))?;
            Ok(match (role, *cheater == role) {
                (Role::Alice, true) => Box::new(LegoAlice::new(cfg)?.cheat(c)),
                (Role::Bob, true) => Box::new(LegoBob::new(cfg)?.cheat(c)),
                _ => registry::new_party(self.protocol, role, cfg)?,
            })
        }
        #[cfg(not(feature = "adversary"))]
        {
            let _ = (cfg, name, role);
            Err(Error::config(
                "cheating strategies need a build with `--features adversary`",
            ))
        }
    }

    /// One execution's inputs repeated for every execution, checked
    /// against the widths of the role's groups.
    fn repeat(&self, role: Role, values: &[Vec<bool>]) -> Result<Vec<PartyInputs>> {
        let one: PartyInputs = values.to_vec();
        self.config.check_inputs(role, &one)?;
        Ok(vec![one; self.config.executions])
    }

    fn check_batch(&self, inputs: &[PartyInputs]) -> Result<()> {
        if inputs.len() != self.config.executions {
            return Err(Error::config(format!(
                "{} execution(s) configured but inputs for {} given",
                self.config.executions,
                inputs.len()
            )));
        }
        Ok(())
    }

    /// Runs this party through every phase (setup, preprocessing, online)
    /// over `ch`, with `inputs` (one value per owned group, reused for each
    /// execution). The peer runs the same computation with the other role.
    /// Returns this party's view: its outputs (if it learns them) and the
    /// time and traffic of each phase on its side.
    ///
    /// ```
    /// use brickyard::{bits, net, Computation, Role};
    /// let c = Computation::builtin("yao", "add8")?;
    /// let (mut ch_a, mut ch_b) = net::memory_pair();
    /// let c2 = c.clone();
    /// let alice = std::thread::spawn(move || c2.run_party(Role::Alice, &mut ch_a, &[bits(200, 8)]));
    /// let bob = c.run_party(Role::Bob, &mut ch_b, &[bits(100, 8)])?;
    /// alice.join().unwrap()?;
    /// let out = bob.outputs[0].as_ref().unwrap();
    /// assert_eq!(brickyard::to_u128(&out[0]), Some(44)); // 300 mod 256
    /// assert!(bob.phases[3].traffic.bytes_received > 0); // the online phase
    /// # Ok::<(), brickyard::Error>(())
    /// ```
    pub fn run_party(
        &self,
        role: Role,
        ch: &mut Channel,
        inputs: &[Vec<bool>],
    ) -> Result<PartyRun> {
        let inputs = self.repeat(role, inputs)?;
        self.drive(role, ch, &inputs, None)
    }

    /// [`Computation::run_party`] with one set of inputs per execution
    /// (as many as [`Computation::with_executions`] set).
    ///
    /// ```
    /// use brickyard::{bits, net, Computation, Role};
    /// let c = Computation::builtin("yao", "add8")?.with_executions(2)?;
    /// let (mut ch_a, mut ch_b) = net::memory_pair();
    /// let c2 = c.clone();
    /// let alice = std::thread::spawn(move || {
    ///     c2.run_party_batch(Role::Alice, &mut ch_a, &[vec![bits(1, 8)], vec![bits(2, 8)]])
    /// });
    /// let bob = c.run_party_batch(Role::Bob, &mut ch_b, &[vec![bits(5, 8)], vec![bits(5, 8)]])?;
    /// alice.join().unwrap()?;
    /// let sums: Vec<_> = bob.outputs.iter().map(|o| brickyard::to_u128(&o.as_ref().unwrap()[0])).collect();
    /// assert_eq!(sums, vec![Some(6), Some(7)]);
    /// assert!(c.run_party_batch(Role::Bob, &mut net::memory_pair().1, &[]).is_err());
    /// # Ok::<(), brickyard::Error>(())
    /// ```
    pub fn run_party_batch(
        &self,
        role: Role,
        ch: &mut Channel,
        inputs: &[PartyInputs],
    ) -> Result<PartyRun> {
        self.check_batch(inputs)?;
        self.drive(role, ch, inputs, None)
    }

    /// Runs both parties in this process (two threads) over `net` and
    /// merges their views into the shared per-phase [`crate::Report`]. Each
    /// party's inputs are one value per owned group, reused for each
    /// execution. If either party fails, the run fails with the root cause
    /// and no output is returned.
    ///
    /// ```
    /// use brickyard::{bits, net, Computation, OutputMode};
    /// let c = Computation::builtin("tinytable", "add8")?.with_output(OutputMode::Both);
    /// let run = c.run_local(&[bits(3, 8)], &[bits(4, 8)], net::loopback()?)?;
    /// assert_eq!(brickyard::to_u128(&run.bob_outputs[0][0]), Some(7));
    /// assert_eq!(run.alice_outputs.unwrap()[0], run.bob_outputs[0]);
    /// let online = &run.report.phases[3];
    /// assert_eq!(online.name, "online");
    /// assert!(online.bytes_alice_to_bob > 0);
    /// # Ok::<(), brickyard::Error>(())
    /// ```
    pub fn run_local(
        &self,
        alice: &[Vec<bool>],
        bob: &[Vec<bool>],
        net: LocalNet,
    ) -> Result<LocalRun> {
        let a = self.repeat(Role::Alice, alice)?;
        let b = self.repeat(Role::Bob, bob)?;
        self.run_local_batch(a, b, net)
    }

    /// [`Computation::run_local`] with one set of inputs per execution.
    ///
    /// ```
    /// use brickyard::{bits, net, Computation};
    /// let c = Computation::builtin("yao", "add8")?.with_executions(2)?;
    /// let run = c.run_local_batch(
    ///     vec![vec![bits(1, 8)], vec![bits(2, 8)]],
    ///     vec![vec![bits(10, 8)], vec![bits(20, 8)]],
    ///     net::memory("memory"),
    /// )?;
    /// let sums: Vec<_> = run.bob_outputs.iter().map(|o| brickyard::to_u128(&o[0])).collect();
    /// assert_eq!(sums, vec![Some(11), Some(22)]);
    /// # Ok::<(), brickyard::Error>(())
    /// ```
    pub fn run_local_batch(
        &self,
        alice: Vec<PartyInputs>,
        bob: Vec<PartyInputs>,
        net: LocalNet,
    ) -> Result<LocalRun> {
        self.check_batch(&alice)?;
        self.check_batch(&bob)?;
        let mut run = driver::run_local(
            self.protocol,
            &self.circuit_name,
            self.party(Role::Alice)?,
            self.party(Role::Bob)?,
            &self.config,
            alice,
            bob,
            net,
        )?;
        let info = registry::info(self.protocol)?;
        run.report
            .notes
            .insert(0, format!("{} is {}", info.name, info.security));
        Ok(run)
    }

    /// Runs this party's setup and preprocessing now and keeps the material
    /// in a new store at `store` (for lego and jimu, an existing store of
    /// the same session gets another batch), for [`Computation::run_stored`] later:
    /// each piece is used once, ever, even across crashes. The peer
    /// preprocesses at the same time into its own store. The store is made
    /// for this computation's protocol and execution count.
    ///
    /// ```
    /// use brickyard::{bits, net, Computation, Role, StoreLocation};
    /// let dir = tempfile::tempdir().unwrap();
    /// let loc = |who: &str| StoreLocation::new(dir.path().join(who)).with_key(dir.path().join(format!("{who}.key")));
    /// let (sa, sb) = (loc("alice"), loc("bob"));
    /// let c = Computation::builtin("yao", "add8")?.with_executions(2)?;
    ///
    /// // Now: preprocessing for two executions.
    /// let (mut ch_a, mut ch_b) = net::memory_pair();
    /// let (c2, sa2) = (c.clone(), sa.clone());
    /// let t = std::thread::spawn(move || c2.preprocess(Role::Alice, &mut ch_a, &sa2));
    /// c.preprocess(Role::Bob, &mut ch_b, &sb)?;
    /// t.join().unwrap()?;
    ///
    /// // Later: one execution at a time, from the stores.
    /// let once = c.with_executions(1)?;
    /// let (mut ch_a, mut ch_b) = net::memory_pair();
    /// let (c2, sa2) = (once.clone(), sa.clone());
    /// let t = std::thread::spawn(move || c2.run_stored(Role::Alice, &mut ch_a, &sa2, &[bits(40, 8)]));
    /// let bob = once.run_stored(Role::Bob, &mut ch_b, &sb, &[bits(2, 8)])?;
    /// t.join().unwrap()?;
    /// assert_eq!(brickyard::to_u128(&bob.outputs[0].as_ref().unwrap()[0]), Some(42));
    /// assert_eq!(bob.phases[1].wall_ms, 0.0); // no preprocessing in this run
    /// assert_eq!(sb.info()?.protocol, "yao");
    /// # Ok::<(), brickyard::Error>(())
    /// ```
    pub fn preprocess(
        &self,
        role: Role,
        ch: &mut Channel,
        store: &StoreLocation,
    ) -> Result<PartyRun> {
        let mut contribution = [0u8; 16];
        Prg::new().fill_bytes(&mut contribution);
        let session = agree_session_id(ch, role.store_role(), contribution)?;
        let dir = store.dir();
        // What the material is bound to; every later run must match it.
        let parameters = self.party(role)?.store_parameters();
        let adds_batch = matches!(self.protocol, "lego" | "jimu");
        let opened = if adds_batch && dir.join("manifest.json").exists() {
            let mut expected = Expected::new(self.protocol, role.store_role());
            expected.key_path = store.key.clone();
            expected.parameters = parameters;
            Store::open(dir, &expected)
        } else {
            let mut scfg = StoreConfig::new(self.protocol, role.store_role(), session);
            scfg.key_path = store.key.clone();
            scfg.parameters = parameters;
            Store::create(dir, scfg)
        };
        let opened = told(ch, opened)?;
        let phases = PhaseSet {
            preprocess: true,
            online: false,
        };
        self.drive_with(role, ch, &[], Some(opened), phases)
    }

    /// Runs the online executions of this party from preprocessing made
    /// earlier by [`Computation::preprocess`] (for lego, also Build, which
    /// needs the circuit). Material is reserved durably before use.
    /// `inputs` are one value per owned group, reused for each execution.
    /// See [`Computation::preprocess`] for an example; without a store
    /// there is nothing to run from:
    ///
    /// ```
    /// use brickyard::{bits, net, Computation, Role, StoreLocation};
    /// let dir = tempfile::tempdir().unwrap();
    /// let loc = StoreLocation::new(dir.path().join("none")).with_key(dir.path().join("k"));
    /// let c = Computation::builtin("yao", "add8")?;
    /// let (mut ch, _peer) = net::memory_pair();
    /// assert!(c.run_stored(Role::Bob, &mut ch, &loc, &[bits(1, 8)]).is_err()); // no such store
    /// # Ok::<(), brickyard::Error>(())
    /// ```
    pub fn run_stored(
        &self,
        role: Role,
        ch: &mut Channel,
        store: &StoreLocation,
        inputs: &[Vec<bool>],
    ) -> Result<PartyRun> {
        let inputs = self.repeat(role, inputs)?;
        self.run_stored_batch(role, ch, store, &inputs)
    }

    /// [`Computation::run_stored`] with one set of inputs per execution.
    /// If the store cannot be opened (missing, tampered, made for another
    /// computation) the peer is told why, so it stops at once with
    /// `Error::PeerAborted` instead of waiting for a timeout.
    ///
    /// ```
    /// use brickyard::{bits, net, Computation, Error, Role, StoreLocation};
    /// let dir = tempfile::tempdir().unwrap();
    /// let loc = StoreLocation::new(dir.path().join("none")).with_key(dir.path().join("k"));
    /// let c = Computation::builtin("yao", "add8")?.with_executions(2)?;
    /// let (mut ch, mut peer) = net::memory_pair();
    /// let two = [vec![bits(1, 8)], vec![bits(2, 8)]];
    /// assert!(c.run_stored_batch(Role::Bob, &mut ch, &loc, &two).is_err()); // no such store
    /// // Alice, waiting for Bob, learns why he stopped.
    /// let alice = c.run_party_batch(Role::Alice, &mut peer, &two);
    /// assert!(matches!(alice, Err(Error::PeerAborted { .. })));
    /// # Ok::<(), brickyard::Error>(())
    /// ```
    pub fn run_stored_batch(
        &self,
        role: Role,
        ch: &mut Channel,
        store: &StoreLocation,
        inputs: &[PartyInputs],
    ) -> Result<PartyRun> {
        self.check_batch(inputs)?;
        for i in inputs {
            self.config.check_inputs(role, i)?;
        }
        let mut expected = Expected::new(self.protocol, role.store_role());
        expected.key_path = store.key.clone();
        expected.parameters = self.party(role)?.store_parameters();
        let opened = told(ch, Store::open(store.dir(), &expected))?;
        self.drive(role, ch, inputs, Some(opened))
    }

    fn drive(
        &self,
        role: Role,
        ch: &mut Channel,
        inputs: &[PartyInputs],
        store: Option<Store>,
    ) -> Result<PartyRun> {
        let phases = PhaseSet {
            preprocess: store.is_none(),
            online: true,
        };
        self.drive_with(role, ch, inputs, store, phases)
    }

    fn drive_with(
        &self,
        role: Role,
        ch: &mut Channel,
        inputs: &[PartyInputs],
        store: Option<Store>,
        phases: PhaseSet,
    ) -> Result<PartyRun> {
        let mut party = self.party(role)?;
        if let Some(s) = store {
            party.attach_store(s)?;
        }
        driver::run_party(
            self.protocol,
            party.as_mut(),
            role,
            ch,
            &self.config,
            inputs,
            phases,
        )
    }
}

/// Passes `r` through; on error the peer is first sent an abort frame with
/// its kind, as the driver does for errors during the phases.
fn told<T>(ch: &mut Channel, r: Result<T>) -> Result<T> {
    if let Err(e) = &r {
        driver::abort_peer(ch, e);
    }
    r
}
