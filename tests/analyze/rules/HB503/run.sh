#!/bin/bash
# HB503 golden input: CUDA environment variables.
export CUDA_VISIBLE_DEVICES=0,1
CUDA_LAUNCH_BLOCKING=1 ./app
export CUDA_DEVICE_ORDER=PCI_BUS_ID
# export CUDA_VISIBLE_DEVICES=2 (commented out: silent)
export OMP_NUM_THREADS=4
./app
