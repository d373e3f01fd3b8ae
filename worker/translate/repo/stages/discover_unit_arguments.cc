#include "worker/translate/repo/stages/discover_unit_arguments.h"

#include "worker/translate/core/pch_cache.h"
#include "worker/translate/repo/build_commands.h"
#include "worker/translate/repo/build_commands_cache.h"

namespace hipforge::translate {
namespace fs = std::filesystem;

absl::Status DiscoverUnitArguments(MigrationState& state, const MigrationTools& tools) {
  const MigrationOptions& options = state.options;
  const fs::path& input = state.trees->input;
  UnitArguments& arguments = state.unit_arguments.emplace();
  TranslateOptions& translate_options = arguments.translate_options;
  translate_options = options.translate;
  if (!options.discover_build_commands || translate_options.compilation_database ||
      state.plan->needs_translator.empty() || fs::exists(input / "compile_commands.json") ||
      fs::exists(input / "build" / "compile_commands.json")) {
    return absl::OkStatus();
  }
  state.Report("build-commands", 0, 1, "");
  const ScratchDirectory& scratch = arguments.scratch.emplace();
  BuildDiscoveryOptions discovery_options;
  discovery_options.scratch = scratch.path();
  discovery_options.cmake_options = options.cmake_options;
  // Beside the PCHs: kept across jobs and runs, as they are (each job's configure skips CMake's compiler checks).
  discovery_options.compiler_checks_directory = PchDirectoryFor(translate_options) / "cmake-compiler-checks";
  if (translate_options.frontend.cuda_path) discovery_options.cuda_path = *translate_options.frontend.cuda_path;
  const BuildDiscoveryCache discovery_cache(
      options.translate.cache_directory ? *options.translate.cache_directory / "build-commands" : fs::path());
  const std::string discovery_key = BuildDiscoveryKey(state.files->contents, state.files->kinds, discovery_options);
  std::optional<BuildDiscovery> cached_discovery = discovery_cache.Lookup(discovery_key, scratch.path());
  BuildDiscovery discovery =
      cached_discovery ? std::move(*cached_discovery) : DiscoverBuildCommands(tools.launcher, input, discovery_options);
  if (!cached_discovery) discovery_cache.Store(discovery_key, discovery);
  state.result.notes.insert(state.result.notes.end(), discovery.notes.begin(), discovery.notes.end());
  if (discovery.compile_commands) {
    translate_options.compilation_database = *discovery.compile_commands;
    translate_options.compilation_database_source =
        discovery.tool == "cmake" ? ArgumentSource::kCMake : ArgumentSource::kMakefile;
  }
  state.Report("build-commands", 1, 1, discovery.tool);
  return absl::OkStatus();
}

}  // namespace hipforge::translate
