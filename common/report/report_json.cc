#include "common/report/report_json.h"

#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"

namespace hipforge::report {
namespace {

using nlohmann::json;

// JSON has no NaN/Inf; an error of infinity (NaN where the reference had a number) becomes null.
json FiniteOrNull(double value) {
  if (std::isfinite(value)) return value;
  return nullptr;
}

template <typename T>
json Array(const std::vector<T>& items, json (*one)(const T&)) {
  json array = json::array();
  for (const T& item : items) array.push_back(one(item));
  return array;
}

json TotalsJson(const TranslationTotals& t) {
  return {{"files", t.files},
          {"translated", t.translated},
          {"unchanged", t.unchanged},
          {"fallback", t.fallback},
          {"copied", t.copied},
          {"failed", t.failed},
          {"converted", t.converted},
          {"unconverted", t.unconverted},
          {"unsupported", t.unsupported},
          {"lines_changed", t.lines_changed},
          {"cuda_files", t.cuda_files},
          {"cuda_files_translated", t.cuda_files_translated},
          {"cuda_files_unchanged", t.cuda_files_unchanged}};
}

json TranslationJson(const TranslationSection& section) {
  json out = {{"files", Array(section.files, &FileEntryToJson)}, {"totals", TotalsJson(section.totals)}};
  if (!section.notes.empty()) out["notes"] = section.notes;
  return out;
}

json EffortItemJson(const EffortItem& item) {
  return {{"what", item.what}, {"count", item.count}, {"hours_each", item.hours_each}, {"hours", item.hours}};
}

json FileEffortJson(const FileEffort& file) {
  return {{"path", file.path}, {"engineer_hours", file.engineer_hours}, {"by_severity", file.by_severity}};
}

json BuildJson(const BuildResult& build) {
  json errors = json::array();
  for (const BuildError& error : build.errors) {
    errors.push_back({{"path", error.path}, {"line", error.line}, {"message", error.message}});
  }
  json kernels = json::array();
  for (const KernelResources& k : build.kernels) {
    kernels.push_back({{"name", k.name},
                       {"vgprs", k.vgprs},
                       {"sgprs", k.sgprs},
                       {"agprs", k.agprs},
                       {"scratch_bytes", k.scratch_bytes},
                       {"occupancy", k.occupancy},
                       {"spills", k.spills},
                       {"lds_bytes", k.lds_bytes}});
  }
  json out = {{"requested_arch", build.requested_arch}, {"arch", build.arch},
              {"toolchain", build.toolchain},           {"ok", build.ok},
              {"duration_ms", build.duration_ms},       {"errors", std::move(errors)},
              {"kernels", std::move(kernels)}};
  if (!build.note.empty()) out["note"] = build.note;
  if (!build.log_excerpt.empty()) out["log_excerpt"] = build.log_excerpt;
  return out;
}

json TestJson(const TestResult& test) {
  json out = {{"name", test.name},
              {"arch", test.arch},
              {"status", TestStatusName(test.status)},
              {"duration_ms", test.duration_ms},
              {"output_excerpt", test.output_excerpt}};
  if (test.cuda) {
    out["cuda"] = {{"status", TestStatusName(test.cuda->status)},
                   {"duration_ms", test.cuda->duration_ms},
                   {"output_excerpt", test.cuda->output_excerpt}};
  }
  return out;
}

json ParityJson(const ParityResult& p) {
  json entry = {{"case", p.case_name},
                {"verdict", ParityVerdictName(p.verdict)},
                {"max_abs_error", FiniteOrNull(p.max_abs_error)},
                {"max_rel_error", FiniteOrNull(p.max_rel_error)},
                {"mismatches", p.mismatches},
                {"elements", p.elements}};
  if (!p.detail.empty()) entry["detail"] = p.detail;
  return entry;
}

json ProfileJson(const KernelProfile& k) {
  json out = {{"kernel", k.kernel},
              {"calls", k.calls},
              {"total_ns", k.total_ns},
              {"cuda_baseline_ns", k.cuda_baseline_ns ? json(*k.cuda_baseline_ns) : json(nullptr)}};
  if (k.cuda_calls) out["cuda_calls"] = *k.cuda_calls;
  return out;
}

json VerdictJson(const Verdict& verdict) {
  json out = {{"level", VerdictLevelName(verdict.level)}, {"not_proved", verdict.not_proved}};
  if (!verdict.platform.empty()) out["platform"] = verdict.platform;
  if (!verdict.why.empty()) out["why"] = verdict.why;
  return out;
}

json GpuJson(const GpuSection& gpu) {
  json out = {{"ran_on_gpu", gpu.ran_on_gpu}, {"note", gpu.note}};
  if (!gpu.device_key.empty()) out["device_key"] = gpu.device_key;
  if (!gpu.device_arch.empty()) out["device_arch"] = gpu.device_arch;
  if (!gpu.warnings.empty()) out["warnings"] = gpu.warnings;
  if (!gpu.cuda_reference.empty()) out["cuda_reference"] = gpu.cuda_reference;
  return out;
}

// ---- parsing -----------------------------------------------------------------------------------------------

// Reads fields of one JSON object; the first problem is kept (with its JSON path) and later reads are no-ops.
class Reader {
 public:
  Reader(const json& object, std::string path, absl::Status* status)
      : object_(object), path_(std::move(path)), status_(status) {
    if (status_->ok() && !object_.is_object()) Fail(path_, "is not an object");
  }

  const json* Field(const char* key) const {
    if (!status_->ok() || !object_.is_object()) return nullptr;
    auto it = object_.find(key);
    return it == object_.end() || it->is_null() ? nullptr : &*it;
  }
  std::string At(const char* key) const { return absl::StrCat(path_, ".", key); }

  void Read(const char* key, std::string& out) const {
    if (const json* v = Field(key))
      v->is_string() ? void(out = v->get<std::string>()) : Fail(At(key), "is not a string");
  }
  void Read(const char* key, bool& out) const {
    if (const json* v = Field(key)) v->is_boolean() ? void(out = v->get<bool>()) : Fail(At(key), "is not a boolean");
  }
  template <typename Int>
    requires std::is_integral_v<Int>
  void Read(const char* key, Int& out) const {
    if (const json* v = Field(key)) {
      v->is_number_integer() ? void(out = v->get<Int>()) : Fail(At(key), "is not an integer");
    }
  }
  // null is infinity (see FiniteOrNull); absent is the default.
  void ReadErrorBound(const char* key, double& out) const {
    if (!status_->ok() || !object_.is_object()) return;
    auto it = object_.find(key);
    if (it == object_.end()) return;
    if (it->is_null()) {
      out = std::numeric_limits<double>::infinity();
    } else {
      it->is_number() ? void(out = it->get<double>()) : Fail(At(key), "is not a number");
    }
  }
  void Read(const char* key, double& out) const {
    if (const json* v = Field(key)) v->is_number() ? void(out = v->get<double>()) : Fail(At(key), "is not a number");
  }
  void Read(const char* key, std::vector<std::string>& out) const {
    const json* v = Field(key);
    if (v == nullptr) return;
    if (!v->is_array()) return Fail(At(key), "is not an array");
    for (const json& item : *v) {
      if (!item.is_string()) return Fail(At(key), "has a non-string element");
      out.push_back(item.get<std::string>());
    }
  }
  void Read(const char* key, std::map<std::string, int>& out) const {
    const json* v = Field(key);
    if (v == nullptr) return;
    if (!v->is_object()) return Fail(At(key), "is not an object");
    for (const auto& [name, count] : v->items()) {
      if (!count.is_number_integer()) return Fail(At(key), "has a non-integer count");
      out[name] = count.get<int>();
    }
  }
  template <typename Enum>
  void ReadEnum(const char* key, Enum& out, std::optional<Enum> (*parse)(std::string_view)) const {
    std::string name;
    Read(key, name);
    if (name.empty() || !status_->ok()) return;
    if (std::optional<Enum> value = parse(name)) {
      out = *value;
    } else {
      Fail(At(key), absl::StrCat("has the unknown value '", name, "'"));
    }
  }
  // Each element of the array at `key` through `one(reader)`.
  template <typename T, typename Fn>
  void ReadArray(const char* key, std::vector<T>& out, Fn one) const {
    const json* v = Field(key);
    if (v == nullptr) return;
    if (!v->is_array()) return Fail(At(key), "is not an array");
    for (size_t i = 0; i < v->size() && status_->ok(); ++i) {
      Reader element((*v)[i], absl::StrCat(At(key), "[", i, "]"), status_);
      T item;
      one(element, item);
      out.push_back(std::move(item));
    }
  }
  absl::Status* status() const { return status_; }
  void Fail(const std::string& where, const std::string& what) const {
    if (status_->ok()) *status_ = absl::InvalidArgumentError(absl::StrCat("report ", where, " ", what));
  }

 private:
  const json& object_;
  std::string path_;
  absl::Status* status_;
};

void ReadFinding(const Reader& r, Finding& f) {
  r.Read("rule_id", f.rule_id);
  r.ReadEnum("severity", f.severity, &ParseSeverity);
  r.Read("path", f.path);
  r.Read("line", f.line);
  r.Read("column", f.column);
  r.Read("message", f.message);
  r.Read("fix", f.fix);
  r.Read("auto_fixed", f.auto_fixed);
  r.Read("fixable", f.fixable);
  r.Read("source_line", f.source_line);
  r.Read("inactive", f.inactive);
  if (f.auto_fixed) f.fixable = true;
}

void ReadFileEntry(const Reader& r, FileEntry& f) {
  r.Read("path", f.path);
  r.Read("source_path", f.source_path);
  r.Read("kind", f.kind);
  f.translated_as_cuda = TranslatedAsCudaBeforeTheFlag(f.kind);
  r.Read("translated_as_cuda", f.translated_as_cuda);
  r.ReadEnum("status", f.status, &ParseFileStatus);
  r.Read("fallback_reason", f.fallback_reason);
  r.Read("converted", f.converted);
  r.Read("unconverted", f.unconverted);
  r.Read("unsupported", f.unsupported);
  r.Read("lines_changed", f.lines_changed);
  r.Read("changed_by", f.changed_by);
  r.Read("left_for_person", f.left_for_person);
  r.Read("from_cache", f.from_cache);
  r.Read("covered_by", f.covered_by);
  r.ReadArray("compile_arguments", f.compile_arguments, [](const Reader& c, CompileConfiguration& config) {
    c.Read("configuration", config.configuration);
    c.ReadArray("used", config.used, [](const Reader& a, CompileArgument& arg) {
      a.Read("argument", arg.argument);
      a.Read("source", arg.source);
    });
    c.ReadArray("rejected", config.rejected, [](const Reader& a, CompileArgument& arg) {
      a.Read("argument", arg.argument);
      a.Read("reason", arg.source);
    });
  });
}

void ReadTranslation(const Reader& r, TranslationSection& t) {
  r.ReadArray("files", t.files, &ReadFileEntry);
  r.Read("notes", t.notes);
  t.totals = ComputeTotals(t.files);
  if (const json* totals = r.Field("totals")) {
    // Stored totals win (a report may list only some files); missing ones keep the computed value.
    Reader tr(*totals, r.At("totals"), r.status());
    TranslationTotals& s = t.totals;
    for (auto [key, field] :
         std::initializer_list<std::pair<const char*, int*>>{{"files", &s.files},
                                                             {"translated", &s.translated},
                                                             {"unchanged", &s.unchanged},
                                                             {"fallback", &s.fallback},
                                                             {"copied", &s.copied},
                                                             {"failed", &s.failed},
                                                             {"converted", &s.converted},
                                                             {"unconverted", &s.unconverted},
                                                             {"unsupported", &s.unsupported},
                                                             {"lines_changed", &s.lines_changed},
                                                             {"cuda_files", &s.cuda_files},
                                                             {"cuda_files_translated", &s.cuda_files_translated},
                                                             {"cuda_files_unchanged", &s.cuda_files_unchanged}}) {
      tr.Read(key, *field);
    }
  }
}

void ReadEffort(const Reader& r, EffortSection& e) {
  r.Read("engineer_hours", e.engineer_hours);
  r.Read("automatic_share", e.automatic_share);
  r.Read("by_severity", e.by_severity);
  r.Read("model", e.model);
  r.ReadArray("files", e.files, [](const Reader& f, FileEffort& file) {
    f.Read("path", file.path);
    f.Read("engineer_hours", file.engineer_hours);
    f.Read("by_severity", file.by_severity);
  });
  r.ReadArray("items", e.items, [](const Reader& i, EffortItem& item) {
    i.Read("what", item.what);
    i.Read("count", item.count);
    i.Read("hours_each", item.hours_each);
    i.Read("hours", item.hours);
  });
}

void ReadBuild(const Reader& r, BuildResult& b) {
  r.Read("requested_arch", b.requested_arch);
  r.Read("arch", b.arch);
  r.Read("toolchain", b.toolchain);
  r.Read("ok", b.ok);
  r.Read("duration_ms", b.duration_ms);
  r.Read("note", b.note);
  r.Read("log_excerpt", b.log_excerpt);
  r.ReadArray("errors", b.errors, [](const Reader& e, BuildError& error) {
    e.Read("path", error.path);
    e.Read("line", error.line);
    e.Read("message", error.message);
  });
  r.ReadArray("kernels", b.kernels, [](const Reader& k, KernelResources& kernel) {
    k.Read("name", kernel.name);
    k.Read("vgprs", kernel.vgprs);
    k.Read("sgprs", kernel.sgprs);
    k.Read("agprs", kernel.agprs);
    k.Read("scratch_bytes", kernel.scratch_bytes);
    k.Read("occupancy", kernel.occupancy);
    k.Read("spills", kernel.spills);
    k.Read("lds_bytes", kernel.lds_bytes);
  });
}

void ReadTest(const Reader& r, TestResult& t) {
  r.Read("name", t.name);
  r.Read("arch", t.arch);
  r.ReadEnum("status", t.status, &ParseTestStatus);
  r.Read("duration_ms", t.duration_ms);
  r.Read("output_excerpt", t.output_excerpt);
  if (r.Field("cuda") != nullptr) {
    ReferenceRun cuda;
    Reader c(*r.Field("cuda"), r.At("cuda"), r.status());
    c.ReadEnum("status", cuda.status, &ParseTestStatus);
    c.Read("duration_ms", cuda.duration_ms);
    c.Read("output_excerpt", cuda.output_excerpt);
    t.cuda = std::move(cuda);
  }
}

void ReadParity(const Reader& r, ParityResult& p) {
  r.Read("case", p.case_name);
  r.ReadEnum("verdict", p.verdict, &ParseParityVerdict);
  r.ReadErrorBound("max_abs_error", p.max_abs_error);
  r.ReadErrorBound("max_rel_error", p.max_rel_error);
  r.Read("mismatches", p.mismatches);
  r.Read("elements", p.elements);
  r.Read("detail", p.detail);
}

void ReadProfile(const Reader& r, KernelProfile& k) {
  r.Read("kernel", k.kernel);
  r.Read("calls", k.calls);
  r.Read("total_ns", k.total_ns);
  int64_t baseline = 0;
  if (r.Field("cuda_baseline_ns") != nullptr) {
    r.Read("cuda_baseline_ns", baseline);
    k.cuda_baseline_ns = baseline;
  }
  if (r.Field("cuda_calls") != nullptr) {
    int64_t calls = 0;
    r.Read("cuda_calls", calls);
    k.cuda_calls = calls;
  }
}

void ReadVerdict(const Reader& r, Verdict& v) {
  std::string level;
  r.Read("level", level);
  v.level = ParseVerdictLevel(level).value_or(VerdictLevel::kTranslatedOnly);
  r.Read("platform", v.platform);
  r.Read("why", v.why);
  r.Read("not_proved", v.not_proved);
}

void ReadGpu(const Reader& r, GpuSection& g) {
  r.Read("ran_on_gpu", g.ran_on_gpu);
  r.Read("note", g.note);
  r.Read("device_key", g.device_key);
  r.Read("device_arch", g.device_arch);
  r.Read("warnings", g.warnings);
  r.Read("cuda_reference", g.cuda_reference);
}

// An optional top-level array section.
template <typename T, typename Fn>
void ReadSection(const Reader& r, const char* key, std::optional<std::vector<T>>& out, Fn one) {
  if (r.Field(key) == nullptr) return;
  out.emplace();
  r.ReadArray(key, *out, one);
}

template <typename T, typename Fn>
void ReadObjectSection(const Reader& r, const char* key, std::optional<T>& out, Fn one) {
  const json* value = r.Field(key);
  if (value == nullptr) return;
  out.emplace();
  Reader section(*value, r.At(key), r.status());
  one(section, *out);
}

}  // namespace

nlohmann::json FindingToJson(const Finding& finding) {
  json out{{"rule_id", finding.rule_id},
           {"severity", SeverityName(finding.severity)},
           {"path", finding.path},
           {"line", finding.line},
           {"column", finding.column},
           {"message", finding.message},
           {"fix", finding.fix},
           {"auto_fixed", finding.auto_fixed},
           {"fixable", finding.fixable || finding.auto_fixed}};
  if (!finding.source_line.empty()) out["source_line"] = finding.source_line;
  if (finding.inactive) out["inactive"] = true;
  return out;
}

nlohmann::json FindingsToJson(const std::vector<Finding>& findings) { return Array(findings, &FindingToJson); }

nlohmann::json FileEntryToJson(const FileEntry& file) {
  json entry = {{"path", file.path},
                {"source_path", file.source_path.empty() ? file.path : file.source_path},
                {"kind", file.kind},
                {"status", FileStatusName(file.status)},
                {"fallback_reason", file.fallback_reason},
                {"converted", file.converted},
                {"unconverted", file.unconverted},
                {"unsupported", file.unsupported},
                {"lines_changed", file.lines_changed},
                {"changed_by", file.changed_by},
                {"left_for_person", file.left_for_person},
                {"from_cache", file.from_cache}};
  if (!file.compile_arguments.empty()) {
    json configurations = json::array();
    for (const CompileConfiguration& config : file.compile_arguments) {
      json used = json::array(), rejected = json::array();
      for (const CompileArgument& arg : config.used)
        used.push_back({{"argument", arg.argument}, {"source", arg.source}});
      for (const CompileArgument& arg : config.rejected) {
        rejected.push_back({{"argument", arg.argument}, {"reason", arg.source}});
      }
      configurations.push_back({{"configuration", config.configuration}, {"used", used}, {"rejected", rejected}});
    }
    entry["compile_arguments"] = std::move(configurations);
  }
  if (!file.covered_by.empty()) entry["covered_by"] = file.covered_by;
  entry["translated_as_cuda"] = file.translated_as_cuda;
  return entry;
}

nlohmann::json EffortToJson(const EffortSection& effort) {
  json out = {{"engineer_hours", effort.engineer_hours},
              {"automatic_share", effort.automatic_share},
              {"by_severity", effort.by_severity},
              {"files", Array(effort.files, &FileEffortJson)},
              {"items", Array(effort.items, &EffortItemJson)}};
  if (!effort.model.empty()) out["model"] = effort.model;
  return out;
}

nlohmann::json ToJson(const Report& report) {
  json out = json::object();
  if (!report.job_id.empty()) out["job_id"] = report.job_id;
  if (report.translation) out["translation"] = TranslationJson(*report.translation);
  if (report.findings) out["findings"] = FindingsToJson(*report.findings);
  if (report.effort) out["effort"] = EffortToJson(*report.effort);
  if (report.builds) out["builds"] = Array(*report.builds, &BuildJson);
  if (report.tests) out["tests"] = Array(*report.tests, &TestJson);
  if (report.parity) out["parity"] = Array(*report.parity, &ParityJson);
  if (report.profile) out["profile"] = Array(*report.profile, &ProfileJson);
  if (report.gpu) out["gpu"] = GpuJson(*report.gpu);
  if (report.verdict) out["verdict"] = VerdictJson(*report.verdict);
  return out;
}

absl::StatusOr<Report> ReportFromJson(const nlohmann::json& value) {
  absl::Status status;
  Reader r(value, "$", &status);
  Report report;
  r.Read("job_id", report.job_id);
  ReadObjectSection(r, "translation", report.translation, &ReadTranslation);
  ReadSection(r, "findings", report.findings, &ReadFinding);
  ReadObjectSection(r, "effort", report.effort, &ReadEffort);
  ReadSection(r, "builds", report.builds, &ReadBuild);
  ReadSection(r, "tests", report.tests, &ReadTest);
  ReadSection(r, "parity", report.parity, &ReadParity);
  ReadSection(r, "profile", report.profile, &ReadProfile);
  ReadObjectSection(r, "gpu", report.gpu, &ReadGpu);
  ReadObjectSection(r, "verdict", report.verdict, &ReadVerdict);
  if (!status.ok()) return status;
  return report;
}

absl::StatusOr<Report> ParseReport(std::string_view text) {
  json value = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) return absl::InvalidArgumentError("report is not valid JSON");
  return ReportFromJson(value);
}

nlohmann::json ToJson(const ValidateHints& hints) { return {{"managed_memory", hints.managed_memory}}; }

ValidateHints ValidateHintsFromJson(const nlohmann::json& value) {
  ValidateHints hints;
  if (value.is_object()) {
    if (auto it = value.find("managed_memory"); it != value.end() && it->is_boolean()) {
      hints.managed_memory = it->get<bool>();
    }
  }
  return hints;
}

}  // namespace hipforge::report
