#include "worker/translate/tables/warp_intrinsics.h"

#include <array>

namespace hipforge::translate {
namespace {

// HIP 6.4.3's amd_warp_sync_functions.h / amd_warp_functions.h: the *_sync shuffles and votes, the match
// functions and __activemask sit behind HIP_ENABLE_WARP_SYNC_BUILTINS.
constexpr std::array kWarpIntrinsics = {
    WarpIntrinsic{"__shfl_sync", true, "__shfl", true},
    WarpIntrinsic{"__shfl_up_sync", true, "__shfl_up", true},
    WarpIntrinsic{"__shfl_down_sync", true, "__shfl_down", true},
    WarpIntrinsic{"__shfl_xor_sync", true, "__shfl_xor", true},
    WarpIntrinsic{"__ballot_sync", true, "__ballot", true},
    WarpIntrinsic{"__any_sync", true, "__any", true},
    WarpIntrinsic{"__all_sync", true, "__all", true},
    WarpIntrinsic{"__match_any_sync", true, "", true},
    WarpIntrinsic{"__match_all_sync", true, "", true},
    WarpIntrinsic{"__activemask", false, "", true},
    // HIP has no __syncwarp (the token pass writes a fence + barrier for it); a file calling it gets the define
    // as well, as before this table (harmless; the translator's goldens hold it).
    WarpIntrinsic{"__syncwarp", true, "", true},
    WarpIntrinsic{"__uni_sync", true, "", false},
    WarpIntrinsic{"__reduce_add_sync", true, "", false},
    WarpIntrinsic{"__reduce_min_sync", true, "", false},
    WarpIntrinsic{"__reduce_max_sync", true, "", false},
    WarpIntrinsic{"__reduce_and_sync", true, "", false},
    WarpIntrinsic{"__reduce_or_sync", true, "", false},
    WarpIntrinsic{"__reduce_xor_sync", true, "", false},
    WarpIntrinsic{"__fns", true, "", false},
};

}  // namespace

std::span<const WarpIntrinsic> WarpIntrinsics() { return kWarpIntrinsics; }

const WarpIntrinsic* FindWarpIntrinsic(std::string_view name) {
  for (const WarpIntrinsic& intrinsic : kWarpIntrinsics) {
    if (intrinsic.name == name) return &intrinsic;
  }
  return nullptr;
}

}  // namespace hipforge::translate
