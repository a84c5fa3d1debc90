#!/usr/bin/env bash
# Regenerate the device code PTX of the divergent programs, part 1:
#
#   testdata/cudart/divergent/<name>.sm_80.ptx   nvcc -ptx -arch=sm_80 -O3
#
# Usage: testdata/cudart/divergent/gen_ptx_part1.sh   (NVCC=/path/to/nvcc to pick a compiler)
#
# The recipe of testdata/gen_ptx.sh, so the output is deterministic and
# free of machine paths: nvcc runs inside this directory on relative file
# names, -frandom-seed=<file> and `-Xcicc --orig_src_path_name=
# testdata/cudart/divergent/<file>` fix the hashes of internal-linkage
# names, PWD is /proc/self/cwd, and `.file` names (none at -O3, but a
# compiler may add them) become repository-relative or <cuda>/include/...,
# <system>/include/...; the script fails if an absolute path survives.
set -euo pipefail

NVCC=${NVCC:-nvcc}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rel=testdata/cudart/divergent
ARCH=sm_80
PROGRAMS=(bfs bitonic_sort reduction mandelbrot backprop lud nw hotspot)

normalize() {
    sed -E \
        -e "s#^(\\s*\\.file\\s+[0-9]+\\s+)\"/proc/self/cwd/#\\1\"$rel/#" \
        -e 's#^(\s*\.file\s+[0-9]+\s+)"/[^"]*/(targets/[^/"]+/include|cuda[^/"]*/include)/#\1"<cuda>/include/#' \
        -e 's#^(\s*\.file\s+[0-9]+\s+)"/[^"]*/include/#\1"<system>/include/#'
}

"$NVCC" --version | grep release
for name in "${PROGRAMS[@]}"; do
    cu=$name.cu
    dst=$here/$name.$ARCH.ptx
    tmp=$(mktemp)
    (cd "$here" && PWD=/proc/self/cwd "$NVCC" -ptx -arch="$ARCH" -O3 \
        -frandom-seed="$cu" -Xcicc --orig_src_path_name="$rel/$cu" "$cu" -o "$tmp")
    normalize <"$tmp" >"$dst"
    rm -f "$tmp"
    if grep -Eq '^\s*\.file\s+[0-9]+\s+"/' "$dst"; then
        echo "error: absolute path left in $dst:" >&2
        grep -E '^\s*\.file\s+[0-9]+\s+"/' "$dst" >&2
        exit 1
    fi
    echo "  $name"
done
