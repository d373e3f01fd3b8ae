// The report renderers (common/report/report_render.h), as migrate-cli and the dashboard downloads use them.
#include "common/report/report_render.h"

#include <gtest/gtest.h>

namespace hipforge::report {
namespace {

using nlohmann::json;

json SampleReport() {
  return json::parse(R"json({
    "job_id": "job-42",
    "translation": {"files": [
        {"path": "src/a.cu", "status": "translated", "fallback_reason": "", "converted": {"function": 3},
         "unconverted": 0, "unsupported": 1, "lines_changed": 5, "changed_by": ["runtime", "HB102"]},
        {"path": "src/b.cu", "status": "failed", "fallback_reason": "parse error <here> & there"},
        {"path": "README.md", "status": "copied"}],
      "totals": {"files": 3, "translated": 1, "fallback": 0, "converted": 3, "unsupported": 1, "lines_changed": 5}},
    "findings": [
      {"rule_id": "HB101", "severity": "error", "path": "src/a.cu", "line": 12, "column": 5,
       "message": "warp size 32 assumed", "fix": "use warpSize", "auto_fixed": true},
      {"rule_id": "HB402", "severity": "warning", "path": "./src/main.cu", "line": 40, "column": 3,
       "message": "cudaMemcpyAsync from pageable memory", "fix": "", "auto_fixed": false},
      {"rule_id": "HB502", "severity": "note", "path": "/abs/CMakeLists.txt", "line": 0, "column": 0,
       "message": "LANGUAGES CUDA"},
      {"rule_id": "HB101", "severity": "error", "path": "dir with space/k:1.cu", "line": 3, "column": 0,
       "message": "second"}],
    "effort": {"engineer_hours": 3.5, "automatic_share": 0.93, "by_severity": {"error": 2}},
    "builds": [{"requested_arch": "gfx942", "arch": "gfx940", "toolchain": "hipcc 5.2.3 (Debian)", "ok": false,
                "duration_ms": 1234, "errors": [{"path": "src/a.cu", "line": 10, "message": "no member"}],
                "kernels": []},
               {"requested_arch": "gfx90a", "arch": "gfx90a", "toolchain": "hipcc", "ok": true, "duration_ms": 900,
                "errors": [], "kernels": [{"name": "saxpy", "vgprs": 8, "sgprs": 16, "occupancy": 10}]}],
    "tests": [{"name": "t1", "arch": "gfx90a", "status": "passed", "duration_ms": 10},
              {"name": "t2", "arch": "gfx90a", "status": "not_run", "duration_ms": 0}],
    "parity": [{"case": "sum", "verdict": "mismatch", "max_abs_error": 0.5, "mismatches": 3}],
    "gpu": {"ran_on_gpu": false, "note": "compile-only worker"}
  })json");
}

// The report as its readers receive it, read once (ReadReportDocument); every report here is well formed.
ReportDocument Doc(const json& report) { return ReadReportDocument(report).value(); }

json Catalog() {
  return json::parse(R"json([
    {"id": "HB101", "severity": "error", "title": "Warp size literal 32", "class": "wavefront", "help": "docs/rules/HB101.md"},
    {"id": "HB402", "severity": "warning", "title": "Async copy from pageable memory", "class": "runtime", "help": "docs/rules/HB402.md"}
  ])json");
}

bool IsRelativeUri(const std::string& uri) {
  if (uri.empty() || uri.front() == '/' || uri.rfind("./", 0) == 0) return false;
  const size_t colon = uri.find(':');
  const size_t slash = uri.find('/');
  return colon == std::string::npos || (slash != std::string::npos && slash < colon);  // no scheme
}

TEST(SarifRenderer, HasTheRequiredTopLevelShape) {
  RenderOptions options;
  options.rule_catalog = Catalog();
  options.tool_version = "0.1.0";
  const json sarif = RenderSarif(Doc(SampleReport()), options);
  EXPECT_EQ(sarif["version"], "2.1.0");
  EXPECT_TRUE(sarif["$schema"].get<std::string>().find("sarif") != std::string::npos);
  ASSERT_EQ(sarif["runs"].size(), 1u);
  const json& run = sarif["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "hipforge");
  EXPECT_EQ(run["tool"]["driver"]["version"], "0.1.0");
  EXPECT_EQ(run["automationDetails"]["id"], "hipforge/job-42");
  EXPECT_EQ(run["results"].size(), 4u);
}

TEST(SarifRenderer, ResultsCarryRuleIdLevelMessageAndRelativeLocations) {
  RenderOptions options;
  options.rule_catalog = Catalog();
  const json run = RenderSarif(Doc(SampleReport()), options)["runs"][0];
  const json& rules = run["tool"]["driver"]["rules"];
  for (const auto& result : run["results"]) {
    ASSERT_TRUE(result.contains("ruleId"));
    ASSERT_TRUE(result["message"].contains("text"));
    EXPECT_FALSE(result["message"]["text"].get<std::string>().empty());
    const std::string level = result["level"];
    EXPECT_TRUE(level == "error" || level == "warning" || level == "note") << level;
    // ruleIndex points at the descriptor with the same id.
    EXPECT_EQ(rules[result["ruleIndex"].get<int>()]["id"], result["ruleId"]);
    const json& physical = result["locations"][0]["physicalLocation"];
    const std::string uri = physical["artifactLocation"]["uri"];
    EXPECT_TRUE(IsRelativeUri(uri)) << uri;
    EXPECT_EQ(physical["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    if (physical.contains("region")) EXPECT_GE(physical["region"]["startLine"].get<int>(), 1);
  }
  const json& first = run["results"][0];
  EXPECT_EQ(first["ruleId"], "HB101");
  EXPECT_EQ(first["level"], "error");
  EXPECT_EQ(first["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "src/a.cu");
  EXPECT_EQ(first["locations"][0]["physicalLocation"]["region"]["startLine"], 12);
  EXPECT_EQ(first["locations"][0]["physicalLocation"]["region"]["startColumn"], 5);
  EXPECT_EQ(first["properties"]["autoFixed"], true);
  // Fixed automatically: suppressed, so code scanning does not show it as open; the others are not.
  EXPECT_EQ(first["suppressions"][0]["kind"], "external");
  EXPECT_FALSE(run["results"][1].contains("suppressions"));
  EXPECT_EQ(run["results"][1]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "src/main.cu");
  EXPECT_EQ(run["results"][2]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "abs/CMakeLists.txt");
  // A finding about a whole file has no region (SARIF lines are 1-based).
  EXPECT_FALSE(run["results"][2]["locations"][0]["physicalLocation"].contains("region"));
  EXPECT_EQ(run["results"][3]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "dir%20with%20space/k%3A1.cu");
  EXPECT_FALSE(run["results"][3]["locations"][0]["physicalLocation"]["region"].contains("startColumn"));
}

TEST(SarifRenderer, RulesComeFromTheCatalogWithHelpUris) {
  RenderOptions options;
  options.rule_catalog = Catalog();
  options.help_uri_base = "/opt/hipforge docs/rules";
  const json rules = RenderSarif(Doc(SampleReport()), options)["runs"][0]["tool"]["driver"]["rules"];
  ASSERT_EQ(rules.size(), 3u);  // two from the catalog, HB502 described from its finding
  EXPECT_EQ(rules[0]["id"], "HB101");
  EXPECT_EQ(rules[0]["shortDescription"]["text"], "Warp size literal 32");
  EXPECT_EQ(rules[0]["helpUri"], "file:///opt/hipforge%20docs/rules/HB101.md");
  EXPECT_EQ(rules[0]["defaultConfiguration"]["level"], "error");
  EXPECT_EQ(rules[0]["properties"]["tags"][0], "wavefront");
  EXPECT_EQ(rules[2]["id"], "HB502");
  EXPECT_EQ(rules[2]["helpUri"], "file:///opt/hipforge%20docs/rules/HB502.md");
  EXPECT_EQ(rules[2]["defaultConfiguration"]["level"], "note");

  options.help_uri_base = "https://example.invalid/rules/";
  const json absolute = RenderSarif(Doc(SampleReport()), options)["runs"][0]["tool"]["driver"]["rules"];
  EXPECT_EQ(absolute[1]["helpUri"], "https://example.invalid/rules/HB402.md");
}

TEST(SarifRenderer, HelpUriIsAbsoluteByDefault) {
  // GitHub code scanning drops a relative helpUri; the default points at the rule pages installed with the tool.
  RenderOptions options;
  options.rule_catalog = Catalog();
  const json rules = RenderSarif(Doc(SampleReport()), options)["runs"][0]["tool"]["driver"]["rules"];
  const std::string uri = rules[0]["helpUri"];
  EXPECT_EQ(uri.rfind("file:///", 0), 0u) << uri;
  EXPECT_NE(uri.find("/share/hipforge/web/rules/HB101.md"), std::string::npos) << uri;
  EXPECT_EQ(AbsoluteHelpUriBase("https://hipforge.example/rules"), "https://hipforge.example/rules/");
  EXPECT_EQ(AbsoluteHelpUriBase("/srv/rules/"), "file:///srv/rules/");
}

TEST(SarifRenderer, EmptyReportIsStillValid) {
  const json sarif = RenderSarif(Doc(json::object()), RenderOptions{});
  EXPECT_EQ(sarif["version"], "2.1.0");
  EXPECT_TRUE(sarif["runs"][0]["results"].is_array());
  EXPECT_TRUE(sarif["runs"][0]["results"].empty());
  EXPECT_TRUE(sarif["runs"][0]["tool"]["driver"]["rules"].is_array());
}

TEST(RelativeUri, DropsDotSlashAndLeadingSlashesAndEncodes) {
  EXPECT_EQ(RelativeUri("./a/b.cu"), "a/b.cu");
  EXPECT_EQ(RelativeUri("//x/y.cu"), "x/y.cu");
  EXPECT_EQ(RelativeUri("a b#c?.cu"), "a%20b%23c%3F.cu");
  EXPECT_EQ(RelativeUri("src/kernel_v2-1.cu"), "src/kernel_v2-1.cu");
}

TEST(JUnitRenderer, CountsFailuresAndEscapesXml) {
  const std::string xml = RenderJUnit(Doc(SampleReport()));
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>", 0), 0u);
  // failures: translation src/b.cu, rule HB101 (errors), build gfx942, parity sum = 4; not_run is skipped.
  EXPECT_NE(xml.find("<testsuites name=\"hipforge job-42\" tests=\"11\" failures=\"4\" errors=\"0\">"),
            std::string::npos)
      << xml;
  EXPECT_NE(xml.find("parse error &lt;here&gt; &amp; there"), std::string::npos);
  EXPECT_NE(xml.find("<skipped message=\"not run\">"), std::string::npos);
  EXPECT_NE(xml.find("<testsuite name=\"hipforge.build\" tests=\"2\" failures=\"1\""), std::string::npos);
  EXPECT_EQ(xml.find("<here>"), std::string::npos);
  EXPECT_NE(xml.find("</testsuites>"), std::string::npos);
}

// Issue 26: a rule whose error findings were all fixed automatically (or are in code the build drops) is no
// failure; SARIF suppresses the same findings and the text lists them as fixed.
TEST(JUnitRenderer, FailsOnlyRulesWithOpenErrors) {
  json report = json::parse(R"json({"findings": [
      {"rule_id": "HB102", "severity": "error", "path": "a.cu", "line": 3, "message": "mask", "auto_fixed": true},
      {"rule_id": "HB501", "severity": "error", "path": "Makefile", "line": 2, "message": "nvcc", "inactive": true},
      {"rule_id": "HB504", "severity": "error", "path": "run.sh", "line": 9, "message": "nvidia-smi"}]})json");
  const std::string xml = RenderJUnit(Doc(report));
  EXPECT_NE(xml.find("<testsuite name=\"hipforge.analysis\" tests=\"3\" failures=\"1\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("<failure message=\"open error findings of rule HB504\">"), std::string::npos) << xml;
  EXPECT_NE(xml.find("a.cu:3: error: mask (fixed automatically)"), std::string::npos) << xml;
}

// What the job proved and the gate the server judged: the same words as the text's Verdict and Gate lines.
TEST(Renderers, ShowTheVerdictAndTheGateAsTheTextDoes) {
  json report = SampleReport();
  report["gate"] = json::parse(R"json({"status": "failed", "blocking": ["builds", "parity"],
      "definition": {"source": "team", "requires": ["builds", "parity"]}, "conditions": []})json");
  const std::string text = RenderText(Doc(report));
  const std::string sentence =
      "failed, blocked by builds, parity (team definition, the team's (migrate-server gate set), requires builds, "
      "parity)";
  EXPECT_NE(text.find("\nGate: " + sentence + "\n"), std::string::npos) << text;
  const std::string xml = RenderJUnit(Doc(report));
  EXPECT_NE(xml.find("<property name=\"hipforge.verdict\" value=\"failed\"/>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<property name=\"hipforge.gate\" value=\"failed\"/>"), std::string::npos) << xml;
  const json properties = RenderSarif(Doc(report), RenderOptions{})["runs"][0]["properties"];
  EXPECT_EQ(properties["hipforge.verdict"], "failed");
  EXPECT_EQ(properties["hipforge.gateSentence"], sentence);
  EXPECT_NE(text.find("Verdict: " + properties["hipforge.verdictSentence"].get<std::string>() + "\n"),
            std::string::npos)
      << text;
  // A local report (`analyze`) has no gate: no line, no property.
  EXPECT_EQ(RenderText(Doc(SampleReport())).find("Gate:"), std::string::npos);
}

// JUnit and SARIF name the gate definition used, as the JSON's gate.definition.source does (issue 26: only the JSON
// and the sentence did), and the text says where a repository's definition is set.
TEST(Renderers, NameTheGateDefinitionUsed) {
  json report = SampleReport();
  report["gate"] = json::parse(R"json({"status": "failed", "blocking": ["findings"],
      "definition": {"source": "repository", "requires": ["builds", "findings"]}, "conditions": []})json");
  EXPECT_NE(RenderText(Doc(report))
                .find("\nGate: failed, blocked by findings (repository definition, the repository's "
                      "hipforge.yaml gate:, requires builds, findings)\n"),
            std::string::npos)
      << RenderText(Doc(report));
  const std::string xml = RenderJUnit(Doc(report));
  EXPECT_NE(xml.find("<property name=\"hipforge.gateDefinition\" value=\"repository\"/>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<property name=\"hipforge.gateRequires\" value=\"builds,findings\"/>"), std::string::npos) << xml;
  const json properties = RenderSarif(Doc(report), RenderOptions{})["runs"][0]["properties"];
  EXPECT_EQ(properties["hipforge.gateDefinition"], "repository");
  EXPECT_EQ(properties["hipforge.gateRequires"], "builds,findings");
  report["gate"]["definition"]["source"] = "default";
  EXPECT_NE(RenderText(Doc(report)).find("(default definition requires builds, findings)"), std::string::npos);
  EXPECT_FALSE(
      RenderSarif(Doc(SampleReport()), RenderOptions{})["runs"][0]["properties"].contains("hipforge.gateDefinition"));
}

// Hours left as the dashboard shows them (JavaScript's toFixed(1)): a tie on the exact value rounds up.
TEST(TextRenderer, EffortHoursRoundAsTheDashboardDoes) {
  for (const auto& [hours, shown] : std::vector<std::pair<double, std::string>>{
           {1.25, "1.3 h"}, {7.25, "7.3 h"}, {0.35, "0.3 h"}, {9.96, "10.0 h"}, {2.0, "2.0 h"}, {0.04, "0.0 h"}}) {
    json report = {{"effort", {{"engineer_hours", hours}, {"automatic_share", 0.5}}}};
    EXPECT_NE(RenderText(Doc(report)).find("Effort left: " + shown + " for one engineer"), std::string::npos)
        << hours << "\n"
        << RenderText(Doc(report));
  }
}

TEST(TextRenderer, SummarisesEverySection) {
  const std::string text = RenderText(Doc(SampleReport()));
  EXPECT_NE(text.find("Report for job job-42"), std::string::npos);
  EXPECT_NE(text.find("Translation: 3 files, 1 translated"), std::string::npos);
  // Fixed findings are shown as fixed, apart from what is left for a person.
  EXPECT_NE(
      text.find(
          "Fixed automatically: 1 finding\n  src/a.cu:12:5: [HB101] warp size 32 assumed\n      fixed: use warpSize"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("Left for a person: 1 error, 1 warning, 1 note"), std::string::npos) << text;
  EXPECT_NE(text.find("dir with space/k:1.cu:3: error: [HB101] second"), std::string::npos) << text;
  EXPECT_EQ(text.find("src/a.cu:12:5: error"), std::string::npos) << text;  // the fixed one is not "left"
  EXPECT_NE(text.find("gfx942 (built as gfx940): FAILED"), std::string::npos);
  EXPECT_NE(text.find("kernel saxpy: 8 VGPRs"), std::string::npos);
  EXPECT_NE(text.find("sum: mismatch"), std::string::npos);
  EXPECT_NE(text.find("GPU: compile-only worker\n"), std::string::npos) << text;
  // Copied and unchanged files get no entry of their own, only their names on one line (issue 26: "3 files, 1
  // translated" must not leave the others unnamed).
  EXPECT_NE(text.find("\n  as submitted: README.md\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("  README.md  copied"), std::string::npos) << text;
}

TEST(TextRenderer, EmptySectionsSayNoneAndEffortSaysHowItIsComputed) {
  const json report = json::parse(R"json({
    "findings": [{"rule_id": "HB503", "severity": "error", "path": "run.sh", "line": 2, "message": "nvidia-smi",
                  "fix": "amd-smi", "auto_fixed": true}],
    "effort": {"engineer_hours": 1.25, "automatic_share": 0.97, "model": "docs/rules/effort-model.md",
               "items": [{"what": "warning HB402 without an automatic fix", "count": 1, "hours_each": 1.0, "hours": 1.0},
                         {"what": "rebuild and retest a file a person changes", "count": 1, "hours_each": 0.25,
                          "hours": 0.25}]},
    "tests": [], "parity": [], "profile": [],
    "gpu": {"ran_on_gpu": false, "note": "not run on a GPU: compile-only worker"}})json");
  const std::string text = RenderText(Doc(report));
  EXPECT_NE(text.find("Fixed automatically: 1 finding"), std::string::npos) << text;
  EXPECT_NE(text.find("Left for a person: none"), std::string::npos) << text;
  EXPECT_NE(text.find("Effort left: 1.3 h"), std::string::npos) << text;  // as the dashboard shows 1.25
  EXPECT_NE(text.find("model: docs/rules/effort-model.md"), std::string::npos) << text;
  EXPECT_NE(text.find("1 x warning HB402 without an automatic fix at 1.0 h = 1.0 h"), std::string::npos) << text;
  EXPECT_NE(text.find("Tests: none\nParity (CUDA vs HIP): none\nProfile: none\n"), std::string::npos) << text;
  EXPECT_NE(text.find("GPU: not run on a GPU: compile-only worker\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("not run on a GPU (not run"), std::string::npos) << text;
  EXPECT_EQ(text.find("Builds"), std::string::npos) << text;  // absent section: left out
}

// A report without a translation section (migrate-cli analyze) is of the tree before the translation: a finding with
// an automatic fix is fixable, not left -- in the text, for --fail-on and in JUnit (report::CountFindings).
TEST(FailOn, BeforeTheTranslationAFixableFindingIsNotLeft) {
  json report = SampleReport();
  report.erase("translation");
  report["findings"][3]["fixable"] = true;  // the open HB101 error
  report["findings"][3]["fix"] = "use warpSize";
  EXPECT_EQ(CountFindingsAtOrAbove(Doc(report).report, FailOn::kError), 0);
  EXPECT_EQ(CountFindingsAtOrAbove(Doc(report).report, FailOn::kNote), 2);
  const std::string text = RenderText(Doc(report));
  EXPECT_NE(text.find("\nFixable automatically (migrate-cli translate applies the fix): 1 finding\n"
                      "  dir with space/k:1.cu:3: error: [HB101] second\n      fix: use warpSize\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("\nLeft for a person: 0 errors, 1 warning, 1 note\n"), std::string::npos) << text;
  EXPECT_NE(RenderJUnit(Doc(report)).find("<testsuite name=\"hipforge.analysis\" tests=\"3\" failures=\"0\""),
            std::string::npos)
      << RenderJUnit(Doc(report));
  // Translated, the same finding's fix was not applied: it is left.
  report["translation"] = SampleReport()["translation"];
  EXPECT_EQ(CountFindingsAtOrAbove(Doc(report).report, FailOn::kError), 1);
  EXPECT_NE(RenderText(Doc(report)).find("\nLeft for a person: 1 error, 1 warning, 1 note\n"), std::string::npos);
}

// A parity case whose error is infinite is stored as null (ToJson): JUnit says "inf" (reading the JSON field as a
// number threw before the renderers took the typed report).
TEST(JUnitRenderer, AnInfiniteParityErrorIsShown) {
  json report = SampleReport();
  report["parity"][0]["max_abs_error"] = nullptr;
  const std::string xml = RenderJUnit(Doc(report));
  EXPECT_NE(xml.find("max_abs_error=inf mismatches=3"), std::string::npos) << xml;
}

// Malformed reports are refused where they are read, naming what is wrong, instead of rendering half of them.
TEST(ReadReportDocument, RefusesAMalformedReportNamingWhatIsWrong) {
  EXPECT_EQ(ParseReportDocument("{\"findings\": [").status().message(), "report is not valid JSON");
  EXPECT_EQ(ParseReportDocument("[1, 2]").status().message(), "report $ is not an object");
  const absl::Status severity =
      ParseReportDocument(R"({"findings": [{"rule_id": "HB101", "severity": "fatal"}]})").status();
  EXPECT_EQ(severity.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(severity.message(), "report $.findings[0].severity has the unknown value 'fatal'");
  EXPECT_EQ(ParseReportDocument(R"({"gate": {"status": 3}})").status().message(),
            "report $.gate.status is not a string");
  // The gate the server adds, typed; the JSON kept as it came for --format json (an unknown field included).
  absl::StatusOr<ReportDocument> read = ParseReportDocument(
      R"({"job_id": "j", "later_field": 1, "gate": {"status": "passed", "blocking": [], "conditions": [],
          "definition": {"source": "team", "requires": ["builds"]}}})");
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_TRUE(read->gate.has_value());
  EXPECT_EQ(read->gate->definition_source, "team");
  EXPECT_EQ(read->gate->required, std::vector<std::string>{"builds"});
  EXPECT_EQ(read->report.job_id, "j");
  EXPECT_EQ(RenderReport(*read, ReportFormat::kJson, RenderOptions{}), read->json.dump(2) + "\n");
  EXPECT_TRUE(read->json.contains("later_field"));
}

TEST(FailOn, CountsFindingsAtOrAboveTheThreshold) {
  const json report = SampleReport();
  EXPECT_EQ(CountFindingsAtOrAbove(Doc(report).report, FailOn::kNever), 0);
  // A finding fixed automatically is not held against the job (the HB101 at src/a.cu:12 is auto_fixed).
  EXPECT_EQ(CountFindingsAtOrAbove(Doc(report).report, FailOn::kError), 1);
  EXPECT_EQ(CountFindingsAtOrAbove(Doc(report).report, FailOn::kWarning), 2);
  EXPECT_EQ(CountFindingsAtOrAbove(Doc(report).report, FailOn::kNote), 3);
  EXPECT_EQ(CountFindingsAtOrAbove(Doc(json::object()).report, FailOn::kNote), 0);
  EXPECT_FALSE(ParseFailOn("fatal").ok());
  EXPECT_EQ(*ParseFailOn("warning"), FailOn::kWarning);
  EXPECT_FALSE(ParseReportFormat("xml").ok());
  EXPECT_EQ(*ParseReportFormat("junit"), ReportFormat::kJUnit);
}

}  // namespace
}  // namespace hipforge::report
