// HB304 golden input: libraries without a ROCm equivalent.
#include <nppi.h>
#include <nvjpeg.h>
#include <cufft.h>

void resize(const Npp8u* src, Npp8u* dst, NppiSize size, NppiRect roi) {
  nppiResize_8u_C1R(src, size.width, size, roi, dst, size.width, size, roi, NPPI_INTER_LINEAR);
}

void decode(nvjpegHandle_t handle) { nvjpegDestroy(handle); }

// Negative: cuFFT has hipFFT.
void plan(cufftHandle* plan, int n) { cufftPlan1d(plan, n, CUFFT_C2C, 1); }
