#!/bin/bash
# HB504 golden input: NVIDIA tools in scripts.
nvidia-smi --query-gpu=name --format=csv
nsys profile -o report ./app
ncu --set full ./app
compute-sanitizer --tool memcheck ./app
# nvprof ./app (commented out: silent)
echo "done"
./app --ncus 4
