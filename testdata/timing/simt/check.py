#!/usr/bin/env python3
"""Check the worked-example kernels of this directory: each file assembles
with ptxas (-arch=sm_80), and each kernel, run under the emulator with the
launch its header gives, leaves in out[tid] the path word the header states
(one hex digit per block run, A=1, B=2, ...): every thread took the path the
paper's example gives it. The expected words are written here from the
figures' thread sets, not from any run.

Usage: testdata/timing/simt/check.py BUILD/tools/simtlab   (PTXAS=... to
override ptxas)."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def fig_thread(tid):
    """The figure's thread for 4-thread-warp examples replicated over 32
    lanes: 4 * hardware warp + lane % 4 (0-based)."""
    return 4 * (tid // 32) + tid % 4


def in_set(mask, t):
    return (mask >> t) & 1 == 1


FUNG_EX1_C = {1, 6, 7}                       # 1-based figure threads (Fig. 7)
FUNG_FIG9_C = {2, 5, 7, 9, 12}               # reconstruction (1-based)
RHU42_B, RHU42_D = {7, 10}, {1, 4, 6, 8, 11}  # Fig. 4.2; D reconstructed
RHU48_B = {0, 1, 2, 3, 4, 7, 8, 9}           # Fig. 4.8
LWM_ACTIVE = 0x31C62E59                      # Fig. 4.5, bit 4*row+column
IOTA96 = 'buf:u32:' + ','.join(str(k) for k in range(96))

# (file, kernel, block, args, index of out, expected path word of tid,
#  extra check (buffer index, expected value of tid) or None)
CASES = [
    ('fung2011_example1.ptx', 'fung_example1', 64, ['buf:zero:256'], 0,
     lambda i: 0x134 if fig_thread(i) + 1 in FUNG_EX1_C else 0x124, None),
    ('fung2011_fig9.ptx', 'fung_fig9', 96, ['buf:zero:384', 'buf:zero:256'], 0,
     lambda i: 0x134 if fig_thread(i) + 1 in FUNG_FIG9_C else 0x124, None),
    ('fung2011_example2.ptx', 'fung_example2', 32,
     ['buf:zero:128', 'buf:u32:0,2,1,1,0,0,0,0', 'buf:zero:32', 'u32:2', 'u32:7'], 0,
     lambda i: [0x1251256, 0x1351256, 0x1346, 0x1346][i % 4],
     (2, lambda k: 7 if k in (0, 4, 5) else 0)),
    ('rhu2014_fig2_6.ptx', 'rhu_fig2_6', 32, ['buf:zero:128', 'buf:zero:128', IOTA96], 0,
     lambda i: [0x127, 0x127, 0x13467, 0x13567][i % 4],
     (1, lambda k: 32 + k if k % 4 < 2 else 64 + k)),
    ('rhu2014_fig3_3d.ptx', 'rhu_fig3_3d', 32, ['buf:zero:128', 'buf:zero:128', IOTA96], 0,
     lambda i: [0x127, 0x127, 0x13467, 0x13567][i % 4],
     (1, lambda k: 32 + k + 7 if k % 4 < 2 else 64 + k)),
    ('rhu2014_fig4_2.ptx', 'rhu_fig4_2', 96, ['buf:zero:384'], 0,
     lambda i: 0x127 if fig_thread(i) in RHU42_B
     else 0x13467 if fig_thread(i) in RHU42_D else 0x13567, None),
    ('rhu2014_fig4_8.ptx', 'rhu_fig4_8', 96, ['buf:zero:384', 'buf:zero:256', 'u32:2'], 0,
     lambda i: 0x127127 if fig_thread(i) in RHU48_B else 0x137137, None),
    ('rhu2014_fig4_19.ptx', 'slp_even_lanes', 128, ['buf:zero:512'], 0,
     lambda i: 0x124 if i % 2 == 0 else 0x134, None),
    ('rhu2014_fig4_19.ptx', 'slp_first_half', 128, ['buf:zero:512'], 0,
     lambda i: 0x124 if i % 32 < 16 else 0x134, None),
    ('narasiman_fig4_5.ptx', 'narasiman_fig4_5', 256, ['buf:zero:1024'], 0,
     lambda i: 0x124 if in_set(LWM_ACTIVE, 4 * (i // 32) + i % 4) else 0x134, None),
]


def run(simtlab, path, kernel, block, args, prints):
    cmd = [simtlab, 'run', path, '-k', kernel, '--grid', '1', '--block', str(block)]
    for a in args:
        cmd += ['--arg', a]
    for p in prints:
        cmd += ['--print', '%d:u32' % p]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return [int(x) for x in out.split()]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    simtlab = sys.argv[1]
    ptxas = os.environ.get('PTXAS', 'ptxas')
    fail = 0
    for f in sorted(x for x in os.listdir(HERE) if x.endswith('.ptx')):
        r = subprocess.run([ptxas, '-arch=sm_80', os.path.join(HERE, f), '-o', os.devnull],
                           capture_output=True, text=True)
        print('%s ptxas %s' % ('ok  ' if r.returncode == 0 else 'FAIL', f))
        fail |= r.returncode != 0
    for f, kernel, block, args, out_idx, want, extra in CASES:
        prints = [out_idx] + ([extra[0]] if extra else [])
        vals = run(simtlab, os.path.join(HERE, f), kernel, block, args, prints)
        bad = [i for i in range(block) if vals[i] != want(i)]
        if extra:
            rest = vals[block:]
            bad += ['%d:%d' % (extra[0], k) for k in range(len(rest)) if rest[k] != extra[1](k)]
        print('%s run   %s -k %s%s' % ('ok  ' if not bad else 'FAIL', f, kernel,
                                        '' if not bad else ' (wrong at %s)' % bad[:8]))
        fail |= bool(bad)
    sys.exit(1 if fail else 0)


if __name__ == '__main__':
    main()
