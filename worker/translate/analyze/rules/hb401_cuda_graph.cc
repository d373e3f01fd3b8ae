#include "worker/translate/analyze/rules/hb401_cuda_graph.h"

#include "worker/translate/analyze/rule_ids.h"

namespace hipforge::translate::analyze {

const RuleInfo& CudaGraphRule::info() const {
  static const RuleInfo kInfo{kRuleCudaGraph, Severity::kWarning, RuleClass::kRuntime,
                              "CUDA graphs and stream capture"};
  return kInfo;
}

const IdentifierUseRule::Spec& CudaGraphRule::spec() const {
  static const Spec kSpec{
      {{"cudaStreamBeginCapture", false},
       {"cudaStreamEndCapture", false},
       {"cudaStreamIsCapturing", false},
       {"cudaStreamGetCaptureInfo", true},
       {"cudaGraph", true},
       {"cudaThreadExchangeStreamCaptureMode", false},
       {"cudaUserObject", true},
       {"cuGraph", true},
       {"cuStreamBeginCapture", false}},
      Granularity::kFirstPerScope,
      "{name}: CUDA graphs/stream capture: hipGraph supports a subset (conditional, memory and some kernel-attribute "
      "nodes are missing or differ by ROCm release) and capture rules are stricter",
      "Check every graph/capture API used against the target ROCm's hipGraph support list; keep an eager (non-graph) "
      "path for comparison."};
  return kSpec;
}

}  // namespace hipforge::translate::analyze
