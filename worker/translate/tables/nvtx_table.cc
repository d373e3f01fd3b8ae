// Mapping table: NVTX (NVIDIA Tools Extension) -> roctx (ROCm's tracer annotations). One record per line.
// Data file (exempt from the file-length rule): hipforge's own data, from the NVTX and roctx headers (roctx has
// ASCII marks and ranges only: no wide strings, event attributes, domains or resource naming).
// Regenerate docs/mappings with gen_mapping_docs after editing.
// One record per line is the format of a table, so clang-format leaves the file as written.
// clang-format off
#include "worker/translate/tables/library_tables.h"

namespace hipforge::translate {
namespace {

using enum ApiKind;
using enum ApiLibrary;
using enum SupportState;

constexpr ApiMapping kRecords[] = {
    {.cuda_name = "nvtxMarkA", .hip_name = "roctxMarkA", .kind = kFunction, .library = kNvtx, .roc_state = kSupported},
    {.cuda_name = "nvtxMark", .hip_name = "roctxMark", .kind = kMacro, .library = kNvtx, .roc_state = kSupported},
    {.cuda_name = "nvtxRangePushA", .hip_name = "roctxRangePushA", .kind = kFunction, .library = kNvtx, .roc_state = kSupported},
    {.cuda_name = "nvtxRangePush", .hip_name = "roctxRangePush", .kind = kMacro, .library = kNvtx, .roc_state = kSupported},
    {.cuda_name = "nvtxRangePop", .hip_name = "roctxRangePop", .kind = kFunction, .library = kNvtx, .roc_state = kSupported},
    {.cuda_name = "nvtxRangeStartA", .hip_name = "roctxRangeStartA", .kind = kFunction, .library = kNvtx, .roc_state = kSupported},
    {.cuda_name = "nvtxRangeStart", .hip_name = "roctxRangeStart", .kind = kMacro, .library = kNvtx, .roc_state = kSupported},
    {.cuda_name = "nvtxRangeEnd", .hip_name = "roctxRangeStop", .kind = kFunction, .library = kNvtx, .roc_state = kSupported},
    {.cuda_name = "nvtxRangeId_t", .hip_name = "roctx_range_id_t", .kind = kType, .library = kNvtx, .roc_state = kSupported},
    {.cuda_name = "nvtxMarkW", .kind = kFunction, .library = kNvtx, .hip_state = kUnsupported},
    {.cuda_name = "nvtxMarkEx", .kind = kFunction, .library = kNvtx, .hip_state = kUnsupported},
    {.cuda_name = "nvtxRangePushW", .kind = kFunction, .library = kNvtx, .hip_state = kUnsupported},
    {.cuda_name = "nvtxRangePushEx", .kind = kFunction, .library = kNvtx, .hip_state = kUnsupported},
    {.cuda_name = "nvtxRangeStartW", .kind = kFunction, .library = kNvtx, .hip_state = kUnsupported},
    {.cuda_name = "nvtxRangeStartEx", .kind = kFunction, .library = kNvtx, .hip_state = kUnsupported},
    {.cuda_name = "nvtxEventAttributes_t", .kind = kType, .library = kNvtx, .hip_state = kUnsupported},
    {.cuda_name = "nvtxNameOsThreadA", .kind = kFunction, .library = kNvtx, .hip_state = kUnsupported},
    {.cuda_name = "nvtxNameCudaDeviceA", .kind = kFunction, .library = kNvtx, .hip_state = kUnsupported},
    {.cuda_name = "nvtxNameCudaStreamA", .kind = kFunction, .library = kNvtx, .hip_state = kUnsupported},
    {.cuda_name = "nvtxDomainCreateA", .kind = kFunction, .library = kNvtx, .hip_state = kUnsupported},
    {.cuda_name = "nvtxDomainDestroy", .kind = kFunction, .library = kNvtx, .hip_state = kUnsupported},
    {.cuda_name = "nvtxDomainHandle_t", .kind = kType, .library = kNvtx, .hip_state = kUnsupported},
    {.cuda_name = "nvtxDomainRangePushEx", .kind = kFunction, .library = kNvtx, .hip_state = kUnsupported},
    {.cuda_name = "nvtxDomainRangePop", .kind = kFunction, .library = kNvtx, .hip_state = kUnsupported},
    {.cuda_name = "nvtxDomainMarkEx", .kind = kFunction, .library = kNvtx, .hip_state = kUnsupported},
    {.cuda_name = "NVTX_VERSION", .kind = kMacro, .library = kNvtx, .hip_state = kUnsupported},
    {.cuda_name = "NVTX_EVENT_ATTRIB_STRUCT_SIZE", .kind = kMacro, .library = kNvtx, .hip_state = kUnsupported},
    {.cuda_name = "NVTX_COLOR_ARGB", .kind = kEnumConstant, .library = kNvtx, .hip_state = kUnsupported},
    {.cuda_name = "NVTX_MESSAGE_TYPE_ASCII", .kind = kEnumConstant, .library = kNvtx, .hip_state = kUnsupported},
    {.cuda_name = "nvtx3::scoped_range", .kind = kType, .library = kNvtx, .hip_state = kUnsupported},
};

}  // namespace

std::span<const ApiMapping> NvtxTable() { return kRecords; }

}  // namespace hipforge::translate
