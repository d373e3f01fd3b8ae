#include "worker/translate/analyze/rules/hb404_managed_memory.h"

#include "worker/translate/analyze/rule_ids.h"

namespace hipforge::translate::analyze {

const RuleInfo& ManagedMemoryRule::info() const {
  static const RuleInfo kInfo{kRuleManagedMemory, Severity::kWarning, RuleClass::kRuntime,
                              "Managed memory and memory advice"};
  return kInfo;
}

const IdentifierUseRule::Spec& ManagedMemoryRule::spec() const {
  static const Spec kSpec{
      {{"cudaMallocManaged", false},
       {"cudaMemAdvise", false},
       {"cudaMemPrefetchAsync", false},
       {"cudaMemRangeGetAttribute", true},
       {"cudaStreamAttachMemAsync", false},
       {"__managed__", false},
       {"cuMemAllocManaged", false},
       {"cuMemAdvise", false},
       {"cuMemPrefetchAsync", false}},
      Granularity::kFirstPerScope,
      "{name}: managed memory on MI250/MI300 migrates pages on GPU access only with XNACK (HSA_XNACK=1 and an xnack+ "
      "build); otherwise kernels fault or memory stays on the host",
      "Run with HSA_XNACK=1 and build for the xnack+ variant of each target (--offload-arch=<target>:xnack+), or "
      "replace with explicit device allocations and copies; hipMemAdvise hints differ."};
  return kSpec;
}

}  // namespace hipforge::translate::analyze
