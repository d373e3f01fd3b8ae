// Runs every kernel of the analyzer's HB101 golden (tests/analyze/rules/HB101: literal warp sizes in lane/warp
// arithmetic), translated by migrate-cli; GOLDEN_SOURCE names the translated input.cu or fixed.cu. wave64_check.sh
// builds it three ways (input.cu for sm_90 = the reference, fixed.cu for sm_90:wave64 = checked, input.cu for
// sm_90:wave64 = unfixed) and compares the `kernel` lines. driver_common.h says what exact/model/property mean.
#include "driver_common.h"

#include GOLDEN_SOURCE

namespace {
using gd::Free;
using gd::ToDevice;
using gd::ToHost;

// Fixed (lane/warp from warpSize); the WARP_SIZE macro (3:19) is reported, not fixed, and `warps = blockDim.x /
// WARP_SIZE` reads one partial slot per 32 threads. Per block, the sum of in[] (tid < n; the last shape has a
// partial tail): the same at any warp size. Shared memory is poisoned first, so partial slots no warp wrote show.
std::string BlockSum() {
  struct S { int grid, block, n; };
  std::string out;
  for (S s : {S{4, 64, 4 * 64}, S{3, 256, 3 * 256 - 37}, S{2, 1024, 2 * 1024 - 100}}) {
    float* in = ToDevice(gd::Floats(s.grid * s.block));
    float* sums = ToDevice(gd::Poisoned<float>(s.grid));
    gd::PoisonShared();
    block_sum<<<s.grid, s.block>>>(in, sums, s.n);
    out += (out.empty() ? "" : " ") + gd::Shape(s.grid, s.block) + ":" + gd::List(ToHost(sums, s.grid));
    Free(in);
    Free(sums);
  }
  return out;
}

// Negative (tiles of 32 indexed by the thread index, no warp primitives): launched through the golden's own
// launch() (blocks of 32x32, a grid that rounds n up to 32 and so reads and writes past n*n: buffers are 4n^2+4K).
std::string Transpose() {
  std::string out;
  for (int n : {64, 80}) {
    const int cap = 4 * n * n + 4096;
    float* in = ToDevice(gd::Floats(cap));
    float* result = ToDevice(gd::Poisoned<float>(cap));
    launch(in, result, n);
    out += (out.empty() ? "" : " ") + std::string("n") + std::to_string(n) + ":" + gd::Digest(ToHost(result, cap));
    Free(in);
    Free(result);
  }
  return out;
}

// Negative (wave-size agnostic): every lane of a warp stores 1 + its lane + blockIdx.x % 32 to out[warp], so which
// lane's value stays is a race, and there are blockDim/warpSize slots by design. Property at the build's warp size:
// exactly the first blockDim/warpSize slots are written, each with 1 (the shuffled constant) + a lane in
// [0, warpSize) + a block index in [0, grid).
std::string Agnostic() {
  const int ws = gd::WarpSize();
  struct S { int grid, block; };
  std::string bad, shapes;
  for (S s : {S{1, 64}, S{1, 256}, S{3, 128}}) {
    float* out = ToDevice(gd::Poisoned<float>(64));
    agnostic<<<s.grid, s.block>>>(out);
    const std::vector<float> got = ToHost(out, 64);
    const int slots = s.block / ws;
    shapes += (shapes.empty() ? "" : ",") + gd::Shape(s.grid, s.block);
    for (int k = 0; k < 64; ++k) {
      const float v = got[k];
      const bool good = k < slots ? (!gd::IsPoison(v) && v == static_cast<float>(static_cast<int>(v)) && v >= 1 &&
                                     v <= static_cast<float>(ws - 1 + s.grid))
                                  : gd::IsPoison(v);
      if (!good) {
        bad += " " + gd::Shape(s.grid, s.block) + ":[" + std::to_string(k) + "]=" + gd::Text(v);
        break;
      }
    }
    Free(out);
  }
  return bad.empty() ? "ok " + shapes : "MISMATCH" + bad;
}

// Rows of 32 by design, left as written: out[t] = in of the mirrored lane in its row of 32. No warp primitive, so
// the same at any warp size; 96 threads is a partial wave.
std::string RowsOf32() {
  struct S { int grid, block; };
  std::string out;
  for (S s : {S{2, 64}, S{2, 256}, S{1, 96}}) {
    int* in = ToDevice(gd::Ints(256));
    int* result = ToDevice(gd::Poisoned<int>(256));
    rows_of_32<<<s.grid, s.block>>>(in, result);
    out += (out.empty() ? "" : " ") + gd::Shape(s.grid, s.block) + ":" + gd::Digest(ToHost(result, 256));
    Free(in);
    Free(result);
  }
  return out;
}

// Fixed (`lane == 31` -> warpSize - 1): the last lane of each warp stores in[last] + in[last - 1] (a one-step scan's
// total) to out[warp], so there are blockDim/warpSize slots by design. Model at the build's warp size: slot k holds
// in[k*ws + ws-1] + in[k*ws + ws-2], the slots after them stay unwritten.
std::string LastLane() {
  const int ws = gd::WarpSize();
  gd::Model model;
  std::string raw;
  const std::vector<int> host_in = gd::Ints(1024);
  struct S { int grid, block; };
  for (S s : {S{1, 64}, S{2, 256}, S{1, 1024}}) {
    int* in = ToDevice(host_in);
    int* out = ToDevice(gd::Poisoned<int>(64));
    last_lane<<<s.grid, s.block>>>(in, out);
    const std::vector<int> got = ToHost(out, 64);
    std::vector<int> want = gd::Poisoned<int>(64);
    for (int k = 0; k < s.block / ws; ++k) want[k] = host_in[k * ws + ws - 1] + host_in[k * ws + ws - 2];
    model.Compare(gd::Shape(s.grid, s.block), got, want);
    raw += " " + gd::Shape(s.grid, s.block) + ":" + gd::Digest(got);
    Free(in);
    Free(out);
  }
  gd::Info("last_lane", raw);
  return model.Result();
}

// Segments of 32 by design (width-32 shuffles), left as written: out[segment] = in[31] + in[30] of each segment of
// 32 threads, at any warp size; 96 threads is a partial wave.
std::string SegmentsOf32() {
  struct S { int grid, block; };
  std::string out;
  for (S s : {S{1, 64}, S{2, 256}, S{1, 96}}) {
    int* in = ToDevice(gd::Ints(256));
    int* result = ToDevice(gd::Poisoned<int>(32));
    segments_of_32<<<s.grid, s.block>>>(in, result);
    out += (out.empty() ? "" : " ") + gd::Shape(s.grid, s.block) + ":" + gd::List(ToHost(result, 32));
    Free(in);
    Free(result);
  }
  return out;
}

// 32-bit ballot words, reported and left as written (79:54 HB103: the ballot narrowed to 32 bits): words[i] should
// be the ballot of threads 32i..32i+31 at any warp size. Under wave64 both halves of a wave store the low word of
// the wave's 64-bit ballot, so an upper half's word is its lower half's; the inputs differ between the halves.
std::string BallotWords() {
  struct S { int grid, block; };
  std::string out;
  for (S s : {S{1, 64}, S{2, 256}, S{1, 96}}) {
    int* in = ToDevice(gd::Ints(256));
    unsigned* words = ToDevice(gd::Poisoned<unsigned>(32));
    ballot_words<<<s.grid, s.block>>>(in, words);
    out += (out.empty() ? "" : " ") + gd::Shape(s.grid, s.block) + ":" + gd::List(ToHost(words, 32));
    Free(in);
    Free(words);
  }
  return out;
}

// Xor masks 1..16 stay in a segment of 32 by design, left as written: per thread, at any warp size.
std::string XorSubgroupsOf32() {
  struct S { int grid, block; };
  std::string out;
  for (S s : {S{1, 64}, S{2, 256}, S{1, 96}}) {
    int* result = ToDevice(gd::Poisoned<int>(256));
    xor_subgroups_of_32<<<s.grid, s.block>>>(result);
    out += (out.empty() ? "" : " ") + gd::Shape(s.grid, s.block) + ":" + gd::Digest(ToHost(result, 256));
    Free(result);
  }
  return out;
}

// Fixed (`blockDim.x / 32.f` -> warpSize): the first blockDim/warpSize threads take partial[t] (one per warp), and
// every lane gets the next lane's value (shuffle down by 1; the warp's last lane keeps its own). Per-warp count by
// design. Model at the build's warp size.
std::string WarpsAsFloat() {
  const int ws = gd::WarpSize();
  gd::Model model;
  std::string raw;
  std::vector<float> partial(64);
  for (int i = 0; i < 64; ++i) partial[i] = static_cast<float>(100 + 3 * i);
  struct S { int grid, block; };
  for (S s : {S{1, 64}, S{2, 256}, S{1, 1024}}) {
    float* d_partial = ToDevice(partial);
    float* out = ToDevice(gd::Poisoned<float>(1024));
    warps_as_float<<<s.grid, s.block>>>(d_partial, out);
    const std::vector<float> got = ToHost(out, 1024);
    std::vector<float> want = gd::Poisoned<float>(1024);
    auto value = [&](int t) { return t < s.block / ws ? partial[t] : 0.0f; };
    for (int t = 0; t < s.block; ++t) want[t] = (t % ws) + 1 < ws ? value(t + 1) : value(t);
    model.Compare(gd::Shape(s.grid, s.block), got, want);
    raw += " " + gd::Shape(s.grid, s.block) + ":" + gd::Digest(got);
    Free(d_partial);
    Free(out);
  }
  gd::Info("warps_as_float", raw);
  return model.Result();
}

}  // namespace

int main(int argc, char** argv) {
  return gd::Main(argc, argv,
                  {{"block_sum", "exact", BlockSum},
                   {"transpose", "exact", Transpose},
                   {"agnostic", "property", Agnostic},
                   {"rows_of_32", "exact", RowsOf32},
                   {"last_lane", "model", LastLane},
                   {"segments_of_32", "exact", SegmentsOf32},
                   {"ballot_words", "exact", BallotWords},
                   {"xor_subgroups_of_32", "exact", XorSubgroupsOf32},
                   {"warps_as_float", "model", WarpsAsFloat}});
}
