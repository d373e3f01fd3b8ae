#!/usr/bin/env bash
# The "before" of the wave64 kernel set (examples/wave64-kernels): a port as a rename-only tool leaves it, every 32
# kept. CUDA runtime names become HIP's and 32-bit lane masks 64-bit (HIP 6.2+ rejects 32-bit masks at compile time,
# so a port that builds has at least that). Usage: naive_port.sh SRC_DIR OUT_DIR
set -euo pipefail
src=$1 out=$2
mkdir -p "$out"
for f in "$src"/*.cu "$src"/*.cuh; do
  sed -e 's/#include <cuda_runtime.h>/#include <hip\/hip_runtime.h>/' \
      -e 's/#include <cooperative_groups.h>/#include <hip\/hip_cooperative_groups.h>/' \
      -e 's/cudaDevAttrWarpSize/hipDeviceAttributeWarpSize/g' \
      -e 's/\bcuda\([A-Z]\)/hip\1/g' \
      -e 's/0xffffffff\b/0xffffffffffffffffull/g' "$f" > "$out/$(basename "$f")"
done
