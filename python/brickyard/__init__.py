"""Secure two-party computation (2PC) in the offline/online setting.

Alice and Bob compute f(x, y) on private inputs and learn only the output.
Run both parties in one process with :func:`run_local`, or one party per
process (or machine) with :func:`run_party`; :func:`preprocess` does the
expensive part ahead of time into a store that ``run_party(store=...)``
consumes later. A :class:`Listener` binds a port before a party runs
(port 0 by default: the system picks a free one, read it from
``.port``), so the peer can be told where to connect.

Values: an ``int`` (bit i = wire i), ``bytes`` (big-endian:
``bytes.fromhex(h)`` is the CLI's ``0x`` + h), a ``str`` in the CLI's
syntax (``0x…``, decimal, ``b…``), or a list of bits (wire k = element
k). A party passes one value per input group it owns, as a list; a party
with one group may pass the bare value (but a bit list for one group is
``[[0, 1, …]]``). With ``executions=N`` the same values are used in
every execution; with ``per_execution=True`` each party passes a list
with one entry (its values as above) per execution, and ``executions``
defaults to that length. Outputs come back per execution, in order
(output i is entry i's), each a list with one value per output group,
as ``format="int"`` (default), ``"bytes"``, ``"bits"`` or ``"hex"``.

Errors are :class:`BrickyardError` subclasses named after the Rust error
kind (``.kind``): :class:`CheatingDetected` (``.check`` names the failed
check), :class:`ConfigError`, :class:`Malformed`, :class:`Timeout`,
:class:`Disconnected`, :class:`Exhausted`, :class:`StorageError`,
:class:`IoError`, and :class:`PeerAborted` when the peer stopped and said
why (``.peer_kind`` is its error's kind, e.g. ``"cheating"`` for a party
whose cheat the peer caught; ``.reason`` its short reason). The GIL is
released while a protocol runs.
"""

from ._brickyard import (
    ADVERSARY,
    BrickyardError,
    CheatingDetected,
    Circuit,
    ConfigError,
    Disconnected,
    Exhausted,
    IoError,
    Listener,
    Malformed,
    PeerAborted,
    StorageError,
    Timeout,
    builtin_circuits,
    preprocess,
    protocols,
    run_local,
    run_party,
)

__all__ = [
    "ADVERSARY",
    "BrickyardError",
    "CheatingDetected",
    "Circuit",
    "ConfigError",
    "Disconnected",
    "Exhausted",
    "IoError",
    "Listener",
    "Malformed",
    "PeerAborted",
    "StorageError",
    "Timeout",
    "builtin_circuits",
    "preprocess",
    "protocols",
    "run_local",
    "run_party",
]
