#!/bin/bash
# Runs the example on one GPU and profiles it.
set -euo pipefail
export CUDA_VISIBLE_DEVICES=0
export CUDA_LAUNCH_BLOCKING=1
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
nvidia-smi
nvcc --version
nsys profile -o vecops ./build/vecops_app
compute-sanitizer ./build/vecops_app
docker run --rm --gpus all -v "$PWD:/src" vecops:latest ./build/vecops_app
