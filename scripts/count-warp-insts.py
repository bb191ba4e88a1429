#!/usr/bin/env python3
"""Dynamic warp-instruction count of a kernel from its SASS listing and its branch outcomes.

A warp's path through a listing (kernels/sass/ARCH/KERNEL.sass) is fixed by the outcome of
its conditional branches (@P BRA) and predicated exits (@P EXIT); every instruction on the
path counts once per warp, whatever its predicate, as smsp__inst_executed counts them.
Rules say how each conditional branch goes, by its address in the listing:

    ADDR=N        a loop branch: N "stay in the loop" outcomes, then one "leave" outcome,
                  and again on the next entry. A backward branch stays by being taken, a
                  forward one (a loop exit at the top) by not being taken.
    ADDR=taken    always taken;  ADDR=not  never taken (the default for forward branches).

ADDR is the hexadecimal address (0x0050) or #K, the K-th conditional branch or exit of
the listing in address order (#1 is the first).

A backward conditional branch without a rule closes a counted loop when the loop's shape
allows: its predicate set by ISETP from a register the loop steps by a constant (IADD3,
VIADD) against an immediate, the register set to a constant before the loop; the trip
count then follows from simulating the compare. Unconditional branches are followed; the path ends at an EXIT that is taken. A backward
conditional branch without a rule that is not such a loop is an error, as is a rule on an address that is not a
conditional branch. The rules live in a file (--paths), one warp class a line:

    ARCH KERNEL WARPS RULE...

(several lines for one kernel add up: warps that take different paths). Prints, per
kernel, the warp instructions of each class and the total.

It checks the SASS executor from the other side: `sassim capture` counts what it executed,
this script what the listing and the rules imply (scripts/ubench-fingerprint.py counts
the microbenchmarks by capture).

Usage: scripts/count-warp-insts.py [--listings DIR] --paths FILE [KERNEL...]
"""
import argparse
import collections
import pathlib
import re
import struct
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
INSTRUCTION = re.compile(r"^\s*/\*([0-9a-f]{4,})\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)([^;]*);")
TARGET = re.compile(r"\(\.L_x_\d+\)|0x[0-9a-f]+")


def read_listing(path):
    """Instructions in order: (address, predicated, opcode, operands); labels -> address."""
    instructions, labels, pending = [], {}, []
    for line in path.read_text().splitlines():
        label = re.match(r"^(\.L_x_\d+):", line)
        if label:
            pending.append(label.group(1))
            continue
        m = INSTRUCTION.match(line)
        if not m:
            continue
        address = int(m.group(1), 16)
        for name in pending:
            labels[name] = address
        pending = []
        if m.group(2):
            line_predicate[len(instructions)] = m.group(2).strip()
        instructions.append((address, m.group(2) is not None, m.group(3), m.group(4).strip()))
    return instructions, labels


def branch_target(operands, labels):
    m = re.search(r"`?\((\.L_x_\d+)\)", operands)
    if m:
        return labels[m.group(1)]
    m = re.search(r"0x[0-9a-f]+", operands)
    return int(m.group(0), 16)


REG = r"(R\d+|RZ)"
IMM = r"(-?0x[0-9a-f]+|-?\d+)"


def half_bits(value):
    return int.from_bytes(struct.pack("<e", value), "little")


def const_of(text):
    return 0 if text == "RZ" else int(text, 0)


def counted_loop(instructions, t, b):
    """Stay outcomes of the backward branch at index b to index t, or None."""
    pred = re.match(r"@(!?)(P\d)", line_predicate[b]) if line_predicate.get(b) else None
    if not pred:
        return None
    negated, p = pred.group(1) == "!", pred.group(2)
    setp = None
    for k in range(b - 1, t - 1, -1):
        op, ops = instructions[k][2], instructions[k][3]
        m = re.match(rf"{p}, PT, {REG}, {IMM}, PT$", ops)
        if op.startswith("ISETP") and m:
            setp = (k, op, m.group(1), int(m.group(2), 0))
            break
        if ops.startswith(p + ",") or ops.startswith(p + " "):
            return None
    if not setp:
        return None
    k_set, setp_op, reg, limit = setp
    steps = []
    for k in range(t, b):
        ops = instructions[k][3]
        if not re.match(rf"{reg}(\.|,)", ops):
            continue
        m = re.match(rf"{reg}, {reg}, {IMM}(, RZ)?$", ops)
        if instructions[k][2] in ("IADD3", "VIADD") and m:
            steps.append((k, int(m.group(1), 0)))
        else:
            return None
    if len(steps) != 1:
        return None
    k_step, step = steps[0]
    init = None
    for k in range(t - 1, -1, -1):
        op, ops = instructions[k][2], instructions[k][3]
        if not re.match(rf"{reg}(\.|,)", ops):
            continue
        m = re.match(rf"{reg}, RZ, RZ, {IMM}$", ops) or re.match(rf"{reg}, RZ, RZ, (RZ)$", ops)
        if op == "IMAD.MOV.U32" and m:
            init = const_of(m.group(1))
        elif op == "MOV" and re.match(rf"{reg}, {IMM}$", ops):
            init = int(ops.split(", ")[1], 0)
        elif op == "MOV" and ops == f"{reg}, RZ":
            init = 0
        elif op == "CS2R" and ops == f"{reg}, SRZ":
            init = 0
        elif op == "HFMA2.MMA" and ops.startswith(f"{reg}, -RZ, RZ, "):
            # A 32-bit constant written as two halves: high, low.
            high, low = (float(x) for x in ops.split(", ")[3:5])
            init = (half_bits(high) << 16) | half_bits(low)
        break
    if init is None:
        return None
    cmp = setp_op.split(".")[1]
    unsigned = ".U32" in setp_op
    mask = (1 << 32) - 1

    def value(v):
        v &= mask
        return v if unsigned or v < 1 << 31 else v - (1 << 32)

    compare = {"NE": lambda a, c: a != c, "EQ": lambda a, c: a == c, "LT": lambda a, c: a < c,
               "LE": lambda a, c: a <= c, "GT": lambda a, c: a > c, "GE": lambda a, c: a >= c}
    if cmp not in compare:
        return None
    v, stays = init, 0
    while stays < 10**8:
        if k_step < k_set:
            v += step
        taken = compare[cmp](value(v), value(limit)) != negated
        if k_step > k_set:
            v += step
        if not taken:
            return stays
        stays += 1
    return None


line_predicate = {}


def walk(instructions, labels, rules, where):
    """The number of instructions on the path the rules give."""
    index_of = {a: i for i, (a, _, _, _) in enumerate(instructions)}
    stays = collections.Counter()
    count, i, limit = 0, 0, 10**9
    used = set()
    while True:
        if i >= len(instructions):
            sys.exit(f"{where}: the path runs off the end of the listing")
        address, predicated, opcode, operands = instructions[i]
        count += 1
        if count > limit:
            sys.exit(f"{where}: more than {limit} instructions: a loop without an exit?")
        base = opcode.split(".")[0]
        if base == "EXIT":
            if not predicated:
                break
            rule = rules.get(address, "not")
            used.add(address)
            if rule == "taken":
                break
            i += 1
            continue
        # CALL.REL.NOINC: a jump that pushes no return address (nvcc's loop exits).
        if base not in ("BRA", "JMP") and not opcode.startswith("CALL.REL.NOINC"):
            i += 1
            continue
        target = branch_target(operands, labels)
        if not predicated:
            i = index_of[target]
            continue
        backward = target <= address
        rule = rules.get(address)
        used.add(address)
        if rule is None and backward:
            rule = counted_loop(instructions, index_of[target], i)
            if rule is None:
                sys.exit(f"{where}: backward branch at {address:#06x} needs a rule")
        if rule is None:
            rule = "not"
        if rule in ("taken", "not"):
            taken = rule == "taken"
        else:
            stay = stays[address] < rule
            stays[address] = stays[address] + 1 if stay else 0
            taken = stay if backward else not stay
        i = index_of[target] if taken else i + 1
    unknown = set(rules) - used
    if unknown:
        sys.exit(f"{where}: rules for {', '.join(f'{a:#06x}' for a in sorted(unknown))} "
                 "which the path never reaches (or that are no conditional branches)")
    return count


def parse_rule(text, where, conditional):
    address, _, value = text.partition("=")
    if address.startswith("#"):
        k = int(address[1:])
        if not 1 <= k <= len(conditional):
            sys.exit(f"{where}: {address}: the listing has {len(conditional)} conditional branches")
        address = hex(conditional[k - 1])
    if value in ("taken", "not"):
        return int(address, 16), value
    if not value.isdigit():
        sys.exit(f"{where}: expected ADDR=N, ADDR=taken or ADDR=not, found '{text}'")
    return int(address, 16), int(value)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--listings", default=ROOT / "kernels" / "sass", type=pathlib.Path)
    parser.add_argument("--paths", required=True, type=pathlib.Path)
    parser.add_argument("kernels", nargs="*")
    args = parser.parse_args()
    totals = collections.OrderedDict()
    for number, line in enumerate(args.paths.read_text().splitlines(), 1):
        # '#' starts a comment at the start of a line or after a blank ('#K=' is a rule).
        words = re.split(r"(?:^|\s)#(?:\s|$)", line)[0].split()
        if not words or words[0].startswith("#"):
            continue
        where = f"{args.paths}:{number}"
        if len(words) < 3 or not words[2].isdigit():
            sys.exit(f"{where}: expected ARCH KERNEL WARPS RULE..., found '{line}'")
        arch, kernel, warps = words[0], words[1], int(words[2])
        if args.kernels and kernel not in args.kernels:
            continue
        listing = args.listings / arch / f"{kernel}.sass"
        if not listing.exists():
            sys.exit(f"{where}: no listing {listing}")
        line_predicate.clear()
        instructions, labels = read_listing(listing)
        conditional = [a for a, predicated, op, _ in instructions
                       if predicated and (op.split(".")[0] in ("BRA", "EXIT", "JMP")
                                          or op.startswith("CALL.REL.NOINC"))]
        rules = {}
        for w in words[3:]:
            address, value = parse_rule(w, where, conditional)
            rules[address] = value
        per_warp = walk(instructions, labels, rules, where)
        key = (arch, kernel)
        totals.setdefault(key, 0)
        totals[key] += warps * per_warp
        print(f"{arch} {kernel}: {warps} warps x {per_warp} = {warps * per_warp}")
    for (arch, kernel), total in totals.items():
        print(f"TOTAL {arch} {kernel} {total}")


if __name__ == "__main__":
    main()
