#pragma once
// HB206's fix: texture objects over linear and pitch-linear memory read with plain global loads, for GPUs with
// no texture path (MI300, gfx94x). The code is written into the fixed file (HIP spellings), guarded so that
// several files of one program can carry it.
#include <string>

namespace hipforge::translate::analyze {

// hipforge_create_texture_object / hipforge_destroy_texture_object (host) and hipforge_tex1Dfetch<T> /
// hipforge_tex2D<T> (device): point sampling, bilinear filtering written out (CUDA's 8-bit fraction), clamp,
// border, wrap and mirror addressing, element-type and normalized-float reads of 8/16/32-bit channels.
std::string TextureShim();

}  // namespace hipforge::translate::analyze
