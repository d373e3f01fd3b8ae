#pragma once
// One Clang parse of one translation unit in one configuration, shared by every consumer (clang-tidy's model:
// one FrontendAction, many consumers). The translator's fact collection and the analyzer's AST rules register
// on the same preprocessor and the same MatchFinder, so both see one AST built from one argument list, and a
// unit parses (or falls back to tokens) for both at once. Free of Clang headers; consumers implementing
// ParseConsumer include the Clang headers they use themselves.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace clang {
class CompilerInstance;
namespace ast_matchers {
class MatchFinder;
}  // namespace ast_matchers
}  // namespace clang

namespace hipforge::translate {

struct UnitParseRequest {
  std::filesystem::path root;               // absolute, canonical: the project; only its declarations are matched
  std::filesystem::path file;               // absolute path of the translation unit
  std::vector<std::string> args;            // complete Clang arguments without the file (one configuration)
  std::vector<std::string> readable_roots;  // non-empty: the parse reads nothing outside these
  // The parse loads a PCH that holds project files (a shared include prefix, core/prefix_pch.h): the matchers
  // visit the project declarations it holds too, before the unit's own, in the order the prefix declared them.
  bool project_pch = false;
  // The matchers visit only the function template instantiations this parse made, not the declarations as written
  // (a covered unit's rules pass, core/source_translator.cc: the covering unit's parse matched those).
  bool instantiations_only = false;
};

struct UnitParseResult {
  bool parsed = false;      // Clang ran and reported no error
  bool fatal = false;       // a fatal error (missing header, ...) cut the AST short
  std::string first_error;  // "file:line:column: message" of the first error when !parsed
};

// What one consumer of the shared parse hooks into. Called on the parsing thread only.
class ParseConsumer {
 public:
  virtual ~ParseConsumer() = default;
  // Before the preprocessor runs (add PPCallbacks here). `request` is the parse's, arguments included.
  virtual void BeginParse(clang::CompilerInstance& compiler, const UnitParseRequest& request) {
    (void)compiler, (void)request;
  }
  // Matchers run over the project's own top-level declarations (files under the root that are not system
  // headers; never the prelude PCH's or the toolkit's). Bodies of functions outside the project are skipped.
  virtual void RegisterMatchers(clang::ast_matchers::MatchFinder& finder) = 0;

  // A shared include prefix is preprocessed once, when its PCH is built (core/prefix_pch.h: BeginParse runs on
  // that build, no matchers); a parse that loads the PCH does not see the preprocessor enter the prefix's files.
  // A consumer whose preprocessor callbacks record something returns what they recorded over the prefix, and is
  // handed it back before each parse that loads the PCH (and before the build of a longer prefix chained on it),
  // so that its results are those of a parse without it.
  virtual nlohmann::json PrefixRecord() { return nullptr; }
  virtual void SeedPrefix(const nlohmann::json& record) { (void)record; }
};

// Parses `request.file` once and runs every consumer's callbacks and matchers on that one AST.
UnitParseResult ParseUnit(const UnitParseRequest& request, const std::vector<ParseConsumer*>& consumers);

// Parses ParseUnit ran in this process so far (tests: one parse per unit and configuration).
uint64_t UnitParseCount();

// A consumer of another component's parses: the repository pass gives the analyzer's AST rules to the
// translator's parse, so each unit is parsed once for both. What the companion learned about a unit is cached
// with the unit's facts, so an unchanged unit is not parsed at all on a re-run.
class CompanionConsumer : public ParseConsumer {
 public:
  // After the parse: the consumer's result (kept by its companion), as JSON for the facts cache.
  virtual nlohmann::json Finish(const UnitParseResult& result) = 0;
};

class ParseCompanion {
 public:
  virtual ~ParseCompanion() = default;
  // Everything that changes what the consumers record (rule set, options); joins the facts cache key.
  virtual std::string CacheSalt() const = 0;
  // A consumer for the parse of `unit` (absolute) in its first configuration. Called from worker threads.
  virtual std::unique_ptr<CompanionConsumer> ConsumerFor(const std::filesystem::path& unit) = 0;
  // A cache hit: what Finish returned for `unit` then. false: unusable, the unit is parsed again.
  virtual bool Restore(const std::filesystem::path& unit, const nlohmann::json& cached) = 0;
  // `unit` (absolute) is not parsed: it holds only #includes and declarations, and an earlier unit's parse covered
  // every project header it includes (TranslateOptions::skip_covered_units).
  virtual void Covered(const std::filesystem::path& unit) { (void)unit; }
  // A consumer for a parse that stands in for covered units (one unit including each of them, matched over its
  // instantiations only): what it finds becomes `unit`'s, the first of them, whose coverage stays Covered's. Null:
  // the companion has nothing to look for there.
  virtual std::unique_ptr<CompanionConsumer> ConsumerForCovered(const std::filesystem::path& unit) {
    (void)unit;
    return nullptr;
  }
};

}  // namespace hipforge::translate
