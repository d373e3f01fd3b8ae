#pragma once
// hipforge.yaml: the optional per-repository manifest telling the validate role how to build, test,
// check parity and profile. Documented in docs/hipforge-yaml.md. Everything is optional.
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "worker/userbuild/build_roots.h"
#include "worker/validate/parity.h"

namespace hipforge::validate {

struct BuildSection {
  BuildSystem system = BuildSystem::kAuto;
  std::vector<std::string> cmake_args;
  std::vector<std::string> make_args;
  std::vector<std::string> commands;  // shell commands; ${ARCH} ${BUILD_DIR} ${SOURCE_DIR} substituted
  std::vector<std::string> roots;     // directories to build from (relative); empty: found (FindBuildRoots)
  std::optional<std::chrono::seconds> timeout;
};

struct TestCommand {
  std::string name;
  std::string run;  // shell command
  std::optional<std::chrono::seconds> timeout;
  // Found in the build files, not written by the user (DiscoveredTests): a line of its output that reads
  // FAIL or FAILED fails it too, as a person reading a self-checking program's output would judge it.
  bool discovered = false;
};

struct TestsSection {
  std::optional<bool> ctest;  // default: on for CMake builds without test commands
  std::vector<TestCommand> commands;
  std::optional<std::chrono::seconds> timeout;
};

struct ParityCase {
  std::string name;
  std::string run;                     // optional command producing the output (else the outputs of the tests are used)
  std::string output;                  // file the HIP run wrote, relative to the job's run dir; empty with `stdout`
  bool from_stdout = false;            // compare the run's standard output (text) instead of a file
  std::string reference;               // golden file, relative to the references dir
  std::optional<OutputFormat> format;  // default from the reference's extension
  std::optional<DType> dtype;          // required for raw; text defaults to float64
  std::optional<double> rtol, atol;    // default: torch assert_close defaults for the dtype
  TextSelection text;
};

struct ProfileSection {
  bool enabled = true;
  std::string command;        // default: the first test command
  std::string cuda_baseline;  // CSV relative to the references dir (default cuda_timings.csv if present)
};

struct Manifest {
  int version = 1;
  BuildSection build;
  std::vector<std::string> targets;  // archs used when the job names none
  // `gate:` the conditions the repository's migration gate requires, names as written (the server checks them at
  // submit: server/store/gate_definition.h); nullopt: the key is absent and the team's definition applies.
  std::optional<std::vector<std::string>> gate;
  std::map<std::string, std::string> env;
  bool managed_memory = false;  // HSA_XNACK=1 for tests
  // Directory of CUDA reference outputs (parity `reference:` and the profile's cuda_baseline), relative
  // to the repository root; empty: the repository root itself. Must stay inside the repository.
  std::string references;
  TestsSection tests;
  std::vector<ParityCase> parity;
  ProfileSection profile;
};

absl::StatusOr<Manifest> ParseManifest(std::string_view yaml_text);
absl::StatusOr<Manifest> LoadManifest(const std::filesystem::path& path);

// ${NAME} substitution with the given variables; unknown names are left as written.
std::string ExpandVariables(std::string_view text, const std::map<std::string, std::string>& variables);

}  // namespace hipforge::validate
