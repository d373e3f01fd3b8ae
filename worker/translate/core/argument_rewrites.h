#pragma once
// Call-site rewrites that a rename alone cannot express (HIP takes the argument differently), as data.
// Decided on the AST only: the argument boundaries come from the parsed call.
#include <span>
#include <string_view>

namespace hipforge::translate {

enum class ArgumentRewriteKind : uint8_t {
  kWrapHipSymbol,        // arg -> HIP_SYMBOL(arg): HIP takes the symbol's address through a macro
  kCastToConstVoidPtr,   // arg -> reinterpret_cast<const void*>(arg): HIP takes kernels as const void*
  kInsertConstant,       // insert `text` as argument `argument` (or append when past the end)
  kRemove,               // drop argument `argument`
  kRenameForArity,       // the call has `argument` arguments: the callee becomes `text`
};

enum class RewriteTarget : uint8_t { kAny, kHipOnly, kRocOnly, kMiopenOnly };

struct ArgumentRewrite {
  std::string_view function;  // CUDA name
  unsigned argument = 0;      // 0-based (for kRenameForArity: the argument count)
  ArgumentRewriteKind kind = ArgumentRewriteKind::kWrapHipSymbol;
  std::string_view text;      // constant to insert / new callee name
  RewriteTarget target = RewriteTarget::kAny;
  bool may_lose_data = false;  // warn: the removed argument carried information
};

std::span<const ArgumentRewrite> ArgumentRewrites();

}  // namespace hipforge::translate
