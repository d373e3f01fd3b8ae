// HB402 golden input: async copies with pageable host memory (positives) and pinned/device memory (negatives).
#include <cuda_runtime.h>
#include <cstdlib>
#include <vector>

static void upload(float* device, const float* host, size_t n, cudaStream_t stream) {
  cudaMemcpyAsync(device, host, n * sizeof(float), cudaMemcpyHostToDevice, stream);
}

int main() {
  const size_t n = 1 << 20;
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  float* device = nullptr;
  float* device2 = nullptr;
  cudaMalloc(&device, n * sizeof(float));
  cudaMalloc(&device2, n * sizeof(float));

  float* heap = (float*)malloc(n * sizeof(float));
  cudaMemcpyAsync(device, heap, n * sizeof(float), cudaMemcpyHostToDevice, stream);
  float* newed = new float[n];
  cudaMemcpyAsync(newed, device, n * sizeof(float), cudaMemcpyDeviceToHost, stream);
  std::vector<float> vec(n);
  cudaMemcpyAsync(device, vec.data(), n * sizeof(float), cudaMemcpyHostToDevice, stream);
  float stack[256];
  cudaMemcpyAsync(stack, device, sizeof(stack), cudaMemcpyDeviceToHost, stream);
  float* through_helper = (float*)malloc(n * sizeof(float));
  upload(device, through_helper, n, stream);

  // Negatives: pinned, registered, device-to-device.
  float* pinned = nullptr;
  cudaMallocHost(&pinned, n * sizeof(float));
  cudaMemcpyAsync(device, pinned, n * sizeof(float), cudaMemcpyHostToDevice, stream);
  float* allocated = nullptr;
  cudaHostAlloc((void**)&allocated, n * sizeof(float), cudaHostAllocDefault);
  cudaMemcpyAsync(allocated, device, n * sizeof(float), cudaMemcpyDeviceToHost, stream);
  float* registered = (float*)malloc(n * sizeof(float));
  cudaHostRegister(registered, n * sizeof(float), cudaHostRegisterDefault);
  cudaMemcpyAsync(device, registered, n * sizeof(float), cudaMemcpyHostToDevice, stream);
  cudaMemcpyAsync(device2, device, n * sizeof(float), cudaMemcpyDeviceToDevice, stream);
  cudaStreamSynchronize(stream);
  free(heap);
  delete[] newed;
  free(through_helper);
  cudaHostUnregister(registered);
  free(registered);
  cudaFreeHost(pinned);
  cudaFreeHost(allocated);
  return 0;
}
