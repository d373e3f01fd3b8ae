#include "worker/translate/analyze/rules/hb305_curand_sequence.h"

#include "worker/translate/analyze/rule_ids.h"

namespace hipforge::translate::analyze {

const RuleInfo& CurandSequenceRule::info() const {
  static const RuleInfo kInfo{kRuleCurandSequence, Severity::kWarning, RuleClass::kLibrary,
                              "cuRAND generators whose sequences differ under hipRAND"};
  return kInfo;
}

const IdentifierUseRule::Spec& CurandSequenceRule::spec() const {
  static const Spec kSpec{{{"curandCreateGenerator", false},
                           {"curandCreateGeneratorHost", false},
                           {"curand_init", false},
                           {"curandMakeMTGP32KernelState", false},
                           {"curandMakeMTGP32Constants", false}},
                          Granularity::kEveryCall,
                          "{name}: hipRAND/rocRAND generators do not reproduce cuRAND's sequences bit for bit "
                          "(seeding, offsets and MTGP32/Sobol/XORWOW state layouts differ)",
                          "Compare random-dependent results statistically (distribution moments, tolerances), not "
                          "bitwise; keep seeds, but do not expect identical streams."};
  return kSpec;
}

}  // namespace hipforge::translate::analyze
