#include "worker/validate/parity.h"
#include "common/file_io.h"
#include "worker/validate/text_util.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <regex>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

namespace {

struct DTypeInfo {
  DType dtype;
  std::string_view name;
  size_t size;
  bool floating;
};
constexpr DTypeInfo kDTypes[] = {
    {DType::kFloat16, "float16", 2, true}, {DType::kBFloat16, "bfloat16", 2, true},
    {DType::kFloat32, "float32", 4, true}, {DType::kFloat64, "float64", 8, true},
    {DType::kInt8, "int8", 1, false},      {DType::kInt16, "int16", 2, false},
    {DType::kInt32, "int32", 4, false},    {DType::kInt64, "int64", 8, false},
    {DType::kUInt8, "uint8", 1, false},    {DType::kUInt16, "uint16", 2, false},
    {DType::kUInt32, "uint32", 4, false},  {DType::kUInt64, "uint64", 8, false},
    {DType::kBool, "bool", 1, false},
};

const DTypeInfo& Info(DType dtype) {
  for (const DTypeInfo& info : kDTypes) {
    if (info.dtype == dtype) return info;
  }
  return kDTypes[2];
}

template <typename T>
T LoadLittle(const unsigned char* p, bool swap) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  if (swap) {
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, p, sizeof(T));
    std::reverse(bytes, bytes + sizeof(T));
    std::memcpy(&value, bytes, sizeof(T));
  }
  return value;
}

absl::StatusOr<ArrayData> DecodeBinary(const unsigned char* data, size_t bytes, DType dtype, bool swap) {
  const size_t width = DTypeSize(dtype);
  if (bytes % width != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat(bytes, " bytes is not a whole number of ", ToAbsl(DTypeName(dtype)), " elements"));
  }
  ArrayData out;
  out.dtype = dtype;
  const size_t count = bytes / width;
  out.shape = {static_cast<int64_t>(count)};
  if (IsFloating(dtype))
    out.values.reserve(count);
  else
    out.integers.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const unsigned char* p = data + i * width;
    switch (dtype) {
      case DType::kFloat16: out.values.push_back(HalfToDouble(LoadLittle<uint16_t>(p, swap))); break;
      case DType::kBFloat16: out.values.push_back(BFloat16ToDouble(LoadLittle<uint16_t>(p, swap))); break;
      case DType::kFloat32: out.values.push_back(LoadLittle<float>(p, swap)); break;
      case DType::kFloat64: out.values.push_back(LoadLittle<double>(p, swap)); break;
      case DType::kInt8: out.integers.push_back(static_cast<int8_t>(*p)); break;
      case DType::kInt16: out.integers.push_back(LoadLittle<int16_t>(p, swap)); break;
      case DType::kInt32: out.integers.push_back(LoadLittle<int32_t>(p, swap)); break;
      case DType::kInt64: out.integers.push_back(LoadLittle<int64_t>(p, swap)); break;
      case DType::kUInt8: out.integers.push_back(*p); break;
      case DType::kUInt16: out.integers.push_back(LoadLittle<uint16_t>(p, swap)); break;
      case DType::kUInt32: out.integers.push_back(LoadLittle<uint32_t>(p, swap)); break;
      // uint64 above INT64_MAX wraps; equality is still exact bit-for-bit.
      case DType::kUInt64: out.integers.push_back(static_cast<int64_t>(LoadLittle<uint64_t>(p, swap))); break;
      case DType::kBool: out.integers.push_back(*p != 0); break;
    }
  }
  return out;
}

// .npy: magic, version, header length, then a Python dict literal with descr/fortran_order/shape.
absl::StatusOr<ArrayData> DecodeNpy(const std::string& bytes, std::optional<DType> expected) {
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0) {
    return absl::InvalidArgumentError("not an .npy file (bad magic)");
  }
  const int major = static_cast<unsigned char>(bytes[6]);
  size_t header_len = 0, offset = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
    offset = 10;
  } else {
    if (bytes.size() < 12) return absl::InvalidArgumentError("truncated .npy header");
    header_len = LoadLittle<uint32_t>(reinterpret_cast<const unsigned char*>(bytes.data() + 8), false);
    offset = 12;
  }
  if (offset + header_len > bytes.size()) return absl::InvalidArgumentError("truncated .npy header");
  const std::string header = bytes.substr(offset, header_len);
  std::smatch m;
  if (!std::regex_search(header, m, std::regex(R"('descr'\s*:\s*'([<>|=])([a-zA-Z])(\d+)')"))) {
    return absl::InvalidArgumentError("unsupported .npy descr in header: " + header);
  }
  const char order = m[1].str()[0];
  const char kind = m[2].str()[0];
  const int width = std::stoi(m[3]);
  DType dtype;
  if (kind == 'f' && width == 2)
    dtype = DType::kFloat16;
  else if (kind == 'f' && width == 4)
    dtype = DType::kFloat32;
  else if (kind == 'f' && width == 8)
    dtype = DType::kFloat64;
  else if (kind == 'i' && width == 1)
    dtype = DType::kInt8;
  else if (kind == 'i' && width == 2)
    dtype = DType::kInt16;
  else if (kind == 'i' && width == 4)
    dtype = DType::kInt32;
  else if (kind == 'i' && width == 8)
    dtype = DType::kInt64;
  else if (kind == 'u' && width == 1)
    dtype = DType::kUInt8;
  else if (kind == 'u' && width == 2)
    dtype = DType::kUInt16;
  else if (kind == 'u' && width == 4)
    dtype = DType::kUInt32;
  else if (kind == 'u' && width == 8)
    dtype = DType::kUInt64;
  else if (kind == 'b' && width == 1)
    dtype = DType::kBool;
  else if (kind == 'V' && width == 2 && expected == DType::kBFloat16)
    dtype = DType::kBFloat16;  // ml_dtypes
  else
    return absl::InvalidArgumentError(absl::StrCat("unsupported .npy dtype ", m[0].str()));
  if (expected && *expected != dtype) {
    return absl::InvalidArgumentError(
        absl::StrCat(".npy holds ", ToAbsl(DTypeName(dtype)), " but the manifest says ", ToAbsl(DTypeName(*expected))));
  }
  // Fortran order is flattened as stored: both sides of a parity case come from the same program.
  std::vector<int64_t> shape;
  if (std::regex_search(header, m, std::regex(R"('shape'\s*:\s*\(([^)]*)\))"))) {
    for (absl::string_view part : absl::StrSplit(m[1].str(), ',', absl::SkipWhitespace())) {
      int64_t dim = 0;
      if (absl::SimpleAtoi(absl::StripAsciiWhitespace(part), &dim)) shape.push_back(dim);
    }
  }
  const bool swap = (order == '>');  // '<', '|', '=' are native on our little-endian hosts
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data() + offset + header_len);
  auto decoded = DecodeBinary(data, bytes.size() - offset - header_len, dtype, swap);
  if (!decoded.ok()) return decoded.status();
  if (!shape.empty()) decoded->shape = shape;
  return decoded;
}

}  // namespace

absl::StatusOr<DType> ParseDType(std::string_view name_std) {
  const absl::string_view name = ToAbsl(name_std);
  std::string n = absl::AsciiStrToLower(name);
  if (n == "float" || n == "f32" || n == "fp32") n = "float32";
  if (n == "double" || n == "f64" || n == "fp64") n = "float64";
  if (n == "half" || n == "f16" || n == "fp16") n = "float16";
  if (n == "bf16") n = "bfloat16";
  if (n == "int" || n == "i32") n = "int32";
  if (n == "long" || n == "i64") n = "int64";
  if (n == "char" || n == "i8") n = "int8";
  if (n == "unsigned" || n == "uint" || n == "u32") n = "uint32";
  for (const DTypeInfo& info : kDTypes) {
    if (info.name == n) return info.dtype;
  }
  return absl::InvalidArgumentError(absl::StrCat("unknown dtype '", name, "'"));
}

std::string_view DTypeName(DType dtype) { return Info(dtype).name; }
bool IsFloating(DType dtype) { return Info(dtype).floating; }
size_t DTypeSize(DType dtype) { return Info(dtype).size; }

Tolerance DefaultTolerance(DType dtype) {
  switch (dtype) {
    case DType::kFloat16: return {1e-3, 1e-5};
    case DType::kBFloat16: return {1.6e-2, 1e-5};
    case DType::kFloat32: return {1.3e-6, 1e-5};
    case DType::kFloat64: return {1e-7, 1e-7};
    default: return {0, 0};
  }
}

absl::StatusOr<OutputFormat> ParseOutputFormat(std::string_view name_std) {
  const absl::string_view name = ToAbsl(name_std);
  if (name == "raw" || name == "bin" || name == "binary") return OutputFormat::kRaw;
  if (name == "npy") return OutputFormat::kNpy;
  if (name == "text" || name == "txt") return OutputFormat::kText;
  return absl::InvalidArgumentError(absl::StrCat("unknown output format '", name, "' (raw, npy, text)"));
}

OutputFormat GuessOutputFormat(const fs::path& path) {
  const std::string ext = absl::AsciiStrToLower(path.extension().string());
  if (ext == ".npy") return OutputFormat::kNpy;
  if (ext == ".txt" || ext == ".csv" || ext == ".out" || ext == ".log" || ext == ".dat") return OutputFormat::kText;
  return OutputFormat::kRaw;
}

double HalfToDouble(uint16_t bits) {
  const int sign = (bits >> 15) & 1;
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  double value;
  if (exponent == 0) {
    value = std::ldexp(mantissa, -24);
  } else if (exponent == 31) {
    value = mantissa ? std::nan("") : INFINITY;
  } else {
    value = std::ldexp(mantissa + 1024, exponent - 25);
  }
  return sign ? -value : value;
}

double BFloat16ToDouble(uint16_t bits) { return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16); }

absl::StatusOr<ArrayData> ParseTextArray(std::string_view text_std, DType dtype, const TextSelection& selection) {
  const absl::string_view text = ToAbsl(text_std);
  std::optional<std::regex> keep, drop;
  try {
    if (!selection.lines_matching.empty()) keep.emplace(selection.lines_matching);
    if (!selection.exclude_lines_matching.empty()) drop.emplace(selection.exclude_lines_matching);
  } catch (const std::regex_error& e) {
    return absl::InvalidArgumentError(absl::StrCat("bad line regex: ", e.what()));
  }
  ArrayData out;
  out.dtype = dtype;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    const std::string owned(line);
    if (keep && !std::regex_search(owned, *keep)) continue;
    if (drop && std::regex_search(owned, *drop)) continue;
    int column = -1;
    for (absl::string_view token : absl::StrSplit(line, absl::ByAnyChar(" \t,;=:()[]"), absl::SkipEmpty())) {
      token = absl::StripAsciiWhitespace(token);
      double value = 0;
      int64_t integer = 0;
      const bool is_float = absl::SimpleAtod(token, &value);
      if (!is_float) continue;  // words on the line do not count as columns
      ++column;
      if (!selection.columns.empty() &&
          std::find(selection.columns.begin(), selection.columns.end(), column) == selection.columns.end()) {
        continue;
      }
      if (IsFloating(dtype)) {
        out.values.push_back(value);
      } else if (absl::SimpleAtoi(token, &integer)) {
        out.integers.push_back(integer);
      } else {
        return absl::InvalidArgumentError(
            absl::StrCat("'", token, "' is not an integer (dtype ", ToAbsl(DTypeName(dtype)), ")"));
      }
    }
  }
  out.shape = {static_cast<int64_t>(out.size())};
  return out;
}

absl::StatusOr<ArrayData> LoadArray(const fs::path& path, OutputFormat format, std::optional<DType> dtype,
                                    const TextSelection& selection) {
  auto bytes = ReadFileOrStatus(path);
  if (!bytes.ok()) return bytes.status();
  switch (format) {
    case OutputFormat::kNpy: return DecodeNpy(*bytes, dtype);
    case OutputFormat::kText: return ParseTextArray(*bytes, dtype.value_or(DType::kFloat64), selection);
    case OutputFormat::kRaw:
      if (!dtype) return absl::InvalidArgumentError("raw output needs a dtype in the manifest");
      return DecodeBinary(reinterpret_cast<const unsigned char*>(bytes->data()), bytes->size(), *dtype, false);
  }
  return absl::InternalError("unreachable");
}

ParityResult CompareArrays(const std::string& case_name, const ArrayData& actual, const ArrayData& expected,
                           Tolerance tolerance) {
  ParityResult result{.case_name = case_name};
  result.elements = static_cast<int64_t>(expected.size());
  if (actual.size() != expected.size()) {
    result.verdict = ParityVerdict::kMismatch;
    result.mismatches = std::abs(static_cast<int64_t>(actual.size()) - static_cast<int64_t>(expected.size()));
    result.detail = absl::StrCat("element count differs: actual ", actual.size(), ", expected ", expected.size());
    return result;
  }
  int64_t first_mismatch = -1;
  if (!IsFloating(expected.dtype) && !IsFloating(actual.dtype)) {
    for (size_t i = 0; i < expected.integers.size(); ++i) {
      const int64_t a = actual.integers[i], e = expected.integers[i];
      if (a == e) continue;
      const double abs_error = std::abs(static_cast<double>(a) - static_cast<double>(e));
      result.max_abs_error = std::max(result.max_abs_error, abs_error);
      if (e != 0) result.max_rel_error = std::max(result.max_rel_error, abs_error / std::abs(static_cast<double>(e)));
      if (first_mismatch < 0) first_mismatch = static_cast<int64_t>(i);
      ++result.mismatches;
    }
  } else {
    auto value_at = [](const ArrayData& d, size_t i) {
      return IsFloating(d.dtype) ? d.values[i] : static_cast<double>(d.integers[i]);
    };
    for (size_t i = 0; i < expected.size(); ++i) {
      const double a = value_at(actual, i), e = value_at(expected, i);
      bool ok;
      if (std::isnan(e) || std::isnan(a)) {
        ok = std::isnan(e) && std::isnan(a);
      } else if (std::isinf(e) || std::isinf(a)) {
        ok = a == e;
      } else {
        const double abs_error = std::abs(a - e);
        result.max_abs_error = std::max(result.max_abs_error, abs_error);
        if (e != 0) result.max_rel_error = std::max(result.max_rel_error, abs_error / std::abs(e));
        ok = abs_error <= tolerance.atol + tolerance.rtol * std::abs(e);
      }
      if (!ok) {
        if (first_mismatch < 0) first_mismatch = static_cast<int64_t>(i);
        ++result.mismatches;
        if (std::isnan(a) != std::isnan(e) || std::isinf(a) || std::isinf(e)) result.max_abs_error = INFINITY;
      }
    }
  }
  result.verdict = result.mismatches == 0 ? ParityVerdict::kMatch : ParityVerdict::kMismatch;
  if (first_mismatch >= 0) {
    auto show = [&](const ArrayData& d) {
      return IsFloating(d.dtype) ? absl::StrCat(d.values[first_mismatch]) : absl::StrCat(d.integers[first_mismatch]);
    };
    result.detail = absl::StrCat("first mismatch at element ", first_mismatch, ": actual ", show(actual), ", expected ",
                                 show(expected), " (rtol ", tolerance.rtol, ", atol ", tolerance.atol, ")");
  }
  return result;
}

namespace {

// `text` without its timing lines (kTimingLinePattern).
std::string WithoutTimingLines(std::string_view text_std) {
  static const std::regex kTiming(kTimingLinePattern, std::regex::ECMAScript | std::regex::icase);
  std::string kept;
  for (absl::string_view line : absl::StrSplit(ToAbsl(text_std), '\n')) {
    const std::string owned(line);
    if (std::regex_search(owned, kTiming)) continue;
    absl::StrAppend(&kept, owned, "\n");
  }
  return kept;
}

}  // namespace

std::optional<ParityResult> CompareOutputs(const std::string& case_name, std::string_view actual,
                                           std::string_view expected) {
  absl::StatusOr<ArrayData> want = ParseTextArray(WithoutTimingLines(expected), DType::kFloat64);
  absl::StatusOr<ArrayData> got = ParseTextArray(WithoutTimingLines(actual), DType::kFloat64);
  if (!want.ok() || !got.ok() || want->size() == 0) return std::nullopt;
  ParityResult result = CompareArrays(case_name, *got, *want, kOutputTolerance);
  const std::string what =
      absl::StrCat(want->size(), " printed numbers against the CUDA original's, timing lines left out");
  result.detail = result.detail.empty() ? what : absl::StrCat(result.detail, "; ", what);
  return result;
}

}  // namespace hipforge::validate
