// JUnit XML for CI dashboards: builds per arch, tests, parity cases, one test case per analyzer rule
// (fails when the rule has error findings) and one per file the translator could not translate.
#include <map>
#include <sstream>
#include <vector>

#include "common/report/report.h"
#include "common/report/report_render.h"

namespace hipforge::report {
namespace {

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

// The suites below name cases by the report's fields as ToJson writes them (path, requested_arch, name, case).
// A case per file: failed fails, a fallback says why in its output.
Suite TranslationSuite(const report::TranslationSection& translation) {
  Suite suite{"hipforge.translation", {}};
  for (const report::FileEntry& file : translation.files) {
    TestCase test{file.path, "translation"};
    if (file.status == report::FileStatus::kFailed) {
      test.outcome = TestCase::Outcome::kFailed;
      test.message = "translation failed";
      test.details = file.fallback_reason;
    } else if (file.status == report::FileStatus::kFallback) {
      test.details = "translated without the AST (fallback): " + file.fallback_reason;
    }
    suite.cases.push_back(std::move(test));
  }
  return suite;
}

Suite BuildSuite(const std::vector<report::BuildResult>& builds) {
  Suite suite{"hipforge.build", {}};
  for (const report::BuildResult& build : builds) {
    TestCase test{"build " + build.requested_arch, "build", build.duration_ms / 1000.0};
    if (!build.ok) {
      test.outcome = TestCase::Outcome::kFailed;
      test.message = "build failed for " + build.arch;
      for (const report::BuildError& error : build.errors) {
        test.details += error.path + ":" + std::to_string(error.line) + ": " + error.message + "\n";
      }
    }
    suite.cases.push_back(std::move(test));
  }
  return suite;
}

// A case per test and arch: failed fails, timed out errs, not run and failing in the CUDA original too are skipped.
Suite TestsSuite(const std::vector<report::TestResult>& tests) {
  Suite suite{"hipforge.tests", {}};
  for (const report::TestResult& item : tests) {
    TestCase test{item.name, "tests." + item.arch, item.duration_ms / 1000.0};
    test.details = item.output_excerpt;
    // One definition with the verdict and the gate: failing in the CUDA original too is no migration failure.
    const bool failed = item.status == report::TestStatus::kFailed || item.status == report::TestStatus::kTimedOut;
    if (failed && !report::IsMigrationFailure(item)) {
      test.outcome = TestCase::Outcome::kSkipped;
      test.message = "fails in the CUDA original too: not a migration failure";
    } else if (item.status == report::TestStatus::kFailed) {
      test.outcome = TestCase::Outcome::kFailed;
      test.message = "test failed";
    } else if (item.status == report::TestStatus::kTimedOut) {
      test.outcome = TestCase::Outcome::kError;
      test.message = "test timed out";
    } else if (item.status == report::TestStatus::kNotRun) {
      test.outcome = TestCase::Outcome::kSkipped;
      test.message = "not run";
    }
    suite.cases.push_back(std::move(test));
  }
  return suite;
}

Suite ParitySuite(const std::vector<report::ParityResult>& parity) {
  Suite suite{"hipforge.parity", {}};
  for (const report::ParityResult& item : parity) {
    TestCase test{item.case_name, "parity"};
    if (item.verdict != report::ParityVerdict::kMatch) {
      test.outcome = TestCase::Outcome::kFailed;
      test.message = "parity " + std::string(report::ParityVerdictName(item.verdict));
      test.details =
          "max_abs_error=" + std::to_string(item.max_abs_error) + " mismatches=" + std::to_string(item.mismatches);
    }
    suite.cases.push_back(std::move(test));
  }
  return suite;
}

// What the job proved and the gate the server judged, in the words of the text report and SARIF.
Properties VerdictAndGate(const ReportDocument& document) {
  const report::Verdict verdict = VerdictOf(document.report);
  Properties properties = {{"hipforge.verdict", std::string(report::VerdictLevelName(verdict.level))},
                           {"hipforge.verdictSentence", report::VerdictSentence(verdict)}};
  for (auto& property : GateProperties(document.gate)) properties.push_back(std::move(property));
  return properties;
}

}  // namespace

std::string RenderJUnit(const ReportDocument& document) {
  const report::Report& report = document.report;
  std::vector<Suite> suites;
  if (report.translation) suites.push_back(TranslationSuite(*report.translation));
  if (report.findings) suites.push_back(AnalysisSuite(*report.findings, report::FixStageOf(report)));
  if (report.builds) suites.push_back(BuildSuite(*report.builds));
  if (report.tests) suites.push_back(TestsSuite(*report.tests));
  if (report.parity) suites.push_back(ParitySuite(*report.parity));

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
  out << "<testsuites name=\"hipforge " << XmlEscape(report.job_id) << "\" tests=\"" << tests << "\" failures=\""
      << failures << "\" errors=\"" << errors << "\">\n";
  const Properties properties = VerdictAndGate(document);
  for (const auto& suite : suites) WriteSuite(suite, properties, out);
  out << "</testsuites>\n";
  return out.str();
}

}  // namespace hipforge::report
