#pragma once
#include <map>
#include <optional>
#include <set>

#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB107: a kernel whose __launch_bounds__ are sized with a compile-time warp size of 32 (a constexpr function,
// constant or macro named like the warp size) while a host function that launches it reads the warp size at run
// time (a device property, cudaDevAttrWarpSize, a field named warp_size), or takes the block's shape from a caller
// that does: 32 and 32 on NVIDIA, 32 and 64 on MI250/MI300, where the launch fails. Silent when the constant's 32
// sits in a preprocessor branch that hipcc's own macros (__HIP_PLATFORM_AMD__, __AMDGCN_WAVEFRONT_SIZE, __GFX9__
// ...) steer away from.
class LaunchWarpSizeRule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void RegisterMatchers(clang::ast_matchers::MatchFinder& finder) override;
  void Check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
  void onEndOfTranslationUnit() override;

 private:
  struct BoundedKernel {
    const clang::FunctionDecl* kernel = nullptr;
    long long threads = 0;       // the bound's value
    std::string warp_name;       // the compile-time warp size it is written with
    std::string project_switch;  // a project macro (GGML_USE_HIP) that alone would give 64; "" if none
  };
  struct Evidence {
    const clang::FunctionDecl* launcher = nullptr;
    const clang::FunctionDecl* caller = nullptr;  // the launcher's caller that read it; null: the launcher did
    std::string what;                             // ".warp_size", "cudaDevAttrWarpSize", ...
    clang::SourceLocation location;
  };
  using CallersOf = std::map<const clang::FunctionDecl*, std::set<const clang::FunctionDecl*>>;
  std::optional<Evidence> FindEvidence(const std::set<const clang::FunctionDecl*>& launchers,
                                       const CallersOf& callers) const;
  void Report(const BoundedKernel& bounded, const Evidence& evidence);

  // Keyed by the kernel as written (a template's pattern, not each instantiation).
  std::map<const clang::FunctionDecl*, BoundedKernel> kernels_;
  const clang::SourceManager* source_manager_ = nullptr;
  clang::ASTContext* context_ = nullptr;
};

}  // namespace hipforge::translate::analyze
