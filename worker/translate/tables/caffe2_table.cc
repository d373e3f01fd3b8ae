// Mapping table: Caffe2 CUDA helpers. One record per line.
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
    {.cuda_name = "cuda_stream", .hip_name = "hip_stream", .kind = kFunction, .library = kCaffe2, .roc_state = kSupported},
    {.cuda_name = "REGISTER_CUDA_OPERATOR", .hip_name = "REGISTER_HIP_OPERATOR", .kind = kMacro, .library = kCaffe2, .roc_state = kSupported},
    {.cuda_name = "REGISTER_CUDA_OPERATOR_CREATOR", .hip_name = "REGISTER_HIP_OPERATOR_CREATOR", .kind = kMacro, .library = kCaffe2, .roc_state = kSupported},
    {.cuda_name = "CUDAContext", .hip_name = "HIPContext", .kind = kType, .library = kCaffe2, .roc_state = kSupported},
};

}  // namespace

std::span<const ApiMapping> Caffe2Table() { return kRecords; }

}  // namespace hipforge::translate
