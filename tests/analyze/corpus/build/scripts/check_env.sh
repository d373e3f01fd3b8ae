#!/bin/sh
# Prints which GPU will be used. Mentions of CUDA_VISIBLE_DEVICES and nvidia-smi in comments are fine.
echo "CUDA_VISIBLE_DEVICES is the variable to set; nvidia-smi lists devices"
printf '%s\n' "use compute-sanitizer for memory errors"
if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
  echo "restricted to ${CUDA_VISIBLE_DEVICES}"
fi
