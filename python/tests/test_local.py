"""Both parties in one process: every protocol, every input form, every
output form, and errors as typed exceptions."""

import pytest

import brickyard

AES_KEY = bytes.fromhex("000102030405060708090a0b0c0d0e0f")
AES_PT = bytes.fromhex("00112233445566778899aabbccddeeff")
AES_CT = bytes.fromhex("69c4e0d86a7b0430d8cdb78070b4c55a")


def names():
    return [p["name"] for p in brickyard.protocols()]


def test_protocols_are_listed_with_their_security():
    got = {p["name"]: p for p in brickyard.protocols()}
    for name in ["yao", "compgc", "lego", "tinytable", "tinytable-sbox"]:
        assert name in got
        assert got[name]["security"]
    assert "addN" in [n for n, _ in brickyard.builtin_circuits()]


@pytest.mark.parametrize("protocol", ["yao", "compgc", "lego", "tinytable"])
def test_every_protocol_adds_and_matches_plain_evaluation(protocol):
    c = brickyard.Circuit.builtin("add8")
    # LEGO's online phase gives the output to Bob only (the paper's).
    output = "bob" if protocol == "lego" else "both"
    for x, y in [(200, 100), (0, 255)]:
        r = brickyard.run_local(protocol, c, x, y, output=output)
        assert r["outputs"] == [[(x + y) % 256]]
        assert r["outputs"][0] == c.eval([x, y])
        if output == "both":
            assert r["alice_outputs"] == r["outputs"]
        else:
            assert r["alice_outputs"] is None


def test_tinytable_sbox_computes_aes():
    r = brickyard.run_local("tinytable-sbox", "builtin:aes128", AES_KEY, AES_PT, format="bytes")
    assert r["outputs"] == [[AES_CT]]


def test_yao_aes_with_bytes_and_report():
    r = brickyard.run_local("yao", "builtin:aes128", AES_KEY, AES_PT, format="bytes", net="loopback")
    assert r["outputs"] == [[AES_CT]]
    assert r["alice_outputs"] is None
    rep = r["report"]
    assert rep["protocol"] == "yao" and rep["net"] == "loopback"
    assert [p["name"] for p in rep["phases"]] == ["setup", "independent", "dependent", "online"]
    online = rep["phases"][3]
    assert online["bytes_alice_to_bob"] > 0 and online["wall_ms"] > 0
    assert rep["and_gates"] == brickyard.Circuit.builtin("aes128").and_count


def test_input_forms_agree():
    c = brickyard.Circuit.builtin("add8")
    bits_of_5 = [1, 0, 1, 0, 0, 0, 0, 0]
    for a in [5, b"\x05", "0x05", "5", "b10100000", [bits_of_5], [[True, False, True] + [False] * 5]]:
        r = brickyard.run_local("yao", c, a, [9])
        assert r["outputs"] == [[14]], a


def test_output_forms():
    c = brickyard.Circuit.builtin("add8")
    assert brickyard.run_local("yao", c, 1, 2, format="bits")["outputs"] == [[[True, True] + [False] * 6]]
    assert brickyard.run_local("yao", c, 1, 2, format="hex")["outputs"] == [["0x03"]]
    assert brickyard.run_local("yao", c, 1, 2, format="bytes")["outputs"] == [[b"\x03"]]


def test_executions_and_group_ownership():
    c = brickyard.Circuit.builtin("add8")
    r = brickyard.run_local("yao", c, 7, 8, executions=3)
    assert r["outputs"] == [[15]] * 3
    assert r["report"]["executions"] == 3
    # Alice owns nothing, Bob both groups.
    r = brickyard.run_local("yao", c, [], [3, 4], alice_groups=[])
    assert r["outputs"] == [[7]]


def test_custom_bristol_circuit():
    # out = a AND b, Bristol Fashion.
    c = brickyard.Circuit.parse("1 3\n2 1 1\n1 1\n\n2 1 0 1 2 AND\n")
    assert c.inputs == [("", 1), ("", 1)] or [w for _, w in c.inputs] == [1, 1]
    for a in (0, 1):
        for b in (0, 1):
            assert brickyard.run_local("yao", c, a, b)["outputs"] == [[a & b]]


def test_errors_are_typed_with_the_rust_kind():
    with pytest.raises(brickyard.ConfigError) as e:
        brickyard.run_local("no-such-protocol", "builtin:add8", 1, 2)
    assert e.value.kind == "config" and e.value.check is None
    assert isinstance(e.value, brickyard.BrickyardError)
    with pytest.raises(brickyard.ConfigError):
        brickyard.run_local("yao", "builtin:add8", 256, 2)  # does not fit in 8 bits
    with pytest.raises(brickyard.ConfigError):
        brickyard.run_local("yao", "builtin:add8", [1, 2], 2)  # Alice owns one group
    with pytest.raises(brickyard.ConfigError):
        brickyard.run_local("yao", "builtin:no-such-circuit", 1, 2)
    with pytest.raises(brickyard.IoError) as e:
        brickyard.Circuit.load("/nonexistent/circuit.txt")
    assert e.value.kind == "io"
    with pytest.raises(brickyard.Malformed):
        brickyard.Circuit.parse("this is not bristol")
    with pytest.raises(TypeError):
        brickyard.run_local("yao", "builtin:add8", 1.5, 2)


@pytest.mark.parametrize("cheat", ["alice:flip-table-bit", "bob:wrong-mac"])
def test_a_cheat_is_caught_and_names_its_check(cheat):
    if not brickyard.ADVERSARY:
        # A build without the adversary feature refuses cheats outright.
        with pytest.raises(brickyard.ConfigError):
            brickyard.run_local("tinytable", "builtin:add8", 5, 7, cheat=cheat)
        return
    with pytest.raises(brickyard.CheatingDetected) as e:
        brickyard.run_local("tinytable", "builtin:add8", 5, 7, cheat=cheat)
    assert e.value.kind == "cheating"
    assert e.value.check == "table-mac"
    assert "table-mac" in str(e.value)


def test_a_cheat_on_a_protocol_without_strategies_is_refused():
    with pytest.raises(brickyard.ConfigError):
        brickyard.run_local("yao", "builtin:add8", 5, 7, cheat="alice:flip-table-bit")


@pytest.mark.parametrize("protocol", ["yao", "tinytable", "lego"])
def test_per_execution_inputs_give_per_execution_outputs(protocol):
    c = brickyard.Circuit.builtin("add8")
    xs, ys = [1, 200, 7], [10, 100, 0]
    output = "bob" if protocol == "lego" else "both"
    r = brickyard.run_local(protocol, c, xs, ys, per_execution=True, output=output)
    want = [[(x + y) % 256] for x, y in zip(xs, ys)]
    assert r["outputs"] == want
    assert r["report"]["executions"] == 3
    if output == "both":
        assert r["alice_outputs"] == want


def test_per_execution_inputs_with_several_groups_and_forms():
    c = brickyard.Circuit.builtin("add8")
    # Bob owns both groups; Alice owns none (an empty list per execution).
    r = brickyard.run_local("yao", c, [[], []], [[1, 2], [b"\x10", "0x01"]],
                            per_execution=True, alice_groups=[], executions=2)
    assert r["outputs"] == [[3], [17]]


def test_per_execution_inputs_are_checked():
    c = brickyard.Circuit.builtin("add8")
    with pytest.raises(brickyard.ConfigError):  # lists of different lengths
        brickyard.run_local("yao", c, [1, 2], [3], per_execution=True)
    with pytest.raises(brickyard.ConfigError):  # executions= disagrees
        brickyard.run_local("yao", c, [1, 2], [3, 4], per_execution=True, executions=3)
    with pytest.raises(brickyard.ConfigError):  # not a list
        brickyard.run_local("yao", c, 1, [3], per_execution=True)
    with pytest.raises(brickyard.ConfigError):  # an entry that does not fit
        brickyard.run_local("yao", c, [1, 256], [3, 4], per_execution=True)
