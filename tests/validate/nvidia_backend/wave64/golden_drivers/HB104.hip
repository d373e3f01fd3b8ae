// Runs every kernel of the analyzer's HB104 golden (tests/analyze/rules/HB104: shuffle offsets and widths that
// assume 32 lanes), translated by migrate-cli; GOLDEN_SOURCE names the translated input.cu or fixed.cu.
// wave64_check.sh builds it three ways (input.cu for sm_90 = the reference, fixed.cu for sm_90:wave64 = checked,
// input.cu for sm_90:wave64 = unfixed) and compares the `kernel` lines. driver_common.h says what
// exact/model/property mean.
#include "driver_common.h"

#include GOLDEN_SOURCE

namespace {
using gd::Free;
using gd::ToDevice;
using gd::ToHost;

// Fixed (reduce_down from warpSize/2, scan_up to warpSize, the broadcast's width 32 -> warpSize; the unrolled xor
// 16/8/4 butterfly is reported, not fixed). Each lane's result mixes warp reductions, a warp scan (over
// threadIdx.x, not the lane: lanes of later warps always add) and partial trees, so it is per warp by design, and
// with arbitrary inputs the partial trees' lanes mean nothing at another warp size. The input is therefore the
// same value c in every lane of a wave (so of each warp at either size), where every piece has a meaning:
//   v = warpSize*c (down from warpSize/2), then *8 (width-8 segments), s = v, b = c,
//   reduce_down(v) = warpSize*v, unrolled(v) = 8v (it stays within 32 lanes: this input cannot show what the
//   report is about), scan_up(v, t) = (t+1)*v in the first warp (an inclusive scan), warpSize*v in the others;
//   out[t] = reduce_down + scan_up + unrolled + b + s.
// Model at the build's warp size. The kernel also stores v to out[16], [8], [4], [2], [1] from every thread (a loop
// without shuffles, a negative), racing with those threads' own final stores: those five are not compared. In
// place (out is the input), so one block.
std::string RunKernel() {
  const int ws = gd::WarpSize();
  gd::Model model;
  std::string raw;
  for (int block : {64, 256, 1024}) {
    std::vector<float> in(block);
    for (int t = 0; t < block; ++t) in[t] = static_cast<float>(1 + (t / 64) % 3);
    float* data = ToDevice(in);
    kernel<<<1, block>>>(data);
    const std::vector<float> got = ToHost(data, block);
    std::vector<float> want(block);
    std::vector<bool> skip(block, false);
    for (int i : {1, 2, 4, 8, 16}) skip[i] = true;
    for (int t = 0; t < block; ++t) {
      const float c = in[t], v = 8.0f * ws * c;
      const float scan = t < ws ? (t + 1) * v : ws * v;
      want[t] = ws * v + scan + 8.0f * v + c + v;
    }
    model.Compare(gd::Shape(1, block), got, want, skip);
    raw += " " + gd::Shape(1, block) + ":" + gd::Digest(got);
    Free(data);
  }
  gd::Info("kernel", raw);
  return model.Result();
}

// Segments of 32 by design (every shuffle passes width 32), reported, left as written: an inclusive scan over each
// segment of 32 threads, at any warp size; 96 threads is a partial wave.
std::string SegmentScan() {
  struct S { int grid, block; };
  std::string out;
  for (S s : {S{1, 64}, S{2, 256}, S{1, 96}}) {
    int* in = ToDevice(gd::Ints(256));
    int* result = ToDevice(gd::Poisoned<int>(256));
    segment_scan<<<s.grid, s.block>>>(in, result);
    out += (out.empty() ? "" : " ") + gd::Shape(s.grid, s.block) + ":" + gd::Digest(ToHost(result, 256));
    Free(in);
    Free(result);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  return gd::Main(argc, argv, {{"kernel", "model", RunKernel}, {"segment_scan", "exact", SegmentScan}});
}
