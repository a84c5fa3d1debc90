#!/usr/bin/env bash
# Assemble every hand-written PTX file in testdata/hand/ with ptxas, using
# the architecture named on the file's "// Validated with: ptxas -arch=..."
# line. Files whose line names a virtual architecture (compute_XX) are only
# parsed and checked; ptxas 13 can no longer generate code for them.
#
# Usage: testdata/check_hand.sh            (PTXAS=/path/to/ptxas to override)
set -euo pipefail

PTXAS=${PTXAS:-ptxas}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fail=0
for f in "$here"/hand/*.ptx; do
    arch=$(sed -nE 's#^// Validated with: ptxas -arch=([a-z_0-9]+) .*#\1#p' "$f" | head -n 1)
    if [ -z "$arch" ]; then
        echo "FAIL $(basename "$f"): no '// Validated with: ptxas -arch=...' line"
        fail=1
        continue
    fi
    if "$PTXAS" -arch="$arch" "$f" -o /dev/null 2>/dev/null; then
        echo "ok   $(basename "$f") (-arch=$arch)"
    else
        echo "FAIL $(basename "$f") (-arch=$arch)"
        "$PTXAS" -arch="$arch" "$f" -o /dev/null || true
        fail=1
    fi
done
exit $fail
