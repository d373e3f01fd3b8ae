#!/bin/sh
# Profiles the stencil on the second GPU.
HIP_VISIBLE_DEVICES=1 rocprofv3 --print-gpu-trace ./stencil
rocprof-compute --set full -o stencil_report ./stencil
cuda-memcheck ./stencil
amd-smi --query-gpu=name,memory.used --format=csv
export CUDA_DEVICE_ORDER=PCI_BUS_ID
