// Runs the kernel of the analyzer's HB105 golden (tests/analyze/rules/HB105: cooperative-group tiles of 32),
// translated by migrate-cli; GOLDEN_SOURCE names the translated input.cu. HB105 only reports (the golden has no
// fixed.cu), so wave64_check.sh builds input.cu for sm_90 (the reference) and for sm_90:wave64 (checked: the code as
// the analyzer leaves it) and compares the `kernel` lines. driver_common.h says what exact/model/property mean.
#include "driver_common.h"

#include GOLDEN_SOURCE

namespace {
using gd::Free;
using gd::ToDevice;
using gd::ToHost;

// Tiles of 32 (static <32>, <TILE>, and the dynamic tiled_partition(block, 32)) and sub-warp tiles of 8 and 16:
// out[rank] = 2 * (rank % 32) + 32 + 8 + 16. A tile of 32 is half a wave on CDNA too, so the same at any warp
// size; 96 threads is a partial wave. out[] is indexed by the block's rank only (same values from each block).
std::string Tiles() {
  struct S { int grid, block; };
  std::string out;
  for (S s : {S{1, 64}, S{2, 256}, S{1, 96}}) {
    float* result = ToDevice(gd::Poisoned<float>(256));
    tiles<<<s.grid, s.block>>>(result);
    out += (out.empty() ? "" : " ") + gd::Shape(s.grid, s.block) + ":" + gd::Digest(ToHost(result, 256));
    Free(result);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) { return gd::Main(argc, argv, {{"tiles", "exact", Tiles}}); }
