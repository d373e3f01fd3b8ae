#pragma once
// Parses one translation unit with Clang (LibTooling) and collects, for it and for every project header it
// includes, what needs semantics: kernel launches, warp intrinsic masks, argument rewrites, inactive #if
// ranges and the macros the project defines. Never edits anything itself.
#include <filesystem>
#include <string>
#include <vector>

#include "worker/translate/core/name_resolver.h"
#include "worker/translate/core/translation_facts.h"

namespace hipforge::translate {

struct AstPassRequest {
  std::filesystem::path root;         // absolute; files outside it are never edited
  std::filesystem::path file;         // absolute path of the translation unit
  std::vector<std::string> args;      // Clang arguments (front end + compile database), without the file
  std::vector<std::string> readable_roots;  // non-empty: the parse reads nothing outside these
};

// `facts.parsed` is false when Clang reported an error; `facts.fallback_reason` then holds the first one.
UnitFacts RunAstPass(const AstPassRequest& request, const NameResolver& resolver);

}  // namespace hipforge::translate
