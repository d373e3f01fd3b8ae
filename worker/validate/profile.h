#pragma once
// Kernel timing statistics: rocprofv3 `--kernel-trace --stats` (<prefix>_kernel_stats.csv), ncu `--csv` (per launch),
// rocprof `--stats` (results.stats.csv), and CUDA baselines (nsys cuda_gpu_kern_sum CSV or our own
// cuda_timings.csv with kernel,calls,total_ns). Columns are found by header name, not position.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/process.h"
#include "worker/validate/report.h"

namespace hipforge::validate {

// RFC 4180 fields of one CSV record (quoted fields may hold commas and doubled quotes).
std::vector<std::string> SplitCsvRecord(std::string_view record);

absl::StatusOr<std::vector<KernelProfile>> ParseKernelStatsCsv(std::string_view csv);

// Name used to pair a HIP kernel with its CUDA baseline: parameter list, " [clone .kd]" and ".kd"
// dropped, whitespace squeezed.
std::string KernelMatchKey(std::string_view kernel_name);

// Fills cuda_baseline_ns of `profile` entries from `baseline` by KernelMatchKey.
void AttachBaseline(std::vector<KernelProfile>& profile, const std::vector<KernelProfile>& baseline);

enum class ProfilerKind { kNone, kRocprofV3, kRocprof, kNcu };
// ncu profiles at most this many launches per run (each is serialized and replayed): both sides of a CUDA/HIP pair
// stop at the same launch, so their totals stay comparable. On the H200, 200 launches took 27-29 s per run (the
// GPU is leased meanwhile); 20 keep a run to a few seconds.
inline constexpr int kNcuLaunchCount = 20;
struct Profiler {
  ProfilerKind kind = ProfilerKind::kNone;
  std::filesystem::path program;
};
// rocprofv3 preferred, then rocprof; looked up in `toolchain_bin` first, then PATH.
Profiler FindProfiler(const std::filesystem::path& toolchain_bin);

// Nsight Compute for HIP's NVIDIA platform and the CUDA reference: `cuda_bin`/ncu, PATH, /usr/local/cuda/bin.
Profiler FindNcu(const std::filesystem::path& cuda_bin);

// argv prefix that profiles `command` writing stats under `output_dir`, and where the stats CSV lands.
std::vector<std::string> ProfilerCommand(const Profiler& profiler, const std::filesystem::path& output_dir,
                                         const std::vector<std::string>& command);
// Finds the stats CSV the profiler wrote under `output_dir` (names differ by version).
absl::StatusOr<std::filesystem::path> FindStatsCsv(const Profiler& profiler, const std::filesystem::path& output_dir);

}  // namespace hipforge::validate
