// Conformance of the HIP-on-NVIDIA layer's wave64 mode (target sm_XX:wave64) with CDNA's 64-wide wavefronts.
// Each block of a launch runs one case (an intrinsic, its argument, width, the active lanes, the block's shape); every
// lane's result is compared with a host-side model of one CDNA wave written from AMD's documentation:
//   - lanes are linear thread ids mod 64, a wave is 64 consecutive linear ids (partial waves have their top lanes off);
//   - __shfl/__shfl_up/__shfl_down/__shfl_xor pick their source lane as HIP's amd_warp_functions.h does and read it
//     through ds_bpermute_b32: the address wraps modulo 64 lanes and an inactive source lane reads 0 (CDNA3 ISA);
//   - __ballot/__activemask have a bit per active lane, __any/__all look at active lanes only, *_sync(mask) act on
//     the lanes of the mask (= the active lanes), __match_any/all_sync and __reduce_*_sync over them;
//   - __lane_id() is the wave lane, warpSize and hipDeviceProp_t::warpSize are 64.
// Exhaustive over small cases (every lane, width, offset, a set of mask shapes and block shapes) and random over
// large ones. Prints one line per intrinsic and exits 1 on any mismatch. Built and run by
// tests/validate/nvidia_backend/wave64/run.sh (on a GPU host; compile-only elsewhere).
#define HIP_ENABLE_WARP_SYNC_BUILTINS
#include <hip/hip_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#if !defined(HIPFORGE_WAVE64_ACTIVE)
#error "build with the wave64 layer: hipcc --offload-arch=sm_90:wave64"
#endif

enum Op : int {
  kShfl, kShflUp, kShflDown, kShflXor,           // maskless, 32-bit value
  kShflSync, kShflUpSync, kShflDownSync, kShflXorSync,  // 64-bit mask = the active lanes
  kShflDouble, kShflDownLong,                    // 8-byte values (two words)
  kBallot, kBallotSync, kAny, kAll, kAnySync, kAllSync, kActiveMask,
  kMatchAny, kMatchAll, kReduceAdd, kReduceMin, kReduceMax, kReduceAnd, kReduceOr, kReduceXor,
  kReadFirstLane, kLaneId, kWarpSize, kMbcnt, kSyncwarpExchange, kOpCount
};
const char* const kOpNames[kOpCount] = {
    "__shfl", "__shfl_up", "__shfl_down", "__shfl_xor", "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync",
    "__shfl_xor_sync", "__shfl(double)", "__shfl_down(long long)", "__ballot", "__ballot_sync", "__any", "__all",
    "__any_sync", "__all_sync", "__activemask", "__match_any_sync", "__match_all_sync", "__reduce_add_sync",
    "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync",
    "__builtin_amdgcn_readfirstlane", "__lane_id", "warpSize", "__builtin_amdgcn_mbcnt_lo/hi",
    "__syncwarp(64-bit mask) shared-memory exchange"};

struct Case {
  int op, arg, width;
  unsigned seed;     // lane values and predicates
  int active_kind;   // which lanes take part (ActiveLane)
  int threads;       // block size (linear); the block is launched as threads x 1 x 1 or as 2-D (below)
};

// Host and device agree on every lane's value, predicate and activity.
__host__ __device__ inline unsigned Mix(unsigned x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}
__host__ __device__ inline unsigned LaneValue(unsigned seed, unsigned tid) { return Mix(seed * 0x9e3779b9u + tid); }
__host__ __device__ inline bool ActiveLane(int kind, unsigned seed, unsigned tid) {
  const unsigned lane = tid & 63u;
  switch (kind) {
    case 0: return true;                                 // every lane
    case 1: return (lane % 3) != 1;                      // scattered in both halves
    case 2: return lane < 40;                            // across the middle
    case 3: return lane >= 20 && lane < 50;
    case 4: return (Mix(seed ^ tid) & 3u) != 0;          // random, ~3/4
    case 5: return lane == 5 || lane == 37 || lane == 63;  // few
    case 6: return lane < 32;                            // the upper half entirely off (waits, then alone)
  }
  return true;
}
constexpr int kActiveKinds = 7;

__device__ int RunOp(const Case& c, unsigned tid, unsigned v, int* aux) {
  const unsigned long long mask = __activemask();  // the wave's active lanes (the *_sync forms take them)
  const int pred = (v >> 7) & 1u;
  switch (c.op) {
    case kShfl: return __shfl(static_cast<int>(v), c.arg, c.width);
    case kShflUp: return __shfl_up(static_cast<int>(v), static_cast<unsigned>(c.arg), c.width);
    case kShflDown: return __shfl_down(static_cast<int>(v), static_cast<unsigned>(c.arg), c.width);
    case kShflXor: return __shfl_xor(static_cast<int>(v), c.arg, c.width);
    case kShflSync: return __shfl_sync(mask, static_cast<int>(v), c.arg, c.width);
    case kShflUpSync: return __shfl_up_sync(mask, static_cast<int>(v), static_cast<unsigned>(c.arg), c.width);
    case kShflDownSync: return __shfl_down_sync(mask, static_cast<int>(v), static_cast<unsigned>(c.arg), c.width);
    case kShflXorSync: return __shfl_xor_sync(mask, static_cast<int>(v), c.arg, c.width);
    case kShflDouble: {
      const double d = static_cast<double>(v) * 0.5;
      const double got = __shfl(d, c.arg, c.width);
      return static_cast<int>(static_cast<long long>(got * 2.0));
    }
    case kShflDownLong: {
      const long long x = (static_cast<long long>(v) << 32) | (v ^ 0x5a5a5a5au);
      const long long got = __shfl_down(x, static_cast<unsigned>(c.arg), c.width);
      *aux = static_cast<int>(got);
      return static_cast<int>(got >> 32);
    }
    case kBallot: {
      const unsigned long long b = __ballot(pred);
      *aux = static_cast<int>(b >> 32);
      return static_cast<int>(b);
    }
    case kBallotSync: {
      const unsigned long long b = __ballot_sync(mask, pred);
      *aux = static_cast<int>(b >> 32);
      return static_cast<int>(b);
    }
    case kAny: return __any(pred);
    case kAll: return __all(c.arg == 0 ? pred : 1);
    case kAnySync: return __any_sync(mask, pred);
    case kAllSync: return __all_sync(mask, c.arg == 0 ? pred : 1);
    case kActiveMask: *aux = static_cast<int>(mask >> 32); return static_cast<int>(mask);
    case kMatchAny: {
      const unsigned long long m = __match_any_sync(mask, static_cast<int>(v % 3u));
      *aux = static_cast<int>(m >> 32);
      return static_cast<int>(m);
    }
    case kMatchAll: {
      int p = 0;
      const unsigned long long m = __match_all_sync(mask, c.arg == 0 ? static_cast<int>(v % 2u) : 7, &p);
      *aux = p;
      return static_cast<int>(m);
    }
    case kReduceAdd: return __reduce_add_sync(mask, static_cast<int>(v & 0xffff));
    case kReduceMin: return __reduce_min_sync(mask, static_cast<int>(v));
    case kReduceMax: return static_cast<int>(__reduce_max_sync(mask, v));
    case kReduceAnd: return static_cast<int>(__reduce_and_sync(mask, v | 0x10000u));
    case kReduceOr: return static_cast<int>(__reduce_or_sync(mask, v & 0x0f0f0f0fu));
    case kReduceXor: return static_cast<int>(__reduce_xor_sync(mask, v));
    case kReadFirstLane: return __builtin_amdgcn_readfirstlane(static_cast<int>(v));
    case kLaneId: return static_cast<int>(__lane_id());
    case kWarpSize: return warpSize;
    case kMbcnt: {
      const unsigned lo = __builtin_amdgcn_mbcnt_lo(v, 0u);
      *aux = static_cast<int>(__builtin_amdgcn_mbcnt_hi(v, lo));
      return static_cast<int>(lo);
    }
    case kSyncwarpExchange: {
      // Lockstep code on CDNA relies on the wave: each lane writes its slot, the wave syncs, each reads a neighbour.
      __shared__ unsigned slots[1024];
      slots[tid] = v;
      __syncwarp(mask);
      const unsigned wave_base = tid & ~63u;
      return static_cast<int>(slots[wave_base + ((tid + c.arg) & 63u)]);
    }
  }
  return 0;
}

constexpr int kSentinel = 0x7eadbeef;

__global__ void RunCases(const Case* cases, int* out, int* aux) {
  const Case c = cases[blockIdx.x];
  const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const size_t slot = static_cast<size_t>(blockIdx.x) * 1024 + tid;
  out[slot] = kSentinel;
  aux[slot] = kSentinel;
  if (tid >= static_cast<unsigned>(c.threads)) return;
  if (!ActiveLane(c.active_kind, c.seed, tid)) return;
  int a = kSentinel;
  const int r = RunOp(c, tid, LaneValue(c.seed, tid), &a);
  out[slot] = r;
  aux[slot] = a;
}

// ---- The host model of one CDNA wave ---------------------------------------------------------------------------
enum class Kind { kIndex, kUp, kDown, kXor };

// The source lane, as HIP's amd_warp_functions.h computes it for ds_bpermute_b32 (address = lane * 4).
int ModelSource(Kind kind, int self, int arg, int width) {
  switch (kind) {
    case Kind::kIndex: return (arg & (width - 1)) + (self & ~(width - 1));
    case Kind::kUp: return (self - arg) < (self & ~(width - 1)) ? self : self - arg;
    case Kind::kDown: return ((self & (width - 1)) + arg) >= width ? self : self + arg;
    case Kind::kXor: return (self ^ arg) >= ((self + width) & ~(width - 1)) ? self : (self ^ arg);
  }
  return self;
}

struct Wave {
  uint64_t active = 0;
  unsigned value[64] = {};
  unsigned Read(int lane) const {  // ds_bpermute: the address wraps, an inactive lane reads 0
    lane &= 63;
    return (active >> lane) & 1 ? value[lane] : 0u;
  }
};

struct Expected {
  bool ran = false;
  int out = kSentinel, aux = kSentinel;
};

Expected Model(const Case& c, const Wave& w, int lane) {
  Expected e;
  if (!((w.active >> lane) & 1)) return e;
  e.ran = true;
  const unsigned v = w.value[lane];
  auto pred = [&](int l) { return static_cast<int>((w.value[l] >> 7) & 1u); };
  auto ballot = [&](auto&& p) {
    uint64_t b = 0;
    for (int l = 0; l < 64; ++l) {
      if ((w.active >> l) & 1 && p(l)) b |= 1ull << l;
    }
    return b;
  };
  auto split = [&](uint64_t x) { e.out = static_cast<int>(x); e.aux = static_cast<int>(x >> 32); };
  auto shuffle = [&](Kind k) { return static_cast<int>(w.Read(ModelSource(k, lane, c.arg, c.width))); };
  auto fold = [&](auto&& f, auto init, auto&& value_of) {
    auto acc = init;
    bool first = true;
    for (int l = 0; l < 64; ++l) {
      if (!((w.active >> l) & 1)) continue;
      acc = first ? value_of(l) : f(acc, value_of(l));
      first = false;
    }
    return acc;
  };
  switch (c.op) {
    case kShfl: case kShflSync: e.out = shuffle(Kind::kIndex); break;
    case kShflUp: case kShflUpSync: e.out = shuffle(Kind::kUp); break;
    case kShflDown: case kShflDownSync: e.out = shuffle(Kind::kDown); break;
    case kShflXor: case kShflXorSync: e.out = shuffle(Kind::kXor); break;
    case kShflDouble: {
      // Each 32-bit half of the double goes through ds_bpermute: an inactive source lane reads 0.0.
      const int s = ModelSource(Kind::kIndex, lane, c.arg, c.width) & 63;
      const double d = (w.active >> s) & 1 ? static_cast<double>(w.value[s]) * 0.5 : 0.0;
      e.out = static_cast<int>(static_cast<long long>(d * 2.0));
      break;
    }
    case kShflDownLong: {
      const int s = ModelSource(Kind::kDown, lane, c.arg, c.width) & 63;
      const unsigned x = w.value[s];
      const long long got = (w.active >> s) & 1 ? (static_cast<long long>(x) << 32) | (x ^ 0x5a5a5a5au) : 0;
      e.out = static_cast<int>(got >> 32);
      e.aux = static_cast<int>(got);
      break;
    }
    case kBallot: case kBallotSync: split(ballot(pred)); break;
    case kAny: case kAnySync: e.out = ballot(pred) != 0; break;
    case kAll: case kAllSync: e.out = c.arg != 0 || ballot(pred) == w.active; break;
    case kActiveMask: split(w.active); break;
    case kMatchAny: split(ballot([&](int l) { return w.value[l] % 3u == v % 3u; })); break;
    case kMatchAll: {
      const bool same = c.arg != 0 || ballot([&](int l) { return w.value[l] % 2u == v % 2u; }) == w.active;
      e.out = same ? static_cast<int>(w.active) : 0;
      e.aux = same;
      break;
    }
    case kReduceAdd:
      e.out = fold([](int a, int b) { return a + b; }, 0, [&](int l) { return static_cast<int>(w.value[l] & 0xffff); });
      break;
    case kReduceMin:
      e.out = fold([](int a, int b) { return a < b ? a : b; }, 0, [&](int l) { return static_cast<int>(w.value[l]); });
      break;
    case kReduceMax:
      e.out = static_cast<int>(fold([](unsigned a, unsigned b) { return a > b ? a : b; }, 0u,
                                    [&](int l) { return w.value[l]; }));
      break;
    case kReduceAnd:
      e.out = static_cast<int>(fold([](unsigned a, unsigned b) { return a & b; }, 0u,
                                    [&](int l) { return w.value[l] | 0x10000u; }));
      break;
    case kReduceOr:
      e.out = static_cast<int>(fold([](unsigned a, unsigned b) { return a | b; }, 0u,
                                    [&](int l) { return w.value[l] & 0x0f0f0f0fu; }));
      break;
    case kReduceXor:
      e.out = static_cast<int>(fold([](unsigned a, unsigned b) { return a ^ b; }, 0u, [&](int l) { return w.value[l]; }));
      break;
    case kReadFirstLane: {
      int first = 0;
      while (!((w.active >> first) & 1)) ++first;
      e.out = static_cast<int>(w.value[first]);
      break;
    }
    case kLaneId: e.out = lane; break;
    case kWarpSize: e.out = 64; break;
    case kMbcnt: {
      const unsigned lo = __builtin_popcount(v & (lane >= 32 ? 0xffffffffu : ((1u << lane) - 1u)));
      const unsigned hi = lo + __builtin_popcount(v & (lane < 32 ? 0u : ((1u << (lane - 32)) - 1u)));
      e.out = static_cast<int>(lo);
      e.aux = static_cast<int>(hi);
      break;
    }
    case kSyncwarpExchange: {
      const int l = (lane + c.arg) & 63;
      e.out = (w.active >> l) & 1 ? static_cast<int>(w.value[l]) : -1;  // an inactive lane's slot is not checked
      break;
    }
  }
  return e;
}

// ---- Cases ----------------------------------------------------------------------------------------------------
std::vector<Case> ExhaustiveCases() {
  std::vector<Case> cases;
  const int widths[] = {1, 2, 4, 8, 16, 32, 64};
  const int shuffles[] = {kShfl, kShflUp, kShflDown, kShflXor, kShflSync, kShflUpSync, kShflDownSync, kShflXorSync};
  unsigned seed = 1;
  for (int op : shuffles) {
    for (int width : widths) {
      for (int arg = -1; arg <= 66; ++arg) {
        if (arg < 0 && op != kShfl && op != kShflSync) continue;  // a negative source lane: index shuffles only
        // Masks: every lane, scattered, across the middle; block shapes: a full wave pair, a partial wave.
        for (int active : {0, 1, 2}) cases.push_back({op, arg, width, seed++, active, active == 2 ? 96 : 128});
      }
    }
  }
  for (int op : {kShflDouble, kShflDownLong}) {
    for (int width : widths) {
      for (int arg = 0; arg <= 64; ++arg) cases.push_back({op, arg, width, seed++, 1, 128});
    }
  }
  const int votes[] = {kBallot, kBallotSync, kAny, kAll, kAnySync, kAllSync, kActiveMask, kMatchAny, kMatchAll,
                       kReduceAdd, kReduceMin, kReduceMax, kReduceAnd, kReduceOr, kReduceXor, kReadFirstLane,
                       kLaneId, kWarpSize, kMbcnt};
  for (int op : votes) {
    for (int active = 0; active < kActiveKinds - 1; ++active) {
      for (int threads : {32, 48, 64, 96, 128, 1024}) {
        for (int arg : {0, 1}) cases.push_back({op, arg, 64, seed++, active, threads});
      }
    }
  }
  for (int arg = 0; arg < 64; ++arg) cases.push_back({kSyncwarpExchange, arg, 64, seed++, 0, 256});
  return cases;
}

std::vector<Case> HalfOffCases() {  // the upper half of each wave never arrives: CDNA runs with those lanes off
  std::vector<Case> cases;
  unsigned seed = 77777;
  for (int op : {kShfl, kShflDown, kBallot, kAny, kAll, kActiveMask, kReduceAdd, kReadFirstLane}) {
    cases.push_back({op, op == kShfl ? 40 : 8, 64, seed++, 6, 128});
  }
  return cases;
}

std::vector<Case> RandomCases(int n, unsigned seed) {
  std::mt19937 rng(seed);
  std::vector<Case> cases;
  const int block_sizes[] = {64, 96, 128, 160, 256, 384, 512, 1000, 1024};
  for (int i = 0; i < n; ++i) {
    Case c;
    c.op = static_cast<int>(rng() % kSyncwarpExchange);
    c.width = 1 << (rng() % 7);
    c.arg = static_cast<int>(rng() % 70);
    c.seed = rng();
    c.active_kind = static_cast<int>(rng() % (kActiveKinds - 1));
    c.threads = block_sizes[rng() % std::size(block_sizes)];
    cases.push_back(c);
  }
  return cases;
}

struct Tally {
  long cases = 0, lanes = 0, mismatches = 0;
  std::string first;
};

bool CheckOneSize(const std::vector<Case>& cases, bool two_d, std::map<int, Tally>& tally) {
  Case* d_cases;
  int *d_out, *d_aux;
  const size_t slots = cases.size() * 1024;
  hipMalloc(&d_cases, cases.size() * sizeof(Case));
  hipMalloc(&d_out, slots * sizeof(int));
  hipMalloc(&d_aux, slots * sizeof(int));
  hipMemcpy(d_cases, cases.data(), cases.size() * sizeof(Case), hipMemcpyHostToDevice);
  // Every case in its own block, all of one size (a block of 96 is one full wave and one with lanes 32-63 off).
  const int threads = cases.front().threads;
  const dim3 block = two_d ? dim3(8, threads / 8) : dim3(threads);
  hipLaunchKernelGGL(RunCases, dim3(cases.size()), block, 0, 0, d_cases, d_out, d_aux);
  const hipError_t status = hipDeviceSynchronize();
  if (status != hipSuccess) {
    std::printf("FAIL launch: %s\n", hipGetErrorString(status));
    return false;
  }
  std::vector<int> out(slots), aux(slots);
  hipMemcpy(out.data(), d_out, slots * sizeof(int), hipMemcpyDeviceToHost);
  hipMemcpy(aux.data(), d_aux, slots * sizeof(int), hipMemcpyDeviceToHost);
  hipFree(d_cases);
  hipFree(d_out);
  hipFree(d_aux);
  bool ok = true;
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    Tally& t = tally[c.op];
    ++t.cases;
    for (int base = 0; base < c.threads; base += 64) {
      Wave w;
      for (int l = 0; l < 64; ++l) {
        const unsigned tid = base + l;
        w.value[l] = LaneValue(c.seed, tid);
        if (tid < static_cast<unsigned>(c.threads) && ActiveLane(c.active_kind, c.seed, tid)) w.active |= 1ull << l;
      }
      for (int l = 0; l < 64 && base + l < c.threads; ++l) {
        const Expected e = Model(c, w, l);
        const size_t slot = i * 1024 + base + l;
        const bool aux_checked = e.aux != kSentinel;
        const bool skip = c.op == kSyncwarpExchange && e.out == -1;
        const bool same = !e.ran ? out[slot] == kSentinel
                                 : skip || (out[slot] == e.out && (!aux_checked || aux[slot] == e.aux));
        ++t.lanes;
        if (same) continue;
        ++t.mismatches;
        ok = false;
        if (t.first.empty()) {
          char line[256];
          std::snprintf(line, sizeof line,
                        "arg %d width %d active kind %d threads %d%s: lane %d got %d/%d, want %d/%d", c.arg, c.width,
                        c.active_kind, c.threads, two_d ? " (2-D block)" : "", base + l, out[slot], aux[slot],
                        e.out, e.aux);
          t.first = line;
        }
      }
    }
  }
  return ok;
}

bool Check(const std::vector<Case>& cases, bool two_d, std::map<int, Tally>& tally) {
  std::map<int, std::vector<Case>> by_size;
  for (const Case& c : cases) by_size[c.threads].push_back(c);
  bool ok = true;
  for (const auto& [threads, group] : by_size) ok &= CheckOneSize(group, two_d && threads % 8 == 0, tally);
  return ok;
}

int main(int argc, char** argv) {
  const int random_cases = argc > 1 ? std::atoi(argv[1]) : 20000;
  hipDeviceProp_t prop;
  hipGetDeviceProperties(&prop, 0);
  int attribute = 0;
  hipDeviceGetAttribute(&attribute, hipDeviceAttributeWarpSize, 0);
  bool ok = prop.warpSize == 64 && attribute == 64;
  std::printf("%s hipDeviceProp_t::warpSize %d, hipDeviceAttributeWarpSize %d (%s)\n", ok ? "PASS" : "FAIL",
              prop.warpSize, attribute, prop.name);
  std::map<int, Tally> tally;
  const std::vector<Case> exhaustive = ExhaustiveCases();
  ok &= Check(exhaustive, false, tally);
  ok &= Check(exhaustive, true, tally);
  ok &= Check(HalfOffCases(), false, tally);
  for (int start = 0; start < random_cases; start += 4000) {
    ok &= Check(RandomCases(std::min(4000, random_cases - start), 12345u + start), (start / 4000) % 2 == 1, tally);
  }
  long cases = 0, lanes = 0;
  for (const auto& [op, t] : tally) {
    std::printf("%s %-48s %7ld cases %9ld lanes%s%s\n", t.mismatches ? "FAIL" : "PASS", kOpNames[op], t.cases,
                t.lanes, t.mismatches ? "; first mismatch: " : "", t.first.c_str());
    cases += t.cases;
    lanes += t.lanes;
  }
  std::printf("%s wave64 conformance: %ld cases, %ld lanes, %zu intrinsics\n", ok ? "PASS" : "FAIL", cases, lanes,
              tally.size());
  return ok ? 0 : 1;
}
