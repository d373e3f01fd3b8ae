#pragma once
// Call sites and facts read from raw tokens alone, for the token pass: kernel launches in fallback mode (no AST)
// and warp masks held in a local all-ones variable (which constant evaluation cannot prove).
#include <optional>
#include <span>
#include <string_view>

#include "worker/translate/core/translation_facts.h"
#include "worker/translate/frontend/raw_lexer.h"

namespace hipforge::translate {

// `<<` followed by `<`: a launch's opening chevrons that the lexer split (`k<<<...` after a template).
bool IsSplitTripleLess(std::span<const RawToken> tokens, size_t i);

// The launch whose opening chevrons are the token at `open`: `name [<T>] [:: name [<T>]]... <<<config>>>(args)`
// with 2 to 4 configuration arguments; none if the tokens are not that shape.
std::optional<LaunchSite> LaunchAt(std::span<const RawToken> tokens, size_t open);

// True when `mask` is one identifier naming a block-scope variable declared `T name = <all-ones literal>;`
// that nothing in its scope assigns, increments or takes the address of (or a const one anywhere).
bool IsFullMaskVariable(std::string_view content, std::span<const RawToken> tokens, ByteRange mask);

// A keyword before `name = ...` (return, case, else, ...) makes it an assignment statement, not a declaration.
bool IsAssignmentContext(std::string_view content, const RawToken& before);

// True for -1, ~0 (with suffixes) and integer literals worth 0xffffffff or ~0ULL (frontend/c_literals.h's
// ParseIntegerLiteral, the analyzer's parser); false if the text is anything else. Used to prove a warp mask is all
// ones without an AST.
bool IsFullWarpMaskLiteral(std::string_view text);

}  // namespace hipforge::translate
