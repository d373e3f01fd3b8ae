// HIP 6.2+ (default target 6.4) declares the *_sync warp functions only when HIP_ENABLE_WARP_SYNC_BUILTINS is
// defined before the unit's first HIP include. This unit includes the runtime before a project header that
// calls __shfl_xor_sync (the header defines it, too late for this unit): the unit gets the define on its own
// first line (HeCBench attentionMultiHeadKVCache-cuda).
// CHECK: #define HIP_ENABLE_WARP_SYNC_BUILTINS 1
// CHECK: #include <hip/hip_runtime.h>
#include <cuda_runtime.h>
#include "include/warp_sum.cuh"
__global__ void Reduce(float* data) { data[threadIdx.x] = WarpSum(data[threadIdx.x]); }
