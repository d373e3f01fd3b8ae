// A stage of Validator::Validate (validator.cc runs the list; validator_state.h holds the State it extends).
#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "worker/validate/compiler_diagnostics.h"
#include "worker/validate/job_environment.h"
#include "worker/validate/source_map.h"
#include "worker/validate/tree_builder.h"
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
    build.result.note = absl::StrJoin({choice.arch.note, choice.note}, choice.arch.note.empty() || choice.note.empty()
                                                                           ? "" : "; ");
    if (!choice.missing.empty()) {
      // A library no toolchain has: say which and where, instead of a compiler's "file not found".
      for (const LibraryUse& use : choice.missing) {
        build.result.errors.push_back({.path = use.file.string(), .line = use.line,
                                       .message = MissingLibraryMessage(use, state.toolchains)});
      }
      build.result.log_excerpt = build.result.errors.front().message;
      Progress(state.progress, "build", absl::StrCat(requested, " not built: ", build.result.log_excerpt));
      state.builds.push_back(std::move(build));
      continue;
    }
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
  const fs::path arch_dir = state.work_dir / (state.toolchains.size() > 1 ? toolchain.name + "-" + arch : arch);
  build.source_dir = arch_dir / "src";
  build.build_dir = arch_dir / "build";
  if (auto copied = CopyTree(request.translated_tree, build.source_dir); !copied.ok()) {
    build.result.errors.push_back({.message = std::string(copied.message())});
    return;
  }
  Progress(state.progress, "build",
           absl::StrCat("building for ", arch, arch != build.result.requested_arch
                                                   ? " (requested " + build.result.requested_arch + ")" : "",
                        " with ", build.result.toolchain));
  ExecutionContext context = BuildContext(state, toolchain);

  TreeBuilder builder(launcher_, BuildToolchain{.hipcc = toolchain.hipcc, .label = build.result.toolchain,
                                                .parallel_jobs = options_.parallel_jobs, .rootfs = toolchain.rootfs},
                      request.cancelled);
  BuildOutcome outcome = builder.Build({.source_dir = build.source_dir, .build_dir = build.build_dir, .arch = arch,
                                        .manifest = &state.manifest, .timeout = options_.build_timeout},
                                       context);
  auto mapper = SourceMapper::Create(build.source_dir, request.original_tree, request.line_map);
  build.result.ok = outcome.ok;
  build.result.duration_ms = outcome.duration_ms;
  build.result.kernels = outcome.kernels;
  if (mapper.ok()) build.result.errors = MapBuildErrors(outcome.errors, *mapper, outcome.compiler_cwd);
  if (!outcome.ok && build.result.errors.empty()) build.result.errors.push_back({.message = outcome.failure});
  if (!outcome.ok) build.result.log_excerpt = outcome.log_excerpt;
  build.has_ctest = outcome.has_ctest;
  build.roots = outcome.built_roots;
  std::ofstream(arch_dir / "build.log") << outcome.log;
  Progress(state.progress, "build",
           absl::StrCat(arch, outcome.ok ? " built" : " failed: " + outcome.failure, ", ", outcome.kernels.size(),
                        " kernels, ", outcome.duration_ms, " ms"));
}

ExecutionContext Validator::BuildContext(const State& state, const Toolchain& toolchain) const {
  ExecutionContext context;
  JobEnvironmentInput env_input{.device = nullptr, .visibility = options_.visibility,
                                .requested = state.manifest.env, .work_dir = state.work_dir};
  if (toolchain.hipcc.has_parent_path()) env_input.path_prefix.push_back(toolchain.hipcc.parent_path());
  context.environment = BuildJobEnvironment(env_input).variables;
  if (state.sandbox_ok) {
    context.sandbox = SandboxSpec{.work_dir = state.work_dir, .root = toolchain.rootfs,
                                  .read_only_paths = toolchain.sandbox_paths};
  }
  context.cancelled = state.request.cancelled;
  return context;
}

}  // namespace hipforge::validate
