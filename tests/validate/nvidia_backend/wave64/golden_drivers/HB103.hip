// Runs every kernel of the analyzer's HB103 golden (tests/analyze/rules/HB103: ballot results kept in 32 bits or
// counted with 32-bit bit operations), translated by migrate-cli; GOLDEN_SOURCE names the translated input.cu or
// fixed.cu. wave64_check.sh builds it three ways (input.cu for sm_90 = the reference, fixed.cu for sm_90:wave64 =
// checked, input.cu for sm_90:wave64 = unfixed) and compares the `kernel` lines. driver_common.h says what
// exact/model/property mean.
#include "driver_common.h"

#include GOLDEN_SOURCE

namespace {
using gd::Free;
using gd::ToDevice;
using gd::ToHost;

// The lanes [begin, begin + ws) of `values` as a ballot of `pred`, lane l at bit l - begin.
template <typename T, typename Pred>
unsigned long long BallotOf(const std::vector<T>& values, int begin, int ws, Pred pred) {
  unsigned long long bits = 0;
  for (int l = 0; l < ws; ++l) bits |= static_cast<unsigned long long>(pred(values[begin + l]) ? 1 : 0) << l;
  return bits;
}
int Ffs(unsigned long long bits) { return bits == 0 ? 0 : __builtin_ctzll(bits) + 1; }
int Popc(unsigned long long bits) { return __builtin_popcountll(bits); }

// Fixed (the ballot kept in 64 bits, __popcll/__ffsll): per lane, over its warp, the count of positive lanes, the
// first negative lane (1-based, 0 if none), three any-tests, and twice the first lane among the warp's lanes 0-15
// above 4 (`& 0xffffu`): per warp by design. Model at the build's warp size. out[] is indexed by threadIdx.x and
// `__popc(blockIdx.x)` is added, so one block (it adds 0).
std::string CountPositive() {
  const int ws = gd::WarpSize();
  gd::Model model;
  std::string raw;
  for (int block : {64, 256, 1024}) {
    std::vector<float> in(block);
    for (int t = 0; t < block; ++t) {
      int v = gd::Value(t);
      const int wave = (t / 64) % 4, lane = t % 64;
      if (wave == 1 && v < 0) v = -v;                // no negative lane in the wave
      if (wave == 2 && lane < 32 && v < 0) v = -v;   // negatives only in the upper half
      if (wave == 3 && lane < 16 && v > 4) v = 4;    // nothing above 4 in lanes 0-15
      in[t] = static_cast<float>(v);
    }
    float* d_in = ToDevice(in);
    int* out = ToDevice(gd::Poisoned<int>(block));
    count_positive<<<1, block>>>(d_in, out);
    const std::vector<int> got = ToHost(out, block);
    std::vector<int> want(block);
    for (int w = 0; w < block / ws; ++w) {
      const int b = w * ws;
      const int count = Popc(BallotOf(in, b, ws, [](float v) { return v > 0.0f; }));
      const int first = Ffs(BallotOf(in, b, ws, [](float v) { return v < 0.0f; }));
      const int lowest = Ffs(BallotOf(in, b, ws, [](float v) { return v > 4.0f; }) & 0xffffu);
      const int wide = BallotOf(in, b, ws, [](float v) { return v > 1.0f; }) != 0;
      const int deduced = BallotOf(in, b, ws, [](float v) { return v > 2.0f; }) != 0;
      const int any_big = BallotOf(in, b, ws, [](float v) { return v > 3.0f; }) != 0;
      for (int l = 0; l < ws; ++l) want[b + l] = count + first + wide + deduced + any_big + lowest + lowest;
    }
    model.Compare(gd::Shape(1, block), got, want);
    raw += " " + gd::Shape(1, block) + ":" + gd::Digest(got);
    Free(d_in);
    Free(out);
  }
  gd::Info("count_positive", raw);
  return model.Result();
}

// Fixed (`1u << lane` beside the ballot -> 1ull): below = the positive lanes of the warp below this lane. The
// `in[0] & (1u << lane)` beside a plain integer stays 32-bit by design; for lanes 32-63 of a wave the shift is past
// the width (undefined in C++): NVIDIA's shl gives 0, which the model takes, while CDNA's v_lshlrev_b32 takes the
// shift mod 32 (bit lane-32 of in[0]), a difference this emulation cannot show. Model at the build's warp size.
std::string LanesBelow() {
  const int ws = gd::WarpSize();
  gd::Model model;
  std::string raw;
  const std::vector<int> in = gd::Ints(1024);  // in[0] = 4: bit 2
  for (int block : {64, 256, 1024}) {
    int* d_in = ToDevice(in);
    int* out = ToDevice(gd::Poisoned<int>(block));
    lanes_below<<<2, block>>>(d_in, out);
    const std::vector<int> got = ToHost(out, block);
    std::vector<int> want(block);
    for (int w = 0; w < block / ws; ++w) {
      const unsigned long long votes = BallotOf(in, w * ws, ws, [](int v) { return v > 0; });
      for (int l = 0; l < ws; ++l) {
        const unsigned flags = l < 32 ? static_cast<unsigned>(in[0]) & (1u << l) : 0u;
        want[w * ws + l] = static_cast<int>(Popc(votes & ((1ull << l) - 1)) + flags);
      }
    }
    model.Compare(gd::Shape(2, block), got, want);
    raw += " " + gd::Shape(2, block) + ":" + gd::Digest(got);
    Free(d_in);
    Free(out);
  }
  gd::Info("lanes_below", raw);
  return model.Result();
}

// A ballot stored in a 32-bit word of a bitmap, reported (34:54), left for a person to pick each half's word:
// words[i] should be the ballot of threads 32i..32i+31 at any warp size. Under wave64 both halves of a wave store
// the low word of the wave's ballot; the inputs differ between the halves.
std::string Bitmap() {
  struct S { int grid, block; };
  std::string out;
  for (S s : {S{1, 64}, S{2, 256}, S{1, 96}}) {
    int* in = ToDevice(gd::Ints(256));
    unsigned* words = ToDevice(gd::Poisoned<unsigned>(32));
    bitmap<<<s.grid, s.block>>>(in, words);
    out += (out.empty() ? "" : " ") + gd::Shape(s.grid, s.block) + ":" + gd::List(ToHost(words, 32));
    Free(in);
    Free(words);
  }
  return out;
}

// Fixed (the mask declared apart widened to 64 bits, __popcll/__ffsll, 1ull): the positive lanes of the warp below
// this lane, plus the first positive lane of the warp (1-based): per warp by design. Model at the build's warp size.
std::string LeaderOfMatches() {
  const int ws = gd::WarpSize();
  gd::Model model;
  std::string raw;
  const std::vector<int> in = gd::Ints(1024);
  for (int block : {64, 256, 1024}) {
    int* ptr = ToDevice(in);
    int* out = ToDevice(gd::Poisoned<int>(block));
    leader_of_matches<<<2, block>>>(ptr, out);
    const std::vector<int> got = ToHost(out, block);
    std::vector<int> want(block);
    for (int w = 0; w < block / ws; ++w) {
      const unsigned long long mask = BallotOf(in, w * ws, ws, [](int v) { return v > 0; });
      for (int l = 0; l < ws; ++l) want[w * ws + l] = Popc(mask & ((1ull << l) - 1)) + Ffs(mask);
    }
    model.Compare(gd::Shape(2, block), got, want);
    raw += " " + gd::Shape(2, block) + ":" + gd::Digest(got);
    Free(ptr);
    Free(out);
  }
  gd::Info("leader_of_matches", raw);
  return model.Result();
}

}  // namespace

int main(int argc, char** argv) {
  return gd::Main(argc, argv,
                  {{"count_positive", "model", CountPositive},
                   {"lanes_below", "model", LanesBelow},
                   {"bitmap", "exact", Bitmap},
                   {"leader_of_matches", "model", LeaderOfMatches}});
}
