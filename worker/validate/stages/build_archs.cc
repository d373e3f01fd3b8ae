// A stage of Validator::Validate (validator.cc runs the list; validator_state.h holds the State it extends).
#include <fstream>
#include <regex>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "worker/validate/arch_selection.h"
#include "worker/validate/compiler_diagnostics.h"
#include "worker/validate/job_environment.h"
#include "worker/validate/source_map.h"
#include "worker/validate/tree_builder.h"
#include "worker/validate/validator.h"
#include "worker/validate/validator_state.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

absl::Status CopyTree(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::remove_all(to, ec);
  fs::create_directories(to.parent_path(), ec);
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
  if (ec) return absl::InternalError(absl::StrCat("copying ", from.string(), " to ", to.string(), ": ", ec.message()));
  return absl::OkStatus();
}

namespace {

// What in a build log would show that a missing library stopped it: the header an #include names, else the
// library's name (a CMake package or -l flag).
std::string LibraryLogKey(const LibraryUse& use) {
  static const std::regex kInclude(R"(#\s*include\s*[<"]([^>"]+)[>"])");
  std::smatch match;
  if (std::regex_search(use.text, match, kInclude)) return absl::AsciiStrToLower(match[1].str());
  return absl::AsciiStrToLower(use.library);
}

// A failed build that the log ties to a missing library gets that library named first (a compiler's "file not
// found" says less); a build that succeeded despite the mention gets a note.
void ExplainMissingLibraries(const std::vector<LibraryUse>& missing, const std::vector<Toolchain>& tried,
                             const std::string& log, BuildResult& result) {
  const std::string lower_log = absl::AsciiStrToLower(log);
  std::vector<BuildError> explained;
  std::vector<std::string> unneeded;
  for (const LibraryUse& use : missing) {
    if (!result.ok && absl::StrContains(lower_log, LibraryLogKey(use))) {
      explained.push_back({.path = use.file.string(), .line = use.line, .message = MissingLibraryMessage(use, tried)});
    } else if (result.ok) {
      unneeded.push_back(absl::StrCat(use.file.string(), ":", use.line, " (", use.library, ")"));
    }
  }
  if (!explained.empty()) {
    result.errors.insert(result.errors.begin(), explained.begin(), explained.end());
    result.log_excerpt = absl::StrCat(explained.front().message, "\n", result.log_excerpt);
  }
  if (!unneeded.empty()) {
    absl::StrAppend(&result.note, result.note.empty() ? "" : "; ", "built without libraries the toolchain lacks, ",
                    "which the tree mentions: ", absl::StrJoin(unneeded, ", "));
  }
}

}  // namespace

absl::Status Validator::BuildArchs(State& state) {
  const ValidationRequest& request = state.request;
  for (const std::string& requested : state.archs) {
    if (Cancelled(request)) return absl::OkStatus();
    ToolchainChoice choice = ChooseToolchain(requested, request.hip_release, state.needed_libraries, state.toolchains);
    ArchBuild build;
    build.toolchain = choice.toolchain;
    build.result.requested_arch = requested;
    build.result.toolchain = choice.toolchain->Describe();
    build.result.arch = choice.arch.arch;
    if (choice.arch.arch.empty() && choice.toolchain->probe.offload_archs.empty()) {
      build.result.arch = requested;  // targets unknown: try what was asked for
    }
    build.result.note =
        absl::StrJoin({choice.arch.note, choice.note}, choice.arch.note.empty() || choice.note.empty() ? "" : "; ");
    // A library no toolchain has is not a reason to skip the build: ggml mentions RCCL under an #ifdef it never
    // takes and rocBLAS in a backend directory its configure never enters. The build says whether it was needed.
    build.missing_libraries = std::move(choice.missing);
    const std::string& arch = build.result.arch;
    const ArchBuild* earlier = nullptr;
    for (const ArchBuild& b : state.builds) {
      if (!arch.empty() && b.result.arch == arch && b.toolchain == build.toolchain) earlier = &b;
    }
    if (arch.empty() || earlier != nullptr) {
      if (earlier != nullptr) {
        // Two requests map to the same target: report the first build's outcome for this one too.
        const std::string note = build.result.note;
        build.result = earlier->result;
        build.result.requested_arch = requested;
        build.result.note = note;
      }
      state.builds.push_back(std::move(build));
      continue;
    }
    BuildOne(state, build);
    if (Cancelled(request)) return absl::OkStatus();
    if (build.result.ok) state.built_archs.insert(arch);
    state.builds.push_back(std::move(build));
  }
  for (const ArchBuild& b : state.builds) state.report.builds.push_back(b.result);
  return absl::OkStatus();
}

void Validator::BuildOne(State& state, ArchBuild& build) {
  const ValidationRequest& request = state.request;
  const Toolchain& toolchain = *build.toolchain;
  const std::string& arch = build.result.arch;
  // Per toolchain and arch: the same arch may be built by two toolchains for two requests.
  const std::string arch_name = TargetDirectoryName(arch);
  const fs::path arch_dir =
      state.work_dir / (state.toolchains.size() > 1 ? toolchain.name + "-" + arch_name : arch_name);
  build.source_dir = arch_dir / "src";
  build.build_dir = arch_dir / "build";
  if (auto copied = CopyTree(request.translated_tree, build.source_dir); !copied.ok()) {
    build.result.errors.push_back({.message = std::string(copied.message())});
    return;
  }
  Progress(state.progress, "build",
           absl::StrCat("building for ", arch,
                        arch != build.result.requested_arch ? " (requested " + build.result.requested_arch + ")" : "",
                        " with ", build.result.toolchain));
  ExecutionContext context = BuildContext(state, toolchain);

  TreeBuilder builder(launcher_,
                      BuildToolchain{.hipcc = toolchain.hipcc,
                                     .c_compiler = toolchain.probe.c_compiler,
                                     .label = build.result.toolchain,
                                     .parallel_jobs = options_.parallel_jobs,
                                     .rootfs = toolchain.rootfs},
                      request.cancelled);
  BuildOutcome outcome = builder.Build({.source_dir = build.source_dir,
                                        .build_dir = build.build_dir,
                                        .arch = arch,
                                        .manifest = &state.manifest,
                                        .timeout = BuildTimeout(state)},
                                       context);
  auto mapper = SourceMapper::Create(build.source_dir, request.original_tree, request.line_map);
  build.result.ok = outcome.ok;
  build.result.duration_ms = outcome.duration_ms;
  build.result.kernels = outcome.kernels;
  if (mapper.ok()) build.result.errors = MapBuildErrors(outcome.errors, *mapper, outcome.compiler_cwd);
  if (!outcome.ok && build.result.errors.empty()) build.result.errors.push_back({.message = outcome.failure});
  if (!outcome.ok) build.result.log_excerpt = outcome.log_excerpt;
  ExplainMissingLibraries(build.missing_libraries, state.toolchains, outcome.log, build.result);
  build.has_ctest = outcome.has_ctest;
  build.roots = outcome.built_roots;
  std::ofstream(arch_dir / "build.log") << outcome.log;
  Progress(state.progress, "build",
           absl::StrCat(arch, outcome.ok ? " built" : " failed: " + outcome.failure, ", ", outcome.kernels.size(),
                        " kernels, ", outcome.duration_ms, " ms"));
}

std::chrono::milliseconds Validator::BuildTimeout(const State& state) const {
  if (state.manifest.build.timeout)
    return std::chrono::duration_cast<std::chrono::milliseconds>(*state.manifest.build.timeout);
  return options_.build_timeout;
}

ExecutionContext Validator::BuildContext(const State& state, const Toolchain& toolchain) const {
  ExecutionContext context;
  JobEnvironmentInput env_input{.device = nullptr,
                                .visibility = options_.visibility,
                                .requested = state.manifest.env,
                                .work_dir = state.work_dir};
  if (toolchain.hipcc.has_parent_path()) env_input.path_prefix.push_back(toolchain.hipcc.parent_path());
  context.environment = BuildJobEnvironment(env_input).variables;
  if (state.sandbox_ok) {
    context.sandbox =
        SandboxSpec{.work_dir = state.work_dir, .root = toolchain.rootfs, .read_only_paths = toolchain.sandbox_paths};
  }
  context.cancelled = state.request.cancelled;
  return context;
}

}  // namespace hipforge::validate
