#pragma once
// Parses one C/C++/CUDA file with Clang and runs the AST rules over it and over the project headers it includes.
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "worker/translate/frontend/unit_parser.h"
#include "worker/translate/translation_types.h"

namespace hipforge::translate::analyze {

struct TranslationUnitResult {
  bool parsed = false;            // no Clang errors: the AST findings are complete
  bool fatal = false;             // a fatal error (missing header, ...) cut the AST short: its findings are unusable
  std::string first_error;        // "path:line: message" of the first error when !parsed
  std::vector<Finding> findings;  // AST findings in files under the root
  std::set<std::string> covered_files;  // root-relative files the preprocessor entered
  std::map<std::string, std::vector<std::pair<uint32_t, uint32_t>>> skipped_ranges;  // per root-relative file
};

nlohmann::json ToJson(const TranslationUnitResult& result);
TranslationUnitResult TranslationUnitResultFromJson(const nlohmann::json& json);  // throws on bad input

// The AST rules on a parse of their own (frontend/unit_parser.h: the same one-parse driver the translator uses).
// `clang_args` are complete. `readable_roots` non-empty: the parse reads nothing outside them.
// `prefix_record`: `clang_args` load a shared include prefix's PCH (frontend/shared_prefixes.h), over which
// MakeAstRulesRecorder recorded this.
TranslationUnitResult RunAstRules(const std::vector<std::string>& clang_args, const std::filesystem::path& file,
                                  const std::filesystem::path& canonical_root, const std::set<std::string>& disabled,
                                  const std::vector<std::string>& readable_roots = {},
                                  const nlohmann::json* prefix_record = nullptr);

// What a shared include prefix's PCH build runs for RunAstRules's parses (its preprocessor recorder).
std::unique_ptr<ParseConsumer> MakeAstRulesRecorder(const std::filesystem::path& canonical_root,
                                                    const std::set<std::string>& disabled);

// What the AST rules' results depend on besides the parse: the rule set and the rules left out. Salt of every
// cache of those results (AstRulesCompanion's, parse_cache.h).
std::string AstRulesSalt(const std::set<std::string>& disabled);

// The AST rules as a companion of another component's parse (the translator's, in the repository pass): each
// unit is parsed once, the rules' results are kept here for Analyze and cached with the translator's facts.
class AstRulesCompanion : public ParseCompanion {
 public:
  AstRulesCompanion(std::filesystem::path canonical_root, std::set<std::string> disabled)
      : root_(std::move(canonical_root)), disabled_(std::move(disabled)) {}

  std::string CacheSalt() const override;
  std::unique_ptr<CompanionConsumer> ConsumerFor(const std::filesystem::path& unit) override;
  bool Restore(const std::filesystem::path& unit, const nlohmann::json& cached) override;
  void Covered(const std::filesystem::path& unit) override;
  std::unique_ptr<CompanionConsumer> ConsumerForCovered(const std::filesystem::path& unit) override;

  // The result for `unit` (absolute) and the arguments it was parsed with, when a shared parse (or the
  // cache) produced one.
  std::optional<TranslationUnitResult> Result(const std::filesystem::path& unit) const;
  std::optional<std::vector<std::string>> Arguments(const std::filesystem::path& unit) const;
  const std::filesystem::path& root() const { return root_; }

  // Called by the consumers.
  void Keep(const std::filesystem::path& unit, TranslationUnitResult result, std::vector<std::string> args);

  // Expires when this companion is destroyed (it does not own it): how the analyzer that made the companion knows
  // it again when handed it as a ParseCompanion, without casting the interface down.
  std::weak_ptr<const AstRulesCompanion> Handle() const { return self_; }

 private:
  static std::string Key(const std::filesystem::path& unit) { return unit.lexically_normal().generic_string(); }
  // What Covered records for `unit`: its own file, clean, nothing skipped.
  TranslationUnitResult CoveredResult(const std::filesystem::path& unit) const;
  std::filesystem::path root_;
  std::set<std::string> disabled_;
  mutable std::mutex mutex_;
  std::map<std::string, TranslationUnitResult> results_;
  std::map<std::string, std::vector<std::string>> arguments_;
  std::shared_ptr<const AstRulesCompanion> self_{this, [](const AstRulesCompanion*) {}};
};

}  // namespace hipforge::translate::analyze
