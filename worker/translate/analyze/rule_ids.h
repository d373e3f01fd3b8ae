#pragma once
// Every analyzer rule's id, one constant each (no Clang headers): each rule's RuleInfo (rules/) and every other
// part that names a rule (the repository pass's build-file rewriters, the effort model, the migration's hints)
// read them here. The translator's own ids (TR001-TR014) are worker/translate/core/name_resolver.h's.

namespace hipforge::translate {

inline constexpr char kRuleWarpSizeLiteral[] = "HB101";
inline constexpr char kRuleFullLaneMask[] = "HB102";
inline constexpr char kRuleBallotWidth[] = "HB103";
inline constexpr char kRuleShuffleOffsets[] = "HB104";
inline constexpr char kRuleTileOf32[] = "HB105";
inline constexpr char kRuleLaneIdRange[] = "HB106";
inline constexpr char kRuleLaunchWarpSize[] = "HB107";
inline constexpr char kRuleInlinePtx[] = "HB201";
inline constexpr char kRuleTensorCore[] = "HB202";
inline constexpr char kRuleCacheHintAccess[] = "HB203";
inline constexpr char kRuleComputeCapabilityGate[] = "HB204";
inline constexpr char kRuleSharedMemorySize[] = "HB205";
inline constexpr char kRuleMi300Texture[] = "HB206";
inline constexpr char kRuleMi300OcpFp8[] = "HB207";
inline constexpr char kRuleGemmEx[] = "HB301";
inline constexpr char kRuleCublasLt[] = "HB302";
inline constexpr char kRuleTf32MathMode[] = "HB303";
inline constexpr char kRuleNoRocmEquivalent[] = "HB304";
inline constexpr char kRuleCurandSequence[] = "HB305";
inline constexpr char kRuleCudaGraph[] = "HB401";
inline constexpr char kRulePageableAsyncCopy[] = "HB402";
inline constexpr char kRuleMemoryPool[] = "HB403";
inline constexpr char kRuleManagedMemory[] = "HB404";
inline constexpr char kRuleTextureReference[] = "HB405";
inline constexpr char kRuleMemoryOrdering[] = "HB406";
inline constexpr char kRuleDefaultStream[] = "HB407";
inline constexpr char kRuleDriverModule[] = "HB408";
inline constexpr char kRuleNvccFlags[] = "HB501";
inline constexpr char kRuleCudaCmake[] = "HB502";
inline constexpr char kRuleCudaEnvVar[] = "HB503";
inline constexpr char kRuleNvidiaTool[] = "HB504";
inline constexpr char kRuleOutsideTreePath[] = "HB505";

}  // namespace hipforge::translate
