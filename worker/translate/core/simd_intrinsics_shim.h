#pragma once
// CUDA's per-byte and per-halfword SIMD intrinsics (__vadd4, __vsubss4, __vcmpne2, __vsads4, ... : 82 functions,
// CUDA Math API "SIMD Intrinsics"), which HIP (6.4) lacks: exact definitions written into a translated file
// that calls one (device_function_shims.cc). Checked bit for bit against CUDA's own on an NVIDIA H200: every
// pair of halfwords in both lanes (2^32 inputs per function) plus every byte pair and 2^30 random pairs
// (bench/simd/README.md). Also Hopper's DPX functions (__vimax3_s32, __viaddmax_s16x2_relu, __vibmax_u32, ...:
// 36, host and device), checked the same way. On NVIDIA (HIP's CUDA platform) CUDA's own are used.
#include <string_view>

namespace hipforge::translate {

inline constexpr std::string_view kSimdIntrinsicNames[] = {
    "__vabs2",      "__vabs4",      "__vabsss2",  "__vabsss4",  "__vneg2",    "__vneg4",      "__vnegss2",
    "__vnegss4",    "__vadd2",      "__vadd4",    "__vaddss2",  "__vaddss4",  "__vaddus2",    "__vaddus4",
    "__vsub2",      "__vsub4",      "__vsubss2",  "__vsubss4",  "__vsubus2",  "__vsubus4",    "__vavgs2",
    "__vavgs4",     "__vavgu2",     "__vavgu4",   "__vhaddu2",  "__vhaddu4",  "__vabsdiffs2", "__vabsdiffs4",
    "__vabsdiffu2", "__vabsdiffu4", "__vmaxs2",   "__vmaxs4",   "__vmaxu2",   "__vmaxu4",     "__vmins2",
    "__vmins4",     "__vminu2",     "__vminu4",   "__vsads2",   "__vsads4",   "__vsadu2",     "__vsadu4",
    "__vcmpeq2",    "__vcmpeq4",    "__vseteq2",  "__vseteq4",  "__vcmpne2",  "__vcmpne4",    "__vsetne2",
    "__vsetne4",    "__vcmpges2",   "__vcmpges4", "__vsetges2", "__vsetges4", "__vcmpgts2",   "__vcmpgts4",
    "__vsetgts2",   "__vsetgts4",   "__vcmples2", "__vcmples4", "__vsetles2", "__vsetles4",   "__vcmplts2",
    "__vcmplts4",   "__vsetlts2",   "__vsetlts4", "__vcmpgeu2", "__vcmpgeu4", "__vsetgeu2",   "__vsetgeu4",
    "__vcmpgtu2",   "__vcmpgtu4",   "__vsetgtu2", "__vsetgtu4", "__vcmpleu2", "__vcmpleu4",   "__vsetleu2",
    "__vsetleu4",   "__vcmpltu2",   "__vcmpltu4", "__vsetltu2", "__vsetltu4"};

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
// Each lane pair's `expr`, then `combine` folds it (as `lane`) into the result r.
#define HIPFORGE_SIMD_PAIRWISE(name, width, expr, combine) \
  __device__ __forceinline__ unsigned int name(unsigned int a, unsigned int b) { \
    constexpr int W = width; \
    unsigned int r = 0; \
    for (int i = 0; i < 32; i += W) { \
      const int sa = hipforge_simd::S<W>(a, i), sb = hipforge_simd::S<W>(b, i), ua = hipforge_simd::U<W>(a, i), \
                ub = hipforge_simd::U<W>(b, i); \
      (void)sa; (void)sb; (void)ua; (void)ub; \
      const unsigned int lane = static_cast<unsigned int>(expr); \
      r = combine; \
    } \
    return r; \
  }
// Per-lane results packed back into lanes, or summed (the sums of absolute differences).
#define HIPFORGE_SIMD_LANES(name, width, expr) HIPFORGE_SIMD_PAIRWISE(name, width, expr, r | ((lane & ((1u << W) - 1)) << i))
#define HIPFORGE_SIMD_SUM(name, width, expr) HIPFORGE_SIMD_PAIRWISE(name, width, expr, r + lane)
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
#undef HIPFORGE_SIMD_PAIRWISE
#endif
#endif
)hipforge_simd";

inline constexpr std::string_view kDpxIntrinsicNames[] = {
    "__vimax_s32_relu",    "__vimin_s32_relu",    "__vimax_s16x2_relu",    "__vimin_s16x2_relu",
    "__vimax3_s32",        "__vimin3_s32",        "__vimax3_u32",          "__vimin3_u32",
    "__vimax3_s32_relu",   "__vimin3_s32_relu",   "__vimax3_s16x2",        "__vimin3_s16x2",
    "__vimax3_u16x2",      "__vimin3_u16x2",      "__vimax3_s16x2_relu",   "__vimin3_s16x2_relu",
    "__viaddmax_s32",      "__viaddmin_s32",      "__viaddmax_u32",        "__viaddmin_u32",
    "__viaddmax_s32_relu", "__viaddmin_s32_relu", "__viaddmax_s16x2",      "__viaddmin_s16x2",
    "__viaddmax_u16x2",    "__viaddmin_u16x2",    "__viaddmax_s16x2_relu", "__viaddmin_s16x2_relu",
    "__vibmax_s32",        "__vibmin_s32",        "__vibmax_u32",          "__vibmin_u32",
    "__vibmax_s16x2",      "__vibmin_s16x2",      "__vibmax_u16x2",        "__vibmin_u16x2"};

inline constexpr std::string_view kDpxIntrinsicsCode = R"hipforge_dpx(#include <hip/hip_runtime.h>
#ifndef HIPFORGE_DPX_INTRINSICS_SHIM
#define HIPFORGE_DPX_INTRINSICS_SHIM /* hipforge: HIP has no DPX functions (__vimax3_s32, __viaddmax_s16x2, ...) */
#if !defined(__HIP_PLATFORM_NVIDIA__) && !defined(__HIP_PLATFORM_NVCC__)
namespace hipforge_dpx {
__host__ __device__ __forceinline__ int Max(int x, int y) { return x > y ? x : y; }
__host__ __device__ __forceinline__ int Min(int x, int y) { return x < y ? x : y; }
__host__ __device__ __forceinline__ unsigned int MaxU(unsigned int x, unsigned int y) { return x > y ? x : y; }
__host__ __device__ __forceinline__ unsigned int MinU(unsigned int x, unsigned int y) { return x < y ? x : y; }
__host__ __device__ __forceinline__ int Wrap32(int x, int y) { return static_cast<int>(static_cast<unsigned int>(x) + static_cast<unsigned int>(y)); }
__host__ __device__ __forceinline__ int Wrap16(int x) { return static_cast<short>(static_cast<unsigned short>(x)); }
// Halfword `i` (bit offset 0 or 16) of v, sign- or zero-extended.
__host__ __device__ __forceinline__ int S16(unsigned int v, int i) { return static_cast<short>(static_cast<unsigned short>(v >> i)); }
__host__ __device__ __forceinline__ int U16(unsigned int v, int i) { return static_cast<int>((v >> i) & 0xffffu); }
}  // namespace hipforge_dpx
// Per halfword: in `expr`, x, y, z are a's, b's and c's lane (signed with S16, unsigned with U16).
#define HIPFORGE_DPX_16X2(name, lane, expr) \
  __host__ __device__ __forceinline__ unsigned int name(const unsigned int a, const unsigned int b, const unsigned int c) { \
    unsigned int r = 0; \
    for (int i = 0; i < 32; i += 16) { \
      const int x = hipforge_dpx::lane(a, i), y = hipforge_dpx::lane(b, i), z = hipforge_dpx::lane(c, i); \
      (void)z; \
      r |= (static_cast<unsigned int>(expr) & 0xffffu) << i; \
    } \
    return r; \
  }
#define HIPFORGE_DPX_16X2_PAIR(name, lane, expr) \
  __host__ __device__ __forceinline__ unsigned int name(const unsigned int a, const unsigned int b) { \
    unsigned int r = 0; \
    for (int i = 0; i < 32; i += 16) { \
      const int x = hipforge_dpx::lane(a, i), y = hipforge_dpx::lane(b, i); \
      r |= (static_cast<unsigned int>(expr) & 0xffffu) << i; \
    } \
    return r; \
  }
#define HIPFORGE_DPX_16X2_PRED(name, lane, pick, holds) \
  __host__ __device__ __forceinline__ unsigned int name(const unsigned int a, const unsigned int b, bool* const pred_hi, \
                                                        bool* const pred_lo) { \
    const int xl = hipforge_dpx::lane(a, 0), yl = hipforge_dpx::lane(b, 0), xh = hipforge_dpx::lane(a, 16), \
              yh = hipforge_dpx::lane(b, 16); \
    *pred_lo = xl holds yl; \
    *pred_hi = xh holds yh; \
    return (static_cast<unsigned int>(hipforge_dpx::pick(xl, yl)) & 0xffffu) | \
           (static_cast<unsigned int>(hipforge_dpx::pick(xh, yh)) << 16); \
  }
__host__ __device__ __forceinline__ int __vimax_s32_relu(const int a, const int b) { return hipforge_dpx::Max(hipforge_dpx::Max(a, b), 0); }
__host__ __device__ __forceinline__ int __vimin_s32_relu(const int a, const int b) { return hipforge_dpx::Max(hipforge_dpx::Min(a, b), 0); }
HIPFORGE_DPX_16X2_PAIR(__vimax_s16x2_relu, S16, hipforge_dpx::Max(hipforge_dpx::Max(x, y), 0))
HIPFORGE_DPX_16X2_PAIR(__vimin_s16x2_relu, S16, hipforge_dpx::Max(hipforge_dpx::Min(x, y), 0))
__host__ __device__ __forceinline__ int __vimax3_s32(const int a, const int b, const int c) { return hipforge_dpx::Max(hipforge_dpx::Max(a, b), c); }
__host__ __device__ __forceinline__ int __vimin3_s32(const int a, const int b, const int c) { return hipforge_dpx::Min(hipforge_dpx::Min(a, b), c); }
__host__ __device__ __forceinline__ unsigned int __vimax3_u32(const unsigned int a, const unsigned int b, const unsigned int c) { return hipforge_dpx::MaxU(hipforge_dpx::MaxU(a, b), c); }
__host__ __device__ __forceinline__ unsigned int __vimin3_u32(const unsigned int a, const unsigned int b, const unsigned int c) { return hipforge_dpx::MinU(hipforge_dpx::MinU(a, b), c); }
__host__ __device__ __forceinline__ int __vimax3_s32_relu(const int a, const int b, const int c) { return hipforge_dpx::Max(__vimax3_s32(a, b, c), 0); }
__host__ __device__ __forceinline__ int __vimin3_s32_relu(const int a, const int b, const int c) { return hipforge_dpx::Max(__vimin3_s32(a, b, c), 0); }
HIPFORGE_DPX_16X2(__vimax3_s16x2, S16, hipforge_dpx::Max(hipforge_dpx::Max(x, y), z))
HIPFORGE_DPX_16X2(__vimin3_s16x2, S16, hipforge_dpx::Min(hipforge_dpx::Min(x, y), z))
HIPFORGE_DPX_16X2(__vimax3_u16x2, U16, hipforge_dpx::Max(hipforge_dpx::Max(x, y), z))
HIPFORGE_DPX_16X2(__vimin3_u16x2, U16, hipforge_dpx::Min(hipforge_dpx::Min(x, y), z))
HIPFORGE_DPX_16X2(__vimax3_s16x2_relu, S16, hipforge_dpx::Max(hipforge_dpx::Max(hipforge_dpx::Max(x, y), z), 0))
HIPFORGE_DPX_16X2(__vimin3_s16x2_relu, S16, hipforge_dpx::Max(hipforge_dpx::Min(hipforge_dpx::Min(x, y), z), 0))
__host__ __device__ __forceinline__ int __viaddmax_s32(const int a, const int b, const int c) { return hipforge_dpx::Max(hipforge_dpx::Wrap32(a, b), c); }
__host__ __device__ __forceinline__ int __viaddmin_s32(const int a, const int b, const int c) { return hipforge_dpx::Min(hipforge_dpx::Wrap32(a, b), c); }
__host__ __device__ __forceinline__ unsigned int __viaddmax_u32(const unsigned int a, const unsigned int b, const unsigned int c) { return hipforge_dpx::MaxU(a + b, c); }
__host__ __device__ __forceinline__ unsigned int __viaddmin_u32(const unsigned int a, const unsigned int b, const unsigned int c) { return hipforge_dpx::MinU(a + b, c); }
__host__ __device__ __forceinline__ int __viaddmax_s32_relu(const int a, const int b, const int c) { return hipforge_dpx::Max(__viaddmax_s32(a, b, c), 0); }
__host__ __device__ __forceinline__ int __viaddmin_s32_relu(const int a, const int b, const int c) { return hipforge_dpx::Max(__viaddmin_s32(a, b, c), 0); }
HIPFORGE_DPX_16X2(__viaddmax_s16x2, S16, hipforge_dpx::Max(hipforge_dpx::Wrap16(x + y), z))
HIPFORGE_DPX_16X2(__viaddmin_s16x2, S16, hipforge_dpx::Min(hipforge_dpx::Wrap16(x + y), z))
HIPFORGE_DPX_16X2(__viaddmax_u16x2, U16, hipforge_dpx::Max((x + y) & 0xffff, z))
HIPFORGE_DPX_16X2(__viaddmin_u16x2, U16, hipforge_dpx::Min((x + y) & 0xffff, z))
HIPFORGE_DPX_16X2(__viaddmax_s16x2_relu, S16, hipforge_dpx::Max(hipforge_dpx::Max(hipforge_dpx::Wrap16(x + y), z), 0))
HIPFORGE_DPX_16X2(__viaddmin_s16x2_relu, S16, hipforge_dpx::Max(hipforge_dpx::Min(hipforge_dpx::Wrap16(x + y), z), 0))
__host__ __device__ __forceinline__ int __vibmax_s32(const int a, const int b, bool* const pred) { *pred = a >= b; return hipforge_dpx::Max(a, b); }
__host__ __device__ __forceinline__ int __vibmin_s32(const int a, const int b, bool* const pred) { *pred = a <= b; return hipforge_dpx::Min(a, b); }
__host__ __device__ __forceinline__ unsigned int __vibmax_u32(const unsigned int a, const unsigned int b, bool* const pred) { *pred = a >= b; return hipforge_dpx::MaxU(a, b); }
__host__ __device__ __forceinline__ unsigned int __vibmin_u32(const unsigned int a, const unsigned int b, bool* const pred) { *pred = a <= b; return hipforge_dpx::MinU(a, b); }
HIPFORGE_DPX_16X2_PRED(__vibmax_s16x2, S16, Max, >=)
HIPFORGE_DPX_16X2_PRED(__vibmin_s16x2, S16, Min, <=)
HIPFORGE_DPX_16X2_PRED(__vibmax_u16x2, U16, Max, >=)
HIPFORGE_DPX_16X2_PRED(__vibmin_u16x2, U16, Min, <=)
#undef HIPFORGE_DPX_16X2_PRED
#undef HIPFORGE_DPX_16X2_PAIR
#undef HIPFORGE_DPX_16X2
#endif
#endif
)hipforge_dpx";

}  // namespace hipforge::translate
