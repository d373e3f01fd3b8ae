#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void vector_add(const double* a, const double* b, double* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  double *a, *b, *c;
  const int n = 1024;
  if (hipMalloc(&a, n * sizeof(double)) != hipSuccess) return 1;
  hipMalloc(&b, n * sizeof(double));
  hipMalloc(&c, n * sizeof(double));
  hipLaunchKernelGGL(vector_add, dim3(n / 128), dim3(128), 0, 0, a, b, c, n);
  printf("%d\n", hipDeviceSynchronize() == hipSuccess);
  return 0;
}
