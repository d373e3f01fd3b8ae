// Image resize with NPP.
#include <npp.h>
#include <nppi_geometry_transforms.h>
#include <cuda_runtime.h>

int resize(const Npp8u* src, int src_pitch, NppiSize src_size, Npp8u* dst, int dst_pitch, NppiSize dst_size) {
  NppiRect src_roi = {0, 0, src_size.width, src_size.height};
  NppiRect dst_roi = {0, 0, dst_size.width, dst_size.height};
  NppStatus status = nppiResize_8u_C3R(src, src_pitch, src_size, src_roi, dst, dst_pitch, dst_size, dst_roi,
                                       NPPI_INTER_LINEAR);
  return status == NPP_SUCCESS ? 0 : 1;
}
