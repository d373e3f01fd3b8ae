#include "worker/translate/core/version_conditions.h"

#include <optional>

#include "worker/translate/tables/version_macros.h"

namespace hipforge::translate {
namespace {

constexpr std::string_view kTableFile = "worker/translate/tables/version_macros_table.cc";

// HIP's own macros, defined in every HIP compilation (hip-clang includes hip_runtime.h implicitly).
bool DefinedByHip(std::string_view name) {
  return name == "HIP_VERSION" || name == "HIP_VERSION_MAJOR" || name == "HIP_VERSION_MINOR" ||
         name == "__HIPCC__" || name == "__HIP__" || name == "__HIP_PLATFORM_AMD__" ||
         name == "__HIP_PLATFORM_HCC__";
}

std::string VersionText(ApiVersion version) {
  return std::to_string(version.major) + "." + std::to_string(version.minor);
}

class Rewriter {
 public:
  explicit Rewriter(const VersionConditionOptions& options) : options_(options) {}

  VersionConditionResult Run(const std::vector<Directive>& directives) {
    for (const Directive& directive : directives) {
      const std::string_view name = directive.name;
      if (name == "if" || name == "ifdef" || name == "ifndef") {
        groups_.push_back({});
        AddBranch(directive);
      } else if (name == "elif" || name == "elifdef" || name == "elifndef" || name == "else") {
        if (groups_.empty()) continue;
        AddBranch(directive);
      } else if (name == "error") {
        if (!groups_.empty() && groups_.back().branches.back().error_offset == kNone) {
          groups_.back().branches.back().error_offset = directive.offset;
        }
      } else if (name == "endif") {
        if (groups_.empty()) continue;
        CheckGroup(groups_.back());
        groups_.pop_back();
      }
    }
    return std::move(result_);
  }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  struct Branch {
    uint32_t offset;               // of the '#'
    std::optional<int64_t> value;  // the condition under the target HIP; nullopt: unknown
    uint32_t error_offset = kNone;
  };
  struct Group {
    std::vector<Branch> branches;
    bool versioned = false;
  };

  const VersionMacro* Applicable(std::string_view name) const {
    const VersionMacro* macro = FindVersionMacro(name);
    if (!macro || (macro->needs_miopen && !options_.miopen)) return nullptr;
    if (options_.project_macros && options_.project_macros->count(std::string(name))) return nullptr;
    return macro;
  }

  // Rewrites the version macros of one condition; returns whether it had any (CUDNN_* included, which
  // without MIOpen are left to read 0: the branch without cuDNN is the one HIP builds).
  bool RewriteCondition(const Directive& directive) {
    const bool bare_name = directive.name == "ifdef" || directive.name == "ifndef" ||
                           directive.name == "elifdef" || directive.name == "elifndef";
    bool versioned = false;
    const auto& tokens = directive.tokens;
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (tokens[i].kind != ConditionToken::kIdentifier) continue;
      if (!FindVersionMacro(tokens[i].text)) continue;
      versioned = true;
      result_.handled_offsets.insert(tokens[i].offset);  // a condition, not an API use: never "unknown"
      const VersionMacro* macro = Applicable(tokens[i].text);
      if (!macro) continue;
      const bool in_defined = bare_name || (i >= 1 && tokens[i - 1].text == "defined") ||
                              (i >= 2 && tokens[i - 1].text == "(" && tokens[i - 2].text == "defined");
      if (in_defined) {
        if (macro->defined_by.empty()) continue;
        result_.edits.push_back({tokens[i].offset, static_cast<uint32_t>(tokens[i].text.size()),
                                 std::string(macro->defined_by)});
        continue;
      }
      const std::string expression = VersionMacroExpression(*macro);
      result_.edits.push_back({tokens[i].offset, static_cast<uint32_t>(tokens[i].text.size()), expression});
      result_.findings.push_back(
          {Severity::kNote, tokens[i].offset,
           "'" + std::string(tokens[i].text) + "' is not defined by HIP; rewritten to " + expression +
               ", which reads " + std::to_string(VersionMacroValue(*macro, options_.target_hip_version)) +
               " under HIP " + VersionText(options_.target_hip_version) + " (" + std::string(macro->why) +
               "; table: " + std::string(kTableFile) + ")."});
    }
    return versioned;
  }

  std::optional<int64_t> Evaluate(const Directive& directive) const {
    if (directive.name == "else") return 1;
    ConditionNames names;
    names.value = [&](std::string_view name) -> std::optional<int64_t> {
      if (const VersionMacro* macro = Applicable(name)) return VersionMacroValue(*macro, options_.target_hip_version);
      if (FindVersionMacro(name)) return 0;  // CUDNN_* without MIOpen: nothing defines it after translation
      if (name == "HIP_VERSION_MAJOR") return options_.target_hip_version.major;
      if (name == "HIP_VERSION_MINOR") return options_.target_hip_version.minor;
      return std::nullopt;
    };
    names.defined = [&](std::string_view name) -> std::optional<bool> {
      if (const VersionMacro* macro = Applicable(name)) return !macro->defined_by.empty();
      if (FindVersionMacro(name)) return false;
      if (DefinedByHip(name)) return true;
      return std::nullopt;
    };
    std::vector<ConditionToken> tokens;
    for (const DirectiveToken& token : directive.tokens) tokens.push_back({token.kind, token.text});
    if (directive.name == "ifdef" || directive.name == "ifndef") {
      if (tokens.empty()) return std::nullopt;
      auto known = names.defined(tokens.front().text);
      if (!known) return std::nullopt;
      return directive.name == "ifdef" ? *known : !*known;
    }
    return EvaluateCondition(tokens, names);
  }

  void AddBranch(const Directive& directive) {
    Group& group = groups_.back();
    group.versioned |= RewriteCondition(directive);
    group.branches.push_back({directive.offset, Evaluate(directive)});
  }

  void CheckGroup(const Group& group) {
    if (!group.versioned) return;
    const std::string hip = "HIP " + VersionText(options_.target_hip_version);
    for (const Branch& branch : group.branches) {
      if (!branch.value) {
        // Unknown from here on: any later #error might be the one taken.
        for (const Branch& later : group.branches) {
          if (later.offset < branch.offset || later.error_offset == kNone) continue;
          result_.findings.push_back({Severity::kWarning, later.error_offset,
                                      "this #error may be selected under " + hip +
                                          ": its version chain could not be evaluated; check which branch HIP "
                                          "provides (every branch was translated)."});
        }
        return;
      }
      if (*branch.value == 0) continue;
      if (branch.error_offset != kNone) {
        result_.findings.push_back({Severity::kWarning, branch.error_offset,
                                    "under " + hip + " the version condition selects this #error; the branch "
                                    "HIP provides needs a person (every branch was translated)."});
      }
      return;
    }
  }

  const VersionConditionOptions& options_;
  std::vector<Group> groups_;
  VersionConditionResult result_;
};

}  // namespace

VersionConditionResult RewriteVersionConditions(const std::vector<Directive>& directives,
                                                const VersionConditionOptions& options) {
  return Rewriter(options).Run(directives);
}

}  // namespace hipforge::translate
