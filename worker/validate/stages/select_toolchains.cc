// A stage of Validator::Validate (validator.cc runs the list; validator_state.h holds the State it extends).
#include "absl/strings/str_cat.h"
#include "worker/validate/validator.h"
#include "worker/validate/validator_state.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

absl::Status Validator::SelectToolchains(State& state) {
  state.needed_libraries = FindLibraryUses(state.request.translated_tree);
  for (const Toolchain& toolchain : options_.toolchains) {
    // A root filesystem is only entered through bubblewrap.
    if (toolchain.rootfs.empty() || state.sandbox_ok) state.toolchains.push_back(toolchain);
  }
  if (!state.toolchains.empty()) return absl::OkStatus();
  // No probed toolchain: the host's hipcc, with the archs the inventory reports for it.
  Toolchain host{.name = "host", .hipcc = options_.hipcc, .description = inventory_.ToolchainName()};
  if (auto targets = inventory_.CompileTargets(); targets.ok()) {
    host.probe.offload_archs = *targets;
  } else {
    state.report.gpu.warnings.push_back(absl::StrCat("toolchain targets unknown: ", targets.status().message()));
  }
  state.toolchains.push_back(std::move(host));
  return absl::OkStatus();
}

}  // namespace hipforge::validate
