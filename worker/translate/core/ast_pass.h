#pragma once
// Parses one translation unit with Clang (LibTooling) and collects, for it and for every project header it
// includes, what needs semantics: kernel launches, warp intrinsic masks, argument rewrites, inactive #if
// ranges and the macros the project defines. Never edits anything itself.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "worker/translate/core/name_resolver.h"
#include "worker/translate/core/translation_facts.h"
#include "worker/translate/frontend/unit_parser.h"

namespace hipforge::translate {

struct AstPassRequest {
  std::filesystem::path root;               // absolute; files outside it are never edited
  std::filesystem::path file;               // absolute path of the translation unit
  std::vector<std::string> args;            // Clang arguments (front end + compile database), without the file
  std::vector<std::string> readable_roots;  // non-empty: the parse reads nothing outside these
  // Other consumers of this one parse (the analyzer's AST rules in the repository pass).
  std::vector<ParseConsumer*> companions;
  // The parse loads a shared include prefix's PCH (core/prefix_pch.h); `prefix_record` is what the translator's
  // preprocessor callbacks recorded over that prefix when it was built (MakePrefixFactsRecorder).
  bool project_pch = false;
  const nlohmann::json* prefix_record = nullptr;
};

// One parse (frontend/unit_parser.h) feeding the fact collection and `request.companions`. `facts.parsed` is
// false when Clang reported an error; `facts.fallback_reason` then holds the first one. `parse_result`, when
// given, receives the parse's outcome (for the companions).
UnitFacts RunAstPass(const AstPassRequest& request, const NameResolver& resolver,
                     UnitParseResult* parse_result = nullptr);

// The translator's consumer for a prefix PCH build (core/prefix_pch.h): its preprocessor callbacks only, their
// record (ParseConsumer::PrefixRecord) being what RunAstPass seeds a parse that loads the PCH with.
std::unique_ptr<ParseConsumer> MakePrefixFactsRecorder(const std::filesystem::path& root, const NameResolver& resolver);

}  // namespace hipforge::translate
