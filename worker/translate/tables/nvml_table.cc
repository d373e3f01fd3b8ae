// Mapping table: NVML (NVIDIA Management Library). ROCm's counterpart, ROCm SMI (rocm_smi/rocm_smi.h), is not a
// drop-in (other handles, units and signatures), so every record is unsupported: each use gets a located warning
// instead of passing through quietly. One record per line; hipforge's own data, from nvml.h.
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
    {.cuda_name = "nvmlInit", .kind = kFunction, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlInit_v2", .kind = kFunction, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlShutdown", .kind = kFunction, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlErrorString", .kind = kFunction, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlDeviceGetCount", .kind = kFunction, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlDeviceGetCount_v2", .kind = kFunction, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlDeviceGetHandleByIndex", .kind = kFunction, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlDeviceGetHandleByIndex_v2", .kind = kFunction, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlDeviceGetHandleByPciBusId", .kind = kFunction, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlDeviceGetHandleByPciBusId_v2", .kind = kFunction, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlDeviceGetName", .kind = kFunction, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlDeviceGetTemperature", .kind = kFunction, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlDeviceGetPowerUsage", .kind = kFunction, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlDeviceGetClockInfo", .kind = kFunction, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlDeviceGetMemoryInfo", .kind = kFunction, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlDeviceGetUtilizationRates", .kind = kFunction, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlDeviceGetFanSpeed", .kind = kFunction, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlDeviceGetPciInfo", .kind = kFunction, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlDeviceGetUUID", .kind = kFunction, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlDevice_t", .kind = kType, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlReturn_t", .kind = kType, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlMemory_t", .kind = kType, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlUtilization_t", .kind = kType, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "nvmlPciInfo_t", .kind = kType, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "NVML_SUCCESS", .kind = kEnumConstant, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "NVML_TEMPERATURE_GPU", .kind = kEnumConstant, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "NVML_CLOCK_SM", .kind = kEnumConstant, .library = kNvml, .hip_state = kUnsupported},
    {.cuda_name = "NVML_CLOCK_MEM", .kind = kEnumConstant, .library = kNvml, .hip_state = kUnsupported},
};

}  // namespace

std::span<const ApiMapping> NvmlTable() { return kRecords; }

}  // namespace hipforge::translate
