#include "worker/validate/report.h"

#include <nlohmann/json.hpp>

#include "common/report/report_json.h"

namespace hipforge::validate {

report::Report ToReport(const ValidationReport& validation) {
  report::Report out;
  out.builds = validation.builds;
  out.tests = validation.tests;
  out.parity = validation.parity;
  out.profile = validation.profile;
  out.gpu = validation.gpu;
  out.verdict = report::DecideVerdict(out);  // what this validation proved, stored with it
  return out;
}

nlohmann::json ToJson(const ValidationReport& validation) { return report::ToJson(ToReport(validation)); }

}  // namespace hipforge::validate
