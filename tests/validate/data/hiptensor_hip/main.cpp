#include <hip/hip_runtime.h>
#include <hiptensor/hiptensor.hpp>

int main() {
  hiptensorHandle_t* handle = nullptr;
  return hiptensorCreate(&handle) == HIPTENSOR_STATUS_SUCCESS ? 0 : 1;
}
