#include "worker/translate/analyze/texture_shim.h"

namespace hipforge::translate::analyze {

std::string TextureShim() {
  return R"(#include <hip/hip_runtime.h>
#ifndef HIPFORGE_TEXTURE_SHIM
#define HIPFORGE_TEXTURE_SHIM  // hipforge HB206: textures read with global loads (gfx94x has no texture path)
struct hipforge_texture {
  const char* data; long width, height; size_t pitch, element;
  int channels, bits, kind, normalized_read, linear_filter, normalized_coords, address[2]; float border[4];
};
// Linear and pitch-linear resources only (arrays need the texture unit): anything else is refused.
static inline hipError_t hipforge_create_texture_object(hipTextureObject_t* object, const hipResourceDesc* resource,
                                                        const hipTextureDesc* texture, const hipResourceViewDesc* view) {
  if (view || (resource->resType != hipResourceTypeLinear && resource->resType != hipResourceTypePitch2D)) {
    return hipErrorNotSupported;
  }
  const bool linear = resource->resType == hipResourceTypeLinear;
  const hipChannelFormatDesc format = linear ? resource->res.linear.desc : resource->res.pitch2D.desc;
  hipforge_texture t{};
  t.bits = format.x;
  t.channels = (format.x > 0) + (format.y > 0) + (format.z > 0) + (format.w > 0);
  t.kind = static_cast<int>(format.f);
  if ((t.bits != 8 && t.bits != 16 && t.bits != 32) || t.channels == 0 ||
      (format.f == hipChannelFormatKindFloat && t.bits != 32)) {
    return hipErrorNotSupported;
  }
  t.element = static_cast<size_t>(t.channels * t.bits / 8);
  t.data = static_cast<const char*>(linear ? resource->res.linear.devPtr : resource->res.pitch2D.devPtr);
  t.width = static_cast<long>(linear ? resource->res.linear.sizeInBytes / t.element : resource->res.pitch2D.width);
  t.height = linear ? 1 : static_cast<long>(resource->res.pitch2D.height);
  t.pitch = linear ? resource->res.linear.sizeInBytes : resource->res.pitch2D.pitchInBytes;
  t.normalized_read = texture->readMode == hipReadModeNormalizedFloat && format.f != hipChannelFormatKindFloat;
  t.linear_filter = texture->filterMode == hipFilterModeLinear;
  t.normalized_coords = texture->normalizedCoords;
  t.address[0] = static_cast<int>(texture->addressMode[0]);
  t.address[1] = static_cast<int>(texture->addressMode[1]);
  for (int c = 0; c < 4; ++c) t.border[c] = texture->borderColor[c];
  void* device = nullptr;
  hipError_t error = hipMalloc(&device, sizeof t);
  if (error != hipSuccess) return error;
  error = hipMemcpy(device, &t, sizeof t, hipMemcpyHostToDevice);
  if (error != hipSuccess) {
    (void)hipFree(device);
    return error;
  }
  *object = (hipTextureObject_t)device;
  return hipSuccess;
}
static inline hipError_t hipforge_destroy_texture_object(hipTextureObject_t object) { return hipFree((void*)object); }

template <class T> struct hipforge_texel { static __device__ T make(const float*) { return T{}; } };
template <> struct hipforge_texel<float> { static __device__ float make(const float* v) { return v[0]; } };
template <> struct hipforge_texel<float1> { static __device__ float1 make(const float* v) { return make_float1(v[0]); } };
template <> struct hipforge_texel<float2> { static __device__ float2 make(const float* v) { return make_float2(v[0], v[1]); } };
template <> struct hipforge_texel<float4> {
  static __device__ float4 make(const float* v) { return make_float4(v[0], v[1], v[2], v[3]); }
};
__device__ inline float hipforge_texel_channel(const hipforge_texture& t, const char* element, int c) {
  const bool is_signed = t.kind == hipChannelFormatKindSigned;
  if (t.kind == hipChannelFormatKindFloat) return reinterpret_cast<const float*>(element)[c];
  if (t.bits == 8) {
    return is_signed ? fmaxf(reinterpret_cast<const signed char*>(element)[c] / 127.0f, -1.0f)
                     : reinterpret_cast<const unsigned char*>(element)[c] / 255.0f;
  }
  if (t.bits == 16) {
    return is_signed ? fmaxf(reinterpret_cast<const short*>(element)[c] / 32767.0f, -1.0f)
                     : reinterpret_cast<const unsigned short*>(element)[c] / 65535.0f;
  }
  return is_signed ? static_cast<float>(reinterpret_cast<const int*>(element)[c])
                   : static_cast<float>(reinterpret_cast<const unsigned*>(element)[c]);
}
// Applies an address mode to an integer texel index; false: outside, border.
__device__ inline bool hipforge_texel_index(int mode, long& i, long n) {
  if (i >= 0 && i < n) return true;
  if (mode == hipAddressModeBorder) return false;
  if (mode == hipAddressModeWrap) {
    i = ((i % n) + n) % n;
  } else if (mode == hipAddressModeMirror) {
    const long m = ((i % (2 * n)) + 2 * n) % (2 * n);
    i = m < n ? m : 2 * n - 1 - m;
  } else {
    i = i < 0 ? 0 : n - 1;
  }
  return true;
}
__device__ inline void hipforge_texel_floats(const hipforge_texture& t, long x, long y, float* v) {
  const bool inside = hipforge_texel_index(t.address[0], x, t.width) & hipforge_texel_index(t.address[1], y, t.height);
  for (int c = 0; c < 4; ++c) v[c] = inside ? 0.0f : t.border[c];
  if (!inside) return;
  const char* element = t.data + static_cast<size_t>(y) * t.pitch + static_cast<size_t>(x) * t.element;
  for (int c = 0; c < t.channels; ++c) v[c] = hipforge_texel_channel(t, element, c);
}
template <class T>
__device__ T hipforge_texel_at(const hipforge_texture& t, long x, long y) {
  if (t.normalized_read) {
    float v[4];
    hipforge_texel_floats(t, x, y, v);
    return hipforge_texel<T>::make(v);
  }
  if (!(hipforge_texel_index(t.address[0], x, t.width) & hipforge_texel_index(t.address[1], y, t.height))) return T{};
  return *reinterpret_cast<const T*>(t.data + static_cast<size_t>(y) * t.pitch + static_cast<size_t>(x) * t.element);
}
template <class T>
__device__ T hipforge_tex1Dfetch(hipTextureObject_t object, int i) {
  const hipforge_texture& t = *(const hipforge_texture*)object;
  if (i < 0 || i >= t.width) {
    const float zero[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    return t.normalized_read ? hipforge_texel<T>::make(zero) : T{};
  }
  return hipforge_texel_at<T>(t, i, 0);
}
template <class T>
__device__ T hipforge_tex2D(hipTextureObject_t object, float x, float y) {
  const hipforge_texture& t = *(const hipforge_texture*)object;
  if (t.normalized_coords) {
    x *= static_cast<float>(t.width);
    y *= static_cast<float>(t.height);
  }
  if (!t.linear_filter) return hipforge_texel_at<T>(t, static_cast<long>(floorf(x)), static_cast<long>(floorf(y)));
  // Bilinear, as the texture unit does it: weights in 9-bit fixed point with 8 fractional bits.
  const float xb = x - 0.5f, yb = y - 0.5f, x0 = floorf(xb), y0 = floorf(yb);
  const float a = rintf((xb - x0) * 256.0f) / 256.0f, b = rintf((yb - y0) * 256.0f) / 256.0f;
  const long i = static_cast<long>(x0), j = static_cast<long>(y0);
  float v00[4], v10[4], v01[4], v11[4], out[4];
  hipforge_texel_floats(t, i, j, v00);
  hipforge_texel_floats(t, i + 1, j, v10);
  hipforge_texel_floats(t, i, j + 1, v01);
  hipforge_texel_floats(t, i + 1, j + 1, v11);
  for (int c = 0; c < 4; ++c) {
    out[c] = (1.0f - a) * (1.0f - b) * v00[c] + a * (1.0f - b) * v10[c] + (1.0f - a) * b * v01[c] + a * b * v11[c];
  }
  return hipforge_texel<T>::make(out);
}
#endif  // HIPFORGE_TEXTURE_SHIM
)";
}

}  // namespace hipforge::translate::analyze
