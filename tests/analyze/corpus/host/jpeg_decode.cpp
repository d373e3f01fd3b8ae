// JPEG decode on the GPU.
#include <nvjpeg.h>
#include <cuda_runtime.h>
#include <vector>

int decode(const std::vector<unsigned char>& bytes, nvjpegImage_t* out, cudaStream_t stream) {
  nvjpegHandle_t handle;
  nvjpegJpegState_t state;
  nvjpegCreateSimple(&handle);
  nvjpegJpegStateCreate(handle, &state);
  nvjpegStatus_t s = nvjpegDecode(handle, state, bytes.data(), bytes.size(), NVJPEG_OUTPUT_RGB, out, stream);
  nvjpegJpegStateDestroy(state);
  nvjpegDestroy(handle);
  return s == NVJPEG_STATUS_SUCCESS ? 0 : 1;
}
