// Types table: runtime types, enums, enum constants and macros (including the CUDA include guards that copied
// helper headers test); a type HIP lacks stays, with a located warning.
#include <cuda_runtime.h>
// CHECK: #ifdef HIP_INCLUDE_HIP_DRIVER_TYPES_H
#ifdef __DRIVER_TYPES_H__
// CHECK: inline const char* ErrorName(hipError_t error) { return hipGetErrorName(error); }
inline const char* ErrorName(cudaError_t error) { return cudaGetErrorName(error); }
#endif
// CHECK: #if defined(HIP_INCLUDE_HIP_HIP_RUNTIME_H) && defined(__HIPCC__)
#if defined(__CUDA_RUNTIME_H__) && defined(__CUDACC__)
inline int Attribute(int device) {
  int value = 0;
  // CHECK: hipDeviceGetAttribute(&value, hipDeviceAttributeMaxThreadsPerBlock, device);
  cudaDeviceGetAttribute(&value, cudaDevAttrMaxThreadsPerBlock, device);
  return value;
}
#endif
int main() {
  // CHECK: hipMemcpyKind kind = hipMemcpyDeviceToHost;
  cudaMemcpyKind kind = cudaMemcpyDeviceToHost;
  // CHECK: hipFuncAttributes attributes;
  cudaFuncAttributes attributes;
  // CHECK: hipIpcMemHandle_t handle;
  cudaIpcMemHandle_t handle;
  // CHECK: unsigned flags = hipHostMallocPortable;
  unsigned flags = CU_MEMHOSTALLOC_PORTABLE;
  // STDERR: types.cu:[[@LINE+2]]:3: warning: 'cudaEglFrame' is unsupported in 'HIP'. [TR001]
  // CHECK: cudaEglFrame frame;
  cudaEglFrame frame;
  // CHECK: return kind == hipMemcpyDeviceToHost && flags ? 0 : 1;
  return kind == cudaMemcpyDeviceToHost && flags ? 0 : 1;
}
// EXIT: 1 -- a file of this test goes through the token-level fallback; migrate-hipify exits 1 as hipify-clang does
