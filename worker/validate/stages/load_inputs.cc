// A stage of Validator::Validate (validator.cc runs the list; validator_state.h holds the State it extends).
#include "worker/validate/validator.h"
#include "worker/validate/validator_state.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

absl::Status Validator::LoadInputs(State& state) {
  const ValidationRequest& request = state.request;
  if (!fs::is_directory(request.translated_tree)) {
    return absl::InvalidArgumentError("translated tree not found: " + request.translated_tree.string());
  }
  if (request.work_dir.empty()) return absl::InvalidArgumentError("work_dir is required");
  std::error_code ec;
  state.work_dir = fs::absolute(request.work_dir);
  fs::create_directories(state.work_dir / "tmp", ec);

  const fs::path manifest_path =
      !request.manifest.empty() ? request.manifest : request.translated_tree / "hipforge.yaml";
  if (fs::exists(manifest_path)) {
    auto loaded = LoadManifest(manifest_path);
    if (!loaded.ok()) return loaded.status();
    state.manifest = std::move(*loaded);
  } else if (!request.manifest.empty()) {
    return absl::NotFoundError("manifest not found: " + request.manifest.string());
  }
  // CUDA references: the explicit dir, else the manifest's directory in the repository.
  state.references_dir = request.references_dir;
  if (state.references_dir.empty()) {
    const fs::path repository = !request.original_tree.empty() ? request.original_tree : request.translated_tree;
    state.references_dir = state.manifest.references.empty() ? repository : repository / state.manifest.references;
  }
  state.archs = request.requested_archs;
  if (state.archs.empty()) state.archs = state.manifest.targets;
  if (state.archs.empty()) state.archs = {"gfx90a"};
  return absl::OkStatus();
}

}  // namespace hipforge::validate
