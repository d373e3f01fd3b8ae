#!/bin/bash
set -e
CUDA_DEVICE_ORDER=PCI_BUS_ID ./solver --small
compute-sanitizer --tool memcheck ./solver --small
cuda-memcheck ./solver --tiny
