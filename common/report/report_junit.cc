// JUnit XML for CI dashboards: builds per arch, tests, parity cases, one test case per analyzer rule
// (fails when the rule has error findings) and one per file the translator could not translate.
#include <map>
#include <sstream>
#include <vector>

#include "common/report/report_render.h"
#include "common/report/report.h"
#include "common/report/report_json.h"

namespace hipforge::report {
namespace {

using nlohmann::json;

std::string XmlEscape(const std::string& text) {
  std::string escaped;
  for (unsigned char c : text) {
    switch (c) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      case '\'': escaped += "&apos;"; break;
      default:
        // XML 1.0 forbids most control characters even when escaped.
        if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') {
          escaped += '?';
        } else {
          escaped += static_cast<char>(c);
        }
    }
  }
  return escaped;
}

struct TestCase {
  std::string name;
  std::string classname;
  double seconds = 0;
  enum class Outcome { kPassed, kFailed, kError, kSkipped } outcome = Outcome::kPassed;
  std::string message;
  std::string details;
};

struct Suite {
  std::string name;
  std::vector<TestCase> cases;
};

// name -> value, written into every suite: what the job proved, as the text and SARIF say it.
using Properties = std::vector<std::pair<std::string, std::string>>;

void WriteSuite(const Suite& suite, const Properties& properties, std::ostream& out) {
  int failures = 0, errors = 0, skipped = 0;
  double seconds = 0;
  for (const auto& test : suite.cases) {
    failures += test.outcome == TestCase::Outcome::kFailed;
    errors += test.outcome == TestCase::Outcome::kError;
    skipped += test.outcome == TestCase::Outcome::kSkipped;
    seconds += test.seconds;
  }
  out << "  <testsuite name=\"" << XmlEscape(suite.name) << "\" tests=\"" << suite.cases.size() << "\" failures=\""
      << failures << "\" errors=\"" << errors << "\" skipped=\"" << skipped << "\" time=\"" << seconds << "\">\n";
  if (!properties.empty()) {
    out << "    <properties>\n";
    for (const auto& [name, value] : properties) {
      out << "      <property name=\"" << XmlEscape(name) << "\" value=\"" << XmlEscape(value) << "\"/>\n";
    }
    out << "    </properties>\n";
  }
  for (const auto& test : suite.cases) {
    out << "    <testcase name=\"" << XmlEscape(test.name) << "\" classname=\"" << XmlEscape(test.classname)
        << "\" time=\"" << test.seconds << "\"";
    if (test.outcome == TestCase::Outcome::kPassed && test.details.empty()) {
      out << "/>\n";
      continue;
    }
    out << ">\n";
    const char* tag = test.outcome == TestCase::Outcome::kFailed    ? "failure"
                      : test.outcome == TestCase::Outcome::kError   ? "error"
                      : test.outcome == TestCase::Outcome::kSkipped ? "skipped"
                                                                    : nullptr;
    if (tag != nullptr) {
      out << "      <" << tag << " message=\"" << XmlEscape(test.message) << "\">" << XmlEscape(test.details) << "</"
          << tag << ">\n";
    } else {
      out << "      <system-out>" << XmlEscape(test.details) << "</system-out>\n";
    }
    out << "    </testcase>\n";
  }
  out << "  </testsuite>\n";
}

// One case per rule, failing when the rule has an error finding left for a person, as report::CountFindings says (a
// finding fixed automatically, in code the build drops, or -- before any translation -- fixable by it fails nothing;
// SARIF suppresses the fixed and the inactive ones).
Suite AnalysisSuite(const std::vector<report::Finding>& findings, report::FixStage stage) {
  std::map<std::string, TestCase> by_rule;
  for (const report::Finding& finding : findings) {
    const std::string rule = finding.rule_id.empty() ? "unknown" : finding.rule_id;
    TestCase& test = by_rule.try_emplace(rule, TestCase{rule, "analysis"}).first->second;
    const std::string severity(report::SeverityName(finding.severity));
    const report::FindingState state = report::StateOf(finding, stage);
    test.details += finding.path + ":" + std::to_string(finding.line) + ": " + severity + ": " + finding.message +
                    (state == report::FindingState::kFixed      ? " (fixed automatically)"
                     : state == report::FindingState::kInactive ? " (not compiled)"
                     : state == report::FindingState::kFixable  ? " (fixable automatically)"
                                                                : "") +
                    "\n";
    if (state == report::FindingState::kLeft && finding.severity == report::Severity::kError) {
      test.outcome = TestCase::Outcome::kFailed;
      test.message = "open error findings of rule " + rule;
    }
  }
  Suite suite{"hipforge.analysis", {}};
  for (auto& [rule, test] : by_rule) suite.cases.push_back(std::move(test));
  return suite;
}

// A case per test and arch: failed fails, timed out errs, not run and failing in the CUDA original too are skipped.
Suite TestsSuite(const json& tests) {
  Suite suite{"hipforge.tests", {}};
  for (const auto& item : tests) {
    TestCase test{item.value("name", "?"), "tests." + item.value("arch", ""), item.value("duration_ms", 0.0) / 1000.0};
    const std::string status = item.value("status", "");
    test.details = item.value("output_excerpt", "");
    // One definition with the verdict and the gate: failing in the CUDA original too is no migration failure.
    report::TestResult typed{.status = report::ParseTestStatus(status).value_or(report::TestStatus::kNotRun)};
    if (item.contains("cuda") && item["cuda"].is_object()) {
      typed.cuda = report::ReferenceRun{
          .status = report::ParseTestStatus(item["cuda"].value("status", "")).value_or(report::TestStatus::kNotRun)};
    }
    if ((status == "failed" || status == "timed_out") && !report::IsMigrationFailure(typed)) {
      test.outcome = TestCase::Outcome::kSkipped;
      test.message = "fails in the CUDA original too: not a migration failure";
    } else if (status == "failed") {
      test.outcome = TestCase::Outcome::kFailed;
      test.message = "test failed";
    } else if (status == "timed_out") {
      test.outcome = TestCase::Outcome::kError;
      test.message = "test timed out";
    } else if (status == "not_run") {
      test.outcome = TestCase::Outcome::kSkipped;
      test.message = "not run";
    }
    suite.cases.push_back(std::move(test));
  }
  return suite;
}

// What the job proved and the gate the server judged, in the words of the text report and SARIF.
Properties VerdictAndGate(const json& report, const absl::StatusOr<report::Report>& typed) {
  Properties properties;
  if (typed.ok()) {
    const report::Verdict verdict = VerdictOf(*typed);
    properties = {{"hipforge.verdict", std::string(report::VerdictLevelName(verdict.level))},
                  {"hipforge.verdictSentence", report::VerdictSentence(verdict)}};
  }
  for (auto& property : GateProperties(report)) properties.push_back(std::move(property));
  return properties;
}

}  // namespace

std::string RenderJUnit(const json& report) {
  std::vector<Suite> suites;
  // The typed report (common/report): the same parse, counts and verdict as the text and SARIF renderers.
  absl::StatusOr<report::Report> typed = report::ReportFromJson(report);

  if (report.contains("translation")) {
    Suite suite{"hipforge.translation", {}};
    for (const auto& file : report["translation"].value("files", json::array())) {
      TestCase test{file.value("path", "?"), "translation"};
      const std::string status = file.value("status", "");
      if (status == "failed") {
        test.outcome = TestCase::Outcome::kFailed;
        test.message = "translation failed";
        test.details = file.value("fallback_reason", "");
      } else if (status == "fallback") {
        test.details = "translated without the AST (fallback): " + file.value("fallback_reason", "");
      }
      suite.cases.push_back(std::move(test));
    }
    suites.push_back(std::move(suite));
  }

  if (typed.ok() && typed->findings) suites.push_back(AnalysisSuite(*typed->findings, report::FixStageOf(*typed)));

  if (report.contains("builds")) {
    Suite suite{"hipforge.build", {}};
    for (const auto& build : report["builds"]) {
      TestCase test{"build " + build.value("requested_arch", "?"), "build",
                    build.value("duration_ms", 0.0) / 1000.0};
      if (!build.value("ok", false)) {
        test.outcome = TestCase::Outcome::kFailed;
        test.message = "build failed for " + build.value("arch", build.value("requested_arch", "?"));
        for (const auto& error : build.value("errors", json::array())) {
          test.details += error.value("path", "?") + ":" + std::to_string(error.value("line", 0)) + ": " +
                          error.value("message", "") + "\n";
        }
      }
      suite.cases.push_back(std::move(test));
    }
    suites.push_back(std::move(suite));
  }

  if (report.contains("tests")) suites.push_back(TestsSuite(report["tests"]));

  if (report.contains("parity")) {
    Suite suite{"hipforge.parity", {}};
    for (const auto& item : report["parity"]) {
      TestCase test{item.value("case", "?"), "parity"};
      const std::string verdict = item.value("verdict", "");
      if (verdict != "match") {
        test.outcome = TestCase::Outcome::kFailed;
        test.message = "parity " + verdict;
        test.details = "max_abs_error=" + std::to_string(item.value("max_abs_error", 0.0)) +
                       " mismatches=" + std::to_string(item.value("mismatches", 0));
      }
      suite.cases.push_back(std::move(test));
    }
    suites.push_back(std::move(suite));
  }

  std::ostringstream out;
  int tests = 0, failures = 0, errors = 0;
  for (const auto& suite : suites) {
    for (const auto& test : suite.cases) {
      ++tests;
      failures += test.outcome == TestCase::Outcome::kFailed;
      errors += test.outcome == TestCase::Outcome::kError;
    }
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"hipforge " << XmlEscape(report.value("job_id", "")) << "\" tests=\"" << tests
      << "\" failures=\"" << failures << "\" errors=\"" << errors << "\">\n";
  const Properties properties = VerdictAndGate(report, typed);
  for (const auto& suite : suites) WriteSuite(suite, properties, out);
  out << "</testsuites>\n";
  return out.str();
}

}  // namespace hipforge::report
