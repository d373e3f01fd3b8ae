#pragma once
// Call-site rewrites that a rename alone cannot express (HIP takes the argument differently), as data.
// Decided on the AST only: the argument boundaries come from the parsed call.
#include <cstdint>
#include <span>
#include <string_view>

namespace hipforge::translate {

enum class ArgumentRewriteKind : uint8_t {
  kWrapHipSymbol,        // arg -> HIP_SYMBOL(arg): HIP takes a symbol's address through a macro
  kCastToConstVoidPtr,   // arg -> reinterpret_cast<const void*>(arg): HIP takes kernels as const void*
  kCastToSizeTPtr,       // arg -> reinterpret_cast<size_t*>(arg)
  kCastToUint64,         // arg -> static_cast<uint64_t>(arg)
  kCastToInt32,          // arg -> int32_t(arg)
  kCastToInt64,          // arg -> int64_t(arg)
  kInsertConstant,       // insert `text` as argument `argument` (appended when past the end)
  kRemove,               // drop argument `argument`
  kCopyArgument,         // also pass argument `argument` at position `to`
  kMoveArgument,         // move `count` arguments from `argument` to position `to`
  kReplaceWithConstant,  // argument `argument` becomes `text`
  kRenameForArity,       // the call has `argument` arguments: the callee becomes `text`
};

// Which translation mode a rewrite belongs to (hipify's --roc / --miopen); kAny applies in every mode.
enum class RewriteTarget : uint8_t { kAny, kHipOnly, kRocOnly, kMiopenOnly };

struct ArgumentRewrite {
  std::string_view function;  // CUDA name
  unsigned argument = 0;      // 0-based (for kRenameForArity: the argument count)
  ArgumentRewriteKind kind = ArgumentRewriteKind::kWrapHipSymbol;
  std::string_view text;      // constant to insert; "{hip_version}" is the target HIP version as 604 etc.
  unsigned to = 0;            // kCopyArgument / kMoveArgument destination
  unsigned count = 1;         // kMoveArgument: how many arguments move together
  RewriteTarget target = RewriteTarget::kAny;
  bool may_lose_data = false;  // warn: the removed argument carried information
};

std::span<const ArgumentRewrite> ArgumentRewrites();

}  // namespace hipforge::translate
