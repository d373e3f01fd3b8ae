#pragma once
// CUDA's warp intrinsics as data: the one list the analyzer (HB102 lane masks; HB101, HB103, HB104 which calls
// shuffle, vote, ballot or sync a warp), the translator's AST pass (calls to rewrite for HIP before 6.2), its
// token pass (files that need HIP_ENABLE_WARP_SYNC_BUILTINS) and the name resolver (the maskless HIP spelling) read.
// Their names and HIP versions are device-table records (device_table.cc); this table adds what only warp intrinsics
// have. tests/translate/tables/mapping_tables_test.cc.
#include <span>
#include <string_view>

namespace hipforge::translate {

// What a warp intrinsic does, as the analyzer's warp-width rules ask it.
enum class WarpOp {
  kShuffle,      // __shfl_sync: from a given lane
  kShuffleUp,    // __shfl_up_sync
  kShuffleDown,  // __shfl_down_sync
  kShuffleXor,   // __shfl_xor_sync
  kVote,         // __any_sync, __all_sync, __uni_sync
  kBallot,       // __ballot_sync: one bit per lane
  kMatch,        // __match_any_sync, __match_all_sync: a mask of lanes
  kActiveMask,   // __activemask
  kSyncWarp,     // __syncwarp
  kReduce,       // __reduce_*_sync
  kFindNth,      // __fns
};

struct WarpIntrinsic {
  std::string_view name;
  bool lane_mask = false;            // the first argument is a 32-bit lane mask (CUDA's warps are 32 wide)
  std::string_view maskless;         // what HIP before 6.2 calls without the mask (__shfl_sync -> __shfl); empty: none
  bool needs_sync_builtins = false;  // HIP 6.2+ declares it only after #define HIP_ENABLE_WARP_SYNC_BUILTINS
  WarpOp op = WarpOp::kShuffle;
  std::string_view group_member;  // the cooperative-groups tile member that does the same (tile.shfl_down); empty: none
};
std::span<const WarpIntrinsic> WarpIntrinsics();
const WarpIntrinsic* FindWarpIntrinsic(std::string_view name);  // nullptr: not a warp intrinsic
// CUDA's name or its maskless spelling (__shfl_down_sync or __shfl_down); nullptr: neither.
const WarpIntrinsic* FindWarpIntrinsicSpelling(std::string_view name);

bool IsShuffle(WarpOp op);        // any of the four shuffles
bool ReturnsLaneMask(WarpOp op);  // ballot, match, activemask: a mask with one bit per lane

}  // namespace hipforge::translate
