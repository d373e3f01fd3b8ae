#include "worker/translate/core/device_function_shims.h"

#include "worker/translate/core/simd_intrinsics_shim.h"

namespace hipforge::translate {
namespace {

// __dp4a: four 8-bit products summed into a 32-bit accumulator that wraps, as the instruction does (the sum of
// the products fits an int; the accumulate is done unsigned so it wraps without undefined behaviour). The four
// overloads CUDA has.
constexpr std::string_view kDp4aNames[] = {"__dp4a"};
constexpr std::string_view kDp4aCode =
    "#include <hip/hip_runtime.h>\n"
    "#ifndef HIPFORGE_DP4A_SHIM\n"
    "#define HIPFORGE_DP4A_SHIM /* hipforge: HIP has no __dp4a */\n"
    "__device__ inline int __dp4a(int a, int b, int c) { int s = 0; "
    "for (int i = 0; i < 32; i += 8) s += static_cast<signed char>(a >> i) * static_cast<signed char>(b >> i); "
    "return static_cast<int>(static_cast<unsigned>(c) + static_cast<unsigned>(s)); } "
    "__device__ inline unsigned __dp4a(unsigned a, unsigned b, unsigned c) { unsigned s = 0; "
    "for (int i = 0; i < 32; i += 8) s += ((a >> i) & 0xffu) * ((b >> i) & 0xffu); return c + s; } "
    "__device__ inline int __dp4a(char4 a, char4 b, int c) { return __dp4a("
    "static_cast<int>(static_cast<unsigned char>(a.x) | static_cast<unsigned char>(a.y) << 8 | "
    "static_cast<unsigned char>(a.z) << 16 | static_cast<unsigned>(static_cast<unsigned char>(a.w)) << 24), "
    "static_cast<int>(static_cast<unsigned char>(b.x) | static_cast<unsigned char>(b.y) << 8 | "
    "static_cast<unsigned char>(b.z) << 16 | static_cast<unsigned>(static_cast<unsigned char>(b.w)) << 24), c); } "
    "__device__ inline unsigned __dp4a(uchar4 a, uchar4 b, unsigned c) { return __dp4a("
    "static_cast<unsigned>(a.x | a.y << 8 | a.z << 16) | static_cast<unsigned>(a.w) << 24, "
    "static_cast<unsigned>(b.x | b.y << 8 | b.z << 16) | static_cast<unsigned>(b.w) << 24, c); }\n"
    "#endif\n";

// __bfloat162{int,uint,ll,ull}_{rn,rz,rd,ru}: a bfloat16 converts to float exactly, so rounding the float is
// rounding the bfloat16 (HIP's __float2int_* family is what the tables map CUDA's own to).
constexpr std::string_view kBfloat16IntegerNames[] = {
    "__bfloat162int_rn",  "__bfloat162int_rz",  "__bfloat162int_rd",  "__bfloat162int_ru",
    "__bfloat162uint_rn", "__bfloat162uint_rz", "__bfloat162uint_rd", "__bfloat162uint_ru",
    "__bfloat162ll_rn",   "__bfloat162ll_rz",   "__bfloat162ll_rd",   "__bfloat162ll_ru",
    "__bfloat162ull_rn",  "__bfloat162ull_rz",  "__bfloat162ull_rd",  "__bfloat162ull_ru"};
#define HIPFORGE_BF16_CONVERSION(to, type, mode)                                                          \
  "__device__ inline " type " __bfloat162" to "_" mode "(__hip_bfloat16 x) { return __float2" to "_" mode \
  "(__bfloat162float(x)); } "
#define HIPFORGE_BF16_CONVERSIONS(to, type) \
  HIPFORGE_BF16_CONVERSION(to, type, "rn")  \
  HIPFORGE_BF16_CONVERSION(to, type, "rz")  \
  HIPFORGE_BF16_CONVERSION(to, type, "rd") HIPFORGE_BF16_CONVERSION(to, type, "ru")
constexpr std::string_view kBfloat16IntegerCode =
    "#include <hip/hip_runtime.h>\n#include <hip/hip_bf16.h>\n"
    "#ifndef HIPFORGE_BF16_INTEGER_SHIM\n"
    "#define HIPFORGE_BF16_INTEGER_SHIM /* hipforge: HIP has no __bfloat162int_* family */\n" HIPFORGE_BF16_CONVERSIONS(
        "int", "int") HIPFORGE_BF16_CONVERSIONS("uint", "unsigned int") HIPFORGE_BF16_CONVERSIONS("ll", "long long")
        HIPFORGE_BF16_CONVERSIONS("ull", "unsigned long long") "\n#endif\n";
#undef HIPFORGE_BF16_CONVERSIONS
#undef HIPFORGE_BF16_CONVERSION

// atomicAdd on the 16-bit pairs and singles (__half2/__half, __hip_bfloat162/__hip_bfloat16): a compare-and-swap
// loop on the 32-bit word, right on every kind of memory (HIP's unsafeAtomicAdd on them uses the hardware add, which
// fine-grained host memory does not support). The whole word changes atomically, stronger than CUDA's per-half
// guarantee; the old value is returned. One text for both families (pair type, single type, their adds).
#define HIPFORGE_16BIT_ATOMIC_ADD(pair, single)                                                                 \
  "__device__ inline " pair " atomicAdd(" pair "* address, " pair                                               \
  " value) { "                                                                                                  \
  "unsigned int* word = reinterpret_cast<unsigned int*>(address); unsigned int old = *word, assumed; do { "     \
  "assumed = old; " pair " current; __builtin_memcpy(&current, &assumed, 4); const " pair                       \
  " sum = __hadd2(current, value); "                                                                            \
  "unsigned int next; __builtin_memcpy(&next, &sum, 4); old = atomicCAS(word, assumed, next); } while (old != " \
  "assumed); " pair                                                                                             \
  " previous; __builtin_memcpy(&previous, &old, 4); return previous; } "                                        \
  "__device__ inline " single " atomicAdd(" single "* address, " single                                         \
  " value) { "                                                                                                  \
  "const unsigned int shift = (reinterpret_cast<unsigned long long>(address) & 2) * 8; "                        \
  "unsigned int* word = reinterpret_cast<unsigned int*>(reinterpret_cast<char*>(address) - shift / 8); "        \
  "unsigned int old = *word, assumed; do { assumed = old; const unsigned short bits = "                         \
  "static_cast<unsigned short>(assumed >> shift); " single                                                      \
  " current; __builtin_memcpy(&current, &bits, 2); "                                                            \
  "const " single                                                                                               \
  " sum = __hadd(current, value); unsigned short sum_bits; __builtin_memcpy(&sum_bits, &sum, 2); "              \
  "old = atomicCAS(word, assumed, (assumed & ~(0xffffu << shift)) | (static_cast<unsigned int>(sum_bits) << "   \
  "shift)); } while (old != assumed); const unsigned short previous_bits = static_cast<unsigned short>(old >> " \
  "shift); " single " previous; __builtin_memcpy(&previous, &previous_bits, 2); return previous; }\n"
constexpr std::string_view kHalfAtomicNames[] = {"atomicAdd"};
constexpr std::string_view kHalfTypeWords[] = {"__half", "__half2", "half", "half2"};
constexpr std::string_view kHalfAtomicCode =
    "#include <hip/hip_runtime.h>\n#include <hip/hip_fp16.h>\n"
    "#ifndef HIPFORGE_HALF_ATOMIC_ADD_SHIM\n"
    "#define HIPFORGE_HALF_ATOMIC_ADD_SHIM /* hipforge: HIP has no atomicAdd on __half2/__half "
    "*/\n" HIPFORGE_16BIT_ATOMIC_ADD("__half2", "__half") "#endif\n";
// HeCBench f16atomic: HIP 6.4.3's amd_hip_bf16.h has unsafeAtomicAdd(__hip_bfloat162*) and no atomicAdd on either.
constexpr std::string_view kBfloat16TypeWords[] = {"__nv_bfloat16", "__nv_bfloat162", "nv_bfloat16", "nv_bfloat162"};
constexpr std::string_view kBfloat16AtomicCode =
    "#include <hip/hip_runtime.h>\n#include <hip/hip_bf16.h>\n"
    "#ifndef HIPFORGE_BF16_ATOMIC_ADD_SHIM\n"
    "#define HIPFORGE_BF16_ATOMIC_ADD_SHIM /* hipforge: HIP has no atomicAdd on __hip_bfloat162/__hip_bfloat16 "
    "*/\n" HIPFORGE_16BIT_ATOMIC_ADD("__hip_bfloat162", "__hip_bfloat16") "#endif\n";
#undef HIPFORGE_16BIT_ATOMIC_ADD

// CubDebugExit: CUB's util_debug.cuh defines it as `if (cub::Debug((cudaError_t) (e), __FILE__, __LINE__)) { exit(1);
// }`; hipCUB has HipcubDebug (hipcub::Debug with the same arguments, printing under HIPCUB_STDERR as CUB's does under
// CUB_STDERR, which the tables map) but no exiting form. The same expansion over HipcubDebug.
constexpr std::string_view kCubDebugExitNames[] = {"CubDebugExit"};
constexpr std::string_view kCubDebugExitCode =
    "#include <cstdlib>\n#include <hipcub/hipcub.hpp>\n"
    "#ifndef HIPFORGE_CUB_DEBUG_EXIT_SHIM\n"
    "#define HIPFORGE_CUB_DEBUG_EXIT_SHIM /* hipforge: hipCUB has no CubDebugExit */\n"
    "#ifndef CubDebugExit\n"
    "#define CubDebugExit(e) if (HipcubDebug(e)) { exit(1); }\n"
    "#endif\n"
    "#endif\n";

// The cache-hint loads and stores (__ldcs, __ldcg, __ldca, __ldlu, __ldcv, __stcs, __stcg, __stwb, __stwt): CUDA
// defines them for every built-in and vector type; HIP 6.4.3 has __ldcg/__ldca/__ldcs for __half and __half2 only
// (amd_hip_fp16.h) and none of the others. A hint changes caching, not the value: templates that load and store
// plainly (HIP's own __half ones are plain loads too; the non-template overloads still win for those types).
constexpr std::string_view kCacheHintNames[] = {"__ldcs", "__ldcg", "__ldca", "__ldlu", "__ldcv",
                                                "__stcs", "__stcg", "__stwb", "__stwt"};
#define HIPFORGE_CACHE_HINT_LOAD(name) "template <typename T> __device__ inline T " name "(const T* p) { return *p; } "
#define HIPFORGE_CACHE_HINT_STORE(name) \
  "template <typename T> __device__ inline void " name "(T* p, typename hipforge_hint_value<T>::type v) { *p = v; } "
constexpr std::string_view kCacheHintCode =
    "#include <hip/hip_runtime.h>\n"
    "#ifndef HIPFORGE_CACHE_HINT_SHIM\n"
    "#define HIPFORGE_CACHE_HINT_SHIM /* hipforge: HIP has no cache-hint loads/stores for most types */\n"
    "template <typename T> struct hipforge_hint_value { using type = T; }; " HIPFORGE_CACHE_HINT_LOAD("__ldcs")
        HIPFORGE_CACHE_HINT_LOAD("__ldcg") HIPFORGE_CACHE_HINT_LOAD("__ldca") HIPFORGE_CACHE_HINT_LOAD("__ldlu")
            HIPFORGE_CACHE_HINT_LOAD("__ldcv") HIPFORGE_CACHE_HINT_STORE("__stcs") HIPFORGE_CACHE_HINT_STORE("__stcg")
                HIPFORGE_CACHE_HINT_STORE("__stwb") HIPFORGE_CACHE_HINT_STORE("__stwt") "\n#endif\n";
#undef HIPFORGE_CACHE_HINT_STORE
#undef HIPFORGE_CACHE_HINT_LOAD

// The legacy driver launch API (cuParamSet*, cuFuncSetBlockShape/SharedSize, cuLaunch/cuLaunchGrid/Async,
// removed from HIP, deprecated since CUDA 9.2): the driver keeps a parameter buffer, block shape and shared size on
// each function handle and launches with them. The same state per handle (any function may set it, as CUDA allows),
// launched through hipModuleLaunchKernel's `extra` buffer, the documented form of a packed parameter buffer: the
// project's offsets already follow the C ABI alignment that AMD kernel arguments use too. 4096 bytes: CUDA's limit.
// Kept out on HIP's NVIDIA platform, where cuda.h declares CUDA's own.
constexpr std::string_view kLegacyLaunchNames[] = {"cuParamSetv",    "cuParamSeti",         "cuParamSetf",
                                                   "cuParamSetSize", "cuFuncSetBlockShape", "cuFuncSetSharedSize",
                                                   "cuLaunch",       "cuLaunchGrid",        "cuLaunchGridAsync"};
constexpr std::string_view kLegacyLaunchCode =
    "#include <hip/hip_runtime.h>\n#include <map>\n#include <mutex>\n"
    "#if !defined(HIPFORGE_LEGACY_LAUNCH_SHIM) && !defined(__HIP_PLATFORM_NVIDIA__) && "
    "!defined(__HIP_PLATFORM_NVCC__)\n"
    "#define HIPFORGE_LEGACY_LAUNCH_SHIM /* hipforge: HIP has no legacy launch API (cuParamSet*, cuLaunchGrid) */\n"
    "struct hipforge_legacy_launch { alignas(16) unsigned char args[4096]; unsigned size = 0; "
    "unsigned block[3] = {1, 1, 1}; unsigned shared = 0; }; "
    "inline hipforge_legacy_launch& hipforge_legacy_launch_of(hipFunction_t f) { static std::mutex lock; "
    "static std::map<hipFunction_t, hipforge_legacy_launch> state; std::lock_guard<std::mutex> held(lock); "
    "return state[f]; } "
    "inline hipError_t hipforge_legacy_param(hipFunction_t f, int offset, const void* p, unsigned n) { "
    "if (offset < 0 || static_cast<unsigned long long>(offset) + n > 4096u) return hipErrorInvalidValue; "
    "__builtin_memcpy(hipforge_legacy_launch_of(f).args + offset, p, n); return hipSuccess; }\n"
    "inline hipError_t cuParamSetv(hipFunction_t f, int offset, void* p, unsigned n) { "
    "return hipforge_legacy_param(f, offset, p, n); } "
    "inline hipError_t cuParamSeti(hipFunction_t f, int offset, unsigned value) { "
    "return hipforge_legacy_param(f, offset, &value, sizeof value); } "
    "inline hipError_t cuParamSetf(hipFunction_t f, int offset, float value) { "
    "return hipforge_legacy_param(f, offset, &value, sizeof value); } "
    "inline hipError_t cuParamSetSize(hipFunction_t f, unsigned n) { if (n > 4096u) return hipErrorInvalidValue; "
    "hipforge_legacy_launch_of(f).size = n; return hipSuccess; }\n"
    "inline hipError_t cuFuncSetBlockShape(hipFunction_t f, int x, int y, int z) { "
    "hipforge_legacy_launch& l = hipforge_legacy_launch_of(f); l.block[0] = x; l.block[1] = y; l.block[2] = z; "
    "return hipSuccess; } "
    "inline hipError_t cuFuncSetSharedSize(hipFunction_t f, unsigned bytes) { "
    "hipforge_legacy_launch_of(f).shared = bytes; return hipSuccess; }\n"
    "inline hipError_t cuLaunchGridAsync(hipFunction_t f, int width, int height, hipStream_t stream) { "
    "hipforge_legacy_launch& l = hipforge_legacy_launch_of(f); size_t size = l.size; "
    "void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, l.args, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size, "
    "HIP_LAUNCH_PARAM_END}; return hipModuleLaunchKernel(f, width, height, 1, l.block[0], l.block[1], l.block[2], "
    "l.shared, stream, nullptr, extra); } "
    "inline hipError_t cuLaunchGrid(hipFunction_t f, int width, int height) { "
    "return cuLaunchGridAsync(f, width, height, nullptr); } "
    "inline hipError_t cuLaunch(hipFunction_t f) { return cuLaunchGrid(f, 1, 1); }\n"
    "#endif\n";

// OCP fp8 -> float: HIP 6.4 declares __hip_fp8_e4m3's and __hip_fp8_e5m2's conversions host-only in device code for
// gfx940-942 (amd_hip_fp8.h: HIP_FP8_TYPE_OCP 0 there, the hardware has the FNUZ formats), and its public
// __hip_cvt_fp8_to_halfraw asserts on OCP there. The AST pass rewrites each conversion of these types to float
// into a call of hipforge_fp8_to_float, an exact software decode of the OCP formats (e4m3: bias 7, no infinity,
// S.1111.111 NaN; e5m2: bias 15, IEEE-like), checked on the host against HIP's own conversion for all 256 values of
// each (bench/fp8). On HIP's NVIDIA platform, CUDA's own conversion.
constexpr std::string_view kFp8TypeNames[] = {"__nv_fp8_e4m3", "__nv_fp8_e5m2"};
constexpr std::string_view kFp8ToFloatCode =
    "#include <hip/hip_fp8.h>\n"
    "#ifndef HIPFORGE_FP8_TO_FLOAT_SHIM\n"
    "#define HIPFORGE_FP8_TO_FLOAT_SHIM /* hipforge: HIP 6.4 converts OCP fp8 to float only on the host for gfx942 */\n"
    "#if defined(__HIP_PLATFORM_NVIDIA__)\n"
    "__host__ __device__ inline float hipforge_fp8_to_float(__hip_fp8_e4m3 x) { return static_cast<float>(x); }\n"
    "__host__ __device__ inline float hipforge_fp8_to_float(__hip_fp8_e5m2 x) { return static_cast<float>(x); }\n"
    "#else\n"
    "__host__ __device__ inline float hipforge_fp8_to_float(__hip_fp8_e4m3 x) { "
    "const unsigned int b = x.__x, e = (b >> 3) & 0xfu, m = b & 7u; "
    "if (e == 0xfu && m == 7u) return __builtin_nanf(\"\"); "
    "const float v = e == 0 ? static_cast<float>(m) * 0x1p-9f : __builtin_ldexpf(1.0f + static_cast<float>(m) * "
    "0.125f, "
    "static_cast<int>(e) - 7); return (b & 0x80u) ? -v : v; }\n"
    "__host__ __device__ inline float hipforge_fp8_to_float(__hip_fp8_e5m2 x) { "
    "const unsigned int b = x.__x, e = (b >> 2) & 0x1fu, m = b & 3u; "
    "const float v = e == 0x1fu ? (m == 0 ? __builtin_inff() : __builtin_nanf(\"\")) : e == 0 ? "
    "static_cast<float>(m) * 0x1p-16f : __builtin_ldexpf(1.0f + static_cast<float>(m) * 0.25f, static_cast<int>(e) - "
    "15); "
    "return (b & 0x80u) ? -v : v; }\n"
    "#endif\n"
    "#endif\n";

constexpr DeviceFunctionShim kShims[] = {
    {.guard = "HIPFORGE_DP4A_SHIM",
     .names = kDp4aNames,
     .record = "__dp4a",
     .code = kDp4aCode,
     .note = "HIP has no __dp4a: an inline definition (four 8-bit products added to the 32-bit accumulator, "
             "wrapping as the instruction does) is written after the includes"},
    {.guard = "HIPFORGE_BF16_INTEGER_SHIM",
     .names = kBfloat16IntegerNames,
     .record = "__bfloat162int_rn",
     .code = kBfloat16IntegerCode,
     .note = "HIP has no __bfloat162int_*/uint_*/ll_*/ull_* conversions: inline definitions (bfloat16 -> float is "
             "exact, then HIP's __float2int_* with the same rounding) are written after the includes"},
    {.guard = "HIPFORGE_HALF_ATOMIC_ADD_SHIM",
     .names = kHalfAtomicNames,
     .with_any_of = kHalfTypeWords,
     .checked_through = {6, 4},
     .code = kHalfAtomicCode,
     .note = "HIP has no atomicAdd on __half2/__half: inline overloads (a compare-and-swap loop on the 32-bit "
             "word, correct on device and host memory) are written after the includes"},
    {.guard = "HIPFORGE_BF16_ATOMIC_ADD_SHIM",
     .names = kHalfAtomicNames,
     .with_any_of = kBfloat16TypeWords,
     .checked_through = {6, 4},
     .code = kBfloat16AtomicCode,
     .note = "HIP has no atomicAdd on __hip_bfloat162/__hip_bfloat16: inline overloads (a compare-and-swap loop on "
             "the 32-bit word, correct on device and host memory) are written after the includes"},
    {.guard = "HIPFORGE_SIMD_INTRINSICS_SHIM",
     .names = kSimdIntrinsicNames,
     .record = "__vadd2",
     .code = kSimdIntrinsicsCode,
     .note = "HIP has no per-byte/per-halfword SIMD intrinsics (__vadd4, __vcmpne2, ...): inline definitions of all "
             "82, lane by lane (checked bit for bit against CUDA's), are written after the includes"},
    {.guard = "HIPFORGE_CUB_DEBUG_EXIT_SHIM",
     .names = kCubDebugExitNames,
     .record = "CubDebugExit",
     .code = kCubDebugExitCode,
     .note = "hipCUB has no CubDebugExit: CUB's definition over hipCUB's HipcubDebug (exit(1) when the call failed) "
             "is written after the includes"},
    {.guard = "HIPFORGE_CACHE_HINT_SHIM",
     .names = kCacheHintNames,
     .record = "__stcs",
     .code = kCacheHintCode,
     .note = "HIP has no cache-hint loads and stores (__ldcs, __stcs, ...) except __ldcs/__ldcg/__ldca on half types: "
             "templates that load and store plainly (the hint changes caching, not the value) are written after the "
             "includes"},
    {.guard = "HIPFORGE_DPX_INTRINSICS_SHIM",
     .names = kDpxIntrinsicNames,
     .record = "__vimax3_s32",
     .code = kDpxIntrinsicsCode,
     .note = "HIP has no DPX functions (__vimax3_s32, __viaddmax_s16x2, __vibmax_u32, ...): inline definitions of all "
             "36 (checked bit for bit against CUDA's) are written after the includes"},
    {.guard = "HIPFORGE_FP8_TO_FLOAT_SHIM",
     .names = kFp8TypeNames,
     .checked_through = {6, 4},
     .code = kFp8ToFloatCode,
     .note = "HIP 6.4 converts OCP fp8 (__hip_fp8_e4m3/__hip_fp8_e5m2) to float only on the host for gfx942: the "
             "conversions are rewritten to hipforge_fp8_to_float, an exact software decode written after the includes",
     .type_names = true,
     .rewritten_to = "hipforge_fp8_to_float"},
    {.guard = "HIPFORGE_LEGACY_LAUNCH_SHIM",
     .names = kLegacyLaunchNames,
     .record = "cuLaunchGrid",
     .code = kLegacyLaunchCode,
     .note = "HIP has no legacy launch API (cuParamSet*, cuFuncSetBlockShape, cuFuncSetSharedSize, cuLaunch*): inline "
             "host definitions (CUDA's parameter buffer, block shape and shared size per function handle, launched "
             "with hipModuleLaunchKernel through HIP_LAUNCH_PARAM_BUFFER_POINTER) are written after the includes"},
};

}  // namespace

std::span<const DeviceFunctionShim> DeviceFunctionShims() { return kShims; }

}  // namespace hipforge::translate
