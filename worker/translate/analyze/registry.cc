#include "worker/translate/analyze/registry.h"

#include "worker/translate/analyze/rules/hb101_warp_size_literal.h"
#include "worker/translate/analyze/rules/hb102_full_lane_mask.h"
#include "worker/translate/analyze/rules/hb103_ballot_width.h"
#include "worker/translate/analyze/rules/hb104_shuffle_offsets.h"
#include "worker/translate/analyze/rules/hb105_tile_of_32.h"
#include "worker/translate/analyze/rules/hb106_lane_id_range.h"
#include "worker/translate/analyze/rules/hb107_launch_warp_size.h"
#include "worker/translate/analyze/rules/hb201_inline_ptx.h"
#include "worker/translate/analyze/rules/hb202_tensor_core.h"
#include "worker/translate/analyze/rules/hb203_cache_hint_access.h"
#include "worker/translate/analyze/rules/hb204_compute_capability_gate.h"
#include "worker/translate/analyze/rules/hb205_shared_memory_size.h"
#include "worker/translate/analyze/rules/hb206_mi300_texture.h"
#include "worker/translate/analyze/rules/hb207_mi300_ocp_fp8.h"
#include "worker/translate/analyze/rules/hb301_gemm_ex.h"
#include "worker/translate/analyze/rules/hb302_cublas_lt.h"
#include "worker/translate/analyze/rules/hb303_tf32_math_mode.h"
#include "worker/translate/analyze/rules/hb304_no_rocm_equivalent.h"
#include "worker/translate/analyze/rules/hb305_curand_sequence.h"
#include "worker/translate/analyze/rules/hb401_cuda_graph.h"
#include "worker/translate/analyze/rules/hb402_pageable_async_copy.h"
#include "worker/translate/analyze/rules/hb403_memory_pool.h"
#include "worker/translate/analyze/rules/hb404_managed_memory.h"
#include "worker/translate/analyze/rules/hb405_texture_reference.h"
#include "worker/translate/analyze/rules/hb406_memory_ordering.h"
#include "worker/translate/analyze/rules/hb407_default_stream.h"
#include "worker/translate/analyze/rules/hb408_driver_module.h"
#include "worker/translate/analyze/rules/hb501_nvcc_flags.h"
#include "worker/translate/analyze/rules/hb502_cuda_cmake.h"
#include "worker/translate/analyze/rules/hb503_cuda_env_var.h"
#include "worker/translate/analyze/rules/hb504_nvidia_tool.h"
#include "worker/translate/analyze/rules/hb505_outside_tree_path.h"

namespace hipforge::translate::analyze {
namespace {

// Every rule, in catalog order. Adding a rule means adding it here (and its doc page and golden test).
std::vector<std::unique_ptr<Rule>> AllRules(FindingSink& sink, const MappingIndex* mappings,
                                            std::span<const std::string> target_architectures) {
  std::vector<std::unique_ptr<Rule>> all;
  all.push_back(std::make_unique<WarpSizeLiteralRule>(sink));
  all.push_back(std::make_unique<FullLaneMaskRule>(sink));
  all.push_back(std::make_unique<BallotWidthRule>(sink));
  all.push_back(std::make_unique<ShuffleOffsetsRule>(sink));
  all.push_back(std::make_unique<TileOf32Rule>(sink));
  all.push_back(std::make_unique<LaneIdRangeRule>(sink));
  all.push_back(std::make_unique<LaunchWarpSizeRule>(sink));
  all.push_back(std::make_unique<InlinePtxRule>(sink));
  all.push_back(std::make_unique<TensorCoreRule>(sink));
  all.push_back(std::make_unique<CacheHintAccessRule>(sink));
  all.push_back(std::make_unique<ComputeCapabilityGateRule>(sink));
  all.push_back(std::make_unique<SharedMemorySizeRule>(sink));
  all.push_back(std::make_unique<Mi300TextureRule>(sink, target_architectures));
  all.push_back(std::make_unique<Mi300OcpFp8Rule>(sink, target_architectures));
  all.push_back(std::make_unique<GemmExRule>(sink));
  all.push_back(std::make_unique<CublasLtRule>(sink));
  all.push_back(std::make_unique<Tf32MathModeRule>(sink));
  all.push_back(std::make_unique<NoRocmEquivalentRule>(sink, mappings));
  all.push_back(std::make_unique<CurandSequenceRule>(sink));
  all.push_back(std::make_unique<CudaGraphRule>(sink));
  all.push_back(std::make_unique<PageableAsyncCopyRule>(sink));
  all.push_back(std::make_unique<MemoryPoolRule>(sink));
  all.push_back(std::make_unique<ManagedMemoryRule>(sink));
  all.push_back(std::make_unique<TextureReferenceRule>(sink));
  all.push_back(std::make_unique<MemoryOrderingRule>(sink));
  all.push_back(std::make_unique<DefaultStreamRule>(sink));
  all.push_back(std::make_unique<DriverModuleRule>(sink));
  all.push_back(std::make_unique<NvccFlagsRule>(sink, target_architectures));
  all.push_back(std::make_unique<CudaCmakeRule>(sink, target_architectures));
  all.push_back(std::make_unique<CudaEnvVarRule>(sink));
  all.push_back(std::make_unique<NvidiaToolRule>(sink));
  all.push_back(std::make_unique<OutsideTreePathRule>(sink));
  return all;
}

}  // namespace

std::vector<std::unique_ptr<Rule>> MakeRules(FindingSink& sink, const std::set<std::string>& disabled,
                                             const MappingIndex* mappings,
                                             std::span<const std::string> target_architectures) {
  auto all = AllRules(sink, mappings, target_architectures);
  std::vector<std::unique_ptr<Rule>> enabled;
  for (auto& rule : all) {
    if (!disabled.count(rule->info().id)) enabled.push_back(std::move(rule));
  }
  return enabled;
}

std::vector<RuleInfo> AllRuleInfos() {
  FindingSink unused{std::filesystem::path("/")};
  std::vector<RuleInfo> infos;
  for (const auto& rule : AllRules(unused, nullptr, {})) infos.push_back(rule->info());
  return infos;
}

}  // namespace hipforge::translate::analyze
