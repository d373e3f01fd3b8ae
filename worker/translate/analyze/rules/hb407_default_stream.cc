#include "worker/translate/analyze/rules/hb407_default_stream.h"

#include "worker/translate/analyze/rule_ids.h"

namespace hipforge::translate::analyze {

const RuleInfo& DefaultStreamRule::info() const {
  static const RuleInfo kInfo{kRuleDefaultStream, Severity::kWarning, RuleClass::kRuntime,
                              "Per-thread and legacy default streams"};
  return kInfo;
}

const IdentifierUseRule::Spec& DefaultStreamRule::spec() const {
  static const Spec kSpec{
      {{"cudaStreamPerThread", false},
       {"cudaStreamLegacy", false},
       {"CU_STREAM_PER_THREAD", false},
       {"CU_STREAM_LEGACY", false},
       {"CUDA_API_PER_THREAD_DEFAULT_STREAM", false},
       {"cudaStreamGetCaptureInfo_ptsz", false}},
      Granularity::kEveryUse,
      "{name}: per-thread/legacy default-stream semantics: HIP's null stream synchronizes differently and per-thread "
      "default streams need HIP_API_PER_THREAD_DEFAULT_STREAM / hipStreamPerThread",
      "Use hipStreamPerThread (and compile with -fgpu-default-stream=per-thread where the whole program relies on it), "
      "or explicit streams; do not rely on legacy-stream implicit synchronization."};
  return kSpec;
}

}  // namespace hipforge::translate::analyze
