#pragma once
// Call-site rewrites that a rename alone cannot express (HIP takes the argument differently), as data.
// Decided on the AST only: the argument boundaries come from the parsed call.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "worker/translate/core/translate_options.h"
#include "worker/translate/core/translation_facts.h"

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
  kWrapInCall,           // arg -> text(arg): HIP's function takes what `text` converts the argument to
};

// Which translation mode a rewrite belongs to (hipify's --roc / --miopen); kAny applies in every mode.
enum class RewriteTarget : uint8_t { kAny, kHipOnly, kRocOnly, kMiopenOnly };

struct ArgumentRewrite {
  std::string_view function;  // CUDA name
  unsigned argument = 0;      // 0-based (for kRenameForArity: the argument count)
  ArgumentRewriteKind kind = ArgumentRewriteKind::kWrapHipSymbol;
  std::string_view text;  // constant to insert; "{hip_version}" is the target HIP version as 604 etc.
  unsigned to = 0;        // kCopyArgument / kMoveArgument destination
  unsigned count = 1;     // kMoveArgument: how many arguments move together
  RewriteTarget target = RewriteTarget::kAny;
  bool may_lose_data = false;  // warn: the removed argument carried information
};

std::span<const ArgumentRewrite> ArgumentRewrites();
bool HasArgumentRewrites(std::string_view function);

// A call as byte ranges in one file, from the AST or from tokens (fallback): explicit arguments only.
struct CallShape {
  ByteRange callee;
  std::vector<ByteRange> args;
  uint32_t close_paren = 0;  // offset of ')'
};

// The edits that make `function`'s call fit HIP (or ROC/MIOpen under those options). `warnings` gets a
// message for each argument dropped although it carried information.
std::vector<TextEdit> RewriteCallArguments(std::string_view function, const CallShape& call, std::string_view content,
                                           const TranslateOptions& options, std::vector<std::string>* warnings);

}  // namespace hipforge::translate
