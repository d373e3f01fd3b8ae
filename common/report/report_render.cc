#include "common/report/report_render.h"

#include <filesystem>

#include "common/report/report_json.h"

namespace hipforge::report {
namespace {

nlohmann::json GateDefinition(const nlohmann::json& report) {
  if (GateStatus(report).empty()) return nlohmann::json::object();
  const nlohmann::json definition = report["gate"].value("definition", nlohmann::json::object());
  return definition.is_object() ? definition : nlohmann::json::object();
}

// "builds, findings" (separator ", ") or "builds,findings" (the label's form).
std::string GateRequires(const nlohmann::json& report, const std::string& separator) {
  std::string required;
  for (const auto& name : GateDefinition(report).value("requires", nlohmann::json::array())) {
    if (name.is_string()) required += (required.empty() ? "" : separator) + name.get<std::string>();
  }
  return required;
}

// Where a definition is set, for a person deciding whether to change it.
std::string DefinitionWhere(const std::string& source) {
  if (source == "repository") return ", the repository's hipforge.yaml gate:,";
  if (source == "team") return ", the team's (migrate-server gate set),";
  return "";
}

}  // namespace

report::Verdict VerdictOf(const report::Report& report) {
  return report.verdict ? *report.verdict : report::DecideVerdict(report);
}

std::string GateStatus(const nlohmann::json& report) {
  if (!report.is_object() || !report.contains("gate") || !report["gate"].is_object()) return "";
  return report["gate"].value("status", "");
}

std::string GateSentence(const nlohmann::json& report) {
  const std::string status = GateStatus(report);
  if (status.empty()) return "";
  const nlohmann::json& gate = report["gate"];
  std::string text = status;
  std::string blocking;
  for (const auto& name : gate.value("blocking", nlohmann::json::array())) {
    if (name.is_string()) blocking += (blocking.empty() ? "" : ", ") + name.get<std::string>();
  }
  if (!blocking.empty()) text += ", blocked by " + blocking;
  if (const std::string source = GateDefinitionSource(report); !source.empty()) {
    const std::string required = GateRequires(report, ", ");
    text += " (" + source + " definition" + DefinitionWhere(source) + (required.empty() ? "" : " requires " + required) +
            ")";
  }
  return text;
}

std::string GateDefinitionSource(const nlohmann::json& report) {
  const nlohmann::json definition = GateDefinition(report);
  return definition.contains("source") && definition["source"].is_string() ? definition["source"].get<std::string>()
                                                                           : "";
}

std::vector<std::pair<std::string, std::string>> GateProperties(const nlohmann::json& report) {
  const std::string gate = GateStatus(report);
  if (gate.empty()) return {};
  std::vector<std::pair<std::string, std::string>> properties = {{"hipforge.gate", gate},
                                                                 {"hipforge.gateSentence", GateSentence(report)}};
  if (const std::string source = GateDefinitionSource(report); !source.empty()) {
    properties.emplace_back("hipforge.gateDefinition", source);
    properties.emplace_back("hipforge.gateRequires", GateRequires(report, ","));
  }
  return properties;
}

absl::StatusOr<ReportFormat> ParseReportFormat(const std::string& name) {
  if (name == "text") return ReportFormat::kText;
  if (name == "json") return ReportFormat::kJson;
  if (name == "sarif") return ReportFormat::kSarif;
  if (name == "junit") return ReportFormat::kJUnit;
  return absl::InvalidArgumentError("unknown report format '" + name + "' (text, json, sarif, junit)");
}

std::string RenderReport(const nlohmann::json& report, ReportFormat format, const RenderOptions& options) {
  switch (format) {
    case ReportFormat::kText: return RenderText(report);
    case ReportFormat::kJson: return report.dump(2) + "\n";
    case ReportFormat::kSarif: return RenderSarif(report, options).dump(2) + "\n";
    case ReportFormat::kJUnit: return RenderJUnit(report);
  }
  return {};
}

absl::StatusOr<FailOn> ParseFailOn(const std::string& name) {
  if (name == "none" || name.empty()) return FailOn::kNever;
  if (name == "error") return FailOn::kError;
  if (name == "warning") return FailOn::kWarning;
  if (name == "note") return FailOn::kNote;
  return absl::InvalidArgumentError("unknown --fail-on level '" + name + "' (none, error, warning, note)");
}

int CountFindingsAtOrAbove(const nlohmann::json& report, FailOn threshold) {
  if (threshold == FailOn::kNever || !report.contains("findings") || !report["findings"].is_array()) return 0;
  // The findings left for a person, as the text report counts them (report::CountFindings): fixed, in code the build
  // does not compile, or (before any translation) fixable by it are nothing to gate on.
  absl::StatusOr<Report> typed = ReportFromJson(report);
  if (!typed.ok() || !typed->findings) return 0;
  const FindingCounts left = CountFindings(*typed->findings, FixStageOf(*typed));
  switch (threshold) {
    case FailOn::kError: return left.left_errors;
    case FailOn::kWarning: return left.left_errors + left.left_warnings;
    case FailOn::kNote: return left.left();
    case FailOn::kNever: break;
  }
  return 0;
}

std::string AbsoluteHelpUriBase(const std::string& base) {
  std::string uri;
  if (base.find("://") != std::string::npos) {
    uri = base;
  } else {
    std::filesystem::path dir = base;
    if (base.empty()) {
      std::error_code error;
      const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
      dir = error ? std::filesystem::path("share/hipforge/web/rules")
                  : exe.parent_path() / ".." / "share" / "hipforge" / "web" / "rules";
    }
    // RelativeUri %-encodes the path (and drops its leading '/', which file:/// puts back).
    uri = "file:///" + RelativeUri(std::filesystem::absolute(dir).lexically_normal().string());
  }
  if (uri.back() != '/') uri += '/';
  return uri;
}

std::string RelativeUri(const std::string& path) {
  std::string_view rest = path;
  for (;;) {
    if (rest.rfind("./", 0) == 0) {
      rest.remove_prefix(2);
    } else if (!rest.empty() && rest.front() == '/') {
      rest.remove_prefix(1);
    } else {
      break;
    }
  }
  static const char* kHex = "0123456789ABCDEF";
  std::string uri;
  for (unsigned char c : rest) {
    const bool unreserved = std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/' || c == '+';
    if (unreserved) {
      uri += static_cast<char>(c);
    } else {
      uri += '%';
      uri += kHex[c >> 4];
      uri += kHex[c & 15];
    }
  }
  return uri;
}

}  // namespace hipforge::report
