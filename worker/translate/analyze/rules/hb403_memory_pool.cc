#include "worker/translate/analyze/rules/hb403_memory_pool.h"

#include "worker/translate/analyze/rule_ids.h"

namespace hipforge::translate::analyze {

const RuleInfo& MemoryPoolRule::info() const {
  static const RuleInfo kInfo{kRuleMemoryPool, Severity::kWarning, RuleClass::kRuntime,
                              "Stream-ordered allocation and memory pools"};
  return kInfo;
}

const IdentifierUseRule::Spec& MemoryPoolRule::spec() const {
  static const Spec kSpec{{{"cudaMallocAsync", false},
                           {"cudaFreeAsync", false},
                           {"cudaMallocFromPoolAsync", false},
                           {"cudaMemPool", true},
                           {"cudaDeviceSetMemPool", false},
                           {"cudaDeviceGetMemPool", false},
                           {"cudaDeviceGetDefaultMemPool", false},
                           {"cuMemAllocAsync", false},
                           {"cuMemFreeAsync", false},
                           {"cuMemPool", true}},
                          Granularity::kFirstPerScope,
                          "{name}: stream-ordered allocation/memory pools: hipMallocAsync and hipMemPool* exist only "
                          "on newer ROCm and pool attributes (release threshold, IPC export) differ",
                          "Require ROCm >= 5.3 (hipMallocAsync) and check each pool attribute; otherwise replace with "
                          "hipMalloc/hipFree outside the hot loop."};
  return kSpec;
}

}  // namespace hipforge::translate::analyze
