#pragma once
// The tail every report-producing subcommand shares (report, analyze, submit --report): render,
// write to --output or stdout, and turn --fail-on into the exit code.
#include <ostream>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "common/report/report_render.h"
#include "hipforge/v1/report.pb.h"

namespace hipforge::client {

// The renderers live with the report (common/report/report_render.h: the dashboard's downloads use them too); the
// CLI's commands name them as their own.
using report::AbsoluteHelpUriBase;
using report::BuildFailureVerdict;
using report::CountFindingsAtOrAbove;
using report::FailOn;
using report::ParseFailOn;
using report::ParseReportFormat;
using report::RelativeUri;
using report::RenderJUnit;
using report::RenderOptions;
using report::RenderReport;
using report::RenderSarif;
using report::RenderText;
using report::ReportDocument;
using report::ReportFormat;

struct ReportOutputOptions {
  ReportFormat format = ReportFormat::kText;
  RenderOptions render;
  std::string output_path;  // empty or "-": `out`
  FailOn fail_on = FailOn::kNever;
  std::string fail_on_name = "none";  // as the user spelled it, for the message
};

// The report a server answered with (GetReport's document; absent: no section yet), read once here through the one
// conversion (common/report/report_proto.h): a report that cannot be read (an enum value this build does not know)
// is DataLoss naming the field, not a crash. One without a job_id gets `job_id` (when given).
absl::StatusOr<ReportDocument> ReadServerReport(const hipforge::v1::ReportDocument& sent,
                                                const std::string& job_id = "");

// kExitOk, or kExitFindings (with a line on `err`) when findings reach --fail-on. An error status only
// when the output file cannot be written.
absl::StatusOr<int> WriteReport(const ReportDocument& report, const ReportOutputOptions& options, std::ostream& out,
                                std::ostream& err);

}  // namespace hipforge::client
