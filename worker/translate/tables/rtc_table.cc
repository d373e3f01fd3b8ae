// Mapping table: NVRTC -> hipRTC. One record per line.
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
    {.cuda_name = "nvrtcGetErrorString", .hip_name = "hiprtcGetErrorString", .kind = kFunction, .library = kRtc, .roc_state = kSupported, .hip_introduced = {2, 6}},
    {.cuda_name = "nvrtcVersion", .hip_name = "hiprtcVersion", .kind = kFunction, .library = kRtc, .roc_state = kSupported, .hip_introduced = {2, 6}},
    {.cuda_name = "nvrtcGetNumSupportedArchs", .hip_name = "hiprtcGetNumSupportedArchs", .kind = kFunction, .library = kRtc, .hip_state = kUnsupported, .cuda_introduced = {11, 2}},
    {.cuda_name = "nvrtcGetSupportedArchs", .hip_name = "hiprtcGetSupportedArchs", .kind = kFunction, .library = kRtc, .hip_state = kUnsupported, .cuda_introduced = {11, 2}},
    {.cuda_name = "nvrtcCreateProgram", .hip_name = "hiprtcCreateProgram", .kind = kFunction, .library = kRtc, .roc_state = kSupported, .hip_introduced = {2, 6}},
    {.cuda_name = "nvrtcDestroyProgram", .hip_name = "hiprtcDestroyProgram", .kind = kFunction, .library = kRtc, .roc_state = kSupported, .hip_introduced = {2, 6}},
    {.cuda_name = "nvrtcCompileProgram", .hip_name = "hiprtcCompileProgram", .kind = kFunction, .library = kRtc, .roc_state = kSupported, .hip_introduced = {2, 6}},
    {.cuda_name = "nvrtcGetPTXSize", .hip_name = "hiprtcGetCodeSize", .kind = kFunction, .library = kRtc, .roc_state = kSupported, .hip_introduced = {2, 6}},
    {.cuda_name = "nvrtcGetPTX", .hip_name = "hiprtcGetCode", .kind = kFunction, .library = kRtc, .roc_state = kSupported, .hip_introduced = {2, 6}},
    {.cuda_name = "nvrtcGetCUBINSize", .hip_name = "hiprtcGetBitcodeSize", .kind = kFunction, .library = kRtc, .roc_state = kSupported, .cuda_introduced = {11, 1}, .hip_introduced = {5, 3}},
    {.cuda_name = "nvrtcGetCUBIN", .hip_name = "hiprtcGetBitcode", .kind = kFunction, .library = kRtc, .roc_state = kSupported, .cuda_introduced = {11, 1}, .hip_introduced = {5, 3}},
    {.cuda_name = "nvrtcGetNVVMSize", .hip_name = "hiprtcGetNVVMSize", .kind = kFunction, .library = kRtc, .hip_state = kUnsupported, .cuda_introduced = {11, 4}, .cuda_deprecated = {12, 0}},
    {.cuda_name = "nvrtcGetNVVM", .hip_name = "hiprtcGetNVVM", .kind = kFunction, .library = kRtc, .hip_state = kUnsupported, .cuda_introduced = {11, 4}, .cuda_deprecated = {12, 0}},
    {.cuda_name = "nvrtcGetProgramLogSize", .hip_name = "hiprtcGetProgramLogSize", .kind = kFunction, .library = kRtc, .roc_state = kSupported, .hip_introduced = {2, 6}},
    {.cuda_name = "nvrtcGetProgramLog", .hip_name = "hiprtcGetProgramLog", .kind = kFunction, .library = kRtc, .roc_state = kSupported, .hip_introduced = {2, 6}},
    {.cuda_name = "nvrtcAddNameExpression", .hip_name = "hiprtcAddNameExpression", .kind = kFunction, .library = kRtc, .roc_state = kSupported, .cuda_introduced = {8, 0}, .hip_introduced = {2, 6}},
    {.cuda_name = "nvrtcGetLoweredName", .hip_name = "hiprtcGetLoweredName", .kind = kFunction, .library = kRtc, .roc_state = kSupported, .cuda_introduced = {8, 0}, .hip_introduced = {2, 6}},
    {.cuda_name = "nvrtcGetLTOIRSize", .hip_name = "hiprtcGetLTOIRSize", .kind = kFunction, .library = kRtc, .hip_state = kUnsupported, .cuda_introduced = {12, 0}},
    {.cuda_name = "nvrtcGetLTOIR", .hip_name = "hiprtcGetLTOIR", .kind = kFunction, .library = kRtc, .hip_state = kUnsupported, .cuda_introduced = {12, 0}},
    {.cuda_name = "nvrtcGetOptiXIRSize", .hip_name = "hiprtcGetOptiXIRSize", .kind = kFunction, .library = kRtc, .hip_state = kUnsupported, .cuda_introduced = {12, 0}},
    {.cuda_name = "nvrtcGetOptiXIR", .hip_name = "hiprtcGetOptiXIR", .kind = kFunction, .library = kRtc, .hip_state = kUnsupported, .cuda_introduced = {12, 0}},
    {.cuda_name = "nvrtcResult", .hip_name = "hiprtcResult", .kind = kEnumType, .library = kRtc, .roc_state = kSupported, .hip_introduced = {2, 6}},
    {.cuda_name = "NVRTC_SUCCESS", .hip_name = "HIPRTC_SUCCESS", .kind = kEnumConstant, .library = kRtc, .roc_state = kSupported, .hip_introduced = {2, 6}},
    {.cuda_name = "NVRTC_ERROR_OUT_OF_MEMORY", .hip_name = "HIPRTC_ERROR_OUT_OF_MEMORY", .kind = kEnumConstant, .library = kRtc, .roc_state = kSupported, .hip_introduced = {2, 6}},
    {.cuda_name = "NVRTC_ERROR_PROGRAM_CREATION_FAILURE", .hip_name = "HIPRTC_ERROR_PROGRAM_CREATION_FAILURE", .kind = kEnumConstant, .library = kRtc, .roc_state = kSupported, .hip_introduced = {2, 6}},
    {.cuda_name = "NVRTC_ERROR_INVALID_INPUT", .hip_name = "HIPRTC_ERROR_INVALID_INPUT", .kind = kEnumConstant, .library = kRtc, .roc_state = kSupported, .hip_introduced = {2, 6}},
    {.cuda_name = "NVRTC_ERROR_INVALID_PROGRAM", .hip_name = "HIPRTC_ERROR_INVALID_PROGRAM", .kind = kEnumConstant, .library = kRtc, .roc_state = kSupported, .hip_introduced = {2, 6}},
    {.cuda_name = "NVRTC_ERROR_INVALID_OPTION", .hip_name = "HIPRTC_ERROR_INVALID_OPTION", .kind = kEnumConstant, .library = kRtc, .roc_state = kSupported, .hip_introduced = {2, 6}},
    {.cuda_name = "NVRTC_ERROR_COMPILATION", .hip_name = "HIPRTC_ERROR_COMPILATION", .kind = kEnumConstant, .library = kRtc, .roc_state = kSupported, .hip_introduced = {2, 6}},
    {.cuda_name = "NVRTC_ERROR_BUILTIN_OPERATION_FAILURE", .hip_name = "HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE", .kind = kEnumConstant, .library = kRtc, .roc_state = kSupported, .hip_introduced = {2, 6}},
    {.cuda_name = "NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION", .hip_name = "HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION", .kind = kEnumConstant, .library = kRtc, .roc_state = kSupported, .cuda_introduced = {8, 0}, .hip_introduced = {2, 6}},
    {.cuda_name = "NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION", .hip_name = "HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION", .kind = kEnumConstant, .library = kRtc, .roc_state = kSupported, .cuda_introduced = {8, 0}, .hip_introduced = {2, 6}},
    {.cuda_name = "NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID", .hip_name = "HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID", .kind = kEnumConstant, .library = kRtc, .roc_state = kSupported, .cuda_introduced = {8, 0}, .hip_introduced = {2, 6}},
    {.cuda_name = "NVRTC_ERROR_INTERNAL_ERROR", .hip_name = "HIPRTC_ERROR_INTERNAL_ERROR", .kind = kEnumConstant, .library = kRtc, .roc_state = kSupported, .cuda_introduced = {8, 0}, .hip_introduced = {2, 6}},
    {.cuda_name = "NVRTC_ERROR_TIME_FILE_WRITE_FAILED", .hip_name = "HIPRTC_ERROR_TIME_FILE_WRITE_FAILED", .kind = kEnumConstant, .library = kRtc, .hip_state = kUnsupported, .cuda_introduced = {12, 1}},
    {.cuda_name = "nvrtcProgram", .hip_name = "hiprtcProgram", .kind = kType, .library = kRtc, .roc_state = kSupported, .hip_introduced = {2, 6}},
};

}  // namespace

std::span<const ApiMapping> RtcTable() { return kRecords; }

}  // namespace hipforge::translate
