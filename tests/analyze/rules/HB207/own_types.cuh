// HB207 negatives: a header that defines fp8 types of CUDA's names itself (ggml's SYCL backend emulates them),
// and a vendor header that aliases HIP's OCP type to CUDA's name: naming a type is no conversion.
#pragma once
#include <cstdint>

struct __nv_fp8_e4m3 {
  uint8_t raw;
  explicit __nv_fp8_e4m3(float f) : raw(static_cast<uint8_t>(f)) {}
  operator float() const { return raw; }
};
template <typename T, int N> struct vec { T v[N]; };
using __nv_fp8x2_e4m3 = vec<__nv_fp8_e4m3, 2>;

inline float decode(__nv_fp8_e4m3 x) { return static_cast<float>(x); }
