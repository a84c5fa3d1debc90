#!/usr/bin/env python3
"""Generate one large PTX module for the parse benchmark.

The module is built from the nvcc-generated test data (testdata/ptx/*.<target>.O3.ptx),
so its instruction mix is that of real compiler output:

    one header (.version, .target, .address_size)
    the .extern functions the inputs call but do not define (vprintf, __assertfail, ...),
        declared once, under their own names
    then, again and again until the requested size is reached, every input file in turn:
        its module-level declarations and every .entry/.func (definitions, prototypes,
        .weak functions), .global/.const/.shared variables with their initializers,
        .extern .shared arrays, and the module-level comments nvcc writes between them

Every name defined at module level in an input file (kernels, functions, variables such as
$str or the __cudart_* tables, dynamic-shared arrays) gets a suffix "_c<N>", where N is
unique to that copy of that file, so the module has no redefinitions and every reference
(call targets, `mov.u64 %rd, sym;`, address-of initializers `{generic(sym)}`, vtables,
`// .globl` comments) resolves to the same renamed copy. Names are replaced as whole
identifiers, so parameter names such as `<kernel>_param_0` and function-local names are
left alone.

Usage: gen_ptx.py [-s MB] [-t sm_90] [-i DIR] -o OUT.ptx
MB is MiB (2^20 bytes); the default 64 is the benchmark size (the benchmark wants >= 50).
Python 3 standard library only.
"""

import argparse
import os
import re
import sys
from pathlib import Path

MIB = 1 << 20

# One identifier (PTX: [A-Za-z_$%][A-Za-z0-9_$]*), or a number-like token that must not be
# split into a spurious identifier (0f3F800000, 0d..., 1.5e3, 0x1F).
TOKEN = re.compile(r'[0-9][A-Za-z0-9_$.]*|[A-Za-z_$%][A-Za-z0-9_$]*')
IDENT = re.compile(r'[A-Za-z_$%][A-Za-z0-9_$]*')
HEADER_DIRECTIVES = ('.version', '.target', '.address_size')
LINE_DIRECTIVES = HEADER_DIRECTIVES + ('.file',)  # one line each, no ';'
MARK = '\x00'  # stands for the copy suffix in a file's template text


def strip_comment(line):
    i = line.find('//')
    return line if i < 0 else line[:i]


class Chunk:
    """One module-level item: a comment/blank line, or a whole directive or function."""

    def __init__(self, text, code):
        self.text = text  # original lines, comments included
        self.code = code  # comments removed, joined by spaces
        self.kind = 'comment' if not code.strip() else 'other'
        self.name = None
        self.extern = False
        self.has_body = False


def split_chunks(text, path):
    """Split a PTX file into module-level chunks; a chunk ends at depth 0 on ';' or '}'."""
    chunks, cur, code = [], [], []
    depth = 0
    for lineno, line in enumerate(text.splitlines(keepends=True), 1):
        c = strip_comment(line)
        if '/*' in c:
            sys.exit(f'gen_ptx: {path}:{lineno}: block comments are not supported')
        if not cur and not c.strip():
            chunks.append(Chunk(line, ''))
            continue
        if not cur and c.split()[0] in LINE_DIRECTIVES:  # no ';': the line is the directive
            chunks.append(Chunk(line, c.strip()))
            continue
        cur.append(line)
        code.append(c.strip())
        for ch in c:
            if ch in '({':
                depth += 1
            elif ch in ')}':
                depth -= 1
        if depth < 0:
            sys.exit(f'gen_ptx: {path}:{lineno}: unbalanced brackets')
        s = c.rstrip()
        if depth == 0 and (s.endswith(';') or s.endswith('}')):
            chunks.append(Chunk(''.join(cur), ' '.join(code)))
            cur, code = [], []
    if cur:
        sys.exit(f'gen_ptx: {path}: unterminated declaration at end of file')
    return chunks


def classify(ch, path):
    code = ch.code
    words = code.split()
    first = words[0]
    if first in HEADER_DIRECTIVES:
        ch.kind = 'header'
        return
    ch.extern = '.extern' in words
    m = re.search(r'(^|\s)\.(entry|func)\b', code)
    if m:
        ch.kind = 'function'
        rest = code[m.end():].lstrip()
        if rest.startswith('('):  # return parameter list
            d = 0
            for i, c in enumerate(rest):
                d += c == '('
                d -= c == ')'
                if d == 0:
                    rest = rest[i + 1:].lstrip()
                    break
        n = IDENT.match(rest)
        if not n:
            sys.exit(f'gen_ptx: {path}: cannot find the function name in: {code[:120]}')
        ch.name = n.group(0)
        ch.has_body = '{' in code
        return
    if first.startswith('.') and re.search(r'(^|\s)\.(global|const|shared|local)\b', code):
        ch.kind = 'variable'
        decl = re.split(r'[=;\[<]', code, 1)[0]
        for tok in decl.split():
            if not tok.startswith('.') and not tok[0].isdigit():
                ch.name = tok.rstrip(',')
                break
        if not ch.name:
            sys.exit(f'gen_ptx: {path}: cannot find the variable name in: {code[:120]}')
        if ',' in decl:
            sys.exit(f'gen_ptx: {path}: multi-name declarations are not supported: {code[:120]}')
        return
    ch.kind = 'other'  # e.g. .pragma, .alias, .file: copied (renamed) as they are


class Input:
    def __init__(self, path):
        self.path = path
        text = Path(path).read_text()
        self.chunks = split_chunks(text, path)
        for c in self.chunks:
            if c.kind != 'comment':
                classify(c, path)
        hdr = {c.code.split()[0]: c.code.rstrip(';').split()[1:] for c in self.chunks
               if c.kind == 'header'}
        self.version = tuple(int(x) for x in hdr.get('.version', ['0.0'])[0].split('.'))
        self.target = ' '.join(hdr.get('.target', []))
        self.address_size = ' '.join(hdr.get('.address_size', ['64']))
        # Names this file defines (renamed per copy), and external functions/variables it
        # only declares (kept under their own names, declared once in the prologue).
        defined = {c.name for c in self.chunks if c.name and not c.extern}
        defined |= {c.name for c in self.chunks
                    if c.name and c.extern and c.kind == 'variable' and '.shared' in c.code.split()}
        self.renamed = defined
        self.externs = [c for c in self.chunks
                        if c.name and c.extern and c.name not in defined]
        self.template = self._template()

    def _template(self):
        """The file's body with MARK after every module-level name, header and
        comment preamble dropped, external declarations dropped (they go to the prologue)."""
        out = []
        started = False  # drop the "Generated by NVIDIA NVVM Compiler" comment block
        for c in self.chunks:
            if c.kind == 'header' or c in self.externs:
                continue
            if c.kind == 'comment' and not started:
                continue
            started = True
            out.append(c.text)
        body = ''.join(out)
        names = self.renamed

        def sub(m):
            t = m.group(0)
            return t + MARK if t in names else t

        return TOKEN.sub(sub, body)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('-s', '--size', type=float, default=64.0,
                    help='size of the output in MiB (default 64; the benchmark wants >= 50)')
    ap.add_argument('-t', '--target', default='sm_90', help='which inputs: *.<target>.O3.ptx')
    ap.add_argument('-i', '--input-dir', default=None,
                    help='directory of the inputs (default: testdata/ptx of this repository)')
    ap.add_argument('-o', '--output', required=True, help='the PTX file to write')
    ap.add_argument('-q', '--quiet', action='store_true', help='no summary on stderr')
    args = ap.parse_args()
    if args.size <= 0:
        ap.error('--size must be positive')

    indir = Path(args.input_dir) if args.input_dir else \
        Path(__file__).resolve().parent.parent.parent / 'testdata' / 'ptx'
    paths = sorted(indir.glob(f'*.{args.target}.O3.ptx'))
    if not paths:
        sys.exit(f'gen_ptx: no {indir}/*.{args.target}.O3.ptx files')
    inputs = [Input(p) for p in paths]

    targets = {i.target for i in inputs}
    if len(targets) != 1:
        sys.exit(f'gen_ptx: the inputs name different targets: {sorted(targets)}')
    asz = {i.address_size for i in inputs}
    if len(asz) != 1:
        sys.exit(f'gen_ptx: the inputs use different address sizes: {sorted(asz)}')
    version = max(i.version for i in inputs)

    # The external declarations, once each; the same name must be declared the same way.
    prologue, seen = [], {}
    for i in inputs:
        for c in i.externs:
            norm = ' '.join(c.code.replace('(', ' ( ').replace(')', ' ) ').split())
            if c.name in seen:
                if seen[c.name] != norm:
                    sys.exit(f'gen_ptx: {i.path}: {c.name} is declared differently elsewhere')
                continue
            seen[c.name] = norm
            prologue.append(c.text.rstrip('\n') + '\n\n')

    header = ('//\n// Generated by tools/bench/gen_ptx.py from testdata/ptx/*.%s.O3.ptx\n//\n\n'
              '.version %d.%d\n.target %s\n.address_size %s\n\n'
              % (args.target, version[0], version[1], targets.pop(), asz.pop()))
    target_bytes = int(args.size * MIB)
    written = 0
    copies = 0
    n = 0
    all_names = set(seen)
    with open(args.output, 'w', encoding='utf-8', newline='\n') as out:
        for s in [header] + prologue:
            out.write(s)
            written += len(s.encode())
        while written < target_bytes:
            for i in inputs:
                suffix = f'_c{n}'
                for name in i.renamed:
                    if name + suffix in all_names:
                        sys.exit(f'gen_ptx: name clash on {name + suffix}')
                    all_names.add(name + suffix)
                s = i.template.replace(MARK, suffix)
                if not s.endswith('\n\n'):
                    s += '\n'
                out.write(s)
                written += len(s.encode())
                n += 1
                if written >= target_bytes:
                    break
            copies += 1
    if not args.quiet:
        print(f'gen_ptx: {args.output}: {written / MIB:.1f} MiB, {len(inputs)} input files '
              f'({", ".join(os.path.basename(str(p)).split(".")[0] for p in paths)}), '
              f'{n} file copies ({copies} rounds)', file=sys.stderr)


if __name__ == '__main__':
    main()
