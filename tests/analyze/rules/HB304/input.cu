// HB304 golden input: libraries without a ROCm equivalent.
#include <nppi.h>
#include <nvjpeg.h>
#include <cufft.h>
#include <cuda.h>

void resize(const Npp8u* src, Npp8u* dst, NppiSize size, NppiRect roi) {
  nppiResize_8u_C1R(src, size.width, size, roi, dst, size.width, size, roi, NPPI_INTER_LINEAR);
}

void decode(nvjpegHandle_t handle) { nvjpegDestroy(handle); }

// Negative: cuFFT has hipFFT.
void plan(cufftHandle* plan, int n) { cufftPlan1d(plan, n, CUFFT_C2C, 1); }

// Negative: the legacy driver launch API is unsupported in the tables, but the translator writes its definitions
// (TR013, docs/translator-shims.md), so the call is not left as is.
void launch(CUfunction f) { cuLaunchGrid(f, 1, 1); }
