#pragma once
// CUDA's warp intrinsics as data: the one list the analyzer (HB102 lane masks), the translator's AST pass (calls
// to rewrite for HIP before 6.2), its token pass (files that need HIP_ENABLE_WARP_SYNC_BUILTINS) and the name
// resolver (the maskless HIP spelling) read. Their names and HIP versions are device-table records
// (device_table.cc); this table adds what only warp intrinsics have. tests/translate/tables/mapping_tables_test.cc.
#include <span>
#include <string_view>

namespace hipforge::translate {

struct WarpIntrinsic {
  std::string_view name;
  bool lane_mask = false;          // the first argument is a 32-bit lane mask (CUDA's warps are 32 wide)
  std::string_view maskless;       // what HIP before 6.2 calls without the mask (__shfl_sync -> __shfl); empty: none
  bool needs_sync_builtins = false;  // HIP 6.2+ declares it only after #define HIP_ENABLE_WARP_SYNC_BUILTINS
};
std::span<const WarpIntrinsic> WarpIntrinsics();
const WarpIntrinsic* FindWarpIntrinsic(std::string_view name);  // nullptr: not a warp intrinsic

}  // namespace hipforge::translate
