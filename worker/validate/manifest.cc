#include "worker/validate/manifest.h"
#include "worker/validate/text_util.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace hipforge::validate {

namespace {

// Unknown keys are errors: a typo ("tolerence") must not silently fall back to defaults.
absl::Status CheckKeys(const YAML::Node& node, absl::string_view where, std::set<std::string> allowed) {
  if (!node.IsMap()) return absl::InvalidArgumentError(absl::StrCat(where, ": expected a mapping"));
  for (const auto& entry : node) {
    const std::string key = entry.first.as<std::string>();
    if (!allowed.count(key)) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": unknown key '", key, "' (allowed: ", absl::StrJoin(allowed, ", "), ")"));
    }
  }
  return absl::OkStatus();
}

std::vector<std::string> StringList(const YAML::Node& node) {
  std::vector<std::string> out;
  if (!node) return out;
  if (node.IsScalar()) return {node.as<std::string>()};
  for (const auto& item : node) out.push_back(item.as<std::string>());
  return out;
}

std::optional<std::chrono::seconds> Seconds(const YAML::Node& node) {
  if (!node) return std::nullopt;
  return std::chrono::seconds(node.as<int64_t>());
}

absl::StatusOr<BuildSection> ParseBuild(const YAML::Node& node) {
  BuildSection build;
  if (!node) return build;
  if (auto s = CheckKeys(node, "build", {"system", "cmake_args", "make_args", "commands", "roots", "timeout_s"});
      !s.ok()) {
    return s;
  }
  if (node["system"]) {
    const std::string system = node["system"].as<std::string>();
    if (system == "cmake")
      build.system = BuildSystem::kCMake;
    else if (system == "make")
      build.system = BuildSystem::kMake;
    else if (system == "commands")
      build.system = BuildSystem::kCommands;
    else if (system == "auto")
      build.system = BuildSystem::kAuto;
    else
      return absl::InvalidArgumentError("build.system must be auto, cmake, make or commands, not " + system);
  }
  build.cmake_args = StringList(node["cmake_args"]);
  build.make_args = StringList(node["make_args"]);
  build.commands = StringList(node["commands"]);
  build.roots = StringList(node["roots"]);
  build.timeout = Seconds(node["timeout_s"]);
  if (build.system == BuildSystem::kCommands && build.commands.empty()) {
    return absl::InvalidArgumentError("build.system is commands but build.commands is empty");
  }
  if (build.system == BuildSystem::kAuto && !build.commands.empty()) build.system = BuildSystem::kCommands;
  return build;
}

absl::StatusOr<TestsSection> ParseTests(const YAML::Node& node) {
  TestsSection tests;
  if (!node) return tests;
  if (auto s = CheckKeys(node, "tests", {"ctest", "commands", "timeout_s"}); !s.ok()) return s;
  if (node["ctest"]) tests.ctest = node["ctest"].as<bool>();
  tests.timeout = Seconds(node["timeout_s"]);
  int index = 0;
  for (const auto& item : node["commands"]) {
    ++index;
    TestCommand command;
    if (item.IsScalar()) {
      command.name = absl::StrCat("test", index);
      command.run = item.as<std::string>();
    } else {
      if (auto s = CheckKeys(item, "tests.commands[]", {"name", "run", "timeout_s"}); !s.ok()) return s;
      if (!item["run"]) return absl::InvalidArgumentError("tests.commands[]: 'run' is required");
      command.name = item["name"] ? item["name"].as<std::string>() : absl::StrCat("test", index);
      command.run = item["run"].as<std::string>();
      command.timeout = Seconds(item["timeout_s"]);
    }
    tests.commands.push_back(std::move(command));
  }
  return tests;
}

absl::StatusOr<ParityCase> ParseParityCase(const YAML::Node& node) {
  if (auto s = CheckKeys(node, "parity[]",
                         {"case", "run", "output", "stdout", "reference", "format", "dtype", "rtol", "atol",
                          "lines_matching", "exclude_lines_matching", "columns"});
      !s.ok()) {
    return s;
  }
  ParityCase c;
  if (!node["case"] || !node["reference"])
    return absl::InvalidArgumentError("parity[]: 'case' and 'reference' are required");
  c.name = node["case"].as<std::string>();
  c.reference = node["reference"].as<std::string>();
  c.run = node["run"] ? node["run"].as<std::string>() : "";
  c.output = node["output"] ? node["output"].as<std::string>() : "";
  c.from_stdout = node["stdout"] && node["stdout"].as<bool>();
  if (c.output.empty() && !c.from_stdout) {
    return absl::InvalidArgumentError(absl::StrCat("parity case ", c.name, ": give 'output' or 'stdout: true'"));
  }
  if (c.from_stdout && c.run.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("parity case ", c.name, ": 'stdout: true' needs 'run'"));
  }
  if (node["format"]) {
    auto format = ParseOutputFormat(node["format"].as<std::string>());
    if (!format.ok()) return format.status();
    c.format = *format;
  }
  if (node["dtype"]) {
    auto dtype = ParseDType(node["dtype"].as<std::string>());
    if (!dtype.ok()) return dtype.status();
    c.dtype = *dtype;
  }
  if (node["rtol"]) c.rtol = node["rtol"].as<double>();
  if (node["atol"]) c.atol = node["atol"].as<double>();
  if (node["lines_matching"]) c.text.lines_matching = node["lines_matching"].as<std::string>();
  if (node["exclude_lines_matching"]) c.text.exclude_lines_matching = node["exclude_lines_matching"].as<std::string>();
  for (const auto& column : node["columns"]) c.text.columns.push_back(column.as<int>());
  if (c.from_stdout) c.format = OutputFormat::kText;
  return c;
}

}  // namespace

absl::StatusOr<Manifest> ParseManifest(std::string_view yaml_text_std) {
  const absl::string_view yaml_text = ToAbsl(yaml_text_std);
  try {
    const YAML::Node root = YAML::Load(std::string(yaml_text));
    Manifest manifest;
    if (!root || root.IsNull()) return manifest;
    if (auto s = CheckKeys(root, "hipforge.yaml",
                           {"version", "build", "targets", "gate", "env", "managed_memory", "references", "tests",
                            "parity", "profile"});
        !s.ok()) {
      return s;
    }
    if (root["version"]) manifest.version = root["version"].as<int>();
    if (manifest.version != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("hipforge.yaml version ", manifest.version, " is not supported (1)"));
    }
    auto build = ParseBuild(root["build"]);
    if (!build.ok()) return build.status();
    manifest.build = *build;
    manifest.targets = StringList(root["targets"]);
    if (root["gate"]) manifest.gate = StringList(root["gate"]);
    if (root["env"]) {
      for (const auto& entry : root["env"])
        manifest.env[entry.first.as<std::string>()] = entry.second.as<std::string>();
    }
    manifest.managed_memory = root["managed_memory"] && root["managed_memory"].as<bool>();
    if (root["references"]) {
      manifest.references = root["references"].as<std::string>();
      const std::filesystem::path references(manifest.references);
      const bool escapes =
          std::any_of(references.begin(), references.end(), [](const auto& part) { return part == ".."; });
      if (references.is_absolute() || escapes) {
        return absl::InvalidArgumentError("hipforge.yaml references: must be a directory inside the repository, got " +
                                          manifest.references);
      }
    }
    auto tests = ParseTests(root["tests"]);
    if (!tests.ok()) return tests.status();
    manifest.tests = *tests;
    for (const auto& item : root["parity"]) {
      auto parity_case = ParseParityCase(item);
      if (!parity_case.ok()) return parity_case.status();
      manifest.parity.push_back(std::move(*parity_case));
    }
    if (const YAML::Node profile = root["profile"]) {
      if (auto s = CheckKeys(profile, "profile", {"enabled", "command", "cuda_baseline"}); !s.ok()) return s;
      if (profile["enabled"]) manifest.profile.enabled = profile["enabled"].as<bool>();
      if (profile["command"]) manifest.profile.command = profile["command"].as<std::string>();
      if (profile["cuda_baseline"]) manifest.profile.cuda_baseline = profile["cuda_baseline"].as<std::string>();
    }
    return manifest;
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("hipforge.yaml: ", e.what()));
  }
}

absl::StatusOr<Manifest> LoadManifest(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError("cannot read " + path.string());
  std::stringstream buffer;
  buffer << in.rdbuf();
  return ParseManifest(buffer.str());
}

std::string ExpandVariables(std::string_view text_std, const std::map<std::string, std::string>& variables) {
  const absl::string_view text = ToAbsl(text_std);
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '$' && i + 1 < text.size() && text[i + 1] == '{') {
      const size_t close = text.find('}', i + 2);
      if (close != absl::string_view::npos) {
        auto it = variables.find(std::string(text.substr(i + 2, close - i - 2)));
        if (it != variables.end()) {
          out += it->second;
          i = close;
          continue;
        }
      }
    }
    out += text[i];
  }
  return out;
}

}  // namespace hipforge::validate
