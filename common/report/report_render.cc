#include "common/report/report_render.h"

#include <filesystem>

#include "common/report/report_json.h"

namespace hipforge::report {
namespace {

// Where a definition is set, for a person deciding whether to change it.
std::string DefinitionWhere(const std::string& source) {
  if (source == "repository") return ", the repository's hipforge.yaml gate:,";
  if (source == "team") return ", the team's (migrate-server gate set),";
  return "";
}

std::string Join(const std::vector<std::string>& names, const std::string& separator) {
  std::string joined;
  for (const std::string& name : names) joined += (joined.empty() ? "" : separator) + name;
  return joined;
}

// The strings of a JSON array; anything else in it (or a value that is no array) is skipped, as the renderers
// always read the gate.
std::vector<std::string> Strings(const nlohmann::json& array) {
  std::vector<std::string> strings;
  if (!array.is_array()) return strings;
  for (const auto& item : array) {
    if (item.is_string()) strings.push_back(item.get<std::string>());
  }
  return strings;
}

// The server's `gate` (docs/report.md): absent, or not an object, is no gate; a status that is no string is malformed.
absl::StatusOr<std::optional<Gate>> ReadGate(const nlohmann::json& report) {
  const auto it = report.find("gate");
  if (it == report.end() || !it->is_object()) return std::nullopt;
  Gate gate;
  if (const auto status = it->find("status"); status != it->end()) {
    if (!status->is_string()) return absl::InvalidArgumentError("report $.gate.status is not a string");
    gate.status = status->get<std::string>();
  }
  if (gate.status.empty()) return std::nullopt;
  gate.blocking = Strings(it->value("blocking", nlohmann::json::array()));
  if (const auto definition = it->find("definition"); definition != it->end() && definition->is_object()) {
    if (const auto source = definition->find("source"); source != definition->end() && source->is_string()) {
      gate.definition_source = source->get<std::string>();
    }
    gate.required = Strings(definition->value("requires", nlohmann::json::array()));
  }
  if (const auto conditions = it->find("conditions"); conditions != it->end() && conditions->is_array()) {
    for (const auto& c : *conditions) {
      if (!c.is_object()) continue;
      const auto text = [&](const char* key) {
        const auto v = c.find(key);
        return v != c.end() && v->is_string() ? v->get<std::string>() : std::string();
      };
      const auto required = c.find("required");
      gate.conditions.push_back({.name = text("name"),
                                 .required = required != c.end() && required->is_boolean() && required->get<bool>(),
                                 .status = text("status"),
                                 .detail = text("detail")});
    }
  }
  return gate;
}

nlohmann::json GateJson(const Gate& gate) {
  nlohmann::json conditions = nlohmann::json::array();
  for (const GateCondition& c : gate.conditions) {
    conditions.push_back({{"name", c.name}, {"required", c.required}, {"status", c.status}, {"detail", c.detail}});
  }
  return {{"status", gate.status},
          {"blocking", gate.blocking},
          {"definition", {{"source", gate.definition_source}, {"requires", gate.required}}},
          {"conditions", std::move(conditions)}};
}

}  // namespace

report::Verdict VerdictOf(const report::Report& report) {
  return report.verdict ? *report.verdict : report::DecideVerdict(report);
}

absl::StatusOr<ReportDocument> ReadReportDocument(nlohmann::json json) {
  absl::StatusOr<Report> report = ReportFromJson(json);
  if (!report.ok()) return report.status();
  absl::StatusOr<std::optional<Gate>> gate = ReadGate(json);
  if (!gate.ok()) return gate.status();
  return ReportDocument{.report = *std::move(report), .gate = *std::move(gate), .json = std::move(json)};
}

absl::StatusOr<ReportDocument> ParseReportDocument(std::string_view text) {
  nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return absl::InvalidArgumentError("report is not valid JSON");
  return ReadReportDocument(std::move(json));
}

nlohmann::json DocumentJson(const Report& report, const std::optional<Gate>& gate) {
  nlohmann::json json = ToJson(report);
  if (gate) json["gate"] = GateJson(*gate);
  return json;
}

ReportDocument LocalReportDocument(Report report) {
  nlohmann::json json = ToJson(report);
  return ReportDocument{.report = std::move(report), .json = std::move(json)};
}

std::string GateSentence(const Gate& gate) {
  std::string text = gate.status;
  if (!gate.blocking.empty()) text += ", blocked by " + Join(gate.blocking, ", ");
  if (!gate.definition_source.empty()) {
    const std::string required = Join(gate.required, ", ");
    text += " (" + gate.definition_source + " definition" + DefinitionWhere(gate.definition_source) +
            (required.empty() ? "" : " requires " + required) + ")";
  }
  return text;
}

std::vector<std::pair<std::string, std::string>> GateProperties(const std::optional<Gate>& gate) {
  if (!gate) return {};
  std::vector<std::pair<std::string, std::string>> properties = {{"hipforge.gate", gate->status},
                                                                 {"hipforge.gateSentence", GateSentence(*gate)}};
  if (!gate->definition_source.empty()) {
    properties.emplace_back("hipforge.gateDefinition", gate->definition_source);
    properties.emplace_back("hipforge.gateRequires", Join(gate->required, ","));
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

std::string RenderReport(const ReportDocument& document, ReportFormat format, const RenderOptions& options) {
  switch (format) {
    case ReportFormat::kText: return RenderText(document);
    case ReportFormat::kJson: return document.json.dump(2) + "\n";
    case ReportFormat::kSarif: return RenderSarif(document, options).dump(2) + "\n";
    case ReportFormat::kJUnit: return RenderJUnit(document);
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

int CountFindingsAtOrAbove(const Report& report, FailOn threshold) {
  if (threshold == FailOn::kNever || !report.findings) return 0;
  // Fixed, in code the build does not compile, or (before any translation) fixable by it: nothing to gate on.
  const FindingCounts left = CountFindings(*report.findings, FixStageOf(report));
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
