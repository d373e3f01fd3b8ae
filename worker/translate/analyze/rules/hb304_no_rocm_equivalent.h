#pragma once
#include "worker/translate/analyze/rule.h"
#include "worker/translate/tables/mapping_index.h"

namespace hipforge::translate::analyze {

// HB304: libraries and APIs with no ROCm equivalent (NPP, nvJPEG, NVSHMEM, cuFile/GDS, OptiX, NVML, nvGRAPH,
// nvCOMP, cuDSS, ...). Token rule: the #include line, or the first call per function when the header comes in
// through another file. With the mapping tables: every call of a function that the tables mark unsupported in
// HIP with no ROCm-library (roc_name) alternative either.
class NoRocmEquivalentRule final : public Rule {
 public:
  NoRocmEquivalentRule(FindingSink& sink, const MappingIndex* mappings) : Rule(sink), mappings_(mappings) {}
  const RuleInfo& info() const override;
  void CheckTokens(const TextFile& file) override;

 private:
  void CheckUnsupportedCalls(const TextFile& file);
  const MappingIndex* mappings_;  // may be null (no table lookups)
};

}  // namespace hipforge::translate::analyze
