#include "common/report/report_proto.h"

#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"
#include "common/utf8.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/reflection.h"

namespace hipforge::report {
namespace {

// ---- enums: the C++ enumerators and the proto's, value UNSPECIFIED (0) aside, are in the same order ----------

template <typename ProtoEnum, typename Enum>
ProtoEnum ToProtoEnum(Enum value) {
  return static_cast<ProtoEnum>(static_cast<int>(value) + 1);
}

// Reads fields of one message; the first problem is kept with its JSON path (as report_json.cc's Reader does).
class Checker {
 public:
  explicit Checker(absl::Status* status) : status_(status) {}
  // `value` 0 (unspecified) keeps `out` (the default, as an absent JSON field); one past `last` is refused.
  template <typename E>
  void ReadEnum(int value, E last, const std::string& where, E& out) const {
    if (value == 0) return;
    if (value < 0 || value > static_cast<int>(last) + 1) {
      if (status_->ok()) {
        *status_ = absl::InvalidArgumentError(absl::StrCat("report ", where, " has the unknown value ", value));
      }
      return;
    }
    out = static_cast<E>(value - 1);
  }

 private:
  absl::Status* status_;
};

std::string Item(const std::string& path, size_t i) { return absl::StrCat(path, "[", i, "]"); }

template <typename Map>
std::map<std::string, int> Counts(const Map& map) {
  return {map.begin(), map.end()};
}

template <typename Map>
void PutCounts(const std::map<std::string, int>& counts, Map* out) {
  for (const auto& [name, count] : counts) (*out)[name] = count;
}

// ---- to the wire ---------------------------------------------------------------------------------------------

void PutFile(const FileEntry& f, v1::File* out) {
  out->set_path(f.path);
  out->set_source_path(f.source_path.empty() ? f.path : f.source_path);
  out->set_kind(f.kind);
  out->set_status(ToProtoEnum<v1::FileStatus>(f.status));
  out->set_fallback_reason(f.fallback_reason);
  PutCounts(f.converted, out->mutable_converted());
  out->set_unconverted(f.unconverted);
  out->set_unsupported(f.unsupported);
  out->set_lines_changed(f.lines_changed);
  for (const std::string& by : f.changed_by) out->add_changed_by(by);
  for (const std::string& step : f.left_for_person) out->add_left_for_person(step);
  out->set_from_cache(f.from_cache);
  out->set_covered_by(f.covered_by);
  out->set_translated_as_cuda(f.translated_as_cuda);
  for (const CompileConfiguration& config : f.compile_arguments) {
    v1::CompileArguments* c = out->add_compile_arguments();
    c->set_configuration(config.configuration);
    for (const CompileArgument& arg : config.used) {
      v1::UsedArgument* used = c->add_used();
      used->set_argument(arg.argument);
      used->set_source(arg.source);
    }
    for (const CompileArgument& arg : config.rejected) {
      v1::RejectedArgument* rejected = c->add_rejected();
      rejected->set_argument(arg.argument);
      rejected->set_reason(arg.source);
    }
  }
}

void PutTranslation(const TranslationSection& t, v1::Translation* out) {
  for (const FileEntry& file : t.files) PutFile(file, out->add_files());
  v1::Totals* s = out->mutable_totals();
  s->set_files(t.totals.files);
  s->set_translated(t.totals.translated);
  s->set_unchanged(t.totals.unchanged);
  s->set_fallback(t.totals.fallback);
  s->set_copied(t.totals.copied);
  s->set_failed(t.totals.failed);
  s->set_converted(t.totals.converted);
  s->set_unconverted(t.totals.unconverted);
  s->set_unsupported(t.totals.unsupported);
  s->set_lines_changed(t.totals.lines_changed);
  s->set_cuda_files(t.totals.cuda_files);
  s->set_cuda_files_translated(t.totals.cuda_files_translated);
  s->set_cuda_files_unchanged(t.totals.cuda_files_unchanged);
  for (const std::string& note : t.notes) out->add_notes(note);
}

void PutFinding(const Finding& f, v1::Finding* out) {
  out->set_rule_id(f.rule_id);
  out->set_severity(ToProtoEnum<v1::Severity>(f.severity));
  out->set_path(f.path);
  out->set_line(f.line);
  out->set_column(f.column);
  out->set_message(f.message);
  out->set_fix(f.fix);
  out->set_auto_fixed(f.auto_fixed);
  out->set_fixable(f.fixable || f.auto_fixed);
  out->set_source_line(f.source_line);
  out->set_inactive(f.inactive);
}

void PutEffort(const EffortSection& e, v1::Effort* out) {
  out->set_engineer_hours(e.engineer_hours);
  out->set_automatic_share(e.automatic_share);
  PutCounts(e.by_severity, out->mutable_by_severity());
  for (const FileEffort& file : e.files) {
    v1::FileEffort* f = out->add_files();
    f->set_path(file.path);
    f->set_engineer_hours(file.engineer_hours);
    PutCounts(file.by_severity, f->mutable_by_severity());
  }
  for (const EffortItem& item : e.items) {
    v1::EffortItem* i = out->add_items();
    i->set_what(item.what);
    i->set_count(item.count);
    i->set_hours_each(item.hours_each);
    i->set_hours(item.hours);
  }
  out->set_model(e.model);
}

void PutBuild(const BuildResult& b, v1::Build* out) {
  out->set_requested_arch(b.requested_arch);
  out->set_arch(b.arch);
  out->set_toolchain(b.toolchain);
  out->set_ok(b.ok);
  out->set_duration_ms(b.duration_ms);
  for (const BuildError& error : b.errors) {
    v1::BuildError* e = out->add_errors();
    e->set_path(error.path);
    e->set_line(error.line);
    e->set_message(error.message);
  }
  for (const KernelResources& kernel : b.kernels) {
    v1::Kernel* k = out->add_kernels();
    k->set_name(kernel.name);
    k->set_vgprs(kernel.vgprs);
    k->set_sgprs(kernel.sgprs);
    k->set_agprs(kernel.agprs);
    k->set_scratch_bytes(kernel.scratch_bytes);
    k->set_occupancy(kernel.occupancy);
    k->set_spills(kernel.spills);
    k->set_lds_bytes(kernel.lds_bytes);
  }
  out->set_note(b.note);
  out->set_log_excerpt(b.log_excerpt);
}

void PutTest(const TestResult& t, v1::Test* out) {
  out->set_name(t.name);
  out->set_arch(t.arch);
  out->set_status(ToProtoEnum<v1::TestStatus>(t.status));
  out->set_duration_ms(t.duration_ms);
  out->set_output_excerpt(t.output_excerpt);
  if (t.cuda) {
    v1::ReferenceRun* cuda = out->mutable_cuda();
    cuda->set_status(ToProtoEnum<v1::TestStatus>(t.cuda->status));
    cuda->set_duration_ms(t.cuda->duration_ms);
    cuda->set_output_excerpt(t.cuda->output_excerpt);
  }
}

void PutParity(const ParityResult& p, v1::Parity* out) {
  out->set_case_(p.case_name);
  out->set_verdict(ToProtoEnum<v1::ParityVerdict>(p.verdict));
  out->set_max_abs_error(p.max_abs_error);
  out->set_max_rel_error(p.max_rel_error);
  out->set_mismatches(p.mismatches);
  out->set_elements(p.elements);
  out->set_detail(p.detail);
}

void PutProfile(const KernelProfile& k, v1::Profile* out) {
  out->set_kernel(k.kernel);
  out->set_calls(k.calls);
  out->set_total_ns(k.total_ns);
  if (k.cuda_baseline_ns) out->set_cuda_baseline_ns(*k.cuda_baseline_ns);
  if (k.cuda_calls) out->set_cuda_calls(*k.cuda_calls);
}

void PutGpu(const GpuSection& g, v1::Gpu* out) {
  out->set_ran_on_gpu(g.ran_on_gpu);
  out->set_note(g.note);
  out->set_device_key(g.device_key);
  out->set_device_arch(g.device_arch);
  for (const std::string& warning : g.warnings) out->add_warnings(warning);
  out->set_cuda_reference(g.cuda_reference);
}

void PutVerdict(const Verdict& v, v1::Verdict* out) {
  out->set_level(ToProtoEnum<v1::VerdictLevel>(v.level));
  out->set_platform(v.platform);
  out->set_why(v.why);
  for (const std::string& line : v.not_proved) out->add_not_proved(line);
}

void PutGate(const Gate& g, v1::Gate* out) {
  out->set_status(g.status);
  for (const std::string& name : g.blocking) out->add_blocking(name);
  if (!g.definition_source.empty() || !g.required.empty()) {
    out->mutable_definition()->set_source(g.definition_source);
    for (const std::string& name : g.required) out->mutable_definition()->add_required_conditions(name);
  }
  for (const GateCondition& condition : g.conditions) {
    v1::GateCondition* c = out->add_conditions();
    c->set_name(condition.name);
    c->set_required(condition.required);
    c->set_status(condition.status);
    c->set_detail(condition.detail);
  }
}

// Text from the sources (snippets, names) may not be UTF-8, which a proto string must be: bad bytes become U+FFFD,
// as the report JSON's dump(..., error_handler_t::replace) writes them.
std::string ValidUtf8(const std::string& text) {
  if (IsValidUtf8(text)) return text;
  return nlohmann::json::parse(nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
      .get<std::string>();
}

void ReplaceInvalidUtf8(google::protobuf::Message& message) {
  using google::protobuf::FieldDescriptor;
  const google::protobuf::Reflection* reflection = message.GetReflection();
  std::vector<const FieldDescriptor*> fields;
  reflection->ListFields(message, &fields);
  for (const FieldDescriptor* field : fields) {
    if (field->cpp_type() == FieldDescriptor::CPPTYPE_STRING) {
      if (!field->is_repeated()) {
        reflection->SetString(&message, field, ValidUtf8(reflection->GetString(message, field)));
        continue;
      }
      for (int i = 0; i < reflection->FieldSize(message, field); ++i) {
        reflection->SetRepeatedString(&message, field, i, ValidUtf8(reflection->GetRepeatedString(message, field, i)));
      }
    } else if (field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
      if (!field->is_repeated()) {
        ReplaceInvalidUtf8(*reflection->MutableMessage(&message, field));
        continue;
      }
      for (int i = 0; i < reflection->FieldSize(message, field); ++i) {
        ReplaceInvalidUtf8(*reflection->MutableRepeatedMessage(&message, field, i));
      }
    }
  }
}

template <typename T, typename List, typename Fn>
void PutList(const std::optional<std::vector<T>>& items, List* list, Fn put) {
  for (const T& item : *items) put(item, list->add_items());
}

// ---- from the wire -------------------------------------------------------------------------------------------

std::vector<std::string> Strings(const google::protobuf::RepeatedPtrField<std::string>& items) {
  return {items.begin(), items.end()};
}

FileEntry ReadFile(const v1::File& f, const std::string& at, const Checker& check) {
  FileEntry out;
  out.path = f.path();
  out.source_path = f.source_path();
  out.kind = f.kind();
  check.ReadEnum(f.status(), FileStatus::kFailed, at + ".status", out.status);
  out.fallback_reason = f.fallback_reason();
  out.converted = Counts(f.converted());
  out.unconverted = f.unconverted();
  out.unsupported = f.unsupported();
  out.lines_changed = f.lines_changed();
  out.changed_by = Strings(f.changed_by());
  out.left_for_person = Strings(f.left_for_person());
  out.from_cache = f.from_cache();
  out.covered_by = f.covered_by();
  out.translated_as_cuda =
      f.has_translated_as_cuda() ? f.translated_as_cuda() : TranslatedAsCudaBeforeTheFlag(out.kind);
  for (const v1::CompileArguments& c : f.compile_arguments()) {
    CompileConfiguration config{.configuration = c.configuration()};
    for (const v1::UsedArgument& arg : c.used()) config.used.push_back({arg.argument(), arg.source()});
    for (const v1::RejectedArgument& arg : c.rejected()) config.rejected.push_back({arg.argument(), arg.reason()});
    out.compile_arguments.push_back(std::move(config));
  }
  return out;
}

TranslationSection ReadTranslation(const v1::Translation& t, const Checker& check) {
  TranslationSection out;
  for (int i = 0; i < t.files_size(); ++i)
    out.files.push_back(ReadFile(t.files(i), Item("$.translation.files", i), check));
  out.notes = Strings(t.notes());
  out.totals = ComputeTotals(out.files);
  if (t.has_totals()) {  // stored totals win (a report may list only some files), as in the JSON
    const v1::Totals& s = t.totals();
    out.totals = {.files = s.files(),
                  .translated = s.translated(),
                  .unchanged = s.unchanged(),
                  .fallback = s.fallback(),
                  .copied = s.copied(),
                  .failed = s.failed(),
                  .converted = s.converted(),
                  .unconverted = s.unconverted(),
                  .unsupported = s.unsupported(),
                  .lines_changed = s.lines_changed(),
                  .cuda_files = s.cuda_files(),
                  .cuda_files_translated = s.cuda_files_translated(),
                  .cuda_files_unchanged = s.cuda_files_unchanged()};
  }
  return out;
}

Finding ReadFinding(const v1::Finding& f, const std::string& at, const Checker& check) {
  Finding out{.rule_id = f.rule_id(),
              .path = f.path(),
              .line = f.line(),
              .column = f.column(),
              .message = f.message(),
              .fix = f.fix(),
              .auto_fixed = f.auto_fixed(),
              .fixable = f.fixable() || f.auto_fixed(),
              .source_line = f.source_line(),
              .inactive = f.inactive()};
  check.ReadEnum(f.severity(), Severity::kNote, at + ".severity", out.severity);
  return out;
}

EffortSection ReadEffort(const v1::Effort& e) {
  EffortSection out{.engineer_hours = e.engineer_hours(),
                    .automatic_share = e.automatic_share(),
                    .by_severity = Counts(e.by_severity()),
                    .model = e.model()};
  for (const v1::FileEffort& f : e.files()) {
    out.files.push_back(
        {.path = f.path(), .engineer_hours = f.engineer_hours(), .by_severity = Counts(f.by_severity())});
  }
  for (const v1::EffortItem& i : e.items()) {
    out.items.push_back({.what = i.what(), .count = i.count(), .hours_each = i.hours_each(), .hours = i.hours()});
  }
  return out;
}

BuildResult ReadBuild(const v1::Build& b) {
  BuildResult out{.requested_arch = b.requested_arch(),
                  .arch = b.arch(),
                  .toolchain = b.toolchain(),
                  .ok = b.ok(),
                  .duration_ms = b.duration_ms(),
                  .note = b.note(),
                  .log_excerpt = b.log_excerpt()};
  for (const v1::BuildError& e : b.errors()) out.errors.push_back({e.path(), e.line(), e.message()});
  for (const v1::Kernel& k : b.kernels()) {
    out.kernels.push_back({.name = k.name(),
                           .vgprs = k.vgprs(),
                           .sgprs = k.sgprs(),
                           .agprs = k.agprs(),
                           .scratch_bytes = k.scratch_bytes(),
                           .occupancy = k.occupancy(),
                           .spills = k.spills(),
                           .lds_bytes = k.lds_bytes()});
  }
  return out;
}

TestResult ReadTest(const v1::Test& t, const std::string& at, const Checker& check) {
  TestResult out{
      .name = t.name(), .arch = t.arch(), .duration_ms = t.duration_ms(), .output_excerpt = t.output_excerpt()};
  check.ReadEnum(t.status(), TestStatus::kNotRun, at + ".status", out.status);
  if (t.has_cuda()) {
    ReferenceRun cuda{.duration_ms = t.cuda().duration_ms(), .output_excerpt = t.cuda().output_excerpt()};
    check.ReadEnum(t.cuda().status(), TestStatus::kNotRun, at + ".cuda.status", cuda.status);
    out.cuda = std::move(cuda);
  }
  return out;
}

ParityResult ReadParity(const v1::Parity& p, const std::string& at, const Checker& check) {
  ParityResult out{.case_name = p.case_(),
                   .max_abs_error = p.max_abs_error(),
                   .max_rel_error = p.max_rel_error(),
                   .mismatches = p.mismatches(),
                   .elements = p.elements(),
                   .detail = p.detail()};
  check.ReadEnum(p.verdict(), ParityVerdict::kMissing, at + ".verdict", out.verdict);
  return out;
}

KernelProfile ReadProfile(const v1::Profile& k) {
  KernelProfile out{.kernel = k.kernel(), .calls = k.calls(), .total_ns = k.total_ns()};
  if (k.has_cuda_baseline_ns()) out.cuda_baseline_ns = k.cuda_baseline_ns();
  if (k.has_cuda_calls()) out.cuda_calls = k.cuda_calls();
  return out;
}

GpuSection ReadGpu(const v1::Gpu& g) {
  return {.ran_on_gpu = g.ran_on_gpu(),
          .note = g.note(),
          .device_key = g.device_key(),
          .device_arch = g.device_arch(),
          .warnings = Strings(g.warnings()),
          .cuda_reference = g.cuda_reference()};
}

Verdict ReadVerdict(const v1::Verdict& v, const Checker& check) {
  Verdict out{.platform = v.platform(), .why = v.why(), .not_proved = Strings(v.not_proved())};
  check.ReadEnum(v.level(), VerdictLevel::kFailed, "$.verdict.level", out.level);
  return out;
}

// A gate without a status is none, as ReadGate in report_render.cc reads the JSON.
std::optional<Gate> ReadGate(const v1::ReportDocument& proto) {
  if (!proto.has_gate() || proto.gate().status().empty()) return std::nullopt;
  const v1::Gate& g = proto.gate();
  Gate out{.status = g.status(),
           .blocking = Strings(g.blocking()),
           .definition_source = g.definition().source(),
           .required = Strings(g.definition().required_conditions())};
  for (const v1::GateCondition& c : g.conditions()) {
    out.conditions.push_back({.name = c.name(), .required = c.required(), .status = c.status(), .detail = c.detail()});
  }
  return out;
}

// An optional array section: each item through `read(item, its JSON path)`.
template <typename T, typename List, typename Fn>
void ReadList(bool present, const List& list, const std::string& path, std::optional<std::vector<T>>& out, Fn read) {
  if (!present) return;
  out.emplace();
  for (int i = 0; i < list.items_size(); ++i) out->push_back(read(list.items(i), Item(path, i)));
}

}  // namespace

v1::ReportDocument ToProto(const Report& report, const std::optional<Gate>& gate) {
  v1::ReportDocument out;
  out.set_job_id(report.job_id);
  if (report.translation) PutTranslation(*report.translation, out.mutable_translation());
  if (report.findings) PutList(report.findings, out.mutable_findings(), &PutFinding);
  if (report.effort) PutEffort(*report.effort, out.mutable_effort());
  if (report.builds) PutList(report.builds, out.mutable_builds(), &PutBuild);
  if (report.tests) PutList(report.tests, out.mutable_tests(), &PutTest);
  if (report.parity) PutList(report.parity, out.mutable_parity(), &PutParity);
  if (report.profile) PutList(report.profile, out.mutable_profile(), &PutProfile);
  if (report.gpu) PutGpu(*report.gpu, out.mutable_gpu());
  if (report.verdict) PutVerdict(*report.verdict, out.mutable_verdict());
  if (gate) PutGate(*gate, out.mutable_gate());
  ReplaceInvalidUtf8(out);
  return out;
}

absl::StatusOr<ReportDocument> FromProto(const v1::ReportDocument& proto) {
  absl::Status status;
  const Checker check(&status);
  Report report;
  report.job_id = proto.job_id();
  if (proto.has_translation()) report.translation = ReadTranslation(proto.translation(), check);
  ReadList(proto.has_findings(), proto.findings(), "$.findings", report.findings,
           [&](const v1::Finding& f, const std::string& at) { return ReadFinding(f, at, check); });
  if (proto.has_effort()) report.effort = ReadEffort(proto.effort());
  ReadList(proto.has_builds(), proto.builds(), "$.builds", report.builds,
           [](const v1::Build& b, const std::string&) { return ReadBuild(b); });
  ReadList(proto.has_tests(), proto.tests(), "$.tests", report.tests,
           [&](const v1::Test& t, const std::string& at) { return ReadTest(t, at, check); });
  ReadList(proto.has_parity(), proto.parity(), "$.parity", report.parity,
           [&](const v1::Parity& p, const std::string& at) { return ReadParity(p, at, check); });
  ReadList(proto.has_profile(), proto.profile(), "$.profile", report.profile,
           [](const v1::Profile& k, const std::string&) { return ReadProfile(k); });
  if (proto.has_gpu()) report.gpu = ReadGpu(proto.gpu());
  if (proto.has_verdict()) report.verdict = ReadVerdict(proto.verdict(), check);
  if (!status.ok()) return status;
  std::optional<Gate> gate = ReadGate(proto);
  nlohmann::json json = DocumentJson(report, gate);
  return ReportDocument{.report = std::move(report), .gate = std::move(gate), .json = std::move(json)};
}

}  // namespace hipforge::report
