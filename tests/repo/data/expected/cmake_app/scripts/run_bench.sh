#!/bin/bash
# Runs the example on one GPU and profiles it.
set -euo pipefail
export HIP_VISIBLE_DEVICES=0
export AMD_SERIALIZE_KERNEL=3
export PATH=/opt/rocm/bin:$PATH
export LD_LIBRARY_PATH=/opt/rocm/lib:${LD_LIBRARY_PATH:-}
amd-smi
hipcc --version
rocprofv3 profile -o vecops ./build/vecops_app
compute-sanitizer ./build/vecops_app
docker run --rm --device /dev/kfd --device /dev/dri --group-add video -v "$PWD:/src" vecops:latest ./build/vecops_app
