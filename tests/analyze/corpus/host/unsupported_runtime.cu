// Runtime calls with no HIP counterpart, next to ordinary ones.
#include <cuda_runtime.h>

void tune_l2(cudaStream_t stream, void* hot, size_t bytes) {
  cudaStreamAttrValue attr = {};
  attr.accessPolicyWindow.base_ptr = hot;
  attr.accessPolicyWindow.num_bytes = bytes;
  attr.accessPolicyWindow.hitRatio = 0.6f;
  attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &attr);
  cudaCtxResetPersistingL2Cache();
}

void ordinary(float* d, size_t n, cudaStream_t stream) {
  cudaMemsetAsync(d, 0, n * sizeof(float), stream);
  cudaStreamSynchronize(stream);
  cudaDeviceSynchronize();
}
