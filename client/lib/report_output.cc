#include "client/lib/report_output.h"

#include <fstream>

#include "client/lib/exit_codes.h"
#include "common/report/report_proto.h"

namespace hipforge::client {

absl::StatusOr<ReportDocument> ReadServerReport(const hipforge::v1::ReportDocument& sent, const std::string& job_id) {
  absl::StatusOr<ReportDocument> document = report::FromProto(sent);
  if (!document.ok()) {
    return absl::DataLossError("the server's report cannot be read: " + std::string(document.status().message()));
  }
  if (!job_id.empty() && document->report.job_id.empty()) {
    document->json["job_id"] = job_id;
    document->report.job_id = job_id;
  }
  return document;
}

absl::StatusOr<int> WriteReport(const ReportDocument& report, const ReportOutputOptions& options, std::ostream& out,
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
  const int over = CountFindingsAtOrAbove(report.report, options.fail_on);
  if (over > 0) {
    err << over << " finding(s) at or above --fail-on " << options.fail_on_name << "\n";
    return kExitFindings;
  }
  return kExitOk;
}

}  // namespace hipforge::client
