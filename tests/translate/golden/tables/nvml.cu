// NVML has no ROCm drop-in (ROCm SMI differs): the include and every use stay, each with a located warning.
// STDERR: nvml.cu:[[@LINE+3]]:11: warning: 'nvml.h' is an unsupported header: 'nvml.h' is unsupported in 'HIP'. [TR001]
// STDERR: nvml.cu:[[@LINE+5]]:3: warning: 'nvmlInit' is unsupported in 'HIP'. [TR001]
// CHECK: #include <nvml.h>
#include <nvml.h>
int main() {
  // CHECK: nvmlInit();
  nvmlInit();
  return 0;
}
// EXIT: 1 -- a file of this test goes through the token-level fallback; migrate-hipify exits 1 as hipify-clang does
