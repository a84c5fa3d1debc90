#!/usr/bin/env python3
"""Generate one PTX kernel with many instructions, for the analyzer's scaling benchmark.

The shape is that of large compiler output: a grid-stride outer loop whose body is a long
sequence of regions -- straight code, if-then and if-then-else hammocks, small counted inner
loops -- over SSA-style registers as compilers emit them: every value is written once and read by the
next few instructions; a value defined inside a branch is read after the join only through a
register that every arm writes (a lowered phi); a few long-lived values are read throughout. With --irreducible, a fraction of
the regions also jump back into the middle of the then-arm of an earlier if (a second entry
into a cycle: irreducible loops, overlapping across the whole body); with
--dead-end, the kernel ends in an infinite loop on one path. With --branchy, most regions are
instead a few instructions and a branch out of the middle of the outer loop: a `break` to the
code after it, an early `return` (a guarded ret) or a `continue` to its latch, so one loop holds
tens of thousands of branches whose reconvergence points lie outside it or at its end (the
worst case for likely-convergence points).

Usage: gen_big_function.py -n INSTRUCTIONS [--irreducible] [--dead-end] [--branchy] [--seed S]
                           -o OUT.ptx
Python 3 standard library only; the output is deterministic for a given seed.
"""

import argparse
import random


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('-n', type=int, required=True, help='approximate instruction count')
    ap.add_argument('--irreducible', action='store_true')
    ap.add_argument('--dead-end', action='store_true')
    ap.add_argument('--branchy', action='store_true')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('-o', required=True)
    a = ap.parse_args()
    rnd = random.Random(a.seed)
    body = []
    nreg = [0]
    npred = [0]
    nlabel = [0]

    def reg():
        nreg[0] += 1
        return f'%r{nreg[0]}'

    def pred():
        npred[0] += 1
        return f'%p{npred[0]}'

    def label():
        nlabel[0] += 1
        return f'$L{nlabel[0]}'

    longlived = []
    recent = []
    count = [0]

    def emit(s):
        body.append(s)
        count[0] += 1

    def src():
        if longlived and rnd.random() < 0.15:
            return rnd.choice(longlived)
        return rnd.choice(recent[-6:]) if recent else '%r0'

    def straight(k, outer=True):
        for _ in range(k):
            d = reg()
            op = rnd.choice(['add.s32', 'mul.lo.s32', 'xor.b32', 'sub.s32', 'ld'])
            if op == 'ld':
                emit(f'ld.global.u32 {d}, [%rd1+{4 * rnd.randrange(64)}];')
            else:
                emit(f'{op} {d}, {src()}, {src()};')
            recent.append(d)
            del recent[:-6]
            if outer and rnd.random() < 0.01:
                longlived.append(d)
                del longlived[:-8]
        emit(f'st.global.u32 [%rd1], {recent[-1]};')

    labels_so_far = []
    arms = []  # labels in the middle of then-arms
    emit('mov.u32 %r0, %tid.x;')
    recent.append('%r0')
    emit('ld.param.u64 %rd1, [k_p0];')
    top = label()
    latch, after = (label(), label()) if a.branchy else (None, None)
    body.append(f'{top}:')
    while count[0] < a.n:
        kind = rnd.random()
        p = pred()
        if a.branchy and kind < 0.8:  # a few instructions, then a branch out of the loop body
            straight(rnd.randint(1, 3))
            emit(f'setp.lt.s32 {p}, {src()}, {src()};')
            if kind < 0.4:
                emit(f'@{p} bra {after};')   # break
            elif kind < 0.6:
                emit(f'@{p} ret;')           # early return
            else:
                emit(f'@{p} bra {latch};')   # continue
            continue
        if kind < 0.35:
            straight(rnd.randint(3, 8))
        elif kind < 0.65:  # if-then: phi = then ? new : old
            end, phi, saved = label(), reg(), recent[-6:]
            emit(f'mov.u32 {phi}, {src()};')
            emit(f'setp.lt.s32 {p}, {src()}, {src()};')
            emit(f'@{p} bra {end};')
            straight(rnd.randint(1, 3), False)
            mid = label()
            body.append(f'{mid}:')
            arms.append(mid)
            straight(rnd.randint(1, 3), False)
            emit(f'mov.u32 {phi}, {recent[-1]};')
            body.append(f'{end}:')
            recent[:] = saved + [phi]
        elif kind < 0.85:  # if-then-else, both arms writing the phi
            els, end, phi, saved = label(), label(), reg(), recent[-6:]
            emit(f'setp.lt.s32 {p}, {src()}, {src()};')
            emit(f'@{p} bra {els};')
            straight(rnd.randint(2, 6), False)
            emit(f'mov.u32 {phi}, {recent[-1]};')
            emit(f'bra.uni {end};')
            body.append(f'{els}:')
            recent[:] = saved
            straight(rnd.randint(2, 6), False)
            emit(f'mov.u32 {phi}, {recent[-1]};')
            body.append(f'{end}:')
            recent[:] = saved + [phi]
        else:  # counted inner loop; values escape through the last iteration's phi
            head, i, phi, saved = label(), reg(), reg(), recent[-6:]
            emit(f'mov.u32 {i}, 0;')
            body.append(f'{head}:')
            straight(rnd.randint(2, 6), False)
            emit(f'mov.u32 {phi}, {recent[-1]};')
            i2 = reg()
            emit(f'add.s32 {i2}, {i}, 1;')
            emit(f'mov.u32 {i}, {i2};')
            emit(f'setp.lt.s32 {p}, {i}, 8;')
            emit(f'@{p} bra {head};')
            recent[:] = saved + [phi]
        here = label()
        body.append(f'{here}:')
        labels_so_far.append(here)
        if a.irreducible and len(arms) > 1 and rnd.random() < 0.2:
            q = pred()
            emit(f'setp.eq.s32 {q}, {src()}, 7;')
            emit(f'@{q} bra {rnd.choice(arms[:-1])};')
    p = pred()
    if a.branchy:
        body.append(f'{latch}:')
    emit(f'setp.lt.s32 {p}, {src()}, 100;')
    emit(f'@{p} bra {top};')
    if a.branchy:
        body.append(f'{after}:')
    if a.dead_end:
        spin = label()
        q = pred()
        emit(f'setp.eq.s32 {q}, %r0, 5;')
        done = label()
        emit(f'@!{q} bra {done};')
        body.append(f'{spin}:')
        emit(f'add.s32 %r0, %r0, 1;')
        emit(f'bra {spin};')
        body.append(f'{done}:')
    emit('ret;')
    with open(a.o, 'w') as out:
        out.write('.version 8.0\n.target sm_80\n.address_size 64\n\n')
        out.write('.visible .entry k(.param .u64 k_p0)\n{\n')
        out.write(f'.reg .pred %p<{npred[0] + 1}>;\n.reg .b32 %r<{nreg[0] + 1}>;\n'
                  '.reg .b64 %rd<2>;\n')
        out.write('\n'.join(body))
        out.write('\n}\n')


if __name__ == '__main__':
    main()
