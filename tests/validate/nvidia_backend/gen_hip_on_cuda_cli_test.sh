#!/usr/bin/env bash
# gen_hip_on_cuda's command line: --help prints usage and writes nothing (it used to write the header set into a
# directory named "--help"); no argument is refused; one OUTPUT_DIR writes the headers; --check of a clean tree
# exits 0 and of a tree with a CUDA name exits 1, names in branches the AMD build drops do not count, WMMA does.
# gen_hip_on_cuda_cli_test.sh GEN_HIP_ON_CUDA
set -u
gen=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
"$gen" --help > help.txt || fail "--help exited $?"
grep -q -- "--toolchain" help.txt || fail "--help does not list --toolchain"
[ ! -e ./--help ] || fail "--help wrote a directory named --help"
"$gen" > /dev/null 2>&1 && fail "no argument was accepted"
"$gen" out > /dev/null || fail "OUTPUT_DIR exited $?"
[ -f out/hip/hip_runtime.h ] || fail "no out/hip/hip_runtime.h"
mkdir -p clean dirty
printf '#include <hip/hip_runtime.h>\nvoid f() { hipDeviceSynchronize(); }\n' > clean/a.hip
printf '#include <hip/hip_runtime.h>\nvoid f() { cudaDeviceSynchronize(); }\n' > dirty/a.hip
"$gen" --check clean > /dev/null || fail "--check of a clean tree exited $?"
"$gen" --check dirty > /dev/null && fail "--check of a tree with cudaDeviceSynchronize exited 0"
# Only code the AMD build keeps counts (names in #if 0 / NVIDIA-platform branches refused 10 trees); WMMA does.
mkdir -p dropped wmma
printf '#include <hip/hip_runtime.h>\n#if 0\ncudaFree(0);\n#endif\n#ifdef __HIP_PLATFORM_NVIDIA__\nvoid g() { cudaDeviceSynchronize(); }\n#endif\n' > dropped/a.hip
printf '#include <mma.h>\nusing namespace nvcuda;\n' > wmma/a.hip
"$gen" --check dropped > /dev/null || fail "--check of a tree with CUDA names only in dropped branches exited $?"
"$gen" --check wmma > wmma.txt && fail "--check of a tree with nvcuda::wmma exited 0"
grep -q "a.hip:1:1: CUDA name left in translated code: #include <mma.h>" wmma.txt || fail "no <mma.h> in: $(cat wmma.txt)"
echo "gen_hip_on_cuda command line: 1 passed, 0 failed"
