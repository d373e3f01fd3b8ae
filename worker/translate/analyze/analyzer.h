#pragma once
// AMD-semantics analyzer: rules HBxxx over CUDA sources (AST) and build files/scripts (tokens/lines).
#include <filesystem>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "worker/translate/frontend/cuda_frontend.h"
#include "worker/translate/translation_types.h"

namespace hipforge::translate {

struct AnalyzeOptions {
  CudaFrontendOptions frontend;
  unsigned jobs = 0;  // 0: hardware concurrency
};

struct FileEffort {
  std::string path;
  double engineer_hours = 0;
  std::map<std::string, int> findings_by_severity;
};

struct EffortEstimate {
  double engineer_hours = 0;
  double automatic_share = 1.0;  // share of CUDA references translated automatically
  std::map<std::string, int> findings_by_severity;
  std::vector<FileEffort> files;
};

struct AnalysisResult {
  std::vector<Finding> findings;  // locations in the ORIGINAL sources
};

class Analyzer {
 public:
  virtual ~Analyzer() = default;
  // Analyzes `files` (relative to `root`): CUDA sources/headers with AST rules, build files and scripts with
  // line rules. Files that do not parse still get the token-level rules.
  virtual absl::StatusOr<AnalysisResult> Analyze(const std::filesystem::path& root,
                                                 const std::vector<std::filesystem::path>& files,
                                                 const ProgressCallback& progress) = 0;
};

absl::StatusOr<std::unique_ptr<Analyzer>> CreateAnalyzer(AnalyzeOptions options);

// The documented effort model (docs/rules/effort-model.md), from findings and the translator's statistics.
EffortEstimate EstimateEffort(const std::vector<Finding>& findings, const std::vector<FileTranslation>& translations);

}  // namespace hipforge::translate
