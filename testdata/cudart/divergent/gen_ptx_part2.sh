#!/usr/bin/env bash
# Regenerate testdata/cudart/divergent/<name>.sm_80.ptx, the device code of
# the divergent suite's part 2 programs (nvcc -ptx -arch=sm_80 -O3).
#
# Usage: testdata/cudart/divergent/gen_ptx_part2.sh   (NVCC=/path/to/nvcc to pick a compiler)
#
# The recipe of testdata/gen_ptx.sh, so the output is deterministic and
# free of machine paths: nvcc runs inside this directory on bare file
# names; -frandom-seed=<file> and -Xcicc
# --orig_src_path_name=testdata/cudart/divergent/<file> fix the hashes nvcc
# puts into internal-linkage names; PWD=/proc/self/cwd keeps the
# compilation directory out. -O3 PTX carries no .file directives (the
# header paths gen_ptx.sh's sed filter rewrites); the script fails if one
# with an absolute path appears all the same.
set -euo pipefail

NVCC=${NVCC:-nvcc}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PROGRAMS=(pathfinder quicksort strmatch montecarlo raytrace tablescan treesearch)
ARCH=sm_80

"$NVCC" --version | grep release
for name in "${PROGRAMS[@]}"; do
    dst=$here/$name.$ARCH.ptx
    (cd "$here" && PWD=/proc/self/cwd "$NVCC" -ptx -arch="$ARCH" -O3 -frandom-seed="$name.cu" \
        -Xcicc --orig_src_path_name="testdata/cudart/divergent/$name.cu" "$name.cu" -o "$dst")
    if grep -Eq '^\s*\.file\s+[0-9]+\s+"/' "$dst"; then
        echo "error: absolute path left in $dst:" >&2
        grep -E '^\s*\.file\s+[0-9]+\s+"/' "$dst" >&2
        exit 1
    fi
    echo "  $name"
done
