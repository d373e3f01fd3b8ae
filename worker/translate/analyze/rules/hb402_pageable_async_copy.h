#pragma once
#include <map>
#include <set>
#include <vector>

#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

// HB402: cudaMemcpyAsync (and 2D/symbol variants) with host memory that is provably NOT pinned: every value
// the pointer can hold comes from malloc/new/std::vector/a stack or static array, and it is never
// cudaHostRegister'ed. Anything unknown (a parameter fed from unknown callers, a library call, an escaping
// address, cudaMallocHost/cudaHostAlloc) stays silent, as do device-to-device copies.
class PageableAsyncCopyRule final : public Rule {
 public:
  using Rule::Rule;
  const RuleInfo& info() const override;
  void RegisterMatchers(clang::ast_matchers::MatchFinder& finder) override;
  void Check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
  void onEndOfTranslationUnit() override;

 private:
  enum class Verdict { kPageable, kNotProvable };
  struct Sources {
    std::vector<const clang::Expr*> values;  // assigned/initialized values and caller arguments
    bool not_pageable = false;               // allocated by a pinned/device allocator through &p
    bool escapes = false;                    // address passed to something unknown
  };
  struct Copy {
    const clang::CallExpr* call;
    std::vector<const clang::Expr*> host_arguments;
  };

  Verdict Classify(const clang::Expr* expr, int depth, std::set<const clang::ValueDecl*>& visiting) const;
  Verdict Resolve(const clang::ValueDecl* decl, int depth, std::set<const clang::ValueDecl*>& visiting) const;
  std::string Describe(const clang::Expr* expr) const;

  const clang::ASTContext* context_ = nullptr;
  std::map<const clang::ValueDecl*, Sources> sources_;
  std::set<const clang::ValueDecl*> registered_;
  std::vector<Copy> copies_;
};

}  // namespace hipforge::translate::analyze
