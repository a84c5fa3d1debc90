#!/usr/bin/env bash
# Regenerate every PTX file under testdata/ptx/ from testdata/cuda/*.cu and
# from the CUDA programs of testdata/cudart/ listed in CUDART_PROGRAMS.
#
#   testdata/ptx/<name>.sm_75.O3.ptx   nvcc -ptx -arch=sm_75 -O3
#   testdata/ptx/<name>.sm_80.O3.ptx   nvcc -ptx -arch=sm_80 -O3
#   testdata/ptx/<name>.sm_90.O3.ptx   nvcc -ptx -arch=sm_90 -O3
#   testdata/ptx/<name>.sm_80.G.ptx    nvcc -ptx -arch=sm_80 -G   (.loc/.file/.section .debug_*)
#   testdata/ptx/<name>.sm_100.O3.ptx  nvcc -ptx -arch=sm_100 -O3 (files in SM100_FILES)
#   testdata/ptx/<program>.sm_XX.O3.ptx  the device code of a CUDART_PROGRAMS
#                                      program, -O3 for each of CUDART_ARCHS
#   testdata/cudart/divergent/<program>.sm_80.ptx  the device code of every
#                                      program of the divergent suite, -O3
#                                      (testdata/cudart/divergent/README.md)
#   testdata/cudart/memory/<program>.sm_80.ptx  the same for the memory
#                                      suite (testdata/cudart/memory/README.md)
#   testdata/cudart/locality/<program>.sm_80.ptx  the same for the locality
#                                      suite (testdata/cudart/locality/README.md)
#   testdata/cudart/database/<variant>.sm_80.ptx  the device code of each
#                                      variant of the database programs, -O3
#                                      (DATABASE_VARIANTS: program, macros;
#                                      the extended ones hold simtlab's
#                                      extensions of PTX)
#
# Usage: testdata/gen_ptx.sh            (NVCC=/path/to/nvcc to pick a compiler)
#        testdata/gen_ptx.sh divergent  the divergent suite only
#        testdata/gen_ptx.sh memory     the memory suite only
#        testdata/gen_ptx.sh locality   the locality suite only
#        testdata/gen_ptx.sh database   the database programs only
#
# Output is deterministic and free of machine paths:
#  * nvcc runs inside testdata/cuda (testdata/cudart,
#    testdata/cudart/divergent, testdata/cudart/memory,
#    testdata/cudart/locality) on relative file names, so assert() file
#    strings hold bare file names;
#  * -frandom-seed=<file> and `-Xcicc --orig_src_path_name=testdata/cuda/<file>`
#    (testdata/cudart/<file> for the programs) fix the hashes nvcc puts
#    into internal-linkage names (_ZN.._INTERNAL_<hash>_<len>_<file>_cu_<seed>...),
#    which otherwise depend on a random number and on the absolute source path;
#  * PWD is set to /proc/self/cwd (the same trick Bazel uses) so the -G
#    compilation directory does not depend on where the repository lives;
#  * the sed filter below then turns `.file` names into repository-relative
#    ones (testdata/cuda/x.cu, testdata/cudart/...) and header paths into
#    <cuda>/include/... or <system>/include/..., and rewrites the
#    DW_AT_comp_dir string in .debug_info (emitted as `.b8` bytes) from
#    "/proc/self/cwd" to "testdata/cuda/", which has the same length (14 bytes), so no DWARF
#    offsets move.
# The script fails if any absolute path survives in a .file directive.
set -euo pipefail

NVCC=${NVCC:-nvcc}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$here/cuda
out=$here/ptx

O3_ARCHS=(sm_75 sm_80 sm_90)
G_ARCHS=(sm_80)
# files of cuda/ also built for sm_100 (-O3)
SM100_FILES=(cub_block half_warp)
# programs of cudart/ (built there with check.h) whose device code joins the
# corpus; the cudart tests run them for compute_80
CUDART_PROGRAMS=(thrust_cub)
CUDART_ARCHS=(sm_80 sm_90 sm_100)
# the suites: every program of cudart/divergent, cudart/memory and
# cudart/locality, its PTX beside it
DIVERGENT_DIR=cudart/divergent
MEMORY_DIR=cudart/memory
LOCALITY_DIR=cudart/locality
SUITE_ARCH=sm_80
# the database programs: "variant program [macros]", PTX beside them
DATABASE_DIR=cudart/database
DATABASE_ARCH=sm_80
DATABASE_VARIANTS=(
    "table_scan table_scan"
    "table_scan_ext table_scan -DSIMTLAB_EXT"
    "index_search index_search"
    "index_search_tt index_search -DSIMTLAB_TT"
    "index_search_hint index_search -DSIMTLAB_HINT"
    "index_search_tt_hint index_search -DSIMTLAB_TT -DSIMTLAB_HINT"
)

# "/proc/self/cwd" and "testdata/cuda/" as the byte lists nvcc prints.
CWD_BYTES='47,112,114,111,99,47,115,101,108,102,47,99,119,100'
REL_BYTES='116,101,115,116,100,97,116,97,47,99,117,100,97,47'

normalize() { # normalize <dir: the source directory under testdata>
    sed -E \
        -e "s#^(\\s*\\.file\\s+[0-9]+\\s+)\"/proc/self/cwd/#\\1\"testdata/$1/#" \
        -e 's#^(\s*\.file\s+[0-9]+\s+)"/[^"]*/(targets/[^/"]+/include|cuda[^/"]*/include)/#\1"<cuda>/include/#' \
        -e 's#^(\s*\.file\s+[0-9]+\s+)"/[^"]*/include/#\1"<system>/include/#' \
        -e "s#^\\.b8 ${CWD_BYTES}\$#.b8 ${REL_BYTES}#"
}

compile() { # compile <dir: cuda|cudart|cudart/...> <file.cu> <arch> <mode: O3|G> <output> [nvcc flags...]
    local dir=$1 cu=$2 arch=$3 mode=$4 dst=$5 flag tmp
    shift 5
    case $mode in
    O3) flag=-O3 ;;
    G) flag=-G ;;
    esac
    tmp=$(mktemp)
    (cd "$here/$dir" && PWD=/proc/self/cwd "$NVCC" -ptx -arch="$arch" "$flag" "$@" \
        -frandom-seed="$cu" -Xcicc --orig_src_path_name="testdata/$dir/$cu" "$cu" -o "$tmp")
    normalize "$dir" <"$tmp" >"$dst"
    rm -f "$tmp"
    if grep -Eq '^\s*\.file\s+[0-9]+\s+"/' "$dst"; then
        echo "error: absolute path left in $dst:" >&2
        grep -E '^\s*\.file\s+[0-9]+\s+"/' "$dst" >&2
        exit 1
    fi
    if grep -q "^\\.b8 ${CWD_BYTES}\$" "$dst"; then
        echo "error: compilation directory left in $dst" >&2
        exit 1
    fi
}

# compile_suite <dir> <label>: a suite's PTX, beside its programs.
compile_suite() {
    local dir=$1 label=$2 path cu
    for path in "$here/$dir"/*.cu; do
        cu=$(basename "$path")
        compile "$dir" "$cu" "$SUITE_ARCH" O3 "$here/$dir/${cu%.cu}.$SUITE_ARCH.ptx"
        echo "  ${cu%.cu} ($label)"
    done
}

# compile_database: each variant of the database programs, beside them.
compile_database() {
    local v words
    for v in "${DATABASE_VARIANTS[@]}"; do
        read -r -a words <<<"$v"
        compile "$DATABASE_DIR" "${words[1]}.cu" "$DATABASE_ARCH" O3 \
            "$here/$DATABASE_DIR/${words[0]}.$DATABASE_ARCH.ptx" "${words[@]:2}"
        echo "  ${words[0]} (database)"
    done
}

shopt -s nullglob
"$NVCC" --version | grep release

case ${1:-} in
'') ;;
divergent)
    compile_suite "$DIVERGENT_DIR" divergent
    exit 0
    ;;
memory)
    compile_suite "$MEMORY_DIR" memory
    exit 0
    ;;
locality)
    compile_suite "$LOCALITY_DIR" locality
    exit 0
    ;;
database)
    compile_database
    exit 0
    ;;
*)
    echo "usage: $0 [divergent|memory|locality|database]" >&2
    exit 2
    ;;
esac

mkdir -p "$out"
rm -f "$out"/*.ptx

files=("$src"/*.cu)
if [ ${#files[@]} -eq 0 ]; then
    echo "error: no .cu files in $src" >&2
    exit 1
fi

for name in "${SM100_FILES[@]}" "${CUDART_PROGRAMS[@]}"; do
    if [ ! -f "$src/$name.cu" ] && [ ! -f "$here/cudart/$name.cu" ]; then
        echo "error: $name.cu listed in $0 does not exist" >&2
        exit 1
    fi
done

for path in "${files[@]}"; do
    cu=$(basename "$path")
    name=${cu%.cu}
    archs=("${O3_ARCHS[@]}")
    if [[ " ${SM100_FILES[*]} " == *" $name "* ]]; then
        archs+=(sm_100)
    fi
    for arch in "${archs[@]}"; do
        compile cuda "$cu" "$arch" O3 "$out/$name.$arch.O3.ptx"
    done
    for arch in "${G_ARCHS[@]}"; do
        compile cuda "$cu" "$arch" G "$out/$name.$arch.G.ptx"
    done
    echo "  $name"
done

for name in "${CUDART_PROGRAMS[@]}"; do
    for arch in "${CUDART_ARCHS[@]}"; do
        compile cudart "$name.cu" "$arch" O3 "$out/$name.$arch.O3.ptx"
    done
    echo "  $name (cudart)"
done

compile_suite "$DIVERGENT_DIR" divergent
compile_suite "$MEMORY_DIR" memory
compile_suite "$LOCALITY_DIR" locality
compile_database

du -ch "$out"/*.ptx | tail -n 1
