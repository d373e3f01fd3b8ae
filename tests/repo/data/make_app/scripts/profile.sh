#!/bin/sh
# Profiles the stencil on the second GPU.
CUDA_VISIBLE_DEVICES=1 nvprof --print-gpu-trace ./stencil
ncu --set full -o stencil_report ./stencil
cuda-memcheck ./stencil
nvidia-smi --query-gpu=name,memory.used --format=csv
export CUDA_DEVICE_ORDER=PCI_BUS_ID
