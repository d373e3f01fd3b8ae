// ARGS: --cuda-path=/nonexistent-cuda --hip-kernel-execution-syntax
// Without a CUDA toolkit, kernel-only code still parses (minimal built-in declarations): no fallback.
// JSON: "status": "translated"
__global__ void kernel(float* out) { out[threadIdx.x + blockIdx.x * blockDim.x] = 0.f; }
void run(float* data, cudaStream_t stream) {
  // CHECK: hipLaunchKernelGGL(kernel, dim3(2), dim3(64), 0, stream, data);
  kernel<<<2, 64, 0, stream>>>(data);
}
