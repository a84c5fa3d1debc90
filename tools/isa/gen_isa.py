#!/usr/bin/env python3
"""Generate simtlab's PTX ISA 9.0 tables from a directory of syntax files.

usage: tools/isa/gen_isa.py SYNTAX_DIR [--root REPO_ROOT] [--check]

SYNTAX_DIR holds one text file per instruction family, each giving the
instruction's syntax lines (opcode, modifiers, optional parts in {}, operand
list) followed by the value sets of its modifier variables ("name = { .a, .b
};"), sections separated by lines of dashes. The script reads them, applies
the corrections listed in OVERRIDES / EXTRA_FORMS_SPEC below, and writes:

  ir/opcodes.def          X(ENUM, "name") for every opcode, in enum order
  ir/modifiers.def        X(ENUM, "text", PTX_MODCAT_x, value)
  ir/isa_table.inc    per-opcode allowed modifiers, required categories,
                          operand shapes, and name-sorted lookup indexes
  testdata/isa/forms.txt  concrete instruction instances of every form
  testdata/isa/bad_forms.txt  instructions that must be rejected

Only the Python standard library is used. With --check nothing is written;
the script only reports problems (category conflicts, unknown variables).
"""

import argparse
import itertools
import os
import re
import sys

# ---------------------------------------------------------------------------
# Opcodes, in enum order (related instructions together).

OPCODES = [
    # integer arithmetic
    "add", "add.cc", "addc", "sub", "sub.cc", "subc", "mul", "mad", "madc",
    "mul24", "mad24", "sad", "div", "rem", "abs", "neg", "min", "max",
    "popc", "clz", "bfind", "fns", "brev", "bfe", "bfi", "szext", "bmsk",
    "dp4a", "dp2a",
    # floating point
    "testp", "copysign", "fma", "rcp", "sqrt", "rsqrt", "sin", "cos", "lg2",
    "ex2", "tanh",
    # comparison and selection
    "set", "setp", "selp", "slct",
    # logic and shift
    "and", "or", "xor", "not", "cnot", "lop3", "shf", "shl", "shr",
    # data movement and conversion
    "mov", "shfl", "shfl.sync", "prmt", "ld", "ld.global.nc", "ldu", "st",
    "st.async", "st.bulk", "multimem.ld_reduce", "multimem.st",
    "multimem.red", "prefetch", "prefetchu", "applypriority", "discard",
    "createpolicy", "isspacep", "cvta", "cvt", "cvt.pack", "mapa",
    "getctarank",
    # asynchronous copies
    "cp.async", "cp.async.commit_group", "cp.async.wait_group",
    "cp.async.wait_all", "cp.async.mbarrier.arrive", "cp.async.bulk",
    "cp.reduce.async.bulk", "cp.async.bulk.prefetch", "cp.async.bulk.tensor",
    "cp.reduce.async.bulk.tensor", "cp.async.bulk.prefetch.tensor",
    "cp.async.bulk.commit_group", "cp.async.bulk.wait_group",
    "tensormap.replace", "tensormap.cp_fenceproxy",
    # texture and surface
    "tex", "tld4", "txq", "istypep", "suld", "sust", "sured", "suq",
    # control flow
    "bra", "brx.idx", "call", "ret", "exit",
    # synchronization and communication
    "bar", "barrier", "bar.warp.sync", "barrier.cluster", "membar", "fence",
    "atom", "red", "red.async", "vote", "vote.sync", "match", "activemask",
    "redux.sync", "griddepcontrol", "elect.sync",
    "mbarrier.init", "mbarrier.inval", "mbarrier.expect_tx",
    "mbarrier.complete_tx", "mbarrier.arrive", "mbarrier.arrive_drop",
    "mbarrier.test_wait", "mbarrier.try_wait", "mbarrier.pending_count",
    "clusterlaunchcontrol.try_cancel", "clusterlaunchcontrol.query_cancel",
    # warp-level and warpgroup-level matrix operations
    "wmma.load", "wmma.store", "wmma.mma", "mma", "ldmatrix", "stmatrix",
    "movmatrix", "wgmma.mma_async", "wgmma.mma_async.sp", "wgmma.fence",
    "wgmma.commit_group", "wgmma.wait_group",
    # tensor core generation 5
    "tcgen05.alloc", "tcgen05.dealloc", "tcgen05.relinquish_alloc_permit",
    "tcgen05.ld", "tcgen05.st", "tcgen05.wait::ld", "tcgen05.wait::st",
    "tcgen05.cp", "tcgen05.shift", "tcgen05.mma", "tcgen05.mma.sp",
    "tcgen05.mma.ws", "tcgen05.mma.ws.sp",
    "tcgen05.fence::before_thread_sync", "tcgen05.fence::after_thread_sync",
    "tcgen05.commit",
    # stack
    "stacksave", "stackrestore", "alloca",
    # video (scalar and SIMD)
    "vadd", "vsub", "vabsdiff", "vmin", "vmax", "vshl", "vshr", "vmad",
    "vset", "vadd2", "vsub2", "vavrg2", "vabsdiff2", "vmin2", "vmax2",
    "vset2", "vadd4", "vsub4", "vavrg4", "vabsdiff4", "vmin4", "vmax4",
    "vset4",
    # miscellaneous
    "brkpt", "nanosleep", "pmevent", "trap", "setmaxnreg",
]

# Opcode pairs where the longer name is deliberately made of the shorter
# opcode plus modifiers it also accepts: "ld.global.nc.f32" decodes as
# ld.global.nc, while "ld.global.ca.nc.f32" (cache operator between) decodes
# as ld with .global .ca .nc.
INTENDED_CAPTURES = {("ld", "ld.global.nc")}

# ---------------------------------------------------------------------------
# Modifier categories. Types come from ir/types.def; spaces and vectors are
# fixed; everything not listed here is MISC (and reported with -v).

REPEATABLE = {"TYPE", "SPACE", "LAYOUT", "MISC"}

SPACES = {
    "const": "CONST", "global": "GLOBAL", "local": "LOCAL", "param": "PARAM",
    "param::entry": "PARAM_ENTRY", "param::func": "PARAM_FUNC",
    "shared": "SHARED", "shared::cta": "SHARED_CTA",
    "shared::cluster": "SHARED_CLUSTER",
}
VECS = {"v2": 2, "v4": 4, "v8": 8}

CATEGORY = {}


def _cat(cat, words):
    for w in words.split():
        assert w not in CATEGORY, w
        CATEGORY[w] = cat


_cat("ROUND", "rn rz rm rp rna rs rni rzi rmi rpi")
# .hi/.lo are both comparison operators (setp.lo.u32: unsigned lower) and
# result halves (mul.hi); one spelling has one category: WIDTH.
_cat("CMP", "eq ne lt le gt ge ls hs equ neu ltu leu gtu geu num nan")
_cat("OP", "and or xor add inc dec min max exch cas")
_cat("SAT", "sat satfinite")
_cat("FTZ", "ftz noftz")
_cat("APPROX", "approx full")
_cat("RELU", "relu")
_cat("NAN", "NaN")
_cat("XORSIGN", "xorsign")
_cat("ABS", "abs")
_cat("WIDTH", "wide hi lo")
_cat("CC", "cc")
_cat("UNI", "uni")
_cat("ALIGNED", "aligned")
_cat("SYNC", "sync")
# .mmio is MISC: ld.mmio.relaxed.sys carries it together with .relaxed.
_cat("SEM", "weak volatile relaxed acquire release acq_rel sc")
_cat("SCOPE", "cta cluster gpu sys gl")
_cat("COP", "ca cg cs lu cv wb wt")
_cat("L1EVICT", "L1::evict_normal L1::evict_unchanged L1::evict_first "
     "L1::evict_last L1::no_allocate")
_cat("CACHEHINT", "L2::cache_hint")
_cat("PREFETCH", "L2::64B L2::128B L2::256B")
_cat("NC", "nc")
_cat("MODE",
     # shfl, vote, match
     "up down bfly idx all any ballot "
     # prmt
     "f4e b4e rc8 ecl ecr rc16 "
     # shf direction, tld4 component, wmma matrix, surface addressing
     "l r g b a c d p "
     # texture mipmap mode
     "base level grad "
     # bar / barrier / barrier.cluster / griddepcontrol / tcgen05.ld
     "arrive red wait launch_dependents "
     # createpolicy
     "range fractional cvt "
     # testp
     "finite infinite number notanumber normal subnormal "
     # clusterlaunchcontrol.query_cancel
     "is_canceled get_first_ctaid get_first_ctaid::x get_first_ctaid::y "
     "get_first_ctaid::z "
     # tensor load modes
     "tile tile::gather4 tile::scatter4 im2col im2col::w im2col::w::128 "
     "im2col_no_offs "
     # mma kinds
     "kind::f16 kind::tf32 kind::f8f6f4 kind::i8 kind::mxf8f6f4 kind::mxf4 "
     "kind::mxf4nvf4")
_cat("CLAMP", "clamp wrap trap zero")
_cat("LAYOUT", "row col")
_cat("GEOM", "1d 2d 3d 4d 5d a1d a2d cube acube 2dms a2dms")

# L2 eviction priorities are MISC, not L2EVICT: createpolicy carries a
# primary and a secondary one (createpolicy.fractional.L2::evict_last
# .L2::evict_unchanged.b64) and the same spelling serves both roles.
L2EVICT_AS_MISC = True

SHAPE_RE = re.compile(r"^(m\d+n\d+(k\d+)?|\d+x\d+b(x2)?)$")

# Enum names that would collide after uppercasing get an explicit name.
ENUM_OVERRIDE = {
    "NaN": "NAN_PROPAGATE",  # min/max .NaN; "nan" (compare unordered) is NAN
}

# ---------------------------------------------------------------------------
# Corrections of the reference text: (file, old, new). Each must apply.

OVERRIDES = [
    # typo in the f64 mma shape list
    ("mma.txt", ".m8n84,", ".m8n8k4,"),
    # stray blank between '.' and the variable name
    ("red.txt", ".noftz{.level::cache_hint}. vec_16_bit", ".noftz{.level::cache_hint}.vec_16_bit"),
    # fma .oob: its type set is given only in prose
    ("fma.txt", "fma.rnd.oob{.relu}.type     d, a, b, c;",
     "fma.rnd.oob{.relu}.oobtype  d, a, b, c;\n.oobtype = { .f16, .f16x2, .bf16, .bf16x2 };"),
    # stray prose line between value sets
    ("vset4.txt", "\ndefaults to .b3210\n", "\n"),
    # tcgen05.cp: footnote markers on values
    ("tcgen05.cp.txt", "**", ""),
    ("tcgen05.cp.txt", "*", ""),
    ("tcgen05.mma.txt", "::discard*", "::discard"),
    ("tcgen05.mma.sp.txt", "::discard*", "::discard"),
    # .level::cache_hint is used but its value set is not given
    ("cp.reduce.async.bulk.tensor.txt", ".redOp =",
     ".level::cache_hint = { .L2::cache_hint };\n.redOp ="),
]

# Forms stated only in the manual's prose (or folded into another family in
# the reference): (file they belong with, text in the reference's notation).
EXTRA_FORMS_SPEC = [
    # mov of a vector to/from a wider scalar (pack/unpack) uses "mov.type d, a"
    # with a {..} operand, covered by the mov forms; mov between vector
    # registers (.reg .v4 .f32 %v) carries .v2/.v4, which ptxas accepts.
    ("mov.txt", "mov", [["v2"], ["v4"]],
     ["b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64", "f32", "f64"], "d, a"),
]

# ---------------------------------------------------------------------------
# Reading the reference.


class Form:
    """One syntax line: opcode template slots and operand text."""

    def __init__(self, fname, root, slots, operands, text):
        self.fname = fname
        self.root = root          # first word part (opcode root)
        self.slots = slots        # list of (alternatives, optional)
        self.operands = operands  # operand text
        self.text = text


def strip_comments(text):
    return re.sub(r"//[^\n]*", "", text)


DEF_RE = re.compile(r"^\s*((?:[.:]*[\w:\-]+\s*=\s*)+)\{")


def parse_file(path, fname):
    """Split a syntax file into sections of (forms, defs)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for (ofile, old, new) in OVERRIDES:
        if ofile == fname:
            if old not in text:
                sys.exit("override does not apply: %s: %r" % (fname, old))
            text = text.replace(old, new)
    text = strip_comments(text)
    sections = [([], {})]
    lines = text.split("\n")
    i = 0
    pending = ""
    while i < len(lines):
        line = lines[i]
        i += 1
        s = line.strip()
        if re.match(r"^-{3,}", s):
            sections.append(([], {}))
            pending = ""
            continue
        if not s and not pending:
            continue
        m = DEF_RE.match(line) if not pending else None
        if m:
            names = [n.strip() for n in m.group(1).split("=") if n.strip()]
            body = line[m.end():]
            while "}" not in body and i < len(lines):
                body += " " + strip_comments(lines[i])
                i += 1
            body = body[:body.index("}")]
            vals = [v.strip() for v in body.split(",")]
            vals = [v for v in vals if v]
            for n in names:
                sections[-1][1][n] = vals
            continue
        pending += " " + s
        if ";" in pending:
            stmt = pending[:pending.index(";")].strip()
            pending = ""
            if stmt:
                sections[-1][0].append(stmt)
    if pending.strip():
        sys.exit("%s: unterminated statement %r" % (fname, pending))
    return sections


def lookup(sections, si, name):
    """Value list of variable name as seen from section si: its own section,
    then later sections, then earlier ones."""
    order = [si] + list(range(si + 1, len(sections))) + list(range(si - 1, -1, -1))
    for k in order:
        if name in sections[k][1]:
            return sections[k][1][name]
    return None


def split_parts(s):
    """'.a.b::c' -> ['a', 'b::c']"""
    s = s.strip()
    if s.startswith("."):
        s = s[1:]
    return [p for p in s.split(".") if p != ""]


def expand_value(sections, si, value, seen):
    """Alternatives (lists of parts) of one value of a value set."""
    v = value.strip()
    if v == "none":
        return [[]]
    if not v.startswith(".") and not v.startswith("::") and re.match(r"^[A-Za-z_]", v):
        v = "." + v          # a value written without its dot
    parts = split_parts(v)
    alts = [[]]
    for p in parts:
        palts = expand_part(sections, si, p, seen)
        alts = [a + b for a in alts for b in palts]
    return alts


def expand_part(sections, si, p, seen):
    """Alternatives of one dotted part: a variable, or a literal possibly
    containing '::sub' variables (tcgen05 collector usage)."""
    if p not in seen:
        vals = lookup(sections, si, "." + p)
        if vals is not None:
            out = []
            for v in vals:
                out.extend(expand_value(sections, si, v, seen | {p}))
            return out
    segs = p.split("::")
    if len(segs) > 1:
        choices = [[segs[0]]]
        for sg in segs[1:]:
            sub = lookup(sections, si, "::" + sg)
            if sub is not None:
                choices.append([x.strip().lstrip(":") for x in sub])
            else:
                choices.append([sg])
        return [["::".join(c)] for c in itertools.product(*choices)]
    return [[p]]


def parse_opword(word):
    """'atom{.sem}.add{.x.y}.f32' -> root, [(text, optional)]"""
    m = re.match(r"^([\w]+)", word)
    root = m.group(1)
    i = m.end()
    items = []
    while i < len(word):
        c = word[i]
        if c == "{":
            j = word.index("}", i)
            items.append((word[i + 1:j], True))
            i = j + 1
        elif c == ".":
            m = re.match(r"\.([\w:]+)", word[i:])
            items.append(("." + m.group(1), False))
            i += m.end()
        else:
            sys.exit("bad opcode word %r at %d" % (word, i))
    return root, items


def build_forms(refdir):
    forms = []
    files = sorted(f for f in os.listdir(refdir) if f.endswith(".txt"))
    for fname in files:
        sections = parse_file(os.path.join(refdir, fname), fname)
        for si, (stmts, _defs) in enumerate(sections):
            for stmt in stmts:
                m = re.match(r"^(\S+)\s*(.*)$", stmt, re.S)
                word, operands = m.group(1), m.group(2)
                root, items = parse_opword(word)
                roots = [root]
                rvals = lookup(sections, si, root)
                if rvals is not None:
                    roots = [v.strip().lstrip(".") for v in rvals]
                slots = []
                for (t, opt) in items:
                    alts = [[]]
                    for p in split_parts(t):
                        palts = expand_part(sections, si, p, frozenset())
                        alts = [a + b for a in alts for b in palts]
                    # dedupe, keep order
                    seen = []
                    for a in alts:
                        if a not in seen:
                            seen.append(a)
                    if opt and [] not in seen:
                        seen.append([])
                    slots.append(seen)
                for r in roots:
                    forms.append(Form(fname, r, slots, operands.strip(), stmt))
    return forms


# ---------------------------------------------------------------------------
# Operand shapes.


def skip_group(s, i, open_c, close_c):
    depth = 0
    while i < len(s):
        if s[i] == open_c:
            depth += 1
        elif s[i] == close_c:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    sys.exit("unbalanced %r in %r" % (open_c, s))


def parse_operands(s):
    """Operand list text -> list of dicts {kind, opt, text, neg, not, pair}."""
    ops = []
    cur = None
    optdepth = 0
    i = 0
    n = len(s)
    prefix = ""
    while i < n:
        c = s[i]
        if c.isspace():
            i += 1
            continue
        if c == ",":
            cur = None
            i += 1
            continue
        if c == "{":
            j = i + 1
            while j < n and s[j].isspace():
                j += 1
            if s[j] == ",":
                optdepth += 1
                cur = None
                i = j + 1
                continue
            if s[j] in "!-":
                prefix = s[j]
                i = s.index("}", j) + 1
                continue
            if s[j] in ".|":
                k = s.index("}", j)
                if cur is not None and s[j] == "|":
                    cur["pair"] = "opt"
                if cur is not None and s[j] == ".":
                    cur["suffix"] = s[j:k]
                i = k + 1
                continue
            k = skip_group(s, i, "{", "}")
            if cur is None:
                cur = {"kind": "o", "opt": optdepth > 0, "text": s[i:k], "prefix": prefix}
                prefix = ""
                ops.append(cur)
            else:
                cur["text"] += s[i:k]
            i = k
            continue
        if c == "}":
            optdepth -= 1
            cur = None
            i += 1
            continue
        if c in "[(":
            close = "]" if c == "[" else ")"
            k = skip_group(s, i, c, close)
            if cur is None:
                cur = {"kind": "a" if c == "[" else "l", "opt": optdepth > 0,
                       "text": s[i:k], "prefix": prefix}
                prefix = ""
                ops.append(cur)
            i = k
            continue
        if cur is None:
            cur = {"kind": "o", "opt": optdepth > 0, "text": "", "prefix": prefix}
            prefix = ""
            ops.append(cur)
        if c == "|" and cur is not None:
            cur["pair"] = "always"
        cur["text"] += c
        i += 1
    return ops


def shape_of(ops):
    """Shape letters; a first operand named d (d, d|p) is a destination: 'd'."""
    letters = []
    for i, o in enumerate(ops):
        kind = o["kind"]
        if i == 0 and kind == "o" and re.match(r"d\b", o["text"]):
            kind = "d"
        letters.append(kind + ("?" if o["opt"] else ""))
    return "".join(letters)


# ---------------------------------------------------------------------------
# Categories.


def read_types(root):
    types = []
    with open(os.path.join(root, "ir", "types.def"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\s*X\((\w+),\s*\"([\w]+)\"", line)
            if m:
                types.append((m.group(2), m.group(1)))
    return types


def read_type_bits(root):
    bits = {}
    with open(os.path.join(root, "ir", "types.def"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\s*X\((\w+),\s*\"(\w+)\",\s*(\d+)", line)
            if m:
                bits[m.group(2)] = int(m.group(3))
    return bits


def category_of(text, typenames):
    if text in typenames:
        return "TYPE"
    if text in SPACES:
        return "SPACE"
    if text in VECS:
        return "VEC"
    if text in CATEGORY:
        return CATEGORY[text]
    if text.startswith("L2::evict_"):
        return "MISC" if L2EVICT_AS_MISC else "L2EVICT"
    if SHAPE_RE.match(text):
        return "SHAPE"
    return "MISC"


def enum_name(text):
    if text in ENUM_OVERRIDE:
        return ENUM_OVERRIDE[text]
    return text.upper().replace("::", "_").replace(".", "_")


def op_enum(name):
    return name.upper().replace("::", "_").replace(".", "_")


# ---------------------------------------------------------------------------
# Decoding forms onto opcodes.


def decode_prefix(parts, opset):
    best = None
    for k in range(1, len(parts) + 1):
        if ".".join(parts[:k]) in opset:
            best = k
    return best


def could_extend(parts, opprefixes):
    return ".".join(parts) in opprefixes


class OpData:
    def __init__(self, name):
        self.name = name
        self.allowed = set()
        self.shapes = []
        self.required = None
        self.forms = []


def analyse(forms, typenames):
    opset = set(OPCODES)
    opprefixes = set()
    for o in OPCODES:
        ps = o.split(".")
        for k in range(1, len(ps)):
            opprefixes.add(".".join(ps[:k]))
    data = {o: OpData(o) for o in OPCODES}
    problems = []

    def cats_of(parts):
        return [category_of(p, typenames) for p in parts]

    for form in forms:
        shape = shape_of(parse_operands(form.operands))
        results = []   # (opcode, definite parts, remaining slots)

        def rec(parts, si):
            if si < len(form.slots) and could_extend(parts, opprefixes):
                for alt in form.slots[si]:
                    rec(parts + alt, si + 1)
                return
            k = decode_prefix(parts, opset)
            if k is None:
                problems.append("no opcode for %s: %s" % (form.fname, ".".join(parts)))
                return
            results.append((".".join(parts[:k]), parts[k:], si))

        rec([form.root], 0)
        for (op, rest, si) in results:
            d = data[op]
            slots = form.slots[si:]
            d.allowed.update(rest)
            for s in slots:
                for alt in s:
                    d.allowed.update(alt)
            if shape not in d.shapes:
                d.shapes.append(shape)
            if form not in d.forms:
                d.forms.append(form)
            req = set(cats_of(rest))
            for s in slots:
                common = None
                for alt in s:
                    cs = set(cats_of(alt))
                    common = cs if common is None else common & cs
                req |= common or set()
            d.required = req if d.required is None else d.required & req
            # category conflicts between parts that can appear together
            groups = [[rest]] + slots
            seen = {}
            for gi, g in enumerate(groups):
                gcats = {}
                for alt in g:
                    cs = cats_of(alt)
                    for c in set(cs):
                        if c not in REPEATABLE and cs.count(c) > 1:
                            problems.append("%s: %s: two %s in %s" % (form.fname, op, c, alt))
                    for p, c in zip(alt, cs):
                        gcats.setdefault(c, set()).add(p)
                for c, ps in gcats.items():
                    if c in REPEATABLE:
                        continue
                    if c in seen:
                        problems.append("%s: %s: %s conflict: %s vs %s in %s" % (
                            form.fname, op, c, sorted(seen[c]), sorted(ps), form.text))
                    else:
                        seen[c] = set(ps)
    for o in OPCODES:
        if not data[o].forms:
            problems.append("opcode without forms: " + o)
    # wrong captures: a longer opcode made of a shorter one plus modifiers it accepts
    for o in OPCODES:
        for p in OPCODES:
            if p != o and p.startswith(o + "."):
                extra = p[len(o) + 1:].split(".")
                if all(x in data[o].allowed for x in extra) and (o, p) not in INTENDED_CAPTURES:
                    problems.append("%s would capture %s + modifiers" % (p, o))
    return data, problems


# ---------------------------------------------------------------------------
# Output.

HEADER_C = "/* Generated by tools/isa/gen_isa.py from the PTX ISA 9.0 syntax reference;\n * do not edit. Regenerate: python3 tools/isa/gen_isa.py SYNTAX_DIR */\n"
HEADER_TXT = "# Generated by tools/isa/gen_isa.py from the PTX ISA 9.0 syntax reference;\n# do not edit. Regenerate: python3 tools/isa/gen_isa.py SYNTAX_DIR\n"


def order_modifiers(data, types, typenames):
    """All modifier texts in .def order: types (types.def order), spaces,
    vectors, then the other categories in ptx_modcat order."""
    used = set()
    for d in data.values():
        used |= d.allowed
    catorder = ["TYPE", "SPACE", "VEC", "ROUND", "CMP", "OP", "SAT", "FTZ",
                "APPROX", "RELU", "NAN", "XORSIGN", "ABS", "WIDTH", "CC", "UNI",
                "ALIGNED", "SYNC", "SEM", "SCOPE", "COP", "L1EVICT", "L2EVICT",
                "CACHEHINT", "PREFETCH", "NC", "MODE", "CLAMP", "SHAPE",
                "LAYOUT", "GEOM", "MISC"]
    out = []
    for (t, _e) in types:
        if t in used:
            out.append(t)
    for s in SPACES:
        if s in used:
            out.append(s)
    for v in VECS:
        if v in used:
            out.append(v)
    listed = [w for w in CATEGORY]
    for c in catorder[3:]:
        members = [w for w in listed if CATEGORY[w] == c and w in used]
        rest = sorted(w for w in used if w not in out and w not in members
                      and category_of(w, typenames) == c and w not in CATEGORY)
        if c == "SHAPE":
            rest = sorted(rest, key=shape_key)
        out.extend(members + rest)
    missing = used - set(out)
    assert not missing, missing
    return out


def shape_key(s):
    nums = [int(x) for x in re.findall(r"\d+", s)]
    return (s[0].isdigit(), nums, s)


def value_of(text, cat, typeenum):
    if cat == "TYPE":
        return "PTX_TYPE_" + typeenum[text]
    if cat == "SPACE":
        return "PTX_SPACE_" + SPACES[text]
    if cat == "VEC":
        return str(VECS[text])
    return "0"


def write(path, content):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(content)


def emit(root, data, mods, typenames, typeenum):
    enums = {}
    for m in mods:
        e = enum_name(m)
        if e in enums.values():
            sys.exit("enum collision: " + e)
        enums[m] = e
    # opcodes.def
    lines = [HEADER_C.rstrip("\n"),
             "/* Every PTX ISA 9.0 instruction: X(ENUM, \"name\"). The name is the dotted",
             " * prefix the parser matches (longest match); modifiers follow it. */"]
    for o in OPCODES:
        lines.append('X(%s, "%s")' % (op_enum(o), o))
    write(os.path.join(root, "ir", "opcodes.def"), "\n".join(lines) + "\n")
    # modifiers.def
    lines = [HEADER_C.rstrip("\n"),
             "/* Every modifier spelling: X(ENUM, \"text\", PTX_MODCAT_x, value), text",
             " * without the leading dot. value: ptx_type for TYPE, ptx_space for SPACE,",
             " * element count for VEC, else 0. Grouped by category, in ptx_modcat order.",
             " * Choices where the ISA is ambiguous:",
             " *  - \"NaN\" (min/max NaN propagation) is NAN_PROPAGATE; \"nan\" (compare:",
             " *    unordered) is NAN.",
             " *  - .hi/.lo are WIDTH also where they compare (setp.lo.u32); .ls/.hs are CMP.",
             " *  - .uni is UNI also as a vote mode.",
             " *  - .mmio is MISC, not SEM: ld.mmio.relaxed.sys carries both.",
             " *  - .L2::evict_* are MISC, not L2EVICT: createpolicy carries a primary and",
             " *    a secondary priority of the same spellings; L2EVICT is unused.",
             " *  - .popc is MISC (mma ....xor.popc carries an OP with it); matrix counts",
             " *    .x1-.x128, .trans, .sp, .cta_group::N and the like are MISC.",
             " *  - Single-letter selectors (.a .b .c .d of wmma, .r .g .b .a of tld4, .l .r",
             " *    of shf, .b .p of surface ops) are MODE.",
             " *  - Packed types that ir/types.def does not list (f32x2, u16x2, s16x2, u2,",
             " *    s2, e2m3x4, e3m2x4, b8x16, b6x16_p32, b4x16_p64, b1024) are MISC. */"]
    last = None
    for m in mods:
        c = category_of(m, typenames)
        if c != last:
            lines.append("/* ---- %s ---- */" % c)
            last = c
        lines.append('X(%s, "%s", PTX_MODCAT_%s, %s)' % (enums[m], m, c, value_of(m, c, typeenum)))
    write(os.path.join(root, "ir", "modifiers.def"), "\n".join(lines) + "\n")
    # isa_table.inc
    idx = {m: i + 1 for i, m in enumerate(mods)}
    out = [HEADER_C.rstrip("\n"),
           "/* Data of ir/isa_table.c: per-opcode allowed modifiers (ascending",
           " * ptx_modifier), required categories, operand shapes; name indexes. */",
           ""]
    for o in OPCODES:
        d = data[o]
        e = op_enum(o)
        al = sorted(d.allowed, key=lambda m: idx[m])
        if al:
            out.append("static const uint16_t isa_allowed_%s[] = {" % e)
            out.extend(wrap(["PTX_MOD_%s" % enums[m] for m in al]))
            out.append("};")
        out.append("static const char *const isa_shapes_%s[] = {%s};" % (
            e, ", ".join('"%s"' % s for s in d.shapes)))
    out.append("")
    out.append("static const isa_opcode_info isa_opcodes[PTX_OP_COUNT] = {")
    for o in OPCODES:
        d = data[o]
        e = op_enum(o)
        # MISC is a grab bag: never required
        req = sorted(c for c in (d.required or []) if c != "MISC")
        reqs = " | ".join("ISA_CAT(%s)" % c for c in req) or "0"
        al = "isa_allowed_%s" % e if d.allowed else "NULL"
        out.append("    [PTX_OP_%s] = {\"%s\", %s, %d, %s, isa_shapes_%s, %d}," % (
            e, o, al, len(d.allowed), reqs, e, len(d.shapes)))
    out.append("};")
    out.append("")
    out.append("/* Opcodes sorted by name (byte order), for binary search. */")
    out.append("static const uint16_t isa_opcodes_by_name[] = {")
    out.extend(wrap(["PTX_OP_%s" % op_enum(o) for o in sorted(OPCODES, key=lambda s: s.encode())]))
    out.append("};")
    out.append("")
    out.append("/* Modifiers sorted by text (byte order), for binary search. */")
    out.append("static const uint16_t isa_modifiers_by_text[] = {")
    out.extend(wrap(["PTX_MOD_%s" % enums[m] for m in sorted(mods, key=lambda s: s.encode())]))
    out.append("};")
    write(os.path.join(root, "parser", "isa_table.inc"), "\n".join(out) + "\n")
    return enums


def wrap(items, width=78):
    lines = []
    cur = "   "
    for it in items:
        piece = " " + it + ","
        if len(cur) + len(piece) > width:
            lines.append(cur)
            cur = "   "
        cur += piece
    if cur.strip():
        lines.append(cur)
    return lines


# ---------------------------------------------------------------------------
# Instances for testdata/isa/forms.txt.

MATRIX_OPS = {"wmma.load", "wmma.store", "wmma.mma", "mma", "ldmatrix",
              "stmatrix", "movmatrix", "wgmma.mma_async", "wgmma.mma_async.sp",
              "tcgen05.ld", "tcgen05.st"}

# Widths of type-like modifiers that ir/types.def does not list.
EXTRA_TYPE_BITS = {"f32x2": 64, "u16x2": 32, "s16x2": 32, "u2": 2, "s2": 2,
                   "e2m3x4": 32, "e3m2x4": 32, "b8x16": 128, "b6x16_p32": 128,
                   "b4x16_p64": 128, "b1024": 1024}

# Opcodes whose predicate-named operands (p, q) are predicates.
PRED_P_OPS = {"setp", "isspacep", "istypep", "testp", "bar", "barrier"}


def reg_class(t, typebits):
    """Register class (%r, %rd, ...) holding a value of type-like modifier t."""
    if t == "f32":
        return "%f"
    if t == "f64":
        return "%fd"
    if t == "pred":
        return "%p"
    bits = typebits.get(t, EXTRA_TYPE_BITS.get(t, 32))
    if bits == 128:
        return "%q"
    if bits == 64:
        return "%rd"
    if bits == 16:
        return "%h"
    return "%r"


def wide_class(cls):
    return {"%r": "%rd", "%h": "%r", "%f": "%fd"}.get(cls, cls)


class Regs:
    """Hands out distinct register numbers per class within one instance."""

    def __init__(self):
        self.n = {}

    def get(self, cls):
        k = self.n.get(cls, 0) + 1
        self.n[cls] = k
        return "%s%d" % (cls, k)

    def vec(self, cls, n):
        return "{" + ", ".join(self.get(cls) for _ in range(n)) + "}"


IMM_NAMES = {"n", "immlut", "imm-reg-count", "immalign", "immhalfsplitoff",
             "imm-scale-a", "imm-scale-b", "imm-trans-a", "imm-trans-b",
             "sp-sel", "scale-d", "initval", "suspendtimehint", "16"}
B32_NAMES = {"size", "count", "txcount", "tx_count", "src-size", "rbits",
             "ncols", "idesc", "ctamask", "bytemask", "scale-a-data",
             "scale-b-data", "sp-meta", "byte-id-a", "thread-id-a",
             "byte-id-b", "thread-id-b", "enable-input-d", "scale-input-d",
             "disable-output-lane", "zero-column-mask-desc", "primary-size",
             "total-size", "ord", "mask", "base", "offset", "phaseparity",
             "taddr", "index", "t", "nbytes"}
B64_NAMES = {"cache-policy", "a-desc", "b-desc", "s-desc", "fptr", "state",
             "access-property", "ptr"}


def render_operand(op, o, mods, tys, typebits, regs, variant, vec):
    """Concrete text of one operand of an instance of opcode o; tys are the
    instance's type-like modifiers in written order."""
    name = op["text"].strip()
    kind = op["kind"]
    base = re.split(r"[.|]", name)[0].strip() if not name.startswith("{") else name
    lname = base.lower()
    t0 = tys[0] if tys else "b32"
    t1 = tys[1] if len(tys) > 1 else t0
    pre = op.get("prefix", "") if variant % 2 == 0 else ""

    def pair(s):
        if op.get("pair") == "always" or (op.get("pair") == "opt" and variant % 2 == 0):
            s += "|" + regs.get("%p")
        return s

    if kind == "l":
        return "(%r1)" if "ret" in lname else "(%r2)"
    if kind == "a":
        inner = name[1:-1]
        if o in ("tex", "tld4"):
            if inner.count(",") >= 2 and "{" not in inner and variant % 2 == 0:
                return "[tex1, samp1, {%f1, %f2}]"
            return "[tex1, {%f1, %f2}]"
        if o == "txq":
            return "[tex1]" if variant % 3 else "[samp1]"
        if o == "suq":
            return "[surf1]"
        if o in ("suld", "sust", "sured"):
            return "[surf1, {%r8, %r9}]"
        if "tensorCoords" in inner:
            return "[%rd8, {%r8, %r9}]"
        if "tmem" in inner or inner == "taddr":
            return "[" + regs.get("%r") + "]"
        if o in ("ld", "st") and "param" in mods:
            return "[gsym]" if variant % 2 else "[" + regs.get("%rd") + "]"
        if o in ("ld", "st", "atom", "red") and ("shared" in mods or "shared::cta" in mods):
            return "[ssym+4]" if variant % 3 == 0 else "[" + regs.get("%rd") + "]"
        if o == "ld" and "const" in mods:
            return "[csym]"
        if o in ("ld", "st", "atom", "red") and "global" in mods and variant % 4 == 1:
            return "[gsym+8]"
        return "[" + regs.get("%rd") + "]"
    if name.startswith("{"):
        if o == "clusterlaunchcontrol.query_cancel":
            return "{%r1, %r2, %r3, _}"
        n = name.count(",") + 1
        if lname.startswith("{byte-id") or lname.startswith("{xdim"):
            return "{0, 0}"
        return regs.vec("%f" if o == "cvt" else "%r", n)
    # control flow operands
    if o == "call":
        if lname == "func":
            return "f1" if op.get("shape") in ("lol", "ol") else "f0"
        if lname == "fptr":
            return regs.get("%rd")
        return "proto1"
    if o == "bra":
        return "L1" if variant % 2 == 0 else "L2"
    if o == "brx.idx":
        return regs.get("%r") if lname == "index" else "bt1"
    if o == "mov" and lname in ("fname", "kernel"):
        return "f0"
    # predicates
    if lname in ("q", "pred", "waitcomplete", "ignore-src") or \
            (lname == "p" and o in PRED_P_OPS) or \
            (lname == "d" and o in ("vote", "vote.sync") and "ballot" not in mods) or \
            (lname == "a" and o in ("vote", "vote.sync")) or \
            (lname == "c" and (op.get("prefix") == "!" or o == "selp")):
        return pair(pre + regs.get("%p"))
    if lname == "_":
        return "_"
    if lname == "membermask":
        return "-1" if variant % 2 == 0 else regs.get("%r")
    if lname in IMM_NAMES or re.match(r"^\d+$", lname):
        if re.match(r"^\d+$", lname):
            return lname
        return "0" if lname in ("initval", "sp-sel", "imm-trans-a", "imm-trans-b") else "1"
    if lname == "cp-size":
        return "16"
    if lname == "fraction":
        return "0f3F800000"
    if lname == "lod":
        return regs.get("%f")
    if lname == "im2colinfo":
        return "{%h1, %h2}"
    if lname == "try_cancel_response":
        return regs.get("%q")
    if lname == "new_val":
        return regs.get(reg_class(t0 if t0 != "b1024" else t1, typebits))
    if lname in B64_NAMES:
        return regs.get("%rd")
    if lname in B32_NAMES:
        return regs.get("%r")
    # data operands
    if o in MATRIX_OPS and lname in ("d", "a", "b", "c", "r"):
        return regs.vec("%r", 4)
    if o in ("mma",) and lname in ("e", "f"):
        return regs.get("%r") if lname == "e" else "0"
    if o in ("tex", "tld4") and lname == "e":
        return "{%r1, %r2}"
    if o in ("tex", "tld4") and lname == "f":
        return regs.get("%f")
    cls = reg_class(t0, typebits)
    if o in ("cvt", "set") and lname != "d":
        cls = reg_class(t1, typebits)
    elif o == "slct" and lname == "c":
        cls = reg_class(t1, typebits)
    elif o == "cvt.pack":
        cls = "%r"
    elif o in ("popc", "clz", "bfind") and lname == "d":
        cls = "%r"
    elif o in ("shl", "shr", "shf", "bfe") and lname in ("b", "c"):
        cls = "%r"
    elif o in ("cvta", "isspacep", "mapa", "getctarank") and lname in ("p", "a", "d"):
        cls = "%r" if ("u32" in mods and lname != "a") or (o == "getctarank" and lname == "d") else "%rd"
        if o == "mapa" and lname == "b":
            cls = "%r"
    elif o in ("vote", "vote.sync", "dp4a", "dp2a", "prmt", "lop3", "fns", "bfi", "bmsk", "szext"):
        cls = "%r"
    if "wide" in mods and lname in ("d",) or ("wide" in mods and o == "mad" and lname == "c"):
        cls = wide_class(cls)
    if vec and lname in ("d", "b", "c", "r"):
        if not (o in ("atom", "red", "multimem.ld_reduce") and lname == "c"):
            return regs.vec(cls, vec)
    s = pre + regs.get(cls)
    if ".dsel" in name:
        s += ".h0"
    return pair(s)


def instances(form, typenames, typebits, opset):
    """A few concrete instruction lines for one form: every alternative of
    every slot appears at least once; optional operands alternate between
    present and absent."""
    slots = form.slots
    n = max([len(s) for s in slots] + [2])
    ops = parse_operands(form.operands)
    shape = shape_of(ops)
    for op in ops:
        op["shape"] = shape.replace("?", "")
    lines = []
    for i in range(n):
        parts = [form.root]
        for s in slots:
            parts += s[i % len(s)]
        k = decode_prefix(parts, opset)
        if k is None:
            continue
        o = ".".join(parts[:k])
        mods = parts[k:]
        tys = [m for m in mods if m in typenames or m in EXTRA_TYPE_BITS]
        vec = 0
        for m in mods:
            if m in VECS:
                vec = VECS[m]
        if o in ("tex", "tld4") and not vec:
            vec = 4
        regs = Regs()
        rendered = []
        for op in ops:
            if op["opt"] and i % 2 == 1:
                continue
            rendered.append(render_operand(op, o, mods, tys, typebits, regs, i, vec))
        line = ".".join(parts)
        if rendered:
            line += " " + ", ".join(rendered)
        lines.append(line + ";")
    return lines


BAD_FORMS = [
    "frobnicate.b32 %r1, %r2;",
    "add.global.s32 %r1, %r2, %r3;",
    "ld.global.v3.f32 {%f1, %f2, %f3}, [%rd1];",
    "mov.u32.rn %r1, %r2;",
    "cvt.rn.rz.f32.f64 %f1, %fd1;",
    "add.s32 %r1, %r2;",
    "add.s32 %r1, %r2, %r3, %r4;",
    "ld.global.f32 %f1, %rd1;",
    "st.global.f32 %f1, [%rd1];",
    "bra.uni;",
    "setp.eq.lt.s32 %p1, %r1, %r2;",
    "mul.hi.wide.s32 %rd1, %r1, %r2;",
    "ld.relaxed.acquire.gpu.global.f32 %f1, [%rd1];",
    "ld.gpu.sys.global.f32 %f1, [%rd1];",
    "fma.rn.rz.f32 %f1, %f2, %f3, %f4;",
    "sqrt.approx.full.f32 %f1, %f2;",
    "shfl.sync.up.down.b32 %r1, %r2, 1, 31, -1;",
    "ld.global.ca.cg.f32 %f1, [%rd1];",
    "ld.global.v2.v4.f32 {%f1, %f2}, [%rd1];",
    "bar.sync.uni 0;",
    "atom.global.add.inc.u32 %r1, [%rd1], %r2;",
    "add.f32.sat.ftz.ftz %f1, %f2, %f3;",
    "ld.global.flt32 %f1, [%rd1];",
    "add.s32x %r1, %r2, %r3;",
    "ld.global.L1::evict_lastt.f32 %f1, [%rd1];",
    "mad.lo.s32 %r1, %r2, %r3;",
    "ret %r1;",
    "exit %r1;",
    "call.uni (%r1), f1, (%r2), (%r3), (%r4);",
    "bra.uni L1, L2;",
    "mov.b32 [%rd1], %r1;",
    "cvta.to.global.u64 %rd1;",
    "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, tex1;",
    "sin.approx.rn.f32 %f1, %f2;",
    "shl.b32.sat %r1, %r2, 1;",
    "and.rn.b32 %r1, %r2, %r3;",
    "not.b32.cc %r1, %r2;",
    "selp.eq.b32 %r1, %r2, %r3, %p1;",
    "bar.warp.sync.aligned -1;",
    "membar.gpu.sys;",
    "fence.sc.acq_rel.gpu;",
    "vote.sync.all.any.pred %p1, %p2, -1;",
    "prmt.b32.f4e.b4e %r1, %r2, %r3, %r4;",
    "mma.sync.aligned.m16n8k16.m16n8k8.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};",
    "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4};",
    "cp.async.ca.shared.global.ftz [%rd1], [%rd2], 16;",
    "rcp.rn.rz.f32 %f1, %f2;",
    "div.approx.full.f32 %f1, %f2, %f3;",
    "ld.global %r1, [%rd1];",
    "mov %r1, %r2;",
    "st.global.nc.f32 [%rd1], %f1;",
    "ld.global.wb.f32 %f1, [%rd1];",
    "atom.global.add.v16.u32 %r1, [%rd1], %r2;",
    "atom.global.add.u32 %r1, %r2, [%rd1];",
    "setp.lt.s32 %r1, [%rd1], %r2;",
    "add.cc.sat.s32 %r1, %r2, %r3;",
    "cvt.u32.u32.u32 %r1, %r2, %r3, %r4, %r5;",
    "popc.sync.b32 %r1, %r2;",
    "wgmma.fence.sync.aligned.f32;",
    "cp.async.wait_all 0;",
    "nanosleep.u32;",
    "trap.uni;",
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("syntax_dir")
    ap.add_argument("--root", default=os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")))
    ap.add_argument("--check", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()

    types = read_types(args.root)
    typenames = {t for (t, _e) in types}
    typeenum = {t: e for (t, e) in types}
    typebits = read_type_bits(args.root)
    forms = build_forms(args.syntax_dir)
    forms.extend(Form(f, root, [vecs, [[t] for t in tys]], ops, "%s%s" % (root, ops))
                 for (f, root, vecs, tys, ops) in EXTRA_FORMS_SPEC)
    data, problems = analyse(forms, typenames)
    mods = order_modifiers(data, types, typenames)
    for p in problems:
        print("problem:", p, file=sys.stderr)
    if args.verbose:
        for m in mods:
            print("%-32s %s" % (m, category_of(m, typenames)))
        for o in OPCODES:
            d = data[o]
            print(o, sorted(d.required or []), d.shapes, sorted(d.allowed))
    if problems:
        sys.exit(1)
    if args.check:
        return
    emit(args.root, data, mods, typenames, typeenum)
    opset = set(OPCODES)
    opprefixes = set()
    lines = [HEADER_TXT.rstrip("\n"),
             "# One PTX instruction per line; each form of the reference, several",
             "# modifier combinations. Registers %r %rd %f %fd %h %q %p, symbols",
             "# gsym ssym csym tex1 samp1 surf1, labels L1 L2 bt1, functions f0 f1,",
             "# prototype proto1."]
    seen = set()
    for form in forms:
        for line in instances(form, typenames, typebits, opset):
            if line not in seen:
                seen.add(line)
                lines.append(line)
    write(os.path.join(args.root, "testdata", "isa", "forms.txt"), "\n".join(lines) + "\n")
    bad = [HEADER_TXT.rstrip("\n"),
           "# Each line is one instruction that must be rejected (unknown opcode or",
           "# modifier, modifier not allowed on the opcode, conflicting modifiers,",
           "# wrong operand count or kind)."] + BAD_FORMS
    write(os.path.join(args.root, "testdata", "isa", "bad_forms.txt"), "\n".join(bad) + "\n")
    print("%d opcodes, %d modifiers, %d forms, %d instance lines" % (
        len(OPCODES), len(mods), len(forms), len(lines) - 5), file=sys.stderr)


if __name__ == "__main__":
    main()
