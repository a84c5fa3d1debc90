#!/usr/bin/env python3
"""Which orders of an instruction's modifiers ptxas accepts.

usage: tools/isa/modifier_orders.py [--ptxas PTXAS] [--root REPO_ROOT]

Takes every line of testdata/isa/forms.txt that ptxas accepts as written,
reorders the dotted parts after its first word (modifiers, and the later
words of a dotted opcode such as vote.sync), and asks ptxas about each
reordering. For instructions with at most 4 parts every order is tried;
for longer ones every order that moves one part elsewhere or swaps two.
Orders that only exchange two types (cvt.f32.s32 against cvt.s32.f32:
another instruction, not another spelling) are left out.

Writes testdata/isa/modifier_orders.txt: one instruction a line, "+ " when
ptxas accepts it, "- " when it rejects it, each group led by the order
written in forms.txt ("= ", accepted). parser/tests/test_frontend_forms.c
checks that simtlab accepts every "=" and "+" line and decodes it to the
same instruction as its group's "=" line.

The declarations the lines use are those of forms.txt (see its header),
without the .samplerref (ptxas refuses it under texmode_unified). Only the
Python standard library is used.
"""

import argparse
import itertools
import os
import re
import subprocess
import sys
import tempfile

PRELUDE = """.version 9.0
.target {arch}
.address_size 64
.global .align 8 .b8 gsym[64];
.shared .align 8 .b8 ssym[64];
.const .align 8 .b8 csym[64];
.global .texref tex1;
.global .surfref surf1;
.func f0()
{{
 ret;
}}
.func (.param .b32 r) f1(.param .b32 a)
{{
 ret;
}}
.entry k()
{{
 .reg .b32 %r<32>;
 .reg .b64 %rd<32>;
 .reg .f32 %f<32>;
 .reg .f64 %fd<32>;
 .reg .b16 %h<32>;
 .reg .b128 %q<32>;
 .reg .pred %p<32>;
 proto1: .callprototype (.param .b32 _) _ (.param .b32 _);
 bt1: .branchtargets L1, L2;
L1:
L2:
"""

TYPES = {
    "b8", "b16", "b32", "b64", "b128", "u8", "u16", "u32", "u64", "s8", "s16",
    "s32", "s64", "f16", "f16x2", "bf16", "bf16x2", "f32", "f64", "tf32",
    "e4m3", "e5m2", "e4m3x2", "e5m2x2", "e2m1", "e2m1x2", "e3m2", "e2m3",
    "e3m2x2", "e2m3x2", "ue8m0", "ue8m0x2", "ue4m3", "s4", "u4", "b1", "pred",
    "s2f6x2", "b4x16", "b4x16_p64", "b6x16_p32", "b6p2x16", "f32x2", "u16x2",
    "s16x2",
}

CHUNK = 250
ERR = re.compile(r"line (\d+); (error|fatal)\s*:")


def ptxas_rejects(ptxas, lines, arch):
    """Indices of `lines` ptxas rejects, each line alone in the prelude's
    kernel. A fatal (parsing) error stops ptxas at its line: that line is
    taken out and the rest asked again."""
    head = PRELUDE.format(arch=arch)
    first = head.count("\n") + 1
    rejected = set()
    pending = list(range(len(lines)))
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "orders.ptx")
        while pending:
            with open(path, "w") as f:
                f.write(head + "\n".join(" " + lines[i] for i in pending) + "\n ret;\n}\n")
            out = subprocess.run([ptxas, "-arch=" + arch, path, "-o", os.devnull],
                                 capture_output=True, text=True).stderr
            fatal = None
            bad = set()
            for m in ERR.finditer(out):
                n = int(m.group(1)) - first
                if 0 <= n < len(pending):
                    bad.add(pending[n])
                    if m.group(2) == "fatal" and fatal is None:
                        fatal = pending[n]
                elif m.group(2) == "fatal":
                    raise SystemExit("ptxas failed outside the instructions:\n" + out)
            if fatal is None:
                rejected |= bad
                break
            rejected.add(fatal)
            pending.remove(fatal)
    return rejected


def check(ptxas, lines, arch):
    rejected = set()
    for start in range(0, len(lines), CHUNK):
        part = lines[start:start + CHUNK]
        rejected |= {start + i for i in ptxas_rejects(ptxas, part, arch)}
    return rejected


def reorders(parts):
    """Reorderings of parts (not the written one), as tuples."""
    n = len(parts)
    idx = range(n)
    if n <= 4:
        orders = set(itertools.permutations(idx))
    else:
        orders = set()
        for i in idx:
            for j in idx:
                o = list(idx)
                o.insert(j, o.pop(i))
                orders.add(tuple(o))
                o = list(idx)
                o[i], o[j] = o[j], o[i]
                orders.add(tuple(o))
    types = [parts[i] for i in idx if parts[i] in TYPES]
    out = []
    for o in sorted(orders):
        if o == tuple(idx):
            continue
        if [parts[i] for i in o if parts[i] in TYPES] != types:
            continue  # another instruction, not another spelling
        out.append(tuple(parts[i] for i in o))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ptxas", default="ptxas")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    args = ap.parse_args()
    forms = [l.strip() for l in open(os.path.join(args.root, "testdata", "isa", "forms.txt"))
             if l.strip() and not l.startswith("#")]
    # keep the lines ptxas accepts as written (on sm_100a, else sm_90a)
    bad = check(args.ptxas, forms, "sm_100a")
    retry = sorted(bad)
    bad90 = check(args.ptxas, [forms[i] for i in retry], "sm_90a")
    valid = sorted(set(range(len(forms))) - bad) + sorted(retry[i] for i in range(len(retry))
                                                          if i not in bad90)
    arch_of = {i: "sm_100a" for i in range(len(forms)) if i not in bad}
    arch_of.update({retry[i]: "sm_90a" for i in range(len(retry)) if i not in bad90})
    groups = []
    seen = set()
    for i in sorted(valid):
        word, _, rest = forms[i].partition(" ")
        parts = word.split(".")
        # one instance per spelling shape: the types do not change what orders mean
        key = (parts[0], tuple("T" if p in TYPES else p for p in parts[1:]), rest.count(","))
        if len(parts) < 3 or key in seen:
            continue
        seen.add(key)
        cands = [parts[0] + "." + ".".join(o) + (" " + rest if rest else "")
                 for o in reorders(parts[1:])]
        groups.append((forms[i], cands, arch_of[i]))
    lines = []
    for arch in ("sm_100a", "sm_90a"):
        mine = [g for g in groups if g[2] == arch]
        flat = [c for g in mine for c in g[1]]
        rej = check(args.ptxas, flat, arch)
        k = 0
        for written, cands, _ in mine:
            lines.append("= " + written)
            for c in cands:
                lines.append(("- " if k in rej else "+ ") + c)
                k += 1
    out = os.path.join(args.root, "testdata", "isa", "modifier_orders.txt")
    with open(out, "w") as f:
        f.write("# Generated by tools/isa/modifier_orders.py with ptxas; do not edit.\n"
                "# '+' ptxas accepts the instruction, '-' it rejects it. Each group starts\n"
                "# with the order of testdata/isa/forms.txt, which ptxas accepts ('=').\n")
        f.write("\n".join(lines) + "\n")
    acc = sum(1 for l in lines if not l.startswith("- "))
    print("%d groups, %d instructions, %d accepted" % (len(groups), len(lines), acc),
          file=sys.stderr)


if __name__ == "__main__":
    main()
