#include "worker/translate/analyze/rules/hb408_driver_module.h"

#include "worker/translate/analyze/rule_ids.h"

namespace hipforge::translate::analyze {

const RuleInfo& DriverModuleRule::info() const {
  static const RuleInfo kInfo{kRuleDriverModule, Severity::kError, RuleClass::kRuntime,
                              "Driver-API contexts, PTX/cubin module loading and NVRTC PTX output"};
  return kInfo;
}

const IdentifierUseRule::Spec& DriverModuleRule::spec() const {
  static const Spec kSpec{{{"cuCtxCreate", true},
                           {"cuCtxDestroy", true},
                           {"cuCtxSetCurrent", false},
                           {"cuCtxGetCurrent", false},
                           {"cuCtxPushCurrent", true},
                           {"cuCtxPopCurrent", true},
                           {"cuDevicePrimaryCtx", true},
                           {"cuModuleLoad", true},
                           {"cuLinkCreate", true},
                           {"cuLinkAddData", true},
                           {"cuLinkAddFile", true},
                           {"cuLinkComplete", false},
                           {"nvrtcGetPTX", true},
                           {"nvrtcGetCUBIN", true},
                           {"nvrtcGetNVVM", true},
                           {"nvrtcGetLTOIR", true},
                           {"cudaLibraryLoad", true},
                           {"cuLibraryLoad", true}},
                          Granularity::kFirstPerScope,
                          "{name}: driver-API contexts and PTX/cubin modules: AMD GPUs load code objects (hsaco), HIP "
                          "contexts are deprecated, and NVRTC PTX output has no AMD counterpart",
                          "Load code objects produced by hiprtc (hiprtcGetCode) or hipcc --genco with hipModuleLoad*; "
                          "drop explicit context management (use the primary context via hipSetDevice); replace NVRTC "
                          "-arch=compute_XX options with --gpu-architecture=gfxXXX."};
  return kSpec;
}

}  // namespace hipforge::translate::analyze
