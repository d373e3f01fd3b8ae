#!/usr/bin/env bash
# The OCP fp8 -> float shim (core/device_function_shims.cc, HIPFORGE_FP8_TO_FLOAT_SHIM) against the references, for
# all 256 values of each type: e4m3 against HIP 6.4's own host conversion, e5m2 against CUDA's definition (the byte
# shifted into a half's high byte, cuda_fp8.hpp's __nv_cvt_fp8_to_halfraw). The shim is taken from what the
# translator writes for the golden tests/translate/golden/fp8_to_float.cu, so what is checked is what users get.
#   [HIPCC="cmd"] [RUNNER="cmd"] [TMPDIR=DIR] bench/fp8/check.sh
# HIPCC (default hipcc) compiles, RUNNER (default none) prefixes the run: e.g. both entering a rocm-6.4 rootfs with
# bubblewrap, TMPDIR then a directory that rootfs sees.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d -p "${TMPDIR:-/tmp}"); trap 'rm -rf "$work"' EXIT
"$here/build/bin/migrate-hipify" "$here/tests/translate/golden/fp8_to_float.cu" -o "$work/out.hip" 2>/dev/null
{
  printf '#include <hip/hip_runtime.h>\n#include <hip/hip_fp16.h>\n#include <cmath>\n#include <cstdio>\n#include <cstring>\n'
  echo '#include <hip/hip_fp8.h>'
  # From the guard to the second #endif (the platform branch's, then the guard's).
  awk '/^#ifndef HIPFORGE_FP8_TO_FLOAT_SHIM/ {on = 1} on {print} on && /^#endif/ && ++ends == 2 {exit}' "$work/out.hip"
  cat "$here/bench/fp8/check_main.inc"
} >"$work/check.hip"
read -r -a hipcc <<<"${HIPCC:-hipcc}"
read -r -a runner <<<"${RUNNER:-}"
"${hipcc[@]}" -x hip --offload-arch=gfx942 -O2 -std=c++17 "$work/check.hip" -o "$work/check"
"${runner[@]}" "$work/check"
