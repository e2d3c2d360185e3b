"""One party per process or thread over loopback TCP, and the store."""

import json
import subprocess
import sys
import threading

import pytest

import brickyard

PARTY = r"""
import json, sys, brickyard
role, addr, value = sys.argv[1], sys.argv[2], int(sys.argv[3])
kw = {"listen": addr} if role == "alice" else {"connect": addr}
r = brickyard.run_party("yao", "builtin:add32", role, value, output="both", timeout=30, **kw)
print(json.dumps({"outputs": r["outputs"], "phases": [p["name"] for p in r["phases"]],
                  "sent": sum(p["bytes_sent"] for p in r["phases"])}))
"""


def test_two_processes_over_tcp(free_addr):
    procs = [
        subprocess.Popen([sys.executable, "-c", PARTY, role, free_addr, value],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for role, value in [("alice", "40"), ("bob", "2")]
    ]
    results = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        results.append(json.loads(out))
    for r in results:
        assert r["outputs"] == [[42]]
        assert r["phases"] == ["setup", "independent", "dependent", "online"]
        assert r["sent"] > 0


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


def test_threads_release_the_gil(free_addr):
    a, b = both(
        lambda: brickyard.run_party("tinytable", "builtin:add8", "alice", 100, listen=free_addr, timeout=30),
        lambda: brickyard.run_party("tinytable", "builtin:add8", "bob", 27, connect=free_addr, timeout=30),
    )
    assert a["outputs"] == [] and b["outputs"] == [[127]]


def test_mismatched_runs_fail_with_config_error(free_addr):
    with pytest.raises(brickyard.ConfigError):
        both(
            lambda: brickyard.run_party("yao", "builtin:add8", "alice", 1, listen=free_addr, timeout=30),
            lambda: brickyard.run_party("yao", "builtin:add8", "bob", 1, connect=free_addr, timeout=30,
                                        output="both"),
        )


def test_no_peer_is_a_timeout_or_io_error(free_addr):
    with pytest.raises((brickyard.Timeout, brickyard.IoError, brickyard.Disconnected)) as e:
        brickyard.run_party("yao", "builtin:add8", "bob", 1, connect=free_addr, timeout=1)
    assert e.value.kind in ("timeout", "io", "disconnected")


def test_preprocess_then_run_from_store(tmp_path, free_addr):
    stores = {r: (str(tmp_path / f"{r}.store"), str(tmp_path / f"{r}.key")) for r in ("alice", "bob")}

    def pre(role, **kw):
        s, k = stores[role]
        return lambda: brickyard.preprocess("yao", "builtin:add8", role, s, key=k, executions=2, timeout=30, **kw)

    a, b = both(pre("alice", listen=free_addr), pre("bob", connect=free_addr))
    assert b["store"]["protocol"] == "yao" and b["store"]["role"] == "bob"
    assert sum(p["bytes_received"] for p in b["phases"][:3]) > 0
    assert b["phases"][3]["wall_ms"] == 0.0  # no online execution yet

    def run(role, value, **kw):
        s, k = stores[role]
        return lambda: brickyard.run_party("yao", "builtin:add8", role, value, store=s, key=k, timeout=30, **kw)

    for x, y in [(1, 2), (20, 22)]:
        a, b = both(run("alice", x, listen=free_addr), run("bob", y, connect=free_addr))
        assert b["outputs"] == [[x + y]]
        assert b["phases"][1]["wall_ms"] == 0.0  # nothing preprocessed in this run
    # The material for two executions is used up.
    with pytest.raises(brickyard.BrickyardError):
        both(run("alice", 0, listen=free_addr), run("bob", 0, connect=free_addr))
