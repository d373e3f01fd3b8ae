// Runs the kernel of the analyzer's HB102 golden (tests/analyze/rules/HB102: 32-bit full lane masks in *_sync
// intrinsics), translated by migrate-cli; GOLDEN_SOURCE names the translated input.cu or fixed.cu. wave64_check.sh
// builds it three ways (input.cu for sm_90 = the reference, fixed.cu for sm_90:wave64 = checked, input.cu for
// sm_90:wave64 = unfixed) and compares the `kernel` lines. driver_common.h says what exact/model/property mean.
#include "driver_common.h"

#include GOLDEN_SOURCE

namespace {
using gd::Free;
using gd::ToDevice;
using gd::ToHost;

// Fixed (the full masks 64-bit; the translator widens them in input.cu too, so unfixed = checked here): warp_sum
// gives every lane its warp's sum S (xor butterfly from warpSize/2), then the lane-0 broadcast (S),
// __any_sync(S > 0), __syncwarp, the lane-1 shuffles with a full 64-bit mask (S) and with the partial mask 0xffff
// (a negative of the rule), so out[t] = 3S + (S > 0) + 1 with S the sum of t's warp: per warp by design. Model at
// the build's warp size. In place (out is the input), so one block: a second one would read what the first wrote.
// The 0xffff shuffle is called by every lane, also those outside the mask: outside CUDA's and HIP's contract (HIP
// asserts that the mask is the active lanes). CUDA on sm_90 (the reference) and HIP on CDNA, where a release build
// ignores the mask, give every lane lane 1's S; the wave64 layer treats the lanes outside the mask as a group of
// their own (it prints an approximate line), so there lanes 16-31 of a wave read lane 1 as inactive (0) and this
// kernel fails under wave64 for that line, not for the masks HB102 fixes. It is compared whole all the same.
std::string RunKernel() {
  const int ws = gd::WarpSize();
  gd::Model model;
  std::string raw;
  for (int block : {64, 256, 1024}) {
    std::vector<float> in(block);
    // Some waves shifted down so that some warps' sums are not positive (__any_sync false).
    for (int t = 0; t < block; ++t) in[t] = static_cast<float>(gd::Value(t) - ((t / 64) % 3 == 1 ? 9 : 0));
    float* data = ToDevice(in);
    kernel<<<1, block>>>(data);
    const std::vector<float> got = ToHost(data, block);
    std::vector<float> want(block);
    for (int w = 0; w < block / ws; ++w) {
      float sum = 0;
      for (int l = 0; l < ws; ++l) sum += in[w * ws + l];
      for (int l = 0; l < ws; ++l) want[w * ws + l] = 3 * sum + (sum > 0.0f ? 1.0f : 0.0f) + 1.0f;
    }
    model.Compare(gd::Shape(1, block), got, want);
    raw += " " + gd::Shape(1, block) + ":" + gd::Digest(got);
    Free(data);
  }
  gd::Info("kernel", raw);
  return model.Result();
}

}  // namespace

int main(int argc, char** argv) { return gd::Main(argc, argv, {{"kernel", "model", RunKernel}}); }
