// y = 2*x + y with cuBLAS, then the dot product x.y, then a Thrust sort and sum of y.
#include <cstdio>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>

#define CHECK_CUDA(call)                                                      \
  do {                                                                        \
    cudaError_t err = (call);                                                 \
    if (err != cudaSuccess) {                                                 \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err), \
                   __FILE__, __LINE__);                                       \
      return 1;                                                               \
    }                                                                         \
  } while (0)

#define CHECK_CUBLAS(call)                                                    \
  do {                                                                        \
    cublasStatus_t status = (call);                                           \
    if (status != CUBLAS_STATUS_SUCCESS) {                                    \
      std::fprintf(stderr, "cuBLAS error %d at %s:%d\n", (int)status,         \
                   __FILE__, __LINE__);                                       \
      return 1;                                                               \
    }                                                                         \
  } while (0)

__global__ void fill(float* data, int n, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = scale * static_cast<float>((i * 7) % n);
}

int main() {
  const int n = 1 << 12;
  thrust::device_vector<float> x(n), y(n);
  float* dx = thrust::raw_pointer_cast(x.data());
  float* dy = thrust::raw_pointer_cast(y.data());
  fill<<<(n + 255) / 256, 256>>>(dx, n, 1.0f);
  fill<<<(n + 255) / 256, 256>>>(dy, n, 0.5f);
  CHECK_CUDA(cudaGetLastError());

  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  const float alpha = 2.0f;
  CHECK_CUBLAS(cublasSaxpy(handle, n, &alpha, dx, 1, dy, 1));
  float dot = 0.0f;
  CHECK_CUBLAS(cublasSdot(handle, n, dx, 1, dy, 1, &dot));
  CHECK_CUBLAS(cublasDestroy(handle));

  thrust::sort(y.begin(), y.end());
  const float sum = thrust::reduce(y.begin(), y.end(), 0.0f);
  std::vector<float> host(3);
  CHECK_CUDA(cudaMemcpy(host.data(), dy, 3 * sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("dot %.1f sum %.1f smallest %.1f %.1f %.1f\n", dot, sum, host[0], host[1], host[2]);
  return 0;
}
