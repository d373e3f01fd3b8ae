#include "worker/translate/tables/warp_intrinsics.h"

#include <array>

namespace hipforge::translate {
namespace {

// HIP 6.4.3's amd_warp_sync_functions.h / amd_warp_functions.h: the *_sync shuffles and votes, the match
// functions and __activemask sit behind HIP_ENABLE_WARP_SYNC_BUILTINS.
constexpr std::array kWarpIntrinsics = {
    WarpIntrinsic{"__shfl_sync", true, "__shfl", true, WarpOp::kShuffle, "shfl"},
    WarpIntrinsic{"__shfl_up_sync", true, "__shfl_up", true, WarpOp::kShuffleUp, "shfl_up"},
    WarpIntrinsic{"__shfl_down_sync", true, "__shfl_down", true, WarpOp::kShuffleDown, "shfl_down"},
    WarpIntrinsic{"__shfl_xor_sync", true, "__shfl_xor", true, WarpOp::kShuffleXor, "shfl_xor"},
    WarpIntrinsic{"__ballot_sync", true, "__ballot", true, WarpOp::kBallot, "ballot"},
    WarpIntrinsic{"__any_sync", true, "__any", true, WarpOp::kVote},
    WarpIntrinsic{"__all_sync", true, "__all", true, WarpOp::kVote},
    WarpIntrinsic{"__match_any_sync", true, "", true, WarpOp::kMatch},
    WarpIntrinsic{"__match_all_sync", true, "", true, WarpOp::kMatch},
    WarpIntrinsic{"__activemask", false, "", true, WarpOp::kActiveMask},
    // HIP has no __syncwarp (the token pass writes a fence + barrier for it); a file calling it gets the define
    // as well, as before this table (harmless; the translator's goldens hold it).
    WarpIntrinsic{"__syncwarp", true, "", true, WarpOp::kSyncWarp},
    WarpIntrinsic{"__uni_sync", true, "", false, WarpOp::kVote},
    WarpIntrinsic{"__reduce_add_sync", true, "", false, WarpOp::kReduce},
    WarpIntrinsic{"__reduce_min_sync", true, "", false, WarpOp::kReduce},
    WarpIntrinsic{"__reduce_max_sync", true, "", false, WarpOp::kReduce},
    WarpIntrinsic{"__reduce_and_sync", true, "", false, WarpOp::kReduce},
    WarpIntrinsic{"__reduce_or_sync", true, "", false, WarpOp::kReduce},
    WarpIntrinsic{"__reduce_xor_sync", true, "", false, WarpOp::kReduce},
    WarpIntrinsic{"__fns", true, "", false, WarpOp::kFindNth},
};
}  // namespace

std::span<const WarpIntrinsic> WarpIntrinsics() { return kWarpIntrinsics; }

const WarpIntrinsic* FindWarpIntrinsic(std::string_view name) {
  for (const WarpIntrinsic& intrinsic : kWarpIntrinsics) {
    if (intrinsic.name == name) return &intrinsic;
  }
  return nullptr;
}

const WarpIntrinsic* FindWarpIntrinsicSpelling(std::string_view name) {
  for (const WarpIntrinsic& intrinsic : kWarpIntrinsics) {
    if (intrinsic.name == name || (!intrinsic.maskless.empty() && intrinsic.maskless == name)) return &intrinsic;
  }
  return nullptr;
}

bool IsShuffle(WarpOp op) {
  return op == WarpOp::kShuffle || op == WarpOp::kShuffleUp || op == WarpOp::kShuffleDown || op == WarpOp::kShuffleXor;
}

bool ReturnsLaneMask(WarpOp op) { return op == WarpOp::kBallot || op == WarpOp::kMatch || op == WarpOp::kActiveMask; }

}  // namespace hipforge::translate
