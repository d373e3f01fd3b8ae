// Shared by the drivers of the analyzer's warp-size goldens (golden_drivers/HB10N.hip, run by wave64_check.sh):
// deterministic inputs, buffers, shared-memory poison, digests, the per-warp model comparison and the command line.
// A driver includes this header, then its translated golden (GOLDEN_SOURCE), and prints one line per kernel:
//   kernel NAME exact    PAYLOAD   the kernel's outputs themselves (integers, or integer-valued floats printed
//                                  exactly: sums of such floats do not depend on the order of the additions)
//   kernel NAME model    PAYLOAD   the kernel's result is per warp by design (a warp's sum, per-warp slots): the
//                                  outputs are compared with what the kernel means at the build's own warp size
//                                  (32 for the reference, 64 under wave64); PAYLOAD is "ok ..." or the first mismatch
//   kernel NAME property PAYLOAD   racy by design: a property of the outputs at the build's warp size
// wave64_check.sh compares a kernel's line across the builds; `info` lines (raw digests of model kernels, which
// differ with the warp size by design) are for people reading the logs.
// Usage: DRIVER [--list | KERNEL...]   (no argument: every kernel)
#pragma once
#include <hip/hip_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#define GD_CHECK(call)                                                               \
  do {                                                                               \
    hipError_t gd_e_ = (call);                                                       \
    if (gd_e_ != hipSuccess) {                                                       \
      std::printf("error %s: %s\n", #call, hipGetErrorString(gd_e_));                \
      std::fflush(stdout);                                                           \
      std::exit(2);                                                                  \
    }                                                                                \
  } while (0)

namespace gd {

// Unwritten output slots and, before a kernel that might read shared memory nobody wrote, every SM's shared
// memory hold this word: 1e6 as a float, 1232348160 as an int. Even, so never one of the wave64 layer's block tags
// (odd), which live in static shared memory too.
constexpr unsigned kPoison = 0x49742400u;

// Deterministic input: integers in [-7, 15], both signs in every 32 lanes, different in the two halves of a wave.
inline int Value(int i) { return (i * 37 + 11) % 23 - 7; }
inline std::vector<int> Ints(int n) {
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = Value(i);
  return v;
}
inline std::vector<float> Floats(int n) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(Value(i));
  return v;
}
template <typename T>
T PoisonValue() {
  static_assert(sizeof(T) == 4, "4-byte outputs");
  T t;
  std::memcpy(&t, &kPoison, 4);
  return t;
}
template <typename T>
std::vector<T> Poisoned(int n) {
  return std::vector<T>(n, PoisonValue<T>());
}
template <typename T>
bool IsPoison(T t) {
  unsigned u;
  std::memcpy(&u, &t, 4);
  return u == kPoison;
}

template <typename T>
T* ToDevice(const std::vector<T>& host) {
  T* device = nullptr;
  GD_CHECK(hipMalloc(&device, host.size() * sizeof(T)));
  GD_CHECK(hipMemcpy(device, host.data(), host.size() * sizeof(T), hipMemcpyHostToDevice));
  return device;
}
// Waits for the launches before it (and reports their errors), then copies back.
template <typename T>
std::vector<T> ToHost(const T* device, size_t n) {
  GD_CHECK(hipGetLastError());
  GD_CHECK(hipDeviceSynchronize());
  std::vector<T> host(n);
  GD_CHECK(hipMemcpy(host.data(), device, n * sizeof(T), hipMemcpyDeviceToHost));
  return host;
}
template <typename T>
void Free(T* device) {
  GD_CHECK(hipFree(device));
}

// The warp size of this build as the program sees it: 32 on sm_90, 64 under sm_90:wave64 (the layer's attribute).
inline int WarpSize() {
  int ws = 0;
  GD_CHECK(hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, 0));
  return ws;
}

__global__ void PoisonSharedKernel(unsigned words, unsigned* sink) {
  extern __shared__ unsigned gd_shared[];
  volatile unsigned* s = gd_shared;
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) s[i] = kPoison;
  if (s[threadIdx.x] != kPoison) sink[0] = 1;  // never true: keeps the stores
}
// Fills every SM's shared memory with kPoison (blocks of the largest dynamic shared memory a block may have, several
// per SM), so that a kernel reading shared memory no thread of it wrote reads kPoison, the same in every build,
// instead of whatever an earlier kernel left (NVIDIA does not clear shared memory between kernels; CDNA's LDS is
// not cleared either).
inline void PoisonShared() {
  int sms = 0, optin = 0;
  GD_CHECK(hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, 0));
  GD_CHECK(hipDeviceGetAttribute(&optin, hipDeviceAttributeSharedMemPerBlockOptin, 0));
  const size_t bytes = static_cast<size_t>(optin) & ~static_cast<size_t>(255);
  GD_CHECK(hipFuncSetAttribute(reinterpret_cast<const void*>(&PoisonSharedKernel),
                               hipFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
  static unsigned* sink = nullptr;
  if (sink == nullptr) GD_CHECK(hipMalloc(&sink, sizeof(unsigned)));
  PoisonSharedKernel<<<4 * sms, 256, bytes>>>(static_cast<unsigned>(bytes / 4), sink);
  GD_CHECK(hipGetLastError());
  GD_CHECK(hipDeviceSynchronize());
}

// Exact text of a value: integers as they are, floats with 9 significant digits (exact for a float; the drivers'
// floats are integers, so this prints them as such).
template <typename T>
std::string Text(T t) {
  char buf[48];
  if constexpr (std::is_floating_point<T>::value) {
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(t));
  } else if constexpr (std::is_signed<T>::value) {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(t));
  } else {
    std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(t));
  }
  return buf;
}
template <typename T>
std::string List(const std::vector<T>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + Text(v[i]);
  return s;
}
// The sum of the values (exact: integers, or integer-valued floats summed in double) and an FNV-1a hash of their
// bits in order: any difference of any element shows.
template <typename T>
std::string Digest(const std::vector<T>& v) {
  double sum = 0;
  unsigned long long hash = 1469598103934665603ull;
  for (const T& t : v) {
    sum += static_cast<double>(t);
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &t, sizeof(T));
    for (unsigned char b : bytes) hash = (hash ^ b) * 1099511628211ull;
  }
  char buf[96];
  std::snprintf(buf, sizeof buf, "n=%zu,sum=%.17g,fnv=%016llx", v.size(), sum, hash);
  return buf;
}
inline std::string Shape(int grid, int block) { return std::to_string(grid) + "x" + std::to_string(block); }

// A model kernel's comparison over its launch shapes: "ok SHAPES" when every compared output equals the model,
// else the first mismatch of each failing shape (element, got, want, how many differ).
class Model {
 public:
  template <typename T>
  void Compare(const std::string& shape, const std::vector<T>& got, const std::vector<T>& want,
               const std::vector<bool>& skip = {}) {
    shapes_ += (shapes_.empty() ? "" : ",") + shape;
    size_t first = got.size(), count = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      if (i < skip.size() && skip[i]) continue;
      if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
        if (count++ == 0) first = i;
      }
    }
    if (count != 0) {
      mismatches_ += " " + shape + ":[" + std::to_string(first) + "]=" + Text(got[first]) + ",want=" +
                     Text(want[first]) + ",differ=" + std::to_string(count);
    }
  }
  std::string Result() const { return mismatches_.empty() ? "ok " + shapes_ : "MISMATCH" + mismatches_; }

 private:
  std::string shapes_, mismatches_;
};

struct Kernel {
  const char* name;
  const char* kind;  // exact, model, property
  std::function<std::string()> run;
};

inline int Main(int argc, char** argv, const std::vector<Kernel>& kernels) {
  if (argc == 2 && std::strcmp(argv[1], "--list") == 0) {
    for (const Kernel& k : kernels) std::printf("%s\n", k.name);
    return 0;
  }
  int status = 0;
  for (const Kernel& k : kernels) {
    bool chosen = argc == 1;
    for (int i = 1; i < argc; ++i) chosen = chosen || std::strcmp(argv[i], k.name) == 0;
    if (!chosen) continue;
    const std::string payload = k.run();
    std::printf("kernel %s %s %s\n", k.name, k.kind, payload.c_str());
    std::fflush(stdout);
  }
  return status;
}

// For model kernels: the raw outputs' digest, which differs with the warp size by design (not compared).
inline void Info(const char* name, const std::string& text) {
  std::printf("info %s warpSize=%d %s\n", name, WarpSize(), text.c_str());
  std::fflush(stdout);
}

}  // namespace gd
