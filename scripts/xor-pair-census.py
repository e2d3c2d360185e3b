#!/usr/bin/env python3
"""How many of a Bristol circuit's XOR gates could run two per 256-bit op.

A *paired* XOR gate computes two independent XOR gates with one `vpxor ymm`
per input: its two gates' inputs and outputs sit in adjacent label slots
(low lane, high lane). It costs about what one 128-bit gate costs (the same
offset loads, label loads and store; see docs/protocols/garbling.md,
"Levers measured and not kept", and `git log --grep='paired XOR'`), so
every pair saves one gate's loads. A value can have
only one partner, in one lane, for its whole life; that is the constraint
this census honours. It also counts the AND gates that could gather both
inputs as pairs (one 256-bit load per input for two gates).

Model, close to the garbling plan's: INV is free (a label is its own
negation's), an XOR value read only by one XOR gate (not by an AND, not an
output) is fused into its reader, a fused root of n leaves costs
ceil((n - 1) / 2) three-input gates. Two roots pair if they have the same
AND depth and XOR level within it (so neither depends on the other and a
stage can hold both), the same number of leaves, and their leaves can be
matched one to one into pairs consistent with every pairing made before.
Greedy, in (AND depth, level) order; candidates are the readers of an input's
partner first, then roots of the same shape. It pairs across a whole AND
layer; the garbling plan runs a pair in one stage, and a plan pass pairing
within stages found far fewer (AES-128 4 %, SHA-256 6 % of XOR gates; see
docs/protocols/garbling.md, "Levers measured and not kept").

usage: scripts/xor-pair-census.py [--seed-stride S] FILE...
  --seed-stride S  pre-pair input wires w and w + S for (w // S) even
                   (AES-128: 8 pairs byte i with byte i + 1, bit for bit)
"""
import collections
import sys


def load(path):
    lines = open(path).read().split("\n")
    n_wires = int(lines[0].split()[1])
    n_in = sum(map(int, lines[1].split()[1:]))
    n_out = sum(map(int, lines[2].split()[1:]))
    gates = []
    for line in lines[3:]:
        t = line.split()
        if t:
            k = int(t[0])
            gates.append((t[-1], list(map(int, t[2:2 + k])), int(t[2 + k])))
    return n_wires, n_in, n_out, gates


def census(path, stride):
    n_wires, n_in, n_out, gates = load(path)
    alias = {}

    def val(w):
        while w in alias:
            w = alias[w]
        return w

    kind = {w: "in" for w in range(n_in)}
    ands = []
    depth = collections.defaultdict(int)
    src, xor_reads, and_reads = {}, collections.Counter(), collections.Counter()
    for k, ins, o in gates:
        if k == "INV":
            alias[o] = val(ins[0])
            continue
        a, b = val(ins[0]), val(ins[1])
        depth[o] = max(depth[a], depth[b]) + (k == "AND")
        if k == "AND":
            kind[o] = "and"
            ands.append((o, a, b))
            and_reads[a] += 1
            and_reads[b] += 1
        else:
            kind[o] = "xor"
            src[o] = (a, b)
            xor_reads[a] += 1
            xor_reads[b] += 1
    outs = {val(w) for w in range(n_wires - n_out, n_wires)}
    fused = {v for v in src if xor_reads[v] == 1 and and_reads[v] == 0 and v not in outs}
    roots = [v for v in src if v not in fused]

    def leaves(v, acc):
        for x in src[v]:
            if x in fused:
                leaves(x, acc)
            else:
                acc[x] ^= 1
        return acc

    leaf = {v: sorted(x for x, c in leaves(v, collections.Counter()).items() if c) for v in roots}
    level = {}
    for v in sorted(roots, key=lambda v: depth[v]):
        stack = [v]
        while stack:
            u = stack[-1]
            deps = [x for x in leaf[u] if x in leaf and depth[x] == depth[u] and x not in level]
            if deps:
                stack.extend(deps)
                continue
            stack.pop()
            level[u] = 1 + max([level[x] for x in leaf[u] if x in leaf and depth[x] == depth[u]] + [0])

    def cost(v):
        return max(1, len(leaf[v]) // 2)

    def sig(x):
        return (kind[x], depth[x])

    def shape(v):
        return (depth[v], level[v], len(leaf[v]), tuple(sorted(sig(x) for x in leaf[v])))

    order = sorted(roots, key=lambda v: (depth[v], level[v], v))
    by_shape = collections.defaultdict(list)
    readers = collections.defaultdict(list)
    for v in order:
        by_shape[shape(v)].append(v)
        for x in leaf[v]:
            readers[x].append(v)

    partner = {}  # value -> (partner, is the low lane)
    if stride:
        for w in range(n_in):
            if (w // stride) % 2 == 0 and w + stride < n_in:
                partner[w], partner[w + stride] = (w + stride, True), (w, False)

    def match(g, h):
        rest = set(leaf[h])
        if len(leaf[g]) != len(rest) or rest & set(leaf[g]):
            return None
        free = []
        for x in leaf[g]:
            p = partner.get(x)
            if p is None:
                free.append(x)
            elif p[1] and p[0] in rest:
                rest.discard(p[0])
            else:
                return None
        other = [y for y in rest if y not in partner]
        if len(other) != len(free):
            return None
        return list(zip(sorted(free, key=sig), sorted(other, key=sig)))

    paired = set()
    for g in order:
        if g in paired or g in partner:
            continue
        cands = [h for x in leaf[g] if partner.get(x, (0, False))[1] for h in readers[partner[x][0]]]
        cands += by_shape[shape(g)][:300]
        for h in cands:
            if h == g or h in paired or h in partner or (depth[h], level[h]) != (depth[g], level[g]):
                continue
            new = match(g, h)
            if new is None:
                continue
            for x, y in new + [(g, h)]:
                partner[x], partner[y] = (y, True), (x, False)
            paired.update((g, h))
            break
    # AND gates whose inputs arrive as pairs: gate g (a, b) and gate h
    # reading the high-lane partners of both, at the same AND depth; a
    # group gathers such a pair's inputs with one 256-bit load each.
    and_readers = collections.defaultdict(list)
    for o, a, b in ands:
        and_readers[a].append((o, a, b))
        and_readers[b].append((o, a, b))
    and_paired = set()
    for o, a, b in ands:
        pa, pb = partner.get(a), partner.get(b)
        if o in and_paired or not (pa and pb and pa[1] and pb[1]):
            continue
        for h, x, y in and_readers[pa[0]]:
            if h != o and h not in and_paired and depth[h] == depth[o] and {x, y} == {pa[0], pb[0]}:
                and_paired.update((o, h))
                break
    total = sum(cost(v) for v in roots)
    ops = total - sum(cost(v) for v in paired) // 2
    name = path.rsplit("/", 1)[-1]
    print(
        f"{name}: {len(roots)} fused XOR roots, {total} 3-input gates; "
        f"{len(paired)} roots paired ({100 * len(paired) / len(roots):.0f} %), "
        f"{ops} ops ({100 * ops / total:.0f} % of the gates); "
        f"{len(and_paired)} of {len(ands)} ANDs read both inputs as pairs"
    )


def main(argv):
    stride = 0
    if argv[:1] == ["--seed-stride"]:
        stride, argv = int(argv[1]), argv[2:]
    if not argv:
        print(__doc__.split("usage:")[1].strip())
        return 2
    for path in argv:
        census(path, stride)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
