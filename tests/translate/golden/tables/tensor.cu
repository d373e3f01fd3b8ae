// cuTENSOR table: handle, status and data types (hipTensor); an API hipTensor lacks stays, with a located
// warning.
// CHECK: #include <hiptensor/hiptensor.hpp>
#include <cutensor.h>
int main() {
  // CHECK: hiptensorHandle_t handle;
  cutensorHandle_t handle;
  // CHECK: hiptensorStatus_t status = hiptensorCreate(&handle);
  cutensorStatus_t status = cutensorCreate(&handle);
  // STDERR: tensor.cu:[[@LINE+2]]:3: warning: 'cutensorHandleResizePlanCache' is unsupported in 'HIP'. [TR001]
  // CHECK: cutensorHandleResizePlanCache(handle, 16);
  cutensorHandleResizePlanCache(handle, 16);
  // CHECK: hiptensorDestroy(handle);
  cutensorDestroy(handle);
  // CHECK: return status == HIPTENSOR_STATUS_SUCCESS ? 0 : 1;
  return status == CUTENSOR_STATUS_SUCCESS ? 0 : 1;
}
// EXIT: 1 -- a file of this test goes through the token-level fallback; migrate-hipify exits 1 as hipify-clang does
