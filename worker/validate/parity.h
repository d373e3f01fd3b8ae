#pragma once
// CUDA-vs-HIP output parity: load golden (CUDA) and actual (HIP) outputs, compare per dtype with
// PyTorch assert_close semantics: |actual - expected| <= atol + rtol * |expected|, NaN matches NaN
// at the same position only, +-Inf must match exactly, integers and bool compare exactly.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "worker/validate/report.h"

namespace hipforge::validate {

enum class DType {
  kFloat16,
  kBFloat16,
  kFloat32,
  kFloat64,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kBool
};

absl::StatusOr<DType> ParseDType(std::string_view name);  // "float32", "f32", "float", "half", "bf16", "int32", ...
std::string_view DTypeName(DType dtype);
bool IsFloating(DType dtype);
size_t DTypeSize(DType dtype);

struct Tolerance {
  double rtol = 0;
  double atol = 0;
};
// torch.testing.assert_close defaults; integers and bool: exact.
Tolerance DefaultTolerance(DType dtype);

enum class OutputFormat { kRaw, kNpy, kText };
absl::StatusOr<OutputFormat> ParseOutputFormat(std::string_view name);  // "raw", "npy", "text"
OutputFormat GuessOutputFormat(
    const std::filesystem::path& path);  // .npy -> npy, .txt/.csv/.out/.log -> text, else raw

struct TextSelection {
  std::string lines_matching;          // regex; empty: every line
  std::string exclude_lines_matching;  // regex; e.g. "time|GB/s" to drop timings
  std::vector<int> columns;            // 0-based numeric columns to keep; empty: all numbers on the line
};

// Values widened for comparison: floating dtypes in `values`, integer/bool dtypes in `integers`
// (exact even past 2^53).
struct ArrayData {
  DType dtype = DType::kFloat32;
  std::vector<int64_t> shape;  // from .npy; {count} otherwise
  std::vector<double> values;
  std::vector<int64_t> integers;
  size_t size() const { return IsFloating(dtype) ? values.size() : integers.size(); }
};

// `dtype` is required for raw files and chooses the parsing for text; .npy files carry their own
// (a given dtype must then agree). Raw files are little-endian.
absl::StatusOr<ArrayData> LoadArray(const std::filesystem::path& path, OutputFormat format, std::optional<DType> dtype,
                                    const TextSelection& selection = {});
absl::StatusOr<ArrayData> ParseTextArray(std::string_view text, DType dtype, const TextSelection& selection = {});

ParityResult CompareArrays(const std::string& case_name, const ArrayData& actual, const ArrayData& expected,
                           Tolerance tolerance);

// Lines a program prints about time or speed, or figures measured from them (a copy/compute overlap, a speedup, a
// utilization; HeCBench base64e's "Measured and (Acceptable) Avg Overlap = 44.5 %" failed parity against CUDA's
// 44.2), case-insensitive ECMAScript; and make's own lines (its directories differ between the two builds): they
// are not the program's result, so output comparisons leave them out. So are the device's used/free memory
// (HeCBench segsort's "GPU memory usage: used = 3366.31 MB, free = ..."): they change with what else runs on the GPU.
inline constexpr char kTimingLinePattern[] =
    R"((time|elapsed|took|duration|throughput|bandwidth|latency|speed|perf|measured|overlap|utili[sz]ation|)"
    R"(memory usage|\b(used|free|available)\b.*\b[KMGT]i?B\b|)"
    R"([GMK]i?B/s|FLOP|/s\b|)"
    R"(\b(ns|us|usec|ms|msec|sec|secs|seconds)\b|\((ns|us|ms|s)\)|^make(\[[0-9]+\])?: ))";
// Tolerance of output comparisons: printed values, typically with 6 significant digits or more.
inline constexpr Tolerance kOutputTolerance{.rtol = 1e-5, .atol = 1e-8};

// The numbers of `actual` against those of `expected` (standard outputs of a HIP run and its CUDA reference), timing
// lines left out (kTimingLinePattern); kOutputTolerance. Empty when `expected` has no number left to compare.
std::optional<ParityResult> CompareOutputs(const std::string& case_name, std::string_view actual,
                                           std::string_view expected);

// Bit-level conversions used for raw/npy half types (round-to-nearest-even on the way in).
double HalfToDouble(uint16_t bits);
double BFloat16ToDouble(uint16_t bits);

}  // namespace hipforge::validate
