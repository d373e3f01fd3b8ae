// Driver API table: functions, handle types and result codes; an API HIP lacks stays, with a located warning.
#include <cuda.h>
int main() {
  // CHECK: hipDevice_t device;
  CUdevice device;
  // CHECK: hipDeviceptr_t memory;
  CUdeviceptr memory;
  // CHECK: hipModule_t module;
  CUmodule module;
  // CHECK: hipFunction_t function;
  CUfunction function;
  // CHECK: hipError_t result = hipInit(0);
  CUresult result = cuInit(0);
  // CHECK: hipDeviceGet(&device, 0);
  cuDeviceGet(&device, 0);
  // CHECK: hipMalloc(&memory, 64);
  cuMemAlloc(&memory, 64);
  // CHECK: hipModuleLoad(&module, "kernel.hsaco");
  cuModuleLoad(&module, "kernel.hsaco");
  // CHECK: hipModuleGetFunction(&function, module, "kernel");
  cuModuleGetFunction(&function, module, "kernel");
  char luid[8];
  unsigned mask = 0;
  // STDERR: driver.cu:[[@LINE+2]]:3: warning: 'cuDeviceGetLuid' is unsupported in 'HIP'. [TR001]
  // CHECK: cuDeviceGetLuid(luid, &mask, device);
  cuDeviceGetLuid(luid, &mask, device);
  // CHECK: hipFree(memory);
  cuMemFree(memory);
  // CHECK: return result == hipSuccess ? 0 : 1;
  return result == CUDA_SUCCESS ? 0 : 1;
}
