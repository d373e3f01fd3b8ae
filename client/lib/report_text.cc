// Human-readable report: what was translated, what needs a person, and how the builds and tests went.
#include <cstdio>
#include <sstream>

#include "client/lib/report_output.h"
#include "client/lib/report_render.h"

namespace hipforge::client {
namespace {

using nlohmann::json;

const json& Section(const json& report, const char* name) {
  static const json kEmpty = json::array();
  return report.contains(name) && !report[name].is_null() ? report[name] : kEmpty;
}

std::string Join(const json& values) {
  std::string joined;
  for (const auto& value : values) {
    if (!value.is_string()) continue;
    if (!joined.empty()) joined += ", ";
    joined += value.get<std::string>();
  }
  return joined;
}

std::string Seconds(const json& object, const char* key) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", object.value(key, 0.0) / 1000.0);
  return text;
}

void RenderTranslation(const json& translation, std::ostream& out) {
  const json totals = translation.value("totals", json::object());
  out << "Translation: " << totals.value("files", 0) << " files, " << totals.value("translated", 0) << " translated, "
      << totals.value("fallback", 0) << " fallback, " << totals.value("converted", 0) << " API uses converted, "
      << totals.value("unsupported", 0) << " unsupported, " << totals.value("lines_changed", 0)
      << " lines changed\n";
  for (const auto& file : translation.value("files", json::array())) {
    const std::string status = file.value("status", "");
    if (status == "unchanged" || status == "copied") continue;  // keep the list to what changed
    out << "  " << file.value("path", "?") << "  " << status;
    if (file.value("lines_changed", 0) > 0) out << ", " << file.value("lines_changed", 0) << " lines changed";
    if (file.value("unsupported", 0) > 0) out << ", " << file.value("unsupported", 0) << " unsupported";
    const std::string by = Join(file.value("changed_by", json::array()));
    if (!by.empty()) out << "  [" << by << "]";
    if (!file.value("fallback_reason", "").empty()) out << "\n      reason: " << file.value("fallback_reason", "");
    out << "\n";
  }
}

void RenderFindings(const json& findings, std::ostream& out) {
  int counts[3] = {0, 0, 0};
  for (const auto& finding : findings) {
    const std::string severity = finding.value("severity", "warning");
    ++counts[severity == "error" ? 0 : severity == "warning" ? 1 : 2];
  }
  out << "Findings: " << counts[0] << " error(s), " << counts[1] << " warning(s), " << counts[2] << " note(s)\n";
  for (const auto& finding : findings) {
    out << "  " << finding.value("path", "?");
    if (finding.value("line", 0) > 0) out << ":" << finding.value("line", 0);
    if (finding.value("column", 0) > 0) out << ":" << finding.value("column", 0);
    out << ": " << finding.value("severity", "warning") << ": [" << finding.value("rule_id", "?") << "] "
        << finding.value("message", "") << "\n";
    if (!finding.value("fix", "").empty()) {
      out << "      fix" << (finding.value("auto_fixed", false) ? " (applied)" : "") << ": " << finding.value("fix", "")
          << "\n";
    }
  }
}

void RenderBuilds(const json& builds, std::ostream& out) {
  out << "Builds:\n";
  for (const auto& build : builds) {
    out << "  " << build.value("requested_arch", "?");
    if (build.value("arch", "") != build.value("requested_arch", "")) out << " (built as " << build.value("arch", "") << ")";
    out << ": " << (build.value("ok", false) ? "ok" : "FAILED") << " in " << Seconds(build, "duration_ms");
    if (!build.value("toolchain", "").empty()) out << " with " << build.value("toolchain", "");
    out << "\n";
    if (!build.value("note", "").empty()) out << "      note: " << build.value("note", "") << "\n";
    for (const auto& error : build.value("errors", json::array())) {
      out << "      " << error.value("path", "?") << ":" << error.value("line", 0) << ": " << error.value("message", "")
          << "\n";
    }
    if (!build.value("log_excerpt", "").empty()) {
      // The failing step's own words: the only explanation when no error could be parsed.
      out << "      build log excerpt:\n";
      std::istringstream lines(build.value("log_excerpt", ""));
      for (std::string line; std::getline(lines, line);) out << "        | " << line << "\n";
    }
    for (const auto& kernel : build.value("kernels", json::array())) {
      out << "      kernel " << kernel.value("name", "?") << ": " << kernel.value("vgprs", 0) << " VGPRs, "
          << kernel.value("sgprs", 0) << " SGPRs, occupancy " << kernel.value("occupancy", 0) << ", "
          << kernel.value("lds_bytes", 0) << " B LDS, " << kernel.value("scratch_bytes", 0) << " B scratch";
      if (kernel.value("spills", 0) > 0) out << ", " << kernel.value("spills", 0) << " spills";
      out << "\n";
    }
  }
}

}  // namespace

std::string RenderText(const json& report) {
  std::ostringstream out;
  if (report.contains("job_id")) out << "Report for job " << report.value("job_id", "") << "\n";
  if (const std::string verdict = BuildFailureVerdict(report); !verdict.empty()) {
    out << "Verdict: " << verdict << "\n";
  }
  if (report.contains("translation")) RenderTranslation(report["translation"], out);
  RenderFindings(Section(report, "findings"), out);
  if (report.contains("effort")) {
    const json& effort = report["effort"];
    char text[96];
    std::snprintf(text, sizeof text, "Effort: %.1f engineer-hours left, %.0f%% translated automatically\n",
                  effort.value("engineer_hours", 0.0), effort.value("automatic_share", 0.0) * 100.0);
    out << text;
  }
  if (report.contains("builds")) RenderBuilds(report["builds"], out);
  if (report.contains("tests")) {
    out << "Tests:\n";
    for (const auto& test : report["tests"]) {
      out << "  " << test.value("name", "?") << " [" << test.value("arch", "") << "]: " << test.value("status", "?")
          << " in " << Seconds(test, "duration_ms") << "\n";
    }
  }
  if (report.contains("parity")) {
    out << "Parity (CUDA vs HIP):\n";
    for (const auto& item : report["parity"]) {
      out << "  " << item.value("case", "?") << ": " << item.value("verdict", "?") << " (max abs error "
          << item.value("max_abs_error", 0.0) << ", max rel error " << item.value("max_rel_error", 0.0) << ", "
          << item.value("mismatches", 0) << " mismatches)\n";
    }
  }
  if (report.contains("profile")) {
    out << "Profile:\n";
    for (const auto& item : report["profile"]) {
      out << "  " << item.value("kernel", "?") << ": " << item.value("calls", 0) << " calls, "
          << item.value("total_ns", 0) << " ns";
      if (item.value("cuda_baseline_ns", 0) > 0) out << " (CUDA baseline " << item.value("cuda_baseline_ns", 0) << " ns)";
      out << "\n";
    }
  }
  if (report.contains("gpu")) {
    const json& gpu = report["gpu"];
    out << "GPU: " << (gpu.value("ran_on_gpu", false) ? "ran on a GPU" : "not run on a GPU");
    if (!gpu.value("note", "").empty()) out << " (" << gpu.value("note", "") << ")";
    out << "\n";
  }
  return out.str();
}

}  // namespace hipforge::client
