#pragma once
// CUDA's per-byte and per-halfword SIMD intrinsics (__vadd4, __vsubss4, __vcmpne2, __vsads4, ... : 82 functions,
// CUDA Math API "SIMD Intrinsics"), which HIP (6.4) lacks: exact definitions written into a translated file
// that calls one (device_function_shims.cc). Checked bit for bit against CUDA's own on an NVIDIA H200: every
// pair of halfwords in both lanes (2^32 inputs per function) plus every byte pair and 2^30 random pairs
// (bench/simd/README.md). On NVIDIA (HIP's CUDA platform) CUDA's own are used.
#include <string_view>

namespace hipforge::translate {

inline constexpr std::string_view kSimdIntrinsicNames[] = {
    "__vabs2", "__vabs4", "__vabsss2", "__vabsss4", "__vneg2", "__vneg4", "__vnegss2", "__vnegss4", "__vadd2",
    "__vadd4", "__vaddss2", "__vaddss4", "__vaddus2", "__vaddus4", "__vsub2", "__vsub4", "__vsubss2", "__vsubss4",
    "__vsubus2", "__vsubus4", "__vavgs2", "__vavgs4", "__vavgu2", "__vavgu4", "__vhaddu2", "__vhaddu4",
    "__vabsdiffs2", "__vabsdiffs4", "__vabsdiffu2", "__vabsdiffu4", "__vmaxs2", "__vmaxs4", "__vmaxu2", "__vmaxu4",
    "__vmins2", "__vmins4", "__vminu2", "__vminu4", "__vsads2", "__vsads4", "__vsadu2", "__vsadu4", "__vcmpeq2",
    "__vcmpeq4", "__vseteq2", "__vseteq4", "__vcmpne2", "__vcmpne4", "__vsetne2", "__vsetne4", "__vcmpges2",
    "__vcmpges4", "__vsetges2", "__vsetges4", "__vcmpgts2", "__vcmpgts4", "__vsetgts2", "__vsetgts4", "__vcmples2",
    "__vcmples4", "__vsetles2", "__vsetles4", "__vcmplts2", "__vcmplts4", "__vsetlts2", "__vsetlts4", "__vcmpgeu2",
    "__vcmpgeu4", "__vsetgeu2", "__vsetgeu4", "__vcmpgtu2", "__vcmpgtu4", "__vsetgtu2", "__vsetgtu4", "__vcmpleu2",
    "__vcmpleu4", "__vsetleu2", "__vsetleu4", "__vcmpltu2", "__vcmpltu4", "__vsetltu2", "__vsetltu4"};

inline constexpr std::string_view kSimdIntrinsicsCode = R"hipforge_simd(#include <hip/hip_runtime.h>
#ifndef HIPFORGE_SIMD_INTRINSICS_SHIM
#define HIPFORGE_SIMD_INTRINSICS_SHIM /* hipforge: HIP has no per-byte/per-halfword SIMD intrinsics (__vadd4, ...) */
#if !defined(__HIP_PLATFORM_NVIDIA__) && !defined(__HIP_PLATFORM_NVCC__)
namespace hipforge_simd {
// Lane `i` (bit offset) of width W of a word, sign- or zero-extended.
template <int W> __device__ __forceinline__ int S(unsigned int v, int i) { return static_cast<int>(v << (32 - W - i)) >> (32 - W); }
template <int W> __device__ __forceinline__ int U(unsigned int v, int i) { return static_cast<int>((v >> i) & ((1u << W) - 1)); }
template <int W> __device__ __forceinline__ int SatS(int x) { return x > (1 << (W - 1)) - 1 ? (1 << (W - 1)) - 1 : x < -(1 << (W - 1)) ? -(1 << (W - 1)) : x; }
template <int W> __device__ __forceinline__ int SatU(int x) { return x > (1 << W) - 1 ? (1 << W) - 1 : x < 0 ? 0 : x; }
__device__ __forceinline__ int Abs(int x) { return x < 0 ? -x : x; }
}  // namespace hipforge_simd
// One function per lane operation and width (2: halfwords, 4: bytes); in `expr`, W is the lane width and sa/ua
// (sb/ub) a's (b's) lane sign- and zero-extended.
#define HIPFORGE_SIMD_LANES(name, width, expr) \
  __device__ __forceinline__ unsigned int name(unsigned int a, unsigned int b) { \
    constexpr int W = width; \
    unsigned int r = 0; \
    for (int i = 0; i < 32; i += W) { \
      const int sa = hipforge_simd::S<W>(a, i), sb = hipforge_simd::S<W>(b, i), ua = hipforge_simd::U<W>(a, i), \
                ub = hipforge_simd::U<W>(b, i); \
      (void)sa; (void)sb; (void)ua; (void)ub; \
      r |= (static_cast<unsigned int>(expr) & ((1u << W) - 1)) << i; \
    } \
    return r; \
  }
#define HIPFORGE_SIMD_SUM(name, width, expr) \
  __device__ __forceinline__ unsigned int name(unsigned int a, unsigned int b) { \
    constexpr int W = width; \
    unsigned int r = 0; \
    for (int i = 0; i < 32; i += W) { \
      const int sa = hipforge_simd::S<W>(a, i), sb = hipforge_simd::S<W>(b, i), ua = hipforge_simd::U<W>(a, i), \
                ub = hipforge_simd::U<W>(b, i); \
      (void)sa; (void)sb; (void)ua; (void)ub; \
      r += static_cast<unsigned int>(expr); \
    } \
    return r; \
  }
#define HIPFORGE_SIMD_UNARY(name, width, expr) \
  __device__ __forceinline__ unsigned int name(unsigned int a) { \
    constexpr int W = width; \
    unsigned int r = 0; \
    for (int i = 0; i < 32; i += W) { \
      const int sa = hipforge_simd::S<W>(a, i); \
      r |= (static_cast<unsigned int>(expr) & ((1u << W) - 1)) << i; \
    } \
    return r; \
  }
#define HIPFORGE_SIMD_BOTH(kind, op, expr) kind(__v##op##2, 16, expr) kind(__v##op##4, 8, expr)
HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_UNARY, abs, hipforge_simd::Abs(sa))
HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_UNARY, absss, hipforge_simd::SatS<W>(hipforge_simd::Abs(sa)))
HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_UNARY, neg, -sa)
HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_UNARY, negss, hipforge_simd::SatS<W>(-sa))
HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_LANES, add, ua + ub)
HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_LANES, addss, hipforge_simd::SatS<W>(sa + sb))
HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_LANES, addus, hipforge_simd::SatU<W>(ua + ub))
HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_LANES, sub, ua - ub)
HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_LANES, subss, hipforge_simd::SatS<W>(sa - sb))
HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_LANES, subus, hipforge_simd::SatU<W>(ua - ub))
HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_LANES, avgs, (sa + sb) < 0 ? (sa + sb) >> 1 : (sa + sb + 1) >> 1)
HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_LANES, avgu, (ua + ub + 1) >> 1)
HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_LANES, haddu, (ua + ub) >> 1)
HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_LANES, absdiffs, hipforge_simd::Abs(sa - sb))
HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_LANES, absdiffu, hipforge_simd::Abs(ua - ub))
HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_LANES, maxs, sa > sb ? sa : sb)
HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_LANES, maxu, ua > ub ? ua : ub)
HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_LANES, mins, sa < sb ? sa : sb)
HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_LANES, minu, ua < ub ? ua : ub)
HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_SUM, sads, hipforge_simd::Abs(sa - sb))
HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_SUM, sadu, hipforge_simd::Abs(ua - ub))
#define HIPFORGE_SIMD_COMPARE(op, cond) \
  HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_LANES, cmp##op, (cond) ? -1 : 0) HIPFORGE_SIMD_BOTH(HIPFORGE_SIMD_LANES, set##op, (cond) ? 1 : 0)
HIPFORGE_SIMD_COMPARE(eq, ua == ub)
HIPFORGE_SIMD_COMPARE(ne, ua != ub)
HIPFORGE_SIMD_COMPARE(ges, sa >= sb)
HIPFORGE_SIMD_COMPARE(gts, sa > sb)
HIPFORGE_SIMD_COMPARE(les, sa <= sb)
HIPFORGE_SIMD_COMPARE(lts, sa < sb)
HIPFORGE_SIMD_COMPARE(geu, ua >= ub)
HIPFORGE_SIMD_COMPARE(gtu, ua > ub)
HIPFORGE_SIMD_COMPARE(leu, ua <= ub)
HIPFORGE_SIMD_COMPARE(ltu, ua < ub)
#undef HIPFORGE_SIMD_COMPARE
#undef HIPFORGE_SIMD_BOTH
#undef HIPFORGE_SIMD_UNARY
#undef HIPFORGE_SIMD_SUM
#undef HIPFORGE_SIMD_LANES
#endif
#endif
)hipforge_simd";

}  // namespace hipforge::translate
