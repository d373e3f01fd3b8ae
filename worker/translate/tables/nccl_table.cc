// Mapping table: NCCL -> RCCL. One record per line.
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
    {.cuda_name = "ncclGetVersion", .hip_name = "ncclGetVersion", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 3}},
    {.cuda_name = "ncclGetUniqueId", .hip_name = "ncclGetUniqueId", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclCommInitRank", .hip_name = "ncclCommInitRank", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclCommInitAll", .hip_name = "ncclCommInitAll", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclCommInitRankConfig", .hip_name = "ncclCommInitRankConfig", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 14}},
    {.cuda_name = "ncclCommInitRankScalable", .hip_name = "ncclCommInitRankScalable", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 23}},
    {.cuda_name = "ncclCommSplit", .hip_name = "ncclCommSplit", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 18}},
    {.cuda_name = "ncclCommFinalize", .hip_name = "ncclCommFinalize", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 14}},
    {.cuda_name = "ncclCommDestroy", .hip_name = "ncclCommDestroy", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclCommAbort", .hip_name = "ncclCommAbort", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 4}},
    {.cuda_name = "ncclGetErrorString", .hip_name = "ncclGetErrorString", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclGetLastError", .hip_name = "ncclGetLastError", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 13}},
    {.cuda_name = "ncclCommGetAsyncError", .hip_name = "ncclCommGetAsyncError", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 4}},
    {.cuda_name = "ncclCommCount", .hip_name = "ncclCommCount", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclCommCuDevice", .hip_name = "ncclCommCuDevice", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclCommUserRank", .hip_name = "ncclCommUserRank", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclCommRegister", .hip_name = "ncclCommRegister", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 19}},
    {.cuda_name = "ncclCommDeregister", .hip_name = "ncclCommDeregister", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 19}},
    {.cuda_name = "ncclMemAlloc", .hip_name = "ncclMemAlloc", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 19}},
    {.cuda_name = "ncclMemFree", .hip_name = "ncclMemFree", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 19}},
    {.cuda_name = "ncclRedOpCreatePreMulSum", .hip_name = "ncclRedOpCreatePreMulSum", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 11}},
    {.cuda_name = "ncclRedOpDestroy", .hip_name = "ncclRedOpDestroy", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 11}},
    {.cuda_name = "ncclReduce", .hip_name = "ncclReduce", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclBcast", .hip_name = "ncclBcast", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclBroadcast", .hip_name = "ncclBroadcast", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 2}},
    {.cuda_name = "ncclAllReduce", .hip_name = "ncclAllReduce", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclReduceScatter", .hip_name = "ncclReduceScatter", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclAllGather", .hip_name = "ncclAllGather", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclSend", .hip_name = "ncclSend", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 7}},
    {.cuda_name = "ncclRecv", .hip_name = "ncclRecv", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 7}},
    {.cuda_name = "ncclGroupStart", .hip_name = "ncclGroupStart", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 0}},
    {.cuda_name = "ncclGroupEnd", .hip_name = "ncclGroupEnd", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 0}},
    {.cuda_name = "ncclGroupSimulateEnd", .hip_name = "ncclGroupSimulateEnd", .kind = kFunction, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 22}},
    {.cuda_name = "ncclSimInfo_t", .hip_name = "ncclSimInfo_t", .kind = kType, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 22}},
    {.cuda_name = "NCCL_SIM_INFO_INITIALIZER", .hip_name = "NCCL_SIM_INFO_INITIALIZER", .kind = kMacro, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 22}},
    {.cuda_name = "NCCL_COMM_NULL", .hip_name = "NCCL_COMM_NULL", .kind = kMacro, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 14}},
    {.cuda_name = "ncclComm_t", .hip_name = "ncclComm_t", .kind = kType, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclUniqueId", .hip_name = "ncclUniqueId", .kind = kType, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclConfig_t", .hip_name = "ncclConfig_t", .kind = kType, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 14}},
    {.cuda_name = "ncclResult_t", .hip_name = "ncclResult_t", .kind = kEnumType, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclSuccess", .hip_name = "ncclSuccess", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclUnhandledCudaError", .hip_name = "ncclUnhandledCudaError", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclSystemError", .hip_name = "ncclSystemError", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclInternalError", .hip_name = "ncclInternalError", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclInvalidArgument", .hip_name = "ncclInvalidArgument", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclInvalidUsage", .hip_name = "ncclInvalidUsage", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 4}},
    {.cuda_name = "ncclRemoteError", .hip_name = "ncclRemoteError", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 13}},
    {.cuda_name = "ncclInProgress", .hip_name = "ncclInProgress", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 14}},
    {.cuda_name = "ncclNumResults", .hip_name = "ncclNumResults", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclRedOp_t", .hip_name = "ncclRedOp_t", .kind = kEnumType, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclSum", .hip_name = "ncclSum", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclProd", .hip_name = "ncclProd", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclMax", .hip_name = "ncclMax", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclMin", .hip_name = "ncclMin", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclAvg", .hip_name = "ncclAvg", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 10}},
    {.cuda_name = "ncclNumOps", .hip_name = "ncclNumOps", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclScalarResidence_t", .hip_name = "ncclScalarResidence_t", .kind = kEnumType, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 11}},
    {.cuda_name = "ncclScalarDevice", .hip_name = "ncclScalarDevice", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 11}},
    {.cuda_name = "ncclScalarHostImmediate", .hip_name = "ncclScalarHostImmediate", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 11}},
    {.cuda_name = "ncclDataType_t", .hip_name = "ncclDataType_t", .kind = kEnumType, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclInt8", .hip_name = "ncclInt8", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 0}},
    {.cuda_name = "ncclChar", .hip_name = "ncclChar", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclUint8", .hip_name = "ncclUint8", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 0}},
    {.cuda_name = "ncclInt32", .hip_name = "ncclInt32", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 0}},
    {.cuda_name = "ncclInt", .hip_name = "ncclInt", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclUint32", .hip_name = "ncclUint32", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 0}},
    {.cuda_name = "ncclInt64", .hip_name = "ncclInt64", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclUint64", .hip_name = "ncclUint64", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclFloat16", .hip_name = "ncclFloat16", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 0}},
    {.cuda_name = "ncclHalf", .hip_name = "ncclHalf", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclFloat32", .hip_name = "ncclFloat32", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 0}},
    {.cuda_name = "ncclFloat", .hip_name = "ncclFloat", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclFloat64", .hip_name = "ncclFloat64", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 0}},
    {.cuda_name = "ncclDouble", .hip_name = "ncclDouble", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "ncclBfloat16", .hip_name = "ncclBfloat16", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 10}},
    {.cuda_name = "ncclNumTypes", .hip_name = "ncclNumTypes", .kind = kEnumConstant, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "NCCL_UNIQUE_ID_BYTES", .hip_name = "NCCL_UNIQUE_ID_BYTES", .kind = kMacro, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "NCCL_CONFIG_INITIALIZER", .hip_name = "NCCL_CONFIG_INITIALIZER", .kind = kMacro, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 14}},
    {.cuda_name = "NCCL_MAJOR", .hip_name = "NCCL_MAJOR", .kind = kMacro, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "NCCL_MINOR", .hip_name = "NCCL_MINOR", .kind = kMacro, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "NCCL_PATCH", .hip_name = "NCCL_PATCH", .kind = kMacro, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {1, 0}},
    {.cuda_name = "NCCL_VERSION_CODE", .hip_name = "NCCL_VERSION_CODE", .kind = kMacro, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 0}},
    {.cuda_name = "NCCL_VERSION", .hip_name = "NCCL_VERSION", .kind = kMacro, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 0}},
    {.cuda_name = "NCCL_SPLIT_NOCOLOR", .hip_name = "NCCL_SPLIT_NOCOLOR", .kind = kMacro, .library = kNccl, .roc_state = kSupported, .cuda_introduced = {2, 18}},
    // NCCL 2.27+ communicator shrinking, revocation and symmetric-memory windows: not in RCCL (ROCm 6.4 ships
    // RCCL 2.22), so each use is reported.
    {.cuda_name = "ncclCommShrink", .kind = kFunction, .library = kNccl, .hip_state = kUnsupported, .cuda_introduced = {2, 27}},
    {.cuda_name = "ncclCommWindowRegister", .kind = kFunction, .library = kNccl, .hip_state = kUnsupported, .cuda_introduced = {2, 27}},
    {.cuda_name = "ncclCommWindowDeregister", .kind = kFunction, .library = kNccl, .hip_state = kUnsupported, .cuda_introduced = {2, 27}},
    {.cuda_name = "ncclCommRevoke", .kind = kFunction, .library = kNccl, .hip_state = kUnsupported, .cuda_introduced = {2, 28}},
};

}  // namespace

std::span<const ApiMapping> NcclTable() { return kRecords; }

}  // namespace hipforge::translate
