#!/usr/bin/env bash
# Builds with CMake and runs the self-checking binary on one GPU.
#   GPU=1 scripts/run.sh       # run on the second GPU
set -euo pipefail
cd "$(dirname "$0")/.."

export CUDA_VISIBLE_DEVICES=${GPU:-0}
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv,noheader
else
  echo "nvidia-smi not found; is the NVIDIA driver installed?" >&2
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j
ctest --test-dir build --output-on-failure
