#!/bin/sh
# make_corpus.sh DIR — seed corpus for fuzz_parse: the small (< 64 KiB) PTX
# files of testdata/ (nvcc-generated, hand-written, extracted from the sample
# binaries) and a sample of single instructions from testdata/isa/forms.txt
# and bad_forms.txt, each wrapped in a kernel that declares the registers,
# symbols, labels and functions those lines use.
set -eu

if [ $# -ne 1 ]; then
    echo "usage: $0 CORPUS_DIR" >&2
    exit 2
fi
out=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
td=$root/testdata
mkdir -p "$out"

# whole files under 64 KiB (the fuzzer runs with -max_len=65536)
n=0
for f in "$td"/ptx/*.ptx "$td"/hand/*.ptx "$td"/bin/*.ptx "$td"/cudart/database/*.ptx; do
    [ -f "$f" ] || continue
    size=$(wc -c < "$f")
    [ "$size" -lt 65536 ] || continue
    cp "$f" "$out/file_$(basename "$f")"
    n=$((n + 1))
done

# instruction lines: every 20th valid form and every invalid one
prelude='.version 9.0
.target sm_100a
.address_size 64
.global .align 8 .b8 gsym[64];
.shared .align 8 .b8 ssym[64];
.const .align 8 .b8 csym[64];
.global .texref tex1;
.global .samplerref samp1;
.global .surfref surf1;
.func f0()
{
 ret;
}
.func (.param .b32 r) f1(.param .b32 a)
{
 ret;
}
.entry k()
{
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
L2:'
wrap() { # wrap FILE STEP PREFIX
    grep -v '^#' "$1" | awk -v step="$2" '(NR - 1) % step == 0' | {
        i=0
        while IFS= read -r line; do
            i=$((i + 1))
            printf '%s\n%s\n ret;\n}\n' "$prelude" "$line" > "$out/$3_$i.ptx"
        done
        echo "$i"
    }
}
[ -f "$td/isa/forms.txt" ] && n=$((n + $(wrap "$td/isa/forms.txt" 20 form)))
[ -f "$td/isa/bad_forms.txt" ] && n=$((n + $(wrap "$td/isa/bad_forms.txt" 1 badform)))
echo "make_corpus: $n seed inputs in $out"
