//! Python bindings (`brickyard._brickyard`, re-exported by the `brickyard`
//! package). Built by maturin (`pip install ./python`); a plain `cargo
//! build` links libpython instead and still compiles, so the workspace's
//! `cargo test` is unaffected. Everything here converts Python values to
//! the facade crate's types and back; protocol work runs with the GIL
//! released.

use brickyard::{Computation, Error, OutputMode, PartyInputs, Role, StoreLocation};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyList, PyString};
use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

create_exception!(
    _brickyard,
    BrickyardError,
    PyException,
    "Base class of every Brickyard error; `.kind` names the Rust error kind."
);
create_exception!(
    _brickyard,
    IoError,
    BrickyardError,
    "The operating system reported an I/O failure (socket, file)."
);
create_exception!(
    _brickyard,
    Timeout,
    BrickyardError,
    "A read or connect did not complete within its deadline."
);
create_exception!(
    _brickyard,
    Malformed,
    BrickyardError,
    "The peer or a file sent bytes that do not parse."
);
create_exception!(
    _brickyard,
    CheatingDetected,
    BrickyardError,
    "A protocol check failed: the peer deviated. `.check` names the check."
);
create_exception!(
    _brickyard,
    Exhausted,
    BrickyardError,
    "Preprocessed material is used up."
);
create_exception!(
    _brickyard,
    ConfigError,
    BrickyardError,
    "Invalid configuration, inputs or insecure parameters."
);
create_exception!(
    _brickyard,
    StorageError,
    BrickyardError,
    "The preprocessing store is inconsistent, corrupted or tampered with."
);
create_exception!(
    _brickyard,
    PeerAborted,
    BrickyardError,
    "The peer stopped and said why: `.peer_kind` is the kind of the peer's \
     error (e.g. `cheating` if it caught this party cheating), `.reason` its \
     short reason."
);
create_exception!(
    _brickyard,
    Disconnected,
    BrickyardError,
    "The peer closed the connection before the protocol finished."
);

/// A Rust error as the Python exception of its kind, with `.kind` (the
/// Rust kind's name), `.check` (the failed check of a detected cheat, else
/// None), and for a peer's abort `.peer_kind` and `.reason`.
fn to_py(py: Python<'_>, e: Error) -> PyErr {
    let msg = e.to_string();
    let kind = e.kind().name();
    let mut check = None;
    let mut peer = None;
    let err = match &e {
        Error::Io(_) => IoError::new_err(msg),
        Error::Timeout(_) => Timeout::new_err(msg),
        Error::Malformed(_) => Malformed::new_err(msg),
        Error::Cheating { check: c } => {
            check = Some(*c);
            CheatingDetected::new_err(msg)
        }
        Error::Exhausted(_) => Exhausted::new_err(msg),
        Error::Config(_) => ConfigError::new_err(msg),
        Error::Storage(_) => StorageError::new_err(msg),
        Error::Disconnected(_) => Disconnected::new_err(msg),
        Error::PeerAborted { kind, reason } => {
            peer = Some((kind.name(), reason.clone()));
            PeerAborted::new_err(msg)
        }
        #[allow(unreachable_patterns)]
        _ => BrickyardError::new_err(msg),
    };
    let v = err.value(py);
    // Setting an attribute on a fresh exception instance cannot fail in
    // practice; if it did, the exception is still raised without it.
    let _ = v.setattr("kind", kind);
    let _ = v.setattr("check", check);
    if let Some((k, r)) = peer {
        let _ = v.setattr("peer_kind", k);
        let _ = v.setattr("reason", r);
    }
    err
}

fn config_err(msg: impl std::fmt::Display) -> PyErr {
    let err = ConfigError::new_err(msg.to_string());
    Python::attach(|py| {
        let _ = err.value(py).setattr("kind", "config");
        let _ = err.value(py).setattr("check", None::<&str>);
    });
    err
}

/// A Boolean circuit with named input and output groups.
#[pyclass(name = "Circuit", module = "brickyard", frozen)]
struct PyCircuit {
    inner: Arc<brickyard::Circuit>,
    name: String,
}

impl PyCircuit {
    /// One error mapping for every constructor, so a bad spec or file
    /// raises the same typed exception whichever way it was named.
    fn wrap(
        py: Python<'_>,
        c: brickyard::Result<brickyard::Circuit>,
        name: String,
    ) -> PyResult<Self> {
        Ok(PyCircuit {
            inner: Arc::new(c.map_err(|e| to_py(py, e))?),
            name,
        })
    }
}

#[pymethods]
impl PyCircuit {
    /// A standard circuit: `aes128`, `sha256`, `add32`, `add8`, `levenshtein:30`, …
    #[staticmethod]
    fn builtin(py: Python<'_>, name: &str) -> PyResult<Self> {
        Self::wrap(
            py,
            brickyard::circuit::builtin(name),
            format!("builtin:{name}"),
        )
    }

    /// A Bristol (Fashion or old-format) file.
    #[staticmethod]
    fn load(py: Python<'_>, path: &str) -> PyResult<Self> {
        Self::wrap(py, brickyard::circuit::load(path), path.to_string())
    }

    /// Bristol text held in a string.
    #[staticmethod]
    fn parse(py: Python<'_>, text: &str) -> PyResult<Self> {
        Self::wrap(py, brickyard::circuit::parse(text), "custom".to_string())
    }

    /// `builtin:NAME` or a file path, as on the command line.
    #[staticmethod]
    fn resolve(py: Python<'_>, spec: &str) -> PyResult<Self> {
        Self::wrap(py, brickyard::circuit::resolve(spec), spec.to_string())
    }

    /// Input groups as (name, width) pairs.
    #[getter]
    fn inputs(&self) -> Vec<(String, usize)> {
        self.inner
            .inputs
            .iter()
            .map(|g| (g.name.clone(), g.width()))
            .collect()
    }

    /// Output groups as (name, width) pairs.
    #[getter]
    fn outputs(&self) -> Vec<(String, usize)> {
        self.inner
            .outputs
            .iter()
            .map(|g| (g.name.clone(), g.width()))
            .collect()
    }

    /// Number of AND gates.
    #[getter]
    fn and_count(&self) -> usize {
        self.inner.and_count()
    }

    /// Evaluates the circuit in the clear (no protocol): one value per
    /// input group, in group order; returns one value per output group.
    #[pyo3(signature = (inputs, format = "int"))]
    fn eval<'py>(
        &self,
        py: Python<'py>,
        inputs: &Bound<'py, PyAny>,
        format: &str,
    ) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let widths: Vec<usize> = self.inner.inputs.iter().map(|g| g.width()).collect();
        let vals = group_values(inputs, &widths)?;
        let out = self.inner.eval(&vals).map_err(config_err)?;
        out.iter().map(|o| output_value(py, o, format)).collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "Circuit({:?}, inputs={:?}, outputs={:?}, and_count={})",
            self.name,
            self.inputs(),
            self.outputs(),
            self.and_count()
        )
    }
}

/// One value for a group of `width` wires: an int (bit i = wire i), bytes
/// (big-endian, so `bytes.fromhex(h)` is the CLI's `0x` + h), a string in
/// the CLI's syntax (`0x…`, decimal, `b…`), or a list of bits (wire k =
/// element k).
fn value_bits(v: &Bound<'_, PyAny>, width: usize) -> PyResult<Vec<bool>> {
    if let Ok(b) = v.cast::<PyBytes>() {
        let bytes = b.as_bytes();
        if bytes.len() != width.div_ceil(8) {
            return Err(config_err(format!(
                "a {width}-bit group takes {} bytes, got {}",
                width.div_ceil(8),
                bytes.len()
            )));
        }
        let bits: Vec<bool> = (0..bytes.len() * 8)
            .map(|i| (bytes[bytes.len() - 1 - i / 8] >> (i % 8)) & 1 == 1)
            .collect();
        if bits[width..].iter().any(|&x| x) {
            return Err(config_err(format!("value does not fit in {width} bits")));
        }
        return Ok(bits[..width].to_vec());
    }
    if let Ok(s) = v.cast::<PyString>() {
        return brickyard::circuit::parse_value(&s.to_cow()?, width).map_err(config_err);
    }
    if v.cast::<PyList>().is_ok() || v.is_instance_of::<pyo3::types::PyTuple>() {
        let bits: Vec<bool> = v
            .try_iter()?
            .map(|x| {
                let x = x?;
                if let Ok(b) = x.cast::<PyBool>() {
                    return Ok(b.is_true());
                }
                match x.extract::<u8>() {
                    Ok(0) => Ok(false),
                    Ok(1) => Ok(true),
                    _ => Err(config_err("a bit list holds only 0, 1, True or False")),
                }
            })
            .collect::<PyResult<_>>()?;
        if bits.len() != width {
            return Err(config_err(format!(
                "a {width}-bit group takes {width} bits, got a list of {}",
                bits.len()
            )));
        }
        return Ok(bits);
    }
    if v.is_instance_of::<pyo3::types::PyInt>() {
        if v.lt(0)? {
            return Err(config_err("values are unsigned"));
        }
        let len: usize = v.call_method0("bit_length")?.extract()?;
        if len > width {
            return Err(config_err(format!(
                "value needs {len} bits, the group has {width}"
            )));
        }
        let nbytes = width.div_ceil(8).max(1);
        let raw = v.call_method1("to_bytes", (nbytes, "little"))?;
        let raw = raw.cast::<PyBytes>()?.as_bytes();
        return Ok((0..width)
            .map(|i| (raw[i / 8] >> (i % 8)) & 1 == 1)
            .collect());
    }
    Err(PyTypeError::new_err(
        "a value is an int, bytes, a str (0x…, decimal, b…) or a list of bits",
    ))
}

/// One value per group: a list/tuple of values, or a bare int/bytes/str
/// for a party with one group.
fn group_values(v: &Bound<'_, PyAny>, widths: &[usize]) -> PyResult<Vec<Vec<bool>>> {
    let is_seq = v.cast::<PyList>().is_ok() || v.is_instance_of::<pyo3::types::PyTuple>();
    if !is_seq {
        if widths.len() != 1 {
            return Err(config_err(format!(
                "this party owns {} input groups: pass a list with one value each",
                widths.len()
            )));
        }
        return Ok(vec![value_bits(v, widths[0])?]);
    }
    let items: Vec<Bound<'_, PyAny>> = v.try_iter()?.collect::<PyResult<_>>()?;
    if items.len() != widths.len() {
        return Err(config_err(format!(
            "this party owns {} input group(s) but {} value(s) were given (a bit list for one group is written [[0, 1, …]])",
            widths.len(),
            items.len()
        )));
    }
    items
        .iter()
        .zip(widths)
        .map(|(x, &w)| value_bits(x, w))
        .collect()
}

fn output_value<'py>(py: Python<'py>, bits: &[bool], format: &str) -> PyResult<Bound<'py, PyAny>> {
    let bytes_le = || -> Vec<u8> {
        let mut b = vec![0u8; bits.len().div_ceil(8)];
        for (i, &x) in bits.iter().enumerate() {
            b[i / 8] |= u8::from(x) << (i % 8);
        }
        b
    };
    match format {
        "int" => {
            let int = py.get_type::<pyo3::types::PyInt>();
            int.call_method1("from_bytes", (PyBytes::new(py, &bytes_le()), "little"))
        }
        "bytes" => {
            let mut b = bytes_le();
            b.reverse();
            Ok(PyBytes::new(py, &b).into_any())
        }
        "bits" => Ok(PyList::new(py, bits)?.into_any()),
        "hex" => Ok(PyString::new(
            py,
            &brickyard::circuit::format_value(bits, brickyard::circuit::ValueFormat::Hex),
        )
        .into_any()),
        other => Err(PyValueError::new_err(format!(
            "unknown output format `{other}` (int, bytes, bits or hex)"
        ))),
    }
}

fn outputs_py<'py>(
    py: Python<'py>,
    outs: &[Vec<Vec<bool>>],
    format: &str,
) -> PyResult<Bound<'py, PyList>> {
    let per_exec = outs
        .iter()
        .map(|o| {
            let groups = o
                .iter()
                .map(|g| output_value(py, g, format))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, groups)
        })
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, per_exec)
}

fn json_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (v.to_string(),))
}

/// The circuit argument: a `Circuit` or a spec string.
fn circuit_of(py: Python<'_>, c: &Bound<'_, PyAny>) -> PyResult<(Arc<brickyard::Circuit>, String)> {
    if let Ok(pc) = c.cast::<PyCircuit>() {
        let pc = pc.get();
        return Ok((pc.inner.clone(), pc.name.clone()));
    }
    let spec: String = c.extract().map_err(|_| {
        PyTypeError::new_err("circuit is a brickyard.Circuit or a str (builtin:NAME or a path)")
    })?;
    let circ = brickyard::circuit::resolve(&spec).map_err(|e| to_py(py, e))?;
    Ok((Arc::new(circ), spec))
}

/// Builds the computation from the keyword arguments every entry point shares.
#[allow(clippy::too_many_arguments)]
fn computation(
    py: Python<'_>,
    protocol: &str,
    circuit: &Bound<'_, PyAny>,
    executions: usize,
    output: &str,
    alice_groups: Option<Vec<usize>>,
    bob_groups: Option<Vec<usize>>,
    cheat: Option<&str>,
) -> PyResult<Computation> {
    let (circ, name) = circuit_of(py, circuit)?;
    let n = circ.inputs.len();
    let c = Computation::new(protocol, (*circ).clone())
        .map_err(|e| to_py(py, e))?
        .named(&name);
    let output: OutputMode = output.parse().map_err(config_err)?;
    let c = c.with_output(output);
    let c = match (alice_groups, bob_groups) {
        (None, None) => c,
        (Some(a), None) => {
            let b = (0..n).filter(|g| !a.contains(g)).collect();
            c.with_groups(a, b).map_err(|e| to_py(py, e))?
        }
        (None, Some(b)) => {
            let a = (0..n).filter(|g| !b.contains(g)).collect();
            c.with_groups(a, b).map_err(|e| to_py(py, e))?
        }
        (Some(a), Some(b)) => c.with_groups(a, b).map_err(|e| to_py(py, e))?,
    };
    let c = match cheat {
        Some(spec) => c.with_cheat(spec).map_err(|e| to_py(py, e))?,
        None => c,
    };
    c.with_executions(executions).map_err(|e| to_py(py, e))
}

fn inputs_for(c: &Computation, role: Role, v: &Bound<'_, PyAny>) -> PyResult<PartyInputs> {
    let cfg = c.config();
    let widths: Vec<usize> = cfg
        .groups_of(role)
        .iter()
        .map(|&g| cfg.circuit.inputs[g].width())
        .collect();
    group_values(v, &widths)
}

/// A party's `per_execution=True` inputs: a list with one entry per
/// execution, each entry what the party would pass for a single run.
fn per_execution_list<'py>(v: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if v.cast::<PyList>().is_err() && !v.is_instance_of::<pyo3::types::PyTuple>() {
        return Err(config_err(
            "with per_execution=True a party's inputs are a list with one entry per execution",
        ));
    }
    v.try_iter()?.collect()
}

/// The execution count: `executions=` if given, else the length of the
/// per-execution lists (which must then all agree with it), else 1.
fn execution_count(executions: Option<usize>, lists: &[&[Bound<'_, PyAny>]]) -> PyResult<usize> {
    let Some(first) = lists.first() else {
        return Ok(executions.unwrap_or(1));
    };
    let n = executions.unwrap_or(first.len());
    for l in lists {
        if l.len() != n {
            return Err(config_err(format!(
                "{n} execution(s) but a per-execution input list has {} entries",
                l.len()
            )));
        }
    }
    Ok(n)
}

/// Inputs for every execution: each entry of a per-execution list, or the
/// one value repeated.
fn batch_for(
    c: &Computation,
    role: Role,
    single: &Bound<'_, PyAny>,
    each: Option<&[Bound<'_, PyAny>]>,
) -> PyResult<Vec<PartyInputs>> {
    match each {
        Some(list) => list.iter().map(|v| inputs_for(c, role, v)).collect(),
        None => Ok(vec![inputs_for(c, role, single)?; c.config().executions]),
    }
}

/// Where a party meets its peer on `listen=`: an address to bind now, or a
/// [`PyListener`] bound earlier (so its port was known in advance).
enum Listen {
    Addr(String),
    Bound(Arc<TcpListener>),
}

fn listen_arg(v: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Listen>> {
    let Some(v) = v else { return Ok(None) };
    if let Ok(l) = v.cast::<PyListener>() {
        return Ok(Some(Listen::Bound(l.get().inner.clone())));
    }
    let addr: String = v.extract().map_err(|_| {
        PyTypeError::new_err("listen= is a brickyard.Listener or a str (HOST:PORT)")
    })?;
    Ok(Some(Listen::Addr(addr)))
}

/// A TCP port bound now, for `run_party(..., listen=listener)` and
/// `preprocess(..., listen=listener)`. Bind port 0 (the default) and the
/// system picks a free port, which `.port` reports before the peer is
/// started, so no fixed ports are needed. One listener serves any number
/// of runs in turn (one peer connection each), e.g. a `preprocess` and the
/// later runs from its store.
#[pyclass(name = "Listener", module = "brickyard", frozen)]
struct PyListener {
    inner: Arc<TcpListener>,
    addr: std::net::SocketAddr,
}

#[pymethods]
impl PyListener {
    #[new]
    #[pyo3(signature = (addr = "127.0.0.1:0"))]
    fn new(py: Python<'_>, addr: &str) -> PyResult<Self> {
        let l = brickyard::net::listen(addr).map_err(|e| to_py(py, e))?;
        let bound = l.local_addr().map_err(|e| to_py(py, Error::Io(e)))?;
        Ok(PyListener {
            inner: Arc::new(l),
            addr: bound,
        })
    }

    /// The bound port (the system's choice when asked for port 0).
    #[getter]
    fn port(&self) -> u16 {
        self.addr.port()
    }

    /// The bound `HOST:PORT`, e.g. for the peer's `connect=` (a listener
    /// on 0.0.0.0 reports 0.0.0.0: connect to one of the host's addresses).
    #[getter]
    fn address(&self) -> String {
        self.addr.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Listener({:?})", self.addr.to_string())
    }
}

/// Every protocol of this build: a list of dicts with `name`, `security`
/// and `summary`.
#[pyfunction]
fn protocols(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    brickyard::protocols()
        .iter()
        .map(|p| {
            let d = PyDict::new(py);
            d.set_item("name", p.name)?;
            d.set_item("security", p.security)?;
            d.set_item("summary", p.summary)?;
            Ok(d)
        })
        .collect()
}

/// The builtin circuits as (name, description) pairs.
#[pyfunction]
fn builtin_circuits() -> Vec<(String, String)> {
    brickyard::circuit::builtin_names()
}

/// Runs both parties in this process and returns
/// `{"outputs": [[group values] per execution] (Bob's), "alice_outputs": … or None,
/// "report": {the per-phase report}}`.
///
/// `alice` and `bob` are each party's value(s) for one execution, reused
/// for all `executions`; with `per_execution=True` they are lists with one
/// entry per execution instead (`executions` then defaults to their length),
/// and output i belongs to entry i. `cheat="ROLE:NAME"` makes one party
/// deviate (builds with the `adversary` feature only).
#[pyfunction]
#[pyo3(signature = (protocol, circuit, alice, bob, *, executions = None, per_execution = false,
    output = "bob", alice_groups = None, bob_groups = None, net = "memory", format = "int",
    cheat = None))]
#[allow(clippy::too_many_arguments)]
fn run_local<'py>(
    py: Python<'py>,
    protocol: &str,
    circuit: &Bound<'py, PyAny>,
    alice: &Bound<'py, PyAny>,
    bob: &Bound<'py, PyAny>,
    executions: Option<usize>,
    per_execution: bool,
    output: &str,
    alice_groups: Option<Vec<usize>>,
    bob_groups: Option<Vec<usize>>,
    net: &str,
    format: &str,
    cheat: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let each = if per_execution {
        Some((per_execution_list(alice)?, per_execution_list(bob)?))
    } else {
        None
    };
    let lists: Vec<&[Bound<'py, PyAny>]> = match &each {
        Some((a, b)) => vec![a, b],
        None => vec![],
    };
    let executions = execution_count(executions, &lists)?;
    let c = computation(
        py,
        protocol,
        circuit,
        executions,
        output,
        alice_groups,
        bob_groups,
        cheat,
    )?;
    let a = batch_for(&c, Role::Alice, alice, each.as_ref().map(|e| &e.0[..]))?;
    let b = batch_for(&c, Role::Bob, bob, each.as_ref().map(|e| &e.1[..]))?;
    if net != "memory" && net != "loopback" {
        return Err(config_err(format!(
            "net is `memory` or `loopback`, not `{net}`"
        )));
    }
    let loopback = net == "loopback";
    let run = py
        .detach(move || {
            let net = if loopback {
                brickyard::net::loopback()?
            } else {
                brickyard::net::memory("memory")
            };
            c.run_local_batch(a, b, net)
        })
        .map_err(|e| to_py(py, e))?;
    let d = PyDict::new(py);
    d.set_item("outputs", outputs_py(py, &run.bob_outputs, format)?)?;
    match &run.alice_outputs {
        Some(o) => d.set_item("alice_outputs", outputs_py(py, o, format)?)?,
        None => d.set_item("alice_outputs", py.None())?,
    }
    let report = serde_json::to_value(&run.report).map_err(config_err)?;
    d.set_item("report", json_py(py, &report)?)?;
    Ok(d)
}

fn open_channel(
    role: Role,
    listen: Option<Listen>,
    connect: Option<&str>,
    timeout: f64,
) -> brickyard::Result<brickyard::Channel> {
    if !(timeout.is_finite() && timeout > 0.0) {
        return Err(Error::config(
            "timeout must be a positive number of seconds",
        ));
    }
    let t = Duration::from_secs_f64(timeout);
    let opts = brickyard::net::NetOptions {
        read_timeout: t,
        connect_timeout: t,
        accept_timeout: t,
        ..Default::default()
    };
    match (listen, connect) {
        (Some(Listen::Addr(addr)), None) => brickyard::net::accept_on(&addr, &opts),
        (Some(Listen::Bound(l)), None) => brickyard::net::accept(&l, &opts),
        (None, Some(addr)) => brickyard::net::connect(addr, &opts),
        _ => Err(Error::config(format!(
            "{}: give exactly one of listen= or connect=",
            role.name()
        ))),
    }
}

fn party_result<'py>(
    py: Python<'py>,
    role: Role,
    run: &brickyard::PartyRun,
    format: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let outs: Vec<Vec<Vec<bool>>> = run.outputs.iter().flatten().cloned().collect();
    let phases: Vec<serde_json::Value> = run
        .phases
        .iter()
        .zip(brickyard::PHASE_NAMES)
        .map(|(p, n)| {
            serde_json::json!({
                "name": n, "wall_ms": p.wall_ms, "bytes_sent": p.traffic.bytes_sent,
                "bytes_received": p.traffic.bytes_received, "flights_sent": p.traffic.rounds,
            })
        })
        .collect();
    let mut ms = run.execution_ms.clone();
    ms.sort_by(f64::total_cmp);
    let latency = if ms.is_empty() { 0.0 } else { ms[ms.len() / 2] };
    let d = PyDict::new(py);
    d.set_item("role", role.name())?;
    d.set_item("outputs", outputs_py(py, &outs, format)?)?;
    d.set_item("phases", json_py(py, &serde_json::Value::Array(phases))?)?;
    d.set_item("execution_ms", run.execution_ms.clone())?;
    d.set_item("latency_ms", latency)?;
    Ok(d)
}

fn role_of(role: &str) -> PyResult<Role> {
    role.parse().map_err(config_err)
}

/// Runs one party over TCP: `listen=` a `brickyard.Listener` (its `.port`
/// is known before the peer starts) or `"HOST:PORT"`, or `connect="HOST:PORT"`;
/// with `store=` it runs from preprocessing made by `preprocess`. `inputs`
/// is this party's value(s) for one execution, reused for all
/// `executions`; with `per_execution=True` it is a list with one entry per
/// execution (`executions` then defaults to its length). Returns
/// `{"role", "outputs": [[group values] per execution] (empty if this party
/// learns none), "phases": [this side's time and traffic per phase],
/// "execution_ms", "latency_ms"}`.
#[pyfunction]
#[pyo3(signature = (protocol, circuit, role, inputs, *, listen = None, connect = None,
    timeout = 60.0, store = None, key = None, executions = None, per_execution = false,
    output = "bob", alice_groups = None, bob_groups = None, format = "int", cheat = None))]
#[allow(clippy::too_many_arguments)]
fn run_party<'py>(
    py: Python<'py>,
    protocol: &str,
    circuit: &Bound<'py, PyAny>,
    role: &str,
    inputs: &Bound<'py, PyAny>,
    listen: Option<&Bound<'py, PyAny>>,
    connect: Option<String>,
    timeout: f64,
    store: Option<std::path::PathBuf>,
    key: Option<std::path::PathBuf>,
    executions: Option<usize>,
    per_execution: bool,
    output: &str,
    alice_groups: Option<Vec<usize>>,
    bob_groups: Option<Vec<usize>>,
    format: &str,
    cheat: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let role = role_of(role)?;
    let listen = listen_arg(listen)?;
    let each = if per_execution {
        Some(per_execution_list(inputs)?)
    } else {
        None
    };
    let lists: Vec<&[Bound<'py, PyAny>]> = each.as_deref().into_iter().collect();
    let executions = execution_count(executions, &lists)?;
    let c = computation(
        py,
        protocol,
        circuit,
        executions,
        output,
        alice_groups,
        bob_groups,
        cheat,
    )?;
    let vals = batch_for(&c, role, inputs, each.as_deref())?;
    if key.is_some() && store.is_none() {
        return Err(config_err("key= needs store="));
    }
    let run = py
        .detach(move || {
            let mut ch = open_channel(role, listen, connect.as_deref(), timeout)?;
            match store {
                Some(dir) => {
                    let mut loc = StoreLocation::new(dir);
                    loc.key = key;
                    c.run_stored_batch(role, &mut ch, &loc, &vals)
                }
                None => c.run_party_batch(role, &mut ch, &vals),
            }
        })
        .map_err(|e| to_py(py, e))?;
    party_result(py, role, &run, format)
}

/// Runs one party's setup and preprocessing over TCP into a new store
/// directory `store` (the key file goes to `key`, or the default place),
/// for `executions` later executions with `run_party(..., store=...)`.
/// `listen=` takes a `brickyard.Listener` or `"HOST:PORT"`, as in
/// `run_party`. Returns `{"role", "phases", "store": {store info}}`.
#[pyfunction]
#[pyo3(signature = (protocol, circuit, role, store, *, listen = None, connect = None,
    timeout = 60.0, key = None, executions = 1, output = "bob",
    alice_groups = None, bob_groups = None))]
#[allow(clippy::too_many_arguments)]
fn preprocess<'py>(
    py: Python<'py>,
    protocol: &str,
    circuit: &Bound<'py, PyAny>,
    role: &str,
    store: std::path::PathBuf,
    listen: Option<&Bound<'py, PyAny>>,
    connect: Option<String>,
    timeout: f64,
    key: Option<std::path::PathBuf>,
    executions: usize,
    output: &str,
    alice_groups: Option<Vec<usize>>,
    bob_groups: Option<Vec<usize>>,
) -> PyResult<Bound<'py, PyDict>> {
    let role = role_of(role)?;
    let listen = listen_arg(listen)?;
    let c = computation(
        py,
        protocol,
        circuit,
        executions,
        output,
        alice_groups,
        bob_groups,
        None,
    )?;
    let mut loc = StoreLocation::new(store);
    loc.key = key;
    let (run, info) = py
        .detach(move || {
            let mut ch = open_channel(role, listen, connect.as_deref(), timeout)?;
            let run = c.preprocess(role, &mut ch, &loc)?;
            Ok::<_, Error>((run, loc.info()?))
        })
        .map_err(|e| to_py(py, e))?;
    let d = party_result(py, role, &run, "int")?;
    d.del_item("outputs")?;
    let info = serde_json::to_value(&info).map_err(config_err)?;
    d.set_item("store", json_py(py, &info)?)?;
    Ok(d)
}

#[pymodule]
fn _brickyard(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<PyCircuit>()?;
    m.add_class::<PyListener>()?;
    m.add_function(wrap_pyfunction!(protocols, m)?)?;
    m.add_function(wrap_pyfunction!(builtin_circuits, m)?)?;
    m.add_function(wrap_pyfunction!(run_local, m)?)?;
    m.add_function(wrap_pyfunction!(run_party, m)?)?;
    m.add_function(wrap_pyfunction!(preprocess, m)?)?;
    // Whether `cheat=` works (the `adversary` feature, for tests and demos).
    m.add("ADVERSARY", cfg!(feature = "adversary"))?;
    m.add("BrickyardError", py.get_type::<BrickyardError>())?;
    m.add("IoError", py.get_type::<IoError>())?;
    m.add("Timeout", py.get_type::<Timeout>())?;
    m.add("Malformed", py.get_type::<Malformed>())?;
    m.add("CheatingDetected", py.get_type::<CheatingDetected>())?;
    m.add("Exhausted", py.get_type::<Exhausted>())?;
    m.add("ConfigError", py.get_type::<ConfigError>())?;
    m.add("StorageError", py.get_type::<StorageError>())?;
    m.add("Disconnected", py.get_type::<Disconnected>())?;
    m.add("PeerAborted", py.get_type::<PeerAborted>())?;
    Ok(())
}
