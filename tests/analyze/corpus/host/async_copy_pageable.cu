// Host-to-device copies from several kinds of host memory.
#include <cuda_runtime.h>
#include <cstdlib>
#include <vector>

void upload_malloc(float* d, size_t n, cudaStream_t s) {
  float* h = static_cast<float*>(malloc(n * sizeof(float)));
  for (size_t i = 0; i < n; ++i) h[i] = 1.0f;
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  free(h);
}

void upload_vector(float* d, const std::vector<float>& values, cudaStream_t s) {
  cudaMemcpyAsync(d, values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice, s);
}

void upload_pinned(float* d, size_t n, cudaStream_t s) {
  float* h = nullptr;
  cudaMallocHost(&h, n * sizeof(float));
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  cudaFreeHost(h);
}

void upload_registered(float* d, size_t n, cudaStream_t s) {
  float* h = new float[n];
  cudaHostRegister(h, n * sizeof(float), cudaHostRegisterDefault);
  cudaMemcpyAsync(d, h, n * sizeof(float), cudaMemcpyHostToDevice, s);
  cudaStreamSynchronize(s);
  cudaHostUnregister(h);
  delete[] h;
}

void device_to_device(float* dst, const float* src, size_t n, cudaStream_t s) {
  cudaMemcpyAsync(dst, src, n * sizeof(float), cudaMemcpyDeviceToDevice, s);
}

void download_stack(const float* d, cudaStream_t s) {
  float result[16];
  cudaMemcpyAsync(result, d, sizeof(result), cudaMemcpyDeviceToHost, s);
  cudaStreamSynchronize(s);
}
