// Mapping table: CUB -> hipCUB. One record per line.
// Data file (exempt from the file-length rule): facts from ROCm/HIPIFY's mapping data plus
// hipforge additions; regenerate docs/mappings with gen_mapping_docs after editing.
// One record per line is the format of a table, so clang-format leaves the file as written.
// clang-format off
#include "worker/translate/tables/library_tables.h"

namespace hipforge::translate {
namespace {

using enum ApiKind;
using enum ApiLibrary;
using enum SupportState;
using enum MappingFlag;

constexpr ApiMapping kRecords[] = {
    {.cuda_name = "cub", .hip_name = "hipcub", .kind = kNamespace, .library = kCub, .roc_state = kSupported},
    {.cuda_name = "CubVector", .hip_name = "HipcubVector", .kind = kType, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_STDERR", .hip_name = "HIPCUB_STDERR", .kind = kMacro, .library = kCub, .roc_state = kSupported, .hip_introduced = {2, 5}},
    {.cuda_name = "CubDebug", .hip_name = "HipcubDebug", .kind = kMacro, .library = kCub, .roc_state = kSupported, .hip_introduced = {2, 5}},
    {.cuda_name = "CubDebugExit", .hip_name = "HipcubDebugExit", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "_CubLog", .hip_name = "_HipcubLog", .kind = kMacro, .library = kCub, .roc_state = kSupported, .hip_introduced = {2, 5}},
    {.cuda_name = "CUB_RUNTIME_FUNCTION", .hip_name = "HIPCUB_RUNTIME_FUNCTION", .kind = kMacro, .library = kCub, .roc_state = kSupported, .hip_introduced = {2, 5}},
    {.cuda_name = "CUB_PTX_WARP_THREADS", .hip_name = "HIPCUB_WARP_THREADS", .kind = kMacro, .library = kCub, .roc_state = kSupported, .hip_introduced = {2, 5}},
    {.cuda_name = "CUB_PTX_ARCH", .hip_name = "HIPCUB_ARCH", .kind = kMacro, .library = kCub, .roc_state = kSupported, .hip_introduced = {2, 5}},
    {.cuda_name = "CUB_NAMESPACE_BEGIN", .hip_name = "BEGIN_HIPCUB_NAMESPACE", .kind = kMacro, .library = kCub, .roc_state = kSupported, .hip_introduced = {2, 5}},
    {.cuda_name = "CUB_NAMESPACE_END", .hip_name = "END_HIPCUB_NAMESPACE", .kind = kMacro, .library = kCub, .roc_state = kSupported, .hip_introduced = {2, 5}},
    {.cuda_name = "CUB_USE_COOPERATIVE_GROUPS", .hip_name = "HIPCUB_USE_COOPERATIVE_GROUPS", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_IS_DEVICE_CODE", .hip_name = "HIPCUB_IS_DEVICE_CODE", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_IS_HOST_CODE", .hip_name = "HIPCUB_IS_HOST_CODE", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_INCLUDE_DEVICE_CODE", .hip_name = "HIPCUB_INCLUDE_DEVICE_CODE", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_INCLUDE_HOST_CODE", .hip_name = "HIPCUB_INCLUDE_HOST_CODE", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_MAX_DEVICES", .hip_name = "HIPCUB_MAX_DEVICES", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_CPP_DIALECT", .hip_name = "HIPCUB_CPP_DIALECT", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_RUNTIME_ENABLED", .hip_name = "HIPCUB_RUNTIME_ENABLED", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_LOG_WARP_THREADS", .hip_name = "HIPCUB_LOG_WARP_THREADS", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_PTX_LOG_WARP_THREADS", .hip_name = "HIPCUB_LOG_WARP_THREADS", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_LOG_SMEM_BANKS", .hip_name = "HIPCUB_LOG_SMEM_BANKS", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_SMEM_BANKS", .hip_name = "HIPCUB_SMEM_BANKS", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_PTX_LOG_SMEM_BANKS", .hip_name = "HIPCUB_LOG_SMEM_BANKS", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_PTX_SMEM_BANKS", .hip_name = "HIPCUB_SMEM_BANKS", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_SUBSCRIPTION_FACTOR", .hip_name = "HIPCUB_SUBSCRIPTION_FACTOR", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_PTX_SUBSCRIPTION_FACTOR", .hip_name = "HIPCUB_SUBSCRIPTION_FACTOR", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_PREFER_CONFLICT_OVER_PADDING", .hip_name = "HIPCUB_PREFER_CONFLICT_OVER_PADDING", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_PTX_PREFER_CONFLICT_OVER_PADDING", .hip_name = "HIPCUB_PREFER_CONFLICT_OVER_PADDING", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_MAX", .hip_name = "CUB_MAX", .kind = kMacro, .library = kCub, .roc_state = kSupported, .hip_introduced = {4, 5}},
    {.cuda_name = "CUB_MIN", .hip_name = "CUB_MIN", .kind = kMacro, .library = kCub, .roc_state = kSupported, .hip_introduced = {4, 5}},
    {.cuda_name = "__CUB_ALIGN_BYTES", .hip_name = "__HIPCUB_ALIGN_BYTES", .kind = kMacro, .library = kCub, .roc_state = kSupported, .hip_introduced = {4, 5}},
    {.cuda_name = "CUB_DEFINE_VECTOR_TYPE", .hip_name = "HIPCUB_DEFINE_VECTOR_TYPE", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_DEFINE_DETECT_NESTED_TYPE", .hip_name = "HIPCUB_DEFINE_DETECT_NESTED_TYPE", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "__CUB_LP64__", .hip_name = "__HIPCUB_LP64__", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "_CUB_ASM_PTR_", .hip_name = "_HIPCUB_ASM_PTR_", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "_CUB_ASM_PTR_SIZE_", .hip_name = "_HIPCUB_ASM_PTR_SIZE_", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_ALIGN", .hip_name = "HIPCUB_ALIGN", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_PREVENT_MACRO_SUBSTITUTION", .hip_name = "HIPCUB_PREVENT_MACRO_SUBSTITUTION", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_QUOTIENT_FLOOR", .hip_name = "HIPCUB_QUOTIENT_FLOOR", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_QUOTIENT_CEILING", .hip_name = "HIPCUB_QUOTIENT_CEILING", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_ROUND_UP_NEAREST", .hip_name = "HIPCUB_ROUND_UP_NEAREST", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_ROUND_DOWN_NEAREST", .hip_name = "HIPCUB_ROUND_DOWN_NEAREST", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_STATIC_ASSERT", .hip_name = "HIPCUB_STATIC_ASSERT", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_CAT", .hip_name = "HIPCUB_CAT", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_CAT_", .hip_name = "HIPCUB_CAT_", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_IGNORE_DEPRECATED_API", .hip_name = "HIPCUB_IGNORE_DEPRECATED_API", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_DEPRECATED", .hip_name = "HIPCUB_DEPRECATED", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_HOST_COMPILER", .hip_name = "HIPCUB_HOST_COMPILER", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_HOST_COMPILER_MSVC", .hip_name = "HIPCUB_HOST_COMPILER_MSVC", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_HOST_COMPILER_CLANG", .hip_name = "HIPCUB_HOST_COMPILER_CLANG", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_HOST_COMPILER_GCC", .hip_name = "HIPCUB_HOST_COMPILER_GCC", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_HOST_COMPILER_UNKNOWN", .hip_name = "HIPCUB_HOST_COMPILER_UNKNOWN", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_DEVICE_COMPILER", .hip_name = "HIPCUB_DEVICE_COMPILER", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_DEVICE_COMPILER_MSVC", .hip_name = "HIPCUB_DEVICE_COMPILER_MSVC", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_DEVICE_COMPILER_CLANG", .hip_name = "HIPCUB_DEVICE_COMPILER_CLANG", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_DEVICE_COMPILER_GCC", .hip_name = "HIPCUB_DEVICE_COMPILER_GCC", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_DEVICE_COMPILER_NVCC", .hip_name = "HIPCUB_DEVICE_COMPILER_NVCC", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_DEVICE_COMPILER_UNKNOWN", .hip_name = "HIPCUB_DEVICE_COMPILER_UNKNOWN", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_IGNORE_DEPRECATED_DIALECT", .hip_name = "HIPCUB_IGNORE_DEPRECATED_DIALECT", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_IGNORE_DEPRECATED_CPP_DIALECT", .hip_name = "HIPCUB_IGNORE_DEPRECATED_CPP_DIALECT", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_IGNORE_DEPRECATED_CPP_11", .hip_name = "HIPCUB_IGNORE_DEPRECATED_CPP_11", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_IGNORE_DEPRECATED_COMPILER", .hip_name = "HIPCUB_IGNORE_DEPRECATED_COMPILER", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_MSVC_VERSION", .hip_name = "HIPCUB_MSVC_VERSION", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_MSVC_VERSION_FULL", .hip_name = "HIPCUB_MSVC_VERSION_FULL", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_CPLUSPLUS", .hip_name = "HIPCUB_CPLUSPLUS", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_COMP_DEPR_IMPL", .hip_name = "HIPCUB_COMP_DEPR_IMPL", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_COMP_DEPR_IMPL0", .hip_name = "HIPCUB_COMP_DEPR_IMPL0", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_COMP_DEPR_IMPL1", .hip_name = "HIPCUB_COMP_DEPR_IMPL1", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_COMPILER_DEPRECATION", .hip_name = "HIPCUB_COMPILER_DEPRECATION", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
    {.cuda_name = "CUB_COMPILER_DEPRECATION_SOFT", .hip_name = "HIPCUB_COMPILER_DEPRECATION_SOFT", .kind = kMacro, .library = kCub, .hip_state = kUnsupported},
};

}  // namespace

std::span<const ApiMapping> CubTable() { return kRecords; }

}  // namespace hipforge::translate
