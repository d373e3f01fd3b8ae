#include "worker/validate/test_runner.h"

#include <sstream>

#include <set>

#include <fstream>
#include <iterator>
#include <regex>

#include <nlohmann/json.hpp>

#include "absl/strings/str_cat.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

namespace {

std::string XmlEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default:
        // XML 1.0 forbids most control characters even escaped.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r') {
          out += '?';
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string XmlUnescape(std::string text) {
  for (auto [from, to] : {std::pair{"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&apos;", "'"}, {"&amp;", "&"}}) {
    for (size_t pos = 0; (pos = text.find(from, pos)) != std::string::npos; pos += std::strlen(to)) {
      text.replace(pos, std::strlen(from), to);
    }
  }
  return text;
}

std::string Attribute(const std::string& tag, const std::string& name) {
  std::smatch m;
  if (std::regex_search(tag, m, std::regex("\\b" + name + "=\"([^\"]*)\""))) return XmlUnescape(m[1]);
  return "";
}

}  // namespace

std::string OutputExcerpt(const std::string& output, size_t max_bytes) {
  if (output.size() <= max_bytes) return output;
  size_t start = output.size() - max_bytes;
  const size_t newline = output.find('\n', start);
  if (newline != std::string::npos && newline + 1 < output.size()) start = newline + 1;
  return "..." + output.substr(start);
}

TestRunner::TestRunner(ProcessLauncher& launcher) : launcher_(launcher) {}

namespace {

// The command tests Run runs: the manifest's, else (when ctest does not run) those the build files name.
const std::vector<TestCommand>& CommandTests(const TestRunInput& input) {
  static const std::vector<TestCommand> kNone;
  if (input.manifest && !input.manifest->tests.commands.empty()) return input.manifest->tests.commands;
  return RunsCTest(input.manifest, input.use_ctest) ? kNone : input.discovered;
}

}  // namespace

std::vector<TestResult> TestRunner::Run(const TestRunInput& input, const ExecutionContext& context) {
  std::vector<TestResult> results;
  for (const TestCommand& command : CommandTests(input)) results.push_back(RunCommand(input, command, context));
  if (RunsCTest(input.manifest, input.use_ctest)) {
    auto ctest_results = RunCTest(input, context);
    results.insert(results.end(), ctest_results.begin(), ctest_results.end());
  }
  return results;
}

TestResult TestRunner::RunCommand(const TestRunInput& input, const TestCommand& command,
                                  const ExecutionContext& context) {
  const std::map<std::string, std::string> variables = {
      {"ARCH", input.arch}, {"BUILD_DIR", input.build_dir.string()}, {"SOURCE_DIR", input.source_dir.string()}};
  auto timeout = command.timeout
                     ? std::chrono::duration_cast<std::chrono::milliseconds>(*command.timeout)
                     : (input.manifest && input.manifest->tests.timeout
                            ? std::chrono::duration_cast<std::chrono::milliseconds>(*input.manifest->tests.timeout)
                            : input.default_timeout);
  const auto argv = ShellCommand(ExpandVariables(command.run, variables));
  TestResult test{.name = command.name, .arch = input.arch};
  auto result = launcher_.Run(PrepareCommand(context, argv, input.build_dir, timeout));
  if (!result.ok()) {
    test.status = TestStatus::kFailed;
    test.output_excerpt = std::string(result.status().message());
    return test;
  }
  if (input.outputs != nullptr) (*input.outputs)[command.name] = result->standard_output;
  test.duration_ms = result->wall_time.count();
  test.status =
      result->timed_out ? TestStatus::kTimedOut : (result->exit_code == 0 ? TestStatus::kPassed : TestStatus::kFailed);
  test.output_excerpt = OutputExcerpt(result->standard_output + result->standard_error);
  if (test.status == TestStatus::kPassed && command.discovered &&
      OutputSaysFail(result->standard_output + result->standard_error)) {
    test.status = TestStatus::kFailed;
    test.output_excerpt = "exit 0, but its output says FAIL or reports a GPU error\n" + test.output_excerpt;
  }
  // The serialized re-run tells a kernel fault or race from a plain failure. A run that ran out of time, ours or a
  // `timeout` inside the command (exit 124), is not re-run: serialized, it takes at least as long again.
  const bool out_of_time = result->timed_out || result->exit_code == 124;
  if (test.status != TestStatus::kPassed && out_of_time) {
    absl::StrAppend(&test.output_excerpt, "\n--- not re-run with AMD_SERIALIZE_KERNEL=3: it ran out of time ---\n");
  } else if (test.status != TestStatus::kPassed && input.rerun_failures_serialized) {
    ExecutionContext serialized = context;
    serialized.environment["AMD_SERIALIZE_KERNEL"] = "3";
    auto rerun = launcher_.Run(PrepareCommand(serialized, argv, input.build_dir, timeout));
    if (rerun.ok()) {
      absl::StrAppend(&test.output_excerpt, "\n--- re-run with AMD_SERIALIZE_KERNEL=3: ",
                      rerun->timed_out ? "timed out" : absl::StrCat("exit ", rerun->exit_code), " ---\n",
                      OutputExcerpt(rerun->standard_output + rerun->standard_error, 1024));
    }
  }
  return test;
}

std::vector<TestResult> TestRunner::RunCTest(const TestRunInput& input, const ExecutionContext& context) {
  const fs::path junit = input.build_dir / "hipforge-ctest-junit.xml";
  std::error_code ec;
  fs::remove(junit, ec);
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(input.default_timeout).count();
  std::vector<std::string> argv = {"ctest",        "--test-dir", input.build_dir.string(), "--output-junit",
                                   junit.string(), "--timeout",  std::to_string(seconds),  "--output-on-failure"};
  auto result = launcher_.Run(PrepareCommand(context, argv, input.build_dir, input.default_timeout * 4));
  std::ifstream in(junit);
  if (!result.ok() || !in) {
    TestResult failed{.name = "ctest", .arch = input.arch, .status = TestStatus::kFailed};
    failed.output_excerpt = result.ok() ? OutputExcerpt(result->standard_output + result->standard_error)
                                        : std::string(result.status().message());
    return {failed};
  }
  std::vector<TestResult> results =
      ParseJUnitXml(std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()), input.arch);
  if (input.outputs != nullptr) {
    for (const TestResult& r : results) (*input.outputs)[r.name] = r.output_excerpt;
  }
  return results;
}

absl::StatusOr<std::string> TestRunner::RerunOutput(const TestRunInput& input, const std::string& name,
                                                    const ExecutionContext& context) {
  for (const TestCommand& command : CommandTests(input)) {
    if (command.name != name) continue;
    std::map<std::string, std::string> outputs;
    TestRunInput once = input;
    once.outputs = &outputs;
    once.rerun_failures_serialized = false;
    const TestResult result = RunCommand(once, command, context);
    if (result.status != TestStatus::kPassed) {
      return absl::AbortedError(absl::StrCat(name, " ", std::string(TestStatusName(result.status)), " when run again"));
    }
    return outputs[name];
  }
  return absl::NotFoundError(absl::StrCat("no test command named ", name));
}

std::vector<TestCommand> DiscoveredTests(const fs::path& source_dir, const std::vector<BuildRoot>& roots,
                                         const std::string& arch, const fs::path& hipcc) {
  static const std::regex kTarget(R"(^(test|check|run)\s*:([^=]|$))");
  std::vector<TestCommand> tests;
  for (const BuildRoot& root : roots) {
    if (root.system != BuildSystem::kMake) continue;
    const fs::path dir = (source_dir / root.dir).lexically_normal();
    std::string text;
    for (const char* name : {"GNUmakefile", "makefile", "Makefile"}) {
      std::ifstream in(dir / name);
      if (in) {
        text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        break;
      }
    }
    std::set<std::string> targets;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      std::smatch match;
      if (std::regex_search(line, match, kTarget)) targets.insert(match[1].str());
    }
    for (const char* target : {"test", "check", "run"}) {
      if (targets.count(target) == 0) continue;
      const std::string prefix = root.dir == "." ? "" : root.dir.generic_string() + ": ";
      tests.push_back({.name = absl::StrCat(prefix, "make ", target),
                       .run = absl::StrCat("make -C '", dir.string(), "' ", target, " ARCH=", arch, " HIPCC='",
                                           hipcc.string(), "'"),
                       .discovered = true});
      break;
    }
  }
  return tests;
}

bool OutputSaysFail(const std::string& output) {
  static const std::regex kFail(R"((^|\n)\s*(FAIL|FAILED)(\b|$))");
  // A GPU runtime error a program printed and then exited 0 on (its check macro only reports): on the H200
  // btree-cuda printed "CUDA error at ...: an illegal memory access was encountered" and passed.
  static const std::regex kRuntimeError(
      R"(an illegal memory access was encountered|unspecified launch failure|misaligned address|)"
      R"(\b(CUDA|HIP) error\b|\b(cuda|hip)Error(IllegalAddress|LaunchFailure|MisalignedAddress)\b)");
  return std::regex_search(output, kFail) || std::regex_search(output, kRuntimeError);
}

bool RunsCTest(const Manifest* manifest, bool build_has_ctest) {
  if (manifest != nullptr && manifest->tests.ctest) return *manifest->tests.ctest;
  return build_has_ctest && (manifest == nullptr || manifest->tests.commands.empty());
}

absl::StatusOr<std::vector<std::string>> TestRunner::ListCTest(const TestRunInput& input,
                                                               const ExecutionContext& context) {
  const std::vector<std::string> argv = {"ctest", "--test-dir", input.build_dir.string(), "-N", "--show-only=json-v1"};
  auto result = launcher_.Run(PrepareCommand(context, argv, input.build_dir, std::chrono::seconds(60)));
  if (!result.ok()) return result.status();
  if (result->timed_out || result->exit_code != 0) {
    return absl::InternalError(
        absl::StrCat("ctest -N ", result->timed_out ? "timed out" : "exited " + std::to_string(result->exit_code), ": ",
                     OutputExcerpt(result->standard_error, 512)));
  }
  return ParseCTestTestList(result->standard_output);
}

absl::StatusOr<std::vector<std::string>> ParseCTestTestList(const std::string& json) {
  const nlohmann::json parsed = nlohmann::json::parse(json, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object() || !parsed.contains("tests") || !parsed["tests"].is_array()) {
    return absl::InvalidArgumentError("ctest --show-only=json-v1 printed no test list: " + OutputExcerpt(json, 200));
  }
  std::vector<std::string> names;
  for (const nlohmann::json& test : parsed["tests"]) {
    if (test.is_object() && test.contains("name") && test["name"].is_string()) {
      names.push_back(test["name"].get<std::string>());
    }
  }
  return names;
}

std::string ToJUnitXml(const std::string& suite_name, const std::vector<TestResult>& results) {
  int failures = 0, skipped = 0;
  for (const TestResult& r : results) {
    failures += r.status == TestStatus::kFailed || r.status == TestStatus::kTimedOut;
    skipped += r.status == TestStatus::kNotRun;
  }
  std::string xml =
      absl::StrCat("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"", XmlEscape(suite_name),
                   "\" tests=\"", results.size(), "\" failures=\"", failures, "\" skipped=\"", skipped, "\">\n");
  for (const TestResult& r : results) {
    absl::StrAppend(&xml, "  <testcase name=\"", XmlEscape(r.name), "\" classname=\"", XmlEscape(r.arch), "\" time=\"",
                    r.duration_ms / 1000.0, "\" status=\"", std::string(TestStatusName(r.status)), "\">");
    if (r.status == TestStatus::kFailed || r.status == TestStatus::kTimedOut) {
      absl::StrAppend(&xml, "<failure message=\"", std::string(TestStatusName(r.status)), "\"/>");
    } else if (r.status == TestStatus::kNotRun) {
      absl::StrAppend(&xml, "<skipped message=\"", XmlEscape(r.output_excerpt), "\"/>");
    }
    absl::StrAppend(&xml, "<system-out>", XmlEscape(r.output_excerpt), "</system-out></testcase>\n");
  }
  xml += "</testsuite>\n";
  return xml;
}

std::vector<TestResult> ParseJUnitXml(const std::string& xml, const std::string& arch) {
  std::vector<TestResult> results;
  static const std::regex kCase(R"(<testcase\b([^>]*?)(/>|>([\s\S]*?)</testcase>))");
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), kCase); it != std::sregex_iterator(); ++it) {
    const std::string attributes = (*it)[1];
    const std::string body = (*it)[3];
    TestResult r{.name = Attribute(attributes, "name"), .arch = arch, .status = TestStatus::kPassed};
    r.duration_ms = static_cast<int64_t>(std::atof(Attribute(attributes, "time").c_str()) * 1000);
    const std::string status = Attribute(attributes, "status");
    if (body.find("<failure") != std::string::npos || body.find("<error") != std::string::npos || status == "fail" ||
        status == "failed") {
      r.status = body.find("Timeout") != std::string::npos || status == "timed_out" ? TestStatus::kTimedOut
                                                                                    : TestStatus::kFailed;
    } else if (body.find("<skipped") != std::string::npos || status == "disabled" || status == "notrun") {
      r.status = TestStatus::kNotRun;
    }
    std::smatch out;
    if (std::regex_search(body, out, std::regex(R"(<system-out>([\s\S]*?)</system-out>)"))) {
      r.output_excerpt = OutputExcerpt(XmlUnescape(out[1]));
    }
    results.push_back(std::move(r));
  }
  return results;
}

}  // namespace hipforge::validate
