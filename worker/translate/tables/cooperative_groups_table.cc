// Mapping table: cooperative groups. One record per line.
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
    {.cuda_name = "cooperative_groups", .hip_name = "cooperative_groups", .kind = kNamespace, .library = kCooperativeGroups, .roc_state = kSupported, .cuda_introduced = {9, 0}},
    {.cuda_name = "cooperative_groups::thread_group", .hip_name = "cooperative_groups::thread_group", .kind = kType, .library = kCooperativeGroups, .roc_state = kSupported, .cuda_introduced = {9, 0}},
    {.cuda_name = "cooperative_groups::thread_block", .hip_name = "cooperative_groups::thread_block", .kind = kType, .library = kCooperativeGroups, .roc_state = kSupported, .cuda_introduced = {9, 0}},
    {.cuda_name = "cooperative_groups::grid_group", .hip_name = "cooperative_groups::grid_group", .kind = kType, .library = kCooperativeGroups, .roc_state = kSupported, .cuda_introduced = {9, 0}},
    {.cuda_name = "cooperative_groups::multi_grid_group", .hip_name = "cooperative_groups::multi_grid_group", .kind = kType, .library = kCooperativeGroups, .hip_state = kRemoved, .roc_state = kRemoved, .cuda_introduced = {9, 0}, .cuda_deprecated = {11, 3}, .cuda_removed = {12, 0}},
    {.cuda_name = "cooperative_groups::coalesced_group", .hip_name = "cooperative_groups::coalesced_group", .kind = kType, .library = kCooperativeGroups, .roc_state = kSupported, .cuda_introduced = {9, 0}},
    {.cuda_name = "cooperative_groups::thread_block_tile", .hip_name = "cooperative_groups::thread_block_tile", .kind = kType, .library = kCooperativeGroups, .roc_state = kSupported, .cuda_introduced = {9, 0}},
    {.cuda_name = "cooperative_groups::cluster_group", .kind = kType, .library = kCooperativeGroups, .hip_state = kUnsupported, .cuda_introduced = {12, 0}},
    {.cuda_name = "cooperative_groups::this_thread_block", .hip_name = "cooperative_groups::this_thread_block", .kind = kFunction, .library = kCooperativeGroups, .roc_state = kSupported, .cuda_introduced = {9, 0}},
    {.cuda_name = "cooperative_groups::this_grid", .hip_name = "cooperative_groups::this_grid", .kind = kFunction, .library = kCooperativeGroups, .roc_state = kSupported, .cuda_introduced = {9, 0}},
    {.cuda_name = "cooperative_groups::this_multi_grid", .hip_name = "cooperative_groups::this_multi_grid", .kind = kFunction, .library = kCooperativeGroups, .hip_state = kRemoved, .roc_state = kRemoved, .cuda_introduced = {9, 0}, .cuda_deprecated = {11, 3}, .cuda_removed = {12, 0}},
    {.cuda_name = "cooperative_groups::this_cluster", .kind = kFunction, .library = kCooperativeGroups, .hip_state = kUnsupported, .cuda_introduced = {12, 0}},
    {.cuda_name = "cooperative_groups::coalesced_threads", .hip_name = "cooperative_groups::coalesced_threads", .kind = kFunction, .library = kCooperativeGroups, .roc_state = kSupported, .cuda_introduced = {9, 0}},
    {.cuda_name = "cooperative_groups::tiled_partition", .hip_name = "cooperative_groups::tiled_partition", .kind = kFunction, .library = kCooperativeGroups, .roc_state = kSupported, .cuda_introduced = {9, 0}},
    {.cuda_name = "cooperative_groups::binary_partition", .kind = kFunction, .library = kCooperativeGroups, .hip_state = kUnsupported, .cuda_introduced = {11, 0}},
    {.cuda_name = "cooperative_groups::labeled_partition", .kind = kFunction, .library = kCooperativeGroups, .hip_state = kUnsupported, .cuda_introduced = {11, 0}},
    {.cuda_name = "cooperative_groups::sync", .hip_name = "cooperative_groups::sync", .kind = kFunction, .library = kCooperativeGroups, .roc_state = kSupported, .cuda_introduced = {9, 0}},
    {.cuda_name = "cooperative_groups::group_size", .hip_name = "cooperative_groups::group_size", .kind = kFunction, .library = kCooperativeGroups, .roc_state = kSupported, .cuda_introduced = {9, 0}},
    {.cuda_name = "cooperative_groups::thread_rank", .hip_name = "cooperative_groups::thread_rank", .kind = kFunction, .library = kCooperativeGroups, .roc_state = kSupported, .cuda_introduced = {9, 0}},
    {.cuda_name = "cooperative_groups::memcpy_async", .kind = kFunction, .library = kCooperativeGroups, .hip_state = kUnsupported, .cuda_introduced = {11, 0}},
    {.cuda_name = "cooperative_groups::wait", .kind = kFunction, .library = kCooperativeGroups, .hip_state = kUnsupported, .cuda_introduced = {11, 0}},
    {.cuda_name = "cooperative_groups::wait_prior", .kind = kFunction, .library = kCooperativeGroups, .hip_state = kUnsupported, .cuda_introduced = {11, 0}},
    // No HIP release has reduce (checked: hip_cooperative_groups.h of HIP 5.2, 5.7.1, 6.4.3); the translator
    // writes an inline warp-tile version instead (core/compat_shims.h). Set hip_introduced when one does.
    {.cuda_name = "cooperative_groups::reduce", .kind = kFunction, .library = kCooperativeGroups, .hip_state = kUnsupported, .cuda_introduced = {11, 0}},
    {.cuda_name = "cooperative_groups::inclusive_scan", .kind = kFunction, .library = kCooperativeGroups, .hip_state = kUnsupported, .cuda_introduced = {11, 6}},
    {.cuda_name = "cooperative_groups::exclusive_scan", .kind = kFunction, .library = kCooperativeGroups, .hip_state = kUnsupported, .cuda_introduced = {11, 6}},
    {.cuda_name = "cooperative_groups::invoke_one", .kind = kFunction, .library = kCooperativeGroups, .hip_state = kUnsupported, .cuda_introduced = {12, 1}},
    {.cuda_name = "cooperative_groups::invoke_one_broadcast", .kind = kFunction, .library = kCooperativeGroups, .hip_state = kUnsupported, .cuda_introduced = {12, 1}},
};

}  // namespace

std::span<const ApiMapping> CooperativeGroupsTable() { return kRecords; }

}  // namespace hipforge::translate
