#pragma once
// What one validation is asked (ValidationRequest) and where its progress goes (ProgressSink): validator.h's
// Validator takes them; its stages' state (validator_state.h) holds them.
#include <atomic>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace hipforge::validate {

// Progress callback; the worker forwards it to the server. Must be thread-safe.
class ProgressSink {
 public:
  virtual ~ProgressSink() = default;
  // stage: "build", "test", "parity", "profile"; message: human readable.
  virtual void Report(std::string_view stage, std::string_view message) = 0;
};

struct ValidationRequest {
  std::string job_id;
  std::filesystem::path translated_tree;     // root of the HIP tree (read; built out of tree)
  std::vector<std::string> requested_archs;  // e.g. {"gfx90a", "gfx942"}
  // Manifest; when empty, <translated_tree>/hipforge.yaml is used if it exists.
  std::filesystem::path manifest;
  // CUDA reference outputs (golden files) and optional cuda_timings.csv. Empty: the manifest's
  // `references` directory inside the repository (original_tree, else translated_tree), by default the
  // repository root.
  std::filesystem::path references_dir;
  // Scratch space for this job (build dirs, outputs, logs). Created if missing.
  std::filesystem::path work_dir;
  // Optional translator line map (translated path:line -> original path:line), JSON lines.
  std::filesystem::path line_map;
  // Original CUDA tree; used to map diagnostics back when there is no line map.
  std::filesystem::path original_tree;
  // The analyzer found managed memory (HB404): tests get HSA_XNACK=1.
  bool managed_memory_found = false;
  // Set from another thread when the job was cancelled: Validate stops at the next step with Cancelled.
  const std::atomic<bool>* cancelled = nullptr;
  // The job's HIP release ("6.4", JobOptions.hip_version): builds prefer a toolchain of that release.
  // Empty: the newest toolchain that covers the arch (the one the translator defaulted to).
  std::string hip_release;
};

}  // namespace hipforge::validate
