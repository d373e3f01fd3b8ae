#include "worker/translate/analyze/rules/hb205_shared_memory_size.h"

#include <algorithm>

#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "worker/translate/analyze/ast_helpers.h"
#include "worker/translate/analyze/rule_ids.h"

namespace hipforge::translate::analyze {
namespace {

using namespace clang::ast_matchers;

constexpr long long kLdsBytes = 65536;
constexpr const char* kFix =
    "Fit the workgroup's shared memory into 64 KiB: smaller tiles, fewer buffers, or keep part of the data in "
    "registers/global memory.";

// The functions with a definition that `stmt` calls (besides `self`), walked top-down from a function's body: a
// caller found from each call upwards needed the TU's parent index, whose building was 4.6% of a cold ggml
// translate's CPU in the analyzer's group parses, where this rule was its only user (bench/ggml/README.md, 2026-12-08).
void CollectCallees(const clang::Stmt* stmt, const clang::FunctionDecl* self,
                    std::set<const clang::FunctionDecl*>& callees) {
  if (!stmt) return;
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(stmt)) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (const clang::FunctionDecl* definition = callee ? callee->getDefinition() : nullptr;
        definition && definition != self) {
      callees.insert(definition);
    }
  }
  for (const clang::Stmt* child : stmt->children()) CollectCallees(child, self, callees);
}

}  // namespace

const RuleInfo& SharedMemorySizeRule::info() const {
  static const RuleInfo kInfo{kRuleSharedMemorySize, Severity::kError, RuleClass::kArchitecture,
                              "Shared memory beyond the 64 KiB LDS of a MI250/MI300 workgroup"};
  return kInfo;
}

void SharedMemorySizeRule::RegisterMatchers(MatchFinder& finder) {
  finder.addMatcher(varDecl(hasAttr(clang::attr::CUDAShared)).bind("shared"), this);
  finder.addMatcher(
      callExpr(callee(functionDecl(hasAnyName("cudaFuncSetAttribute", "cuFuncSetAttribute"))), argumentCountIs(3))
          .bind("attribute"),
      this);
  finder.addMatcher(cudaKernelCallExpr().bind("launch"), this);
  finder.addMatcher(functionDecl(isDefinition(), hasAttr(clang::attr::CUDAGlobal)).bind("kernel"), this);
}

void SharedMemorySizeRule::Check(const MatchFinder::MatchResult& result) {
  clang::ASTContext& context = *result.Context;
  const clang::SourceManager& sm = *result.SourceManager;
  source_manager_ = &sm;
  if (const auto* kernel = result.Nodes.getNodeAs<clang::FunctionDecl>("kernel")) {
    kernels_.push_back(kernel);
    return;
  }
  if (const auto* shared = result.Nodes.getNodeAs<clang::VarDecl>("shared")) {
    const clang::QualType type = shared->getType();
    if (type->isDependentType() || type->isIncompleteType() || !type->isConstantSizeType()) return;
    const long long bytes = context.getTypeSizeInChars(type).getQuantity();
    if (const auto* function = llvm::dyn_cast<clang::FunctionDecl>(shared->getDeclContext())) {
      FunctionUsage& usage = usage_[function];
      usage.own_bytes += bytes;
      usage.has_oversized_array |= bytes > kLdsBytes;
    }
    if (bytes <= kLdsBytes) return;
    Report(sm, shared->getLocation(), MacroPlacement::kUse,
           "__shared__ " + shared->getName().str() + " needs " + std::to_string(bytes) +
               " bytes; a MI250/MI300 workgroup has 65536 bytes of LDS",
           kFix);
    return;
  }
  if (const auto* call = result.Nodes.getNodeAs<clang::CallExpr>("attribute")) {
    const clang::Expr* attribute = StripCasts(call->getArg(1));
    const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(attribute);
    if (!ref || (ref->getDecl()->getName() != "cudaFuncAttributeMaxDynamicSharedMemorySize" &&
                 ref->getDecl()->getName() != "CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES")) {
      return;
    }
    const auto bytes = ConstantValue(call->getArg(2), context);
    if (!bytes || *bytes <= kLdsBytes) return;
    Report(sm, call->getArg(2)->getBeginLoc(), MacroPlacement::kUse,
           "dynamic shared memory of " + std::to_string(*bytes) +
               " bytes requested; a MI250/MI300 workgroup has "
               "65536 bytes of LDS",
           kFix);
    return;
  }
  if (const auto* launch = result.Nodes.getNodeAs<clang::CUDAKernelCallExpr>("launch")) {
    const clang::CallExpr* config = launch->getConfig();
    if (!config || config->getNumArgs() < 3 || llvm::isa<clang::CXXDefaultArgExpr>(config->getArg(2))) return;
    const auto bytes = ConstantValue(config->getArg(2), context);
    if (!bytes || *bytes <= kLdsBytes) return;
    Report(sm, config->getArg(2)->getBeginLoc(), MacroPlacement::kUse,
           "kernel launched with " + std::to_string(*bytes) +
               " bytes of dynamic shared memory; a MI250/MI300 "
               "workgroup has 65536 bytes of LDS",
           kFix);
  }
}

// A kernel's static LDS: its own __shared__ arrays plus those of every device function it reaches (each
// function once; static __shared__ in a device function is one allocation per workgroup).
void SharedMemorySizeRule::onEndOfTranslationUnit() {
  if (!source_manager_) return;
  // What a kernel calls matters only where a function that is not a kernel declares __shared__; usually none does,
  // and then no body is walked.
  const bool callees_count = std::any_of(usage_.begin(), usage_.end(), [](const auto& entry) {
    return entry.second.own_bytes > 0 && !entry.first->template hasAttr<clang::CUDAGlobalAttr>();
  });
  std::map<const clang::FunctionDecl*, std::set<const clang::FunctionDecl*>> callees_of;
  for (const clang::FunctionDecl* kernel : kernels_) {
    std::set<const clang::FunctionDecl*> seen{kernel};
    std::vector<const clang::FunctionDecl*> pending{kernel};
    long long total = 0;
    bool oversized = false;
    int functions_with_shared = 0;
    while (!pending.empty() && seen.size() < 256) {
      const clang::FunctionDecl* function = pending.back();
      pending.pop_back();
      if (auto it = usage_.find(function); it != usage_.end()) {
        total += it->second.own_bytes;
        oversized |= it->second.has_oversized_array;
        functions_with_shared += it->second.own_bytes > 0;
      }
      if (!callees_count) continue;
      auto [callees, first] = callees_of.try_emplace(function);
      if (first) CollectCallees(function->getBody(), function, callees->second);
      for (const clang::FunctionDecl* callee : callees->second) {
        if (seen.insert(callee).second) pending.push_back(callee);
      }
    }
    if (oversized || total <= kLdsBytes) continue;  // an array alone is over: reported there
    Report(*source_manager_, kernel->getLocation(), MacroPlacement::kUse,
           "kernel " + kernel->getNameAsString() + " uses " + std::to_string(total) +
               " bytes of static __shared__ memory" +
               (functions_with_shared > 1 ? " (including the device functions it calls)" : "") +
               "; a MI250/MI300 workgroup has 65536 bytes of LDS",
           kFix);
  }
}

// Token version: `__shared__ float a[N][M];` with literal (or #define'd) extents and a builtin element type.
void SharedMemorySizeRule::CheckTokens(const TextFile& file) {
  if (file.fallback_ranges.empty()) return;
  const auto& tokens = file.tokens();
  const auto macros = IntegerMacros(tokens);
  auto element_size = [](std::string_view type) -> long long {
    if (type == "char" || type == "int8_t" || type == "uint8_t" || type == "bool") return 1;
    if (type == "short" || type == "half" || type == "__half" || type == "int16_t" || type == "uint16_t") return 2;
    if (type == "float" || type == "int" || type == "unsigned" || type == "int32_t" || type == "uint32_t") return 4;
    if (type == "double" || type == "long" || type == "int64_t" || type == "uint64_t" || type == "float2" ||
        type == "size_t") {
      return 8;
    }
    if (type == "float4" || type == "double2" || type == "int4") return 16;
    return 0;
  };
  for (size_t i = 0; i + 3 < tokens.size(); ++i) {
    if (tokens[i].text != "__shared__" || !file.InFallbackRange(tokens[i].offset)) continue;
    size_t j = i + 1;
    while (j < tokens.size() && (tokens[j].text == "static" || tokens[j].text == "volatile" ||
                                 tokens[j].text == "unsigned" || tokens[j].text == "const")) {
      ++j;
    }
    if (j + 2 >= tokens.size()) continue;
    long long bytes = element_size(tokens[j].text);
    if (tokens[j].text == "unsigned" || (j > i + 1 && tokens[j - 1].text == "unsigned" && bytes == 0)) bytes = 4;
    if (bytes == 0 || tokens[j + 1].kind != TokenKind::kIdentifier) continue;
    size_t k = j + 2;
    bool known = true;
    while (k + 2 < tokens.size() && tokens[k].text == "[") {
      unsigned long long extent = 0;
      const Token& value = tokens[k + 1];
      if (value.kind == TokenKind::kNumber && ParseIntegerLiteral(value.text, &extent)) {
      } else if (auto it = macros.find(value.text); it != macros.end()) {
        extent = it->second;
      } else {
        known = false;
        break;
      }
      if (tokens[k + 2].text != "]") {
        known = false;
        break;
      }
      bytes *= static_cast<long long>(extent);
      k += 3;
    }
    if (!known || k == j + 2 || bytes <= kLdsBytes) continue;
    Report(file, tokens[j + 1].offset,
           "__shared__ " + std::string(tokens[j + 1].text) + " needs " + std::to_string(bytes) +
               " bytes; a MI250/MI300 workgroup has 65536 bytes of LDS",
           kFix);
  }
}

}  // namespace hipforge::translate::analyze
