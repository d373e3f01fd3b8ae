#!/bin/bash
# Build script: nvcc with ptxas options.
set -e
nvcc -O3 -Xptxas -v -o app main.cu
g++ -O2 -o tool tool.cpp
