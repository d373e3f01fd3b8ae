#include <hip/hip_runtime.h>
#include <hipblaslt/hipblaslt.h>

int main() {
  hipblasLtHandle_t handle;
  return hipblasLtCreate(&handle) == HIPBLAS_STATUS_SUCCESS ? 0 : 1;
}
