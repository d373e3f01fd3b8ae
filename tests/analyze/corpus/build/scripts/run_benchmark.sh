#!/usr/bin/env bash
# Runs the benchmark on one GPU and records a profile.
set -euo pipefail
export CUDA_VISIBLE_DEVICES=${GPU:-0}
export CUDA_LAUNCH_BLOCKING=0
nvidia-smi --query-gpu=name,memory.total --format=csv
echo "Profiling with nsys; install Nsight Systems if missing"
nsys profile -o report ./solver --size 4096
ncu --set full -k sgemm ./solver --size 1024
