"""One party per process or thread over loopback TCP, and the store."""

import json
import os
import shutil
import socket
import subprocess
import sys
import threading

import pytest

import brickyard

PARTY = r"""
import json, sys, brickyard
args = json.loads(sys.argv[1])
role = args.pop("role")
if args.pop("listen", False):
    listener = brickyard.Listener("127.0.0.1:0")
    print(listener.port, flush=True)  # the test starts the peer only now
    args["listen"] = listener
try:
    r = brickyard.run_party(args.pop("protocol"), args.pop("circuit"), role, args.pop("inputs"),
                            timeout=30, **args)
    print(json.dumps({"outputs": r["outputs"], "phases": [p["name"] for p in r["phases"]],
                      "sent": sum(p["bytes_sent"] for p in r["phases"])}))
except brickyard.BrickyardError as e:
    print(json.dumps({"error": type(e).__name__, "kind": e.kind, "check": e.check,
                      "peer_kind": getattr(e, "peer_kind", None)}))
"""


def two_processes(alice, bob):
    """Alice in one process listening on a port the system picks (port 0),
    Bob in another connecting to it once Alice has printed the port."""
    a = subprocess.Popen([sys.executable, "-c", PARTY, json.dumps({"role": "alice", "listen": True, **alice})],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    port = int(a.stdout.readline())
    assert port != 0
    b = subprocess.Popen([sys.executable, "-c", PARTY,
                          json.dumps({"role": "bob", "connect": f"127.0.0.1:{port}", **bob})],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    results = []
    for p in (a, b):
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        results.append(json.loads(out))
    return results


def test_two_processes_over_tcp_on_a_system_chosen_port():
    common = {"protocol": "yao", "circuit": "builtin:add32", "output": "both", "per_execution": True}
    results = two_processes({"inputs": [40, 1], **common}, {"inputs": [2, 2**32 - 1], **common})
    for r in results:
        assert r["outputs"] == [[42], [0]]
        assert r["phases"] == ["setup", "independent", "dependent", "online"]
        assert r["sent"] > 0


def test_listener_reports_the_bound_port():
    listener = brickyard.Listener()
    assert listener.port != 0
    assert listener.address == f"127.0.0.1:{listener.port}"
    with pytest.raises(brickyard.IoError):  # the port is taken now
        brickyard.Listener(listener.address)


def both(fn_alice, fn_bob):
    """Runs the two parties in two Python threads: this only finishes if
    the GIL is released while a party waits on the network."""
    box = {}

    def alice():
        try:
            box["alice"] = fn_alice()
        except Exception as e:  # re-raised below
            box["alice_err"] = e

    t = threading.Thread(target=alice)
    t.start()
    try:
        bob = fn_bob()
    finally:
        t.join(timeout=120)
    assert not t.is_alive()
    if "alice_err" in box:
        raise box["alice_err"]
    return box["alice"], bob


def test_threads_release_the_gil():
    listener = brickyard.Listener()
    a, b = both(
        lambda: brickyard.run_party("tinytable", "builtin:add8", "alice", 100, listen=listener, timeout=30),
        lambda: brickyard.run_party("tinytable", "builtin:add8", "bob", 27, connect=listener.address, timeout=30),
    )
    assert a["outputs"] == [] and b["outputs"] == [[127]]


def test_mismatched_runs_fail_with_config_error():
    listener = brickyard.Listener()
    with pytest.raises(brickyard.ConfigError):
        both(
            lambda: brickyard.run_party("yao", "builtin:add8", "alice", 1, listen=listener, timeout=30),
            lambda: brickyard.run_party("yao", "builtin:add8", "bob", 1, connect=listener.address, timeout=30,
                                        output="both"),
        )


def test_no_peer_is_a_timeout_or_io_error(free_addr):
    with pytest.raises((brickyard.Timeout, brickyard.IoError, brickyard.Disconnected)) as e:
        brickyard.run_party("yao", "builtin:add8", "bob", 1, connect=free_addr, timeout=1)
    assert e.value.kind in ("timeout", "io", "disconnected")


def test_no_peer_on_a_listener_is_a_timeout():
    with pytest.raises(brickyard.Timeout) as e:
        brickyard.run_party("yao", "builtin:add8", "alice", 1, listen=brickyard.Listener(), timeout=0.3)
    assert e.value.kind == "timeout" and isinstance(e.value, brickyard.BrickyardError)


def raw_peer(listener, payload):
    """A peer that connects, sends `payload` (not Brickyard frames) and closes."""
    def go():
        with socket.create_connection(("127.0.0.1", listener.port)) as s:
            s.sendall(payload)
    t = threading.Thread(target=go)
    t.start()
    return t


def test_a_peer_that_hangs_up_is_disconnected():
    listener = brickyard.Listener()
    t = raw_peer(listener, b"")
    with pytest.raises(brickyard.Disconnected) as e:
        brickyard.run_party("yao", "builtin:add8", "alice", 1, listen=listener, timeout=10)
    t.join()
    assert e.value.kind == "disconnected"


def test_garbage_from_the_peer_is_malformed():
    listener = brickyard.Listener()
    t = raw_peer(listener, b"\xff" * 64)
    with pytest.raises(brickyard.Malformed) as e:
        brickyard.run_party("yao", "builtin:add8", "alice", 1, listen=listener, timeout=10)
    t.join()
    assert e.value.kind == "malformed"


def preprocessed(tmp_path, executions, protocol="yao"):
    """Stores of both parties for `executions` executions of add8; returns
    a function making `run_party` calls from them on one listener."""
    stores = {r: (str(tmp_path / f"{r}.store"), str(tmp_path / f"{r}.key")) for r in ("alice", "bob")}
    listener = brickyard.Listener()

    def pre(role, **kw):
        s, k = stores[role]
        return lambda: brickyard.preprocess(protocol, "builtin:add8", role, s, key=k, executions=executions,
                                            timeout=30, **kw)

    a, b = both(pre("alice", listen=listener), pre("bob", connect=listener.address))
    assert b["store"]["protocol"] == protocol and b["store"]["role"] == "bob"
    assert sum(p["bytes_received"] for p in b["phases"][:3]) > 0
    assert b["phases"][3]["wall_ms"] == 0.0  # no online execution yet

    def run(role, value, **kw):
        s, k = stores[role]
        net = {"listen": listener} if role == "alice" else {"connect": listener.address}
        return lambda: brickyard.run_party(protocol, "builtin:add8", role, value, store=s, key=k, timeout=30,
                                           **net, **kw)

    return run, stores


def test_preprocess_then_run_from_store(tmp_path):
    run, _ = preprocessed(tmp_path, 3)
    for x, y in [(1, 2), (20, 22)]:
        a, b = both(run("alice", x), run("bob", y))
        assert b["outputs"] == [[x + y]]
        assert b["phases"][1]["wall_ms"] == 0.0  # nothing preprocessed in this run
    # The third execution, then the material for three is used up.
    a, b = both(run("alice", 5), run("bob", 6))
    assert b["outputs"] == [[11]]
    with pytest.raises(brickyard.Exhausted) as e:
        both(run("alice", 0), run("bob", 0))
    assert e.value.kind == "exhausted"


def test_jimu_from_a_store_and_a_second_batch(tmp_path):
    """JIMU's function-independent preprocessing in a store: two runs from
    it, a third refused, then a second preprocessing into the same stores
    adds a batch (its own Setup) that serves the next run."""
    run, stores = preprocessed(tmp_path, 2, "jimu")
    for x, y in [(1, 2), (200, 100)]:
        a, b = both(run("alice", x), run("bob", y))
        assert b["outputs"] == [[(x + y) % 256]]
    with pytest.raises(brickyard.Exhausted):
        both(run("alice", 0), run("bob", 0))
    listener = brickyard.Listener()

    def pre(role, **kw):
        s, k = stores[role]
        return lambda: brickyard.preprocess("jimu", "builtin:add8", role, s, key=k, timeout=60, **kw)

    a, b = both(pre("alice", listen=listener), pre("bob", connect=listener.address))
    kinds = {k["name"]: k for k in b["store"]["kinds"]}
    assert kinds["jimu-bucket"]["consumed"] == 14 and kinds["jimu-bucket-1"]["produced"] == 7
    a, b = both(run("alice", 255), run("bob", 3))
    assert b["outputs"] == [[2]]


def test_per_execution_inputs_from_a_store(tmp_path):
    run, _ = preprocessed(tmp_path, 3)
    a, b = both(run("alice", [1, 2, 3], per_execution=True), run("bob", [10, 20, 30], per_execution=True))
    assert b["outputs"] == [[11], [22], [33]]


def test_a_missing_store_aborts_the_peer(tmp_path):
    run, stores = preprocessed(tmp_path, 1)
    shutil.rmtree(stores["bob"][0])
    box = {}

    def bob():
        try:
            run("bob", 2)()
        except brickyard.BrickyardError as e:
            box["bob"] = e

    with pytest.raises(brickyard.PeerAborted) as e:
        both(run("alice", 1), bob)
    # Bob failed on his own store and told Alice why.
    assert isinstance(box["bob"], brickyard.StorageError) or isinstance(box["bob"], brickyard.IoError)
    assert e.value.kind == "peer-aborted"
    assert e.value.peer_kind == box["bob"].kind
    assert isinstance(e.value, brickyard.BrickyardError)


def test_a_tampered_store_is_a_storage_error(tmp_path):
    run, stores = preprocessed(tmp_path, 1)
    manifest = os.path.join(stores["bob"][0], "manifest.json")
    with open(manifest, "r+b") as f:
        data = bytearray(f.read())
        data[len(data) // 2] ^= 1
        f.seek(0)
        f.write(bytes(data))
    with pytest.raises(brickyard.StorageError) as e:
        run("bob", 2)()
    assert e.value.kind == "storage"


def test_a_peer_aborts_in_a_two_process_run(tmp_path):
    run, stores = preprocessed(tmp_path, 1)
    shutil.rmtree(stores["bob"][0])
    common = {"protocol": "yao", "circuit": "builtin:add8"}
    a, b = two_processes({"inputs": 1, "store": stores["alice"][0], "key": stores["alice"][1], **common},
                         {"inputs": 2, "store": stores["bob"][0], "key": stores["bob"][1], **common})
    assert b["error"] in ("StorageError", "IoError")
    assert a == {"error": "PeerAborted", "kind": "peer-aborted", "check": None, "peer_kind": b["kind"]}


@pytest.mark.skipif(not brickyard.ADVERSARY, reason="cheat= needs a build with the adversary feature")
def test_a_cheater_is_told_and_the_honest_party_names_the_check():
    # With output="both" Alice waits for her output, so she hears Bob's
    # abort (with Bob-only output she has sent her last message and ends).
    common = {"protocol": "tinytable", "circuit": "builtin:add8", "cheat": "alice:flip-table-bit",
              "output": "both"}
    a, b = two_processes({"inputs": 5, **common}, {"inputs": 7, **common})
    assert b == {"error": "CheatingDetected", "kind": "cheating", "check": "table-mac", "peer_kind": None}
    assert a == {"error": "PeerAborted", "kind": "peer-aborted", "check": None, "peer_kind": "cheating"}
