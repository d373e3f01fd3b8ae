#include "worker/validate/profile.h"
#include "worker/validate/text_util.h"

#include <cmath>
#include <fstream>
#include <map>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

std::vector<std::string> SplitCsvRecord(std::string_view record_std) {
  const absl::string_view record = ToAbsl(record_std);
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < record.size(); ++i) {
    const char c = record[i];
    if (quoted) {
      if (c == '"' && i + 1 < record.size() && record[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.push_back(std::move(field));
      field.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  fields.push_back(std::move(field));
  return fields;
}

namespace {

int FindColumn(const std::vector<std::string>& header, std::initializer_list<absl::string_view> names) {
  for (absl::string_view name : names) {
    for (size_t i = 0; i < header.size(); ++i) {
      if (absl::EqualsIgnoreCase(absl::StripAsciiWhitespace(header[i]), name)) return static_cast<int>(i);
    }
  }
  return -1;
}

// Records may span lines when a quoted field holds a newline; join until quotes balance.
std::vector<std::string> CsvRecords(absl::string_view csv) {
  std::vector<std::string> records;
  std::string pending;
  for (absl::string_view line : absl::StrSplit(csv, '\n')) {
    if (!pending.empty()) pending += '\n';
    pending.append(line.data(), line.size());
    if (std::count(pending.begin(), pending.end(), '"') % 2 == 0) {
      if (!absl::StripAsciiWhitespace(pending).empty()) records.push_back(pending);
      pending.clear();
    }
  }
  if (!absl::StripAsciiWhitespace(pending).empty()) records.push_back(pending);
  return records;
}

// Nanoseconds per unit of an ncu time metric ("nsecond", "usecond", "msecond", "second"; also ns/us/ms/s).
std::optional<double> NanosecondsPer(absl::string_view unit) {
  unit = absl::StripAsciiWhitespace(unit);
  if (unit.empty() || unit == "nsecond" || unit == "ns") return 1.0;
  if (unit == "usecond" || unit == "us") return 1e3;
  if (unit == "msecond" || unit == "ms") return 1e6;
  if (unit == "second" || unit == "s") return 1e9;
  return std::nullopt;
}

// ncu --csv, per launch: the details page (one row per metric: "Metric Name", "Metric Unit", "Metric Value") or
// the raw page (one column per metric, a units row under the header). Launches are summed per kernel name.
absl::StatusOr<std::vector<KernelProfile>> ParseNcuCsv(const std::vector<std::string>& records) {
  constexpr absl::string_view kMetric = "gpu__time_duration.sum";
  const std::vector<std::string> header = SplitCsvRecord(records[0]);
  const int name_col = FindColumn(header, {"Kernel Name"});
  const int metric_name_col = FindColumn(header, {"Metric Name"});
  const int metric_unit_col = FindColumn(header, {"Metric Unit"});
  const int metric_value_col = FindColumn(header, {"Metric Value"});
  const int raw_col = FindColumn(header, {kMetric});
  if (name_col < 0 || (raw_col < 0 && (metric_name_col < 0 || metric_value_col < 0))) {
    return absl::InvalidArgumentError(absl::StrCat("ncu CSV without kernel names or ", kMetric, ": ", records[0]));
  }
  std::vector<KernelProfile> out;
  std::map<std::string, size_t> index;
  std::string raw_unit = "nsecond";
  for (size_t r = 1; r < records.size(); ++r) {
    const std::vector<std::string> fields = SplitCsvRecord(records[r]);
    const int value_col = raw_col >= 0 ? raw_col : metric_value_col;
    if (static_cast<int>(fields.size()) <= std::max({name_col, value_col, metric_name_col, metric_unit_col})) continue;
    std::string unit = raw_col >= 0 ? raw_unit : (metric_unit_col >= 0 ? fields[metric_unit_col] : "nsecond");
    if (raw_col < 0 && fields[metric_name_col] != kMetric) continue;
    std::string value = absl::StrReplaceAll(fields[value_col], {{",", ""}});  // "1,234" in some locales
    double number = 0;
    if (!absl::SimpleAtod(absl::StripAsciiWhitespace(value), &number)) {
      if (raw_col >= 0 && fields[name_col].empty()) raw_unit = fields[raw_col];  // the raw page's units row
      continue;
    }
    // A launch that faulted reads n/a or a non-finite time in ncu (on the H200 btree's illegal memory access gave
    // one that became INT64_MIN): it has no time to compare.
    if (!std::isfinite(number) || number < 0) continue;
    const std::optional<double> scale = NanosecondsPer(unit);
    if (!scale) return absl::InvalidArgumentError(absl::StrCat("ncu CSV: unknown time unit '", unit, "'"));
    const std::string name(absl::StripAsciiWhitespace(fields[name_col]));
    auto [it, inserted] = index.try_emplace(name, out.size());
    if (inserted) out.push_back({.kernel = name});
    out[it->second].calls += 1;
    out[it->second].total_ns += static_cast<int64_t>(number * *scale + 0.5);
  }
  return out;
}

}  // namespace

absl::StatusOr<std::vector<KernelProfile>> ParseKernelStatsCsv(std::string_view csv_std) {
  const absl::string_view csv = ToAbsl(csv_std);
  std::vector<std::string> records = CsvRecords(csv);
  // ncu's log starts with its own "==PROF==" / "==WARNING==" lines (and the program's, when they share the file).
  while (!records.empty() && absl::StartsWith(absl::StripLeadingAsciiWhitespace(records.front()), "==")) {
    records.erase(records.begin());
  }
  if (records.empty()) return absl::InvalidArgumentError("empty stats CSV");
  const std::vector<std::string> header = SplitCsvRecord(records[0]);
  if (FindColumn(header, {"Kernel Name"}) >= 0 && FindColumn(header, {"ID"}) >= 0) return ParseNcuCsv(records);
  const int name_col = FindColumn(header, {"Name", "KernelName", "Kernel_Name", "kernel"});
  const int calls_col = FindColumn(header, {"Calls", "Instances", "calls", "Count"});
  const int total_col = FindColumn(header, {"TotalDurationNs", "Total Time (ns)", "total_ns", "TotalDuration(ns)"});
  if (name_col < 0 || total_col < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("stats CSV header lacks a name or total-duration column: ", records[0]));
  }
  std::vector<KernelProfile> out;
  std::map<std::string, size_t> index;  // merges repeated names (rocprof lists per-dispatch variants)
  for (size_t r = 1; r < records.size(); ++r) {
    const std::vector<std::string> fields = SplitCsvRecord(records[r]);
    if (static_cast<int>(fields.size()) <= std::max({name_col, total_col, calls_col})) continue;
    double total = 0;
    if (!absl::SimpleAtod(absl::StripAsciiWhitespace(fields[total_col]), &total)) continue;
    int64_t calls = 1;
    if (calls_col >= 0 && !absl::SimpleAtoi(absl::StripAsciiWhitespace(fields[calls_col]), &calls)) calls = 1;
    const std::string name(absl::StripAsciiWhitespace(fields[name_col]));
    auto [it, inserted] = index.try_emplace(name, out.size());
    if (inserted) out.push_back({.kernel = name});
    out[it->second].calls += calls;
    out[it->second].total_ns += static_cast<int64_t>(total);
  }
  return out;
}

std::string KernelMatchKey(std::string_view kernel_name_std) {
  const absl::string_view kernel_name = ToAbsl(kernel_name_std);
  std::string name(absl::StripAsciiWhitespace(kernel_name));
  for (absl::string_view suffix : {" [clone .kd]", ".kd"}) {
    if (absl::EndsWith(name, suffix)) name.resize(name.size() - suffix.size());
  }
  // Drop the parameter list: the top-level '(' that is not part of "(anonymous namespace)".
  int depth = 0;
  for (size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<') ++depth;
    if (name[i] == '>') --depth;
    if (name[i] == '(' && depth == 0 && name.compare(i, 21, "(anonymous namespace)") != 0) {
      name.resize(i);
      break;
    }
  }
  std::vector<absl::string_view> words = absl::StrSplit(name, ' ', absl::SkipEmpty());
  return absl::StrJoin(words, " ");
}

void AttachBaseline(std::vector<KernelProfile>& profile, const std::vector<KernelProfile>& baseline) {
  std::map<std::string, std::pair<int64_t, int64_t>> by_key;  // total_ns, calls
  for (const KernelProfile& k : baseline) {
    auto& [total, calls] = by_key[KernelMatchKey(k.kernel)];
    total += k.total_ns;
    calls += k.calls;
  }
  for (KernelProfile& k : profile) {
    if (auto it = by_key.find(KernelMatchKey(k.kernel)); it != by_key.end()) {
      k.cuda_baseline_ns = it->second.first;
      k.cuda_calls = it->second.second;
    }
  }
}

Profiler FindProfiler(const fs::path& toolchain_bin) {
  for (auto [kind, name] : {std::pair{ProfilerKind::kRocprofV3, "rocprofv3"}, {ProfilerKind::kRocprof, "rocprof"}}) {
    if (!toolchain_bin.empty() && fs::exists(toolchain_bin / name)) return {kind, toolchain_bin / name};
    if (fs::path found = FindProgram(name); !found.empty()) return {kind, found};
  }
  return {};
}

Profiler FindNcu(const fs::path& cuda_bin) {
  if (!cuda_bin.empty() && fs::exists(cuda_bin / "ncu")) return {ProfilerKind::kNcu, cuda_bin / "ncu"};
  if (fs::path found = FindProgram("ncu"); !found.empty()) return {ProfilerKind::kNcu, found};
  if (fs::exists("/usr/local/cuda/bin/ncu")) return {ProfilerKind::kNcu, "/usr/local/cuda/bin/ncu"};
  return {};
}

std::vector<std::string> ProfilerCommand(const Profiler& profiler, const fs::path& output_dir,
                                         const std::vector<std::string>& command) {
  std::vector<std::string> argv;
  switch (profiler.kind) {
    case ProfilerKind::kRocprofV3:
      argv = {profiler.program.string(),
              "--kernel-trace",
              "--stats",
              "--output-format",
              "csv",
              "-d",
              output_dir.string(),
              "-o",
              "hipforge",
              "--"};
      break;
    case ProfilerKind::kRocprof:
      argv = {profiler.program.string(), "--stats", "-o", (output_dir / "results.csv").string()};
      break;
    case ProfilerKind::kNcu:
      // One metric, one pass per launch; the first kNcuLaunchCount launches (ncu serializes and replays each).
      argv = {profiler.program.string(),
              "--csv",
              "--page",
              "raw",
              "--print-units",
              "base",
              "--print-kernel-base",
              "demangled",
              "--metrics",
              "gpu__time_duration.sum",
              "--launch-count",
              std::to_string(kNcuLaunchCount),
              "--target-processes",
              "all",
              "--log-file",
              (output_dir / "ncu.csv").string()};
      break;
    case ProfilerKind::kNone: return command;
  }
  argv.insert(argv.end(), command.begin(), command.end());
  return argv;
}

absl::StatusOr<fs::path> FindStatsCsv(const Profiler& profiler, const fs::path& output_dir) {
  const absl::string_view wanted = profiler.kind == ProfilerKind::kRocprofV3 ? "kernel_stats.csv"
                                   : profiler.kind == ProfilerKind::kNcu     ? "ncu.csv"
                                                                             : ".stats.csv";
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(output_dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    if (it->is_regular_file() && absl::EndsWith(it->path().filename().string(), wanted)) return it->path();
  }
  return absl::NotFoundError(absl::StrCat("no *", wanted, " under ", output_dir.string()));
}

}  // namespace hipforge::validate
