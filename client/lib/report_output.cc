#include "client/lib/report_output.h"

#include <fstream>

#include "client/lib/exit_codes.h"

namespace hipforge::client {

absl::StatusOr<int> WriteReport(const nlohmann::json& report, const ReportOutputOptions& options, std::ostream& out,
                                std::ostream& err) {
  const std::string rendered = RenderReport(report, options.format, options.render);
  if (options.output_path.empty() || options.output_path == "-") {
    out << rendered;
  } else {
    std::ofstream file(options.output_path, std::ios::binary | std::ios::trunc);
    file << rendered;
    file.close();
    if (!file) return absl::InternalError("cannot write " + options.output_path);
  }
  const int over = CountFindingsAtOrAbove(report, options.fail_on);
  if (over > 0) {
    err << over << " finding(s) at or above --fail-on " << options.fail_on_name << "\n";
    return kExitFindings;
  }
  return kExitOk;
}

std::string BuildFailureVerdict(const nlohmann::json& report) {
  if (!report.is_object() || !report.contains("builds") || !report["builds"].is_array()) return "";
  std::string failed;
  for (const auto& build : report["builds"]) {
    if (build.value("ok", false)) continue;
    const std::string requested = build.value("requested_arch", "?");
    const std::string arch = build.value("arch", "");
    if (!failed.empty()) failed += ", ";
    failed += requested;
    if (!arch.empty() && arch != requested) failed += " (built as " + arch + ")";
  }
  return failed.empty() ? "" : "build failed for " + failed;
}

}  // namespace hipforge::client
