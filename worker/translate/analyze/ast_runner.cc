#include "worker/translate/analyze/ast_runner.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "worker/translate/analyze/registry.h"
#include "worker/translate/cache_json.h"

namespace hipforge::translate::analyze {
namespace {

std::string RealName(const clang::SourceManager& sm, clang::FileID file) {
  const auto entry = sm.getFileEntryRefForID(file);
  if (!entry) return {};
  llvm::StringRef name = entry->getFileEntry().tryGetRealPathName();
  if (name.empty()) name = entry->getName();
  return name.str();
}

// Records which project files the preprocessor entered and which blocks it skipped.
class PreprocessorRecorder : public clang::PPCallbacks {
 public:
  PreprocessorRecorder(const clang::SourceManager& sm, FindingSink& paths, TranslationUnitResult& result)
      : sm_(sm), paths_(paths), result_(result) {}

  void FileChanged(clang::SourceLocation location, FileChangeReason reason, clang::SrcMgr::CharacteristicKind,
                   clang::FileID) override {
    if (reason != EnterFile || location.isInvalid()) return;
    const std::string name = RealName(sm_, sm_.getFileID(location));
    if (name.empty()) return;
    if (auto relative = paths_.RelativePath(name)) result_.covered_files.insert(*relative);
  }

  void SourceRangeSkipped(clang::SourceRange range, clang::SourceLocation) override {
    const auto [file, begin] = sm_.getDecomposedLoc(sm_.getExpansionLoc(range.getBegin()));
    const auto [end_file, end] = sm_.getDecomposedLoc(sm_.getExpansionLoc(range.getEnd()));
    if (file != end_file) return;
    const std::string name = RealName(sm_, file);
    if (auto relative = paths_.RelativePath(name)) result_.skipped_ranges[*relative].emplace_back(begin, end);
  }

 private:
  const clang::SourceManager& sm_;
  FindingSink& paths_;
  TranslationUnitResult& result_;
};

// The rules and the preprocessor recorder as one consumer of a shared parse (frontend/unit_parser.h).
class AstRulesConsumer : public CompanionConsumer {
 public:
  // `covered`: the parse stands in for covered units (AstRulesCompanion::ConsumerForCovered): its findings are
  // `unit`'s, its coverage `covered`'s.
  AstRulesConsumer(const std::filesystem::path& canonical_root, const std::set<std::string>& disabled,
                   AstRulesCompanion* companion = nullptr, std::filesystem::path unit = {},
                   std::optional<TranslationUnitResult> covered = std::nullopt)
      : sink_(canonical_root),
        rules_(MakeRules(sink_, disabled)),
        companion_(companion),
        unit_(std::move(unit)),
        covered_(std::move(covered)) {}

  void BeginParse(clang::CompilerInstance& compiler, const UnitParseRequest& request) override {
    args_ = request.args;
    compiler.getPreprocessor().addPPCallbacks(
        std::make_unique<PreprocessorRecorder>(compiler.getSourceManager(), sink_, result_));
  }

  void RegisterMatchers(clang::ast_matchers::MatchFinder& finder) override {
    for (auto& rule : rules_) rule->RegisterMatchers(finder);
  }

  // What the preprocessor recorder saw over a shared include prefix (core/prefix_pch.h).
  nlohmann::json PrefixRecord() override {
    return {{"covered_files", result_.covered_files}, {"skipped_ranges", result_.skipped_ranges}};
  }
  void SeedPrefix(const nlohmann::json& record) override {
    result_.covered_files = record.at("covered_files").get<std::set<std::string>>();
    result_.skipped_ranges = record.at("skipped_ranges").get<decltype(result_.skipped_ranges)>();
  }

  TranslationUnitResult Take(const UnitParseResult& parse) {
    result_.parsed = parse.parsed;
    result_.fatal = parse.fatal;
    result_.first_error = parse.first_error;
    result_.findings = std::move(sink_.findings());
    return std::move(result_);
  }

  nlohmann::json Finish(const UnitParseResult& parse) override {
    TranslationUnitResult result = Take(parse);
    std::set<std::string> entered;  // what the parse read: the facts cache checks them
    if (covered_) {
      entered = std::exchange(result.covered_files, std::move(covered_->covered_files));
      result.skipped_ranges = std::move(covered_->skipped_ranges);
    }
    nlohmann::json cached = ToJson(result);
    if (covered_) cached["entered_files"] = entered;
    cached["args"] = args_;
    if (companion_) companion_->Keep(unit_, std::move(result), std::move(args_));
    return cached;
  }

 private:
  FindingSink sink_;
  std::vector<std::unique_ptr<Rule>> rules_;
  AstRulesCompanion* companion_;
  std::filesystem::path unit_;
  std::vector<std::string> args_;
  TranslationUnitResult result_;
  std::optional<TranslationUnitResult> covered_;
};

}  // namespace

nlohmann::json ToJson(const TranslationUnitResult& result) {
  nlohmann::json json = {{"parsed", result.parsed},
                         {"fatal", result.fatal},
                         {"first_error", result.first_error},
                         {"findings", nlohmann::json::array()},
                         {"covered_files", result.covered_files},
                         {"skipped_ranges", result.skipped_ranges}};
  for (const Finding& finding : result.findings) json["findings"].push_back(FindingCacheJson(finding));
  return json;
}

TranslationUnitResult TranslationUnitResultFromJson(const nlohmann::json& json) {
  TranslationUnitResult result;
  result.parsed = json.at("parsed").get<bool>();
  result.fatal = json.at("fatal").get<bool>();
  result.first_error = json.at("first_error").get<std::string>();
  for (const auto& finding : json.at("findings")) result.findings.push_back(FindingFromCacheJson(finding));
  result.covered_files = json.at("covered_files").get<std::set<std::string>>();
  result.skipped_ranges = json.at("skipped_ranges").get<decltype(result.skipped_ranges)>();
  return result;
}

TranslationUnitResult RunAstRules(const std::vector<std::string>& clang_args, const std::filesystem::path& file,
                                  const std::filesystem::path& canonical_root, const std::set<std::string>& disabled,
                                  const std::vector<std::string>& readable_roots, const nlohmann::json* prefix_record) {
  AstRulesConsumer consumer(canonical_root, disabled);
  UnitParseRequest request{canonical_root, file, clang_args, readable_roots};
  if (prefix_record) {
    request.project_pch = true;
    consumer.SeedPrefix(*prefix_record);
  }
  const UnitParseResult parse = ParseUnit(request, {&consumer});
  return consumer.Take(parse);
}

std::unique_ptr<ParseConsumer> MakeAstRulesRecorder(const std::filesystem::path& canonical_root,
                                                    const std::set<std::string>& disabled) {
  return std::make_unique<AstRulesConsumer>(canonical_root, disabled);
}

std::string AstRulesSalt(const std::set<std::string>& disabled) {
  // Bump the generation when what the AST rules record changes.
  std::string salt = "hipforge-analyzer-ast-1;disabled=";
  for (const auto& id : disabled) salt += id + ",";
  salt += ";rules=";
  for (const auto& info : AllRuleInfos()) salt += std::string(info.id) + ",";
  return salt;
}

std::string AstRulesCompanion::CacheSalt() const { return AstRulesSalt(disabled_); }

std::unique_ptr<CompanionConsumer> AstRulesCompanion::ConsumerFor(const std::filesystem::path& unit) {
  return std::make_unique<AstRulesConsumer>(root_, disabled_, this, unit);
}

bool AstRulesCompanion::Restore(const std::filesystem::path& unit, const nlohmann::json& cached) {
  try {
    TranslationUnitResult result = TranslationUnitResultFromJson(cached);
    Keep(unit, std::move(result), cached.at("args").get<std::vector<std::string>>());
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

TranslationUnitResult AstRulesCompanion::CoveredResult(const std::filesystem::path& unit) const {
  // Its own file, clean, nothing skipped. The headers are the covering unit's: the analyzer reaches them (and
  // their __CUDA_ARCH__ blocks, on the device side) through that unit.
  TranslationUnitResult result;
  result.parsed = true;
  const std::string relative = unit.lexically_relative(root_).generic_string();
  result.covered_files.insert(relative);
  result.skipped_ranges[relative];
  return result;
}

void AstRulesCompanion::Covered(const std::filesystem::path& unit) { Keep(unit, CoveredResult(unit), {}); }

std::unique_ptr<CompanionConsumer> AstRulesCompanion::ConsumerForCovered(const std::filesystem::path& unit) {
  return std::make_unique<AstRulesConsumer>(root_, disabled_, this, unit, CoveredResult(unit));
}

void AstRulesCompanion::Keep(const std::filesystem::path& unit, TranslationUnitResult result,
                             std::vector<std::string> args) {
  std::lock_guard lock(mutex_);
  results_[Key(unit)] = std::move(result);
  arguments_[Key(unit)] = std::move(args);
}

std::optional<TranslationUnitResult> AstRulesCompanion::Result(const std::filesystem::path& unit) const {
  std::lock_guard lock(mutex_);
  const auto it = results_.find(Key(unit));
  if (it == results_.end()) return std::nullopt;
  return it->second;
}

std::optional<std::vector<std::string>> AstRulesCompanion::Arguments(const std::filesystem::path& unit) const {
  std::lock_guard lock(mutex_);
  const auto it = arguments_.find(Key(unit));
  if (it == arguments_.end()) return std::nullopt;
  return it->second;
}

}  // namespace hipforge::translate::analyze
