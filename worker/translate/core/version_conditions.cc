#include "worker/translate/core/version_conditions.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
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

bool IsConditional(std::string_view name) {
  return name == "if" || name == "ifdef" || name == "ifndef" || name == "elif" || name == "elifdef" ||
         name == "elifndef" || name == "else";
}

// Raw-lexed keywords that may precede a call (`return f(x)`), so that the name is not taken as declared.
bool IsExpressionKeyword(std::string_view word) {
  static constexpr std::string_view kWords[] = {"return", "else", "case", "throw", "co_return", "co_yield",
                                                "do", "sizeof", "new", "delete", "typeid", "decltype", "alignof"};
  return std::find(std::begin(kWords), std::end(kWords), word) != std::end(kWords);
}

class Rewriter {
 public:
  Rewriter(const VersionConditionOptions& options, std::span<const DirectiveToken> code)
      : options_(options), code_(code) {}

  VersionConditionResult Run(const std::vector<Directive>& directives) {
    for (const Directive& directive : directives) {
      const std::string_view name = directive.name;
      if (name == "if" || name == "ifdef" || name == "ifndef") {
        open_.push_back(groups_.size());
        groups_.push_back({});
        AddBranch(directive);
      } else if (IsConditional(name)) {
        if (open_.empty()) continue;
        Current().branches.back().end = directive.offset;
        AddBranch(directive);
      } else if (name == "error") {
        if (!open_.empty() && Current().branches.back().error_offset == kNone) {
          Current().branches.back().error_offset = directive.offset;
        }
      } else if (name == "define") {
        if (directive.tokens.empty() || directive.tokens.front().kind != ConditionToken::kIdentifier) continue;
        for (size_t group : open_) groups_[group].branches.back().defines.push_back(directive.tokens.front().text);
      } else if (name == "endif") {
        if (open_.empty()) continue;
        Current().branches.back().end = directive.offset;
        CheckErrors(Current());
        open_.pop_back();
      }
    }
    for (Group& group : groups_) {
      if (!group.uses.empty() && options_.hip_lacks) ChooseFeatureLevel(group);
      EmitRewrites(group);
    }
    std::ranges::stable_sort(result_.findings, {}, &VersionConditionFinding::offset);  // in file order
    return std::move(result_);
  }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  struct Branch {
    const Directive* directive;
    uint32_t offset;               // of the '#'
    uint32_t end = kNone;          // of the next branch's or the #endif's '#'
    std::optional<int64_t> value;  // the condition under the target HIP; nullopt: unknown
    uint32_t error_offset = kNone;
    std::vector<std::string_view> defines;  // macros #defined inside the branch
  };
  struct MacroUse {
    const DirectiveToken* token;
    const VersionMacro* macro;
  };
  struct Group {
    std::vector<Branch> branches;
    std::vector<MacroUse> uses;  // version macros to rewrite
    bool versioned = false;
    const VersionMacro* capped = nullptr;  // reads `cap` under the target HIP (per-feature choice)
    int64_t cap = 0;
    std::string cap_reason;
  };
  // A chain's choice under one value of a version macro: the branch taken (branches.size(): none of them) and
  // why HIP cannot build it (empty: it can).
  struct Choice {
    size_t branch;
    std::string problem;
  };

  Group& Current() { return groups_[open_.back()]; }

  const VersionMacro* Applicable(std::string_view name) const {
    const VersionMacro* macro = FindVersionMacro(name);
    if (!macro || (macro->needs_miopen && !options_.miopen)) return nullptr;
    if (options_.project_macros && options_.project_macros->count(std::string(name))) return nullptr;
    return macro;
  }

  std::optional<int64_t> ProjectValue(std::string_view name) const {
    if (!options_.project_values) return std::nullopt;
    auto it = options_.project_values->find(name);
    if (it == options_.project_values->end()) return std::nullopt;
    return it->second;
  }

  // Records the version macros of one condition; returns whether it had any (CUDNN_* included, which without
  // MIOpen are left to read 0: the branch without cuDNN is the one HIP builds).
  bool RecordCondition(const Directive& directive, Group& group) {
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
      group.uses.push_back({&tokens[i], macro});
    }
    return versioned;
  }

  // The condition's value; `defaulted`: names nothing defines read as the preprocessor reads them (0, not
  // defined) and `override` reads `value`, for choosing among branches; otherwise they make it unknown.
  std::optional<int64_t> Evaluate(const Directive& directive, bool defaulted, const VersionMacro* override = nullptr,
                                  int64_t value = 0) const {
    if (directive.name == "else") return 1;
    ConditionNames names;
    names.value = [&](std::string_view name) -> std::optional<int64_t> {
      if (override && name == override->cuda_name) return value;
      if (const VersionMacro* macro = Applicable(name)) return VersionMacroValue(*macro, options_.target_hip_version);
      if (defaulted && ProjectValue(name)) return ProjectValue(name);
      if (FindVersionMacro(name)) return 0;  // CUDNN_* without MIOpen: nothing defines it after translation
      if (name == "HIP_VERSION_MAJOR") return options_.target_hip_version.major;
      if (name == "HIP_VERSION_MINOR") return options_.target_hip_version.minor;
      if (!defaulted) return std::nullopt;
      return ProjectValue(name).value_or(0);
    };
    names.defined = [&](std::string_view name) -> std::optional<bool> {
      if (const VersionMacro* macro = Applicable(name)) return !macro->defined_by.empty();
      if (FindVersionMacro(name)) return false;
      if (DefinedByHip(name)) return true;
      if (!defaulted) return std::nullopt;
      return options_.project_macros && options_.project_macros->count(std::string(name)) > 0;
    };
    std::vector<ConditionToken> tokens;
    for (const DirectiveToken& token : directive.tokens) tokens.push_back({token.kind, token.text});
    std::optional<int64_t> result;
    if (directive.name == "ifdef" || directive.name == "ifndef" || directive.name == "elifdef" ||
        directive.name == "elifndef") {
      if (tokens.empty()) return std::nullopt;
      auto known = names.defined(tokens.front().text);
      if (known) result = (directive.name == "ifdef" || directive.name == "elifdef") ? *known : !*known;
    } else {
      result = EvaluateCondition(tokens, names);
    }
    if (!result && defaulted) return 0;
    return result;
  }

  void AddBranch(const Directive& directive) {
    Group& group = Current();
    group.versioned |= RecordCondition(directive, group);
    group.branches.push_back({&directive, directive.offset});
    group.branches.back().value = Evaluate(directive, false);
  }

  void CheckErrors(const Group& group) {
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

  // --- per-feature choice ------------------------------------------------------------------------------

  std::span<const DirectiveToken> CodeIn(uint32_t begin, uint32_t end) const {
    auto less = [](const DirectiveToken& token, uint32_t offset) { return token.offset < offset; };
    auto first = std::lower_bound(code_.begin(), code_.end(), begin, less);
    auto last = std::lower_bound(first, code_.end(), end, less);
    return {first, last};
  }

  bool Lacked(const DirectiveToken& token) const {
    return token.kind == ConditionToken::kIdentifier && options_.hip_lacks(token.text);
  }

  // `name (` after a type name: the branch declares (defines) the name itself.
  bool IsDeclared(const DirectiveToken* token) const {
    if (token == code_.data() || token + 1 == code_.data() + code_.size()) return false;
    const DirectiveToken& before = *(token - 1);
    return (token + 1)->text == "(" && before.kind == ConditionToken::kIdentifier && !IsExpressionKeyword(before.text);
  }

  // A name the branch uses that HIP lacks (the first), also where a macro it #defines is tested; empty: none.
  std::string LackedUse(const Branch& branch) const {
    for (const DirectiveToken& token : CodeIn(branch.offset, branch.end)) {
      if (Lacked(token) && !IsDeclared(&token)) return "'" + std::string(token.text) + "'";
    }
    for (std::string_view macro : branch.defines) {
      for (const Group& group : groups_) {
        for (const Branch& tester : group.branches) {
          if (!TestsPositively(*tester.directive, macro)) continue;
          for (const DirectiveToken& token : CodeIn(tester.offset, tester.end)) {
            if (Lacked(token) && !IsDeclared(&token)) {
              return "'" + std::string(token.text) + "' (where " + std::string(macro) + ", which it defines, is tested)";
            }
          }
        }
      }
    }
    return {};
  }

  std::vector<std::string_view> Declared(const Branch& branch) const {
    std::vector<std::string_view> names;
    for (const DirectiveToken& token : CodeIn(branch.offset, branch.end)) {
      if (Lacked(token) && IsDeclared(&token)) names.push_back(token.text);
    }
    return names;
  }

  static bool TestsPositively(const Directive& directive, std::string_view macro) {
    const auto& tokens = directive.tokens;
    if (directive.name == "ifdef" || directive.name == "elifdef") return !tokens.empty() && tokens[0].text == macro;
    if (directive.name != "if" && directive.name != "elif") return false;
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (tokens[i].text != macro) continue;
      size_t at = i;
      if (at >= 2 && tokens[at - 1].text == "(" && tokens[at - 2].text == "defined") at -= 2;
      else if (at >= 1 && tokens[at - 1].text == "defined") at -= 1;
      if (!(at >= 1 && tokens[at - 1].text == "!")) return true;
    }
    return false;
  }

  Choice Choose(const Group& group, const VersionMacro* override, int64_t value) const {
    size_t taken = group.branches.size();
    for (size_t i = 0; i < group.branches.size(); ++i) {
      if (Evaluate(*group.branches[i].directive, true, override, value).value_or(0) != 0) {
        taken = i;
        break;
      }
    }
    if (taken < group.branches.size()) {
      std::string use = LackedUse(group.branches[taken]);
      if (!use.empty()) return {taken, "uses " + use};
    }
    // A branch that defines a name HIP lacks (a fallback of the project's own) is the one HIP needs.
    for (const Branch& branch : group.branches) {
      for (std::string_view name : Declared(branch)) {
        const bool kept = taken < group.branches.size() &&
                          std::ranges::count(Declared(group.branches[taken]), name) > 0;
        if (!kept) return {taken, "leaves out the project's own '" + std::string(name) + "'"};
      }
    }
    return {taken, {}};
  }

  void ChooseFeatureLevel(Group& group) {
    const Choice current = Choose(group, nullptr, 0);
    if (current.problem.empty()) return;
    const std::string hip = "HIP " + VersionText(options_.target_hip_version);
    const VersionMacro* macro = group.uses.empty() ? nullptr : group.uses.front().macro;
    for (const MacroUse& use : group.uses) {
      if (use.macro != macro) macro = nullptr;  // two version macros: no single value to choose
    }
    const int64_t table_value = macro ? VersionMacroValue(*macro, options_.target_hip_version) : 0;
    std::vector<int64_t> candidates;
    if (macro) {
      for (const VersionLevel& level : macro->levels) candidates.push_back(level.value);
      for (const Branch& branch : group.branches) {
        for (const DirectiveToken& token : branch.directive->tokens) {
          std::optional<int64_t> number = ProjectValue(token.text);
          if (token.kind == ConditionToken::kNumber) number = std::strtoll(std::string(token.text).c_str(), nullptr, 0);
          if (!number) continue;
          candidates.push_back(*number);
          candidates.push_back(*number - 1);
        }
      }
    }
    std::erase_if(candidates, [&](int64_t value) { return value >= table_value || value < 0; });
    std::ranges::sort(candidates, std::greater<>());
    for (int64_t value : candidates) {
      if (!Choose(group, macro, value).problem.empty()) continue;
      group.capped = macro;
      group.cap = value;
      group.cap_reason = "the table's " + std::to_string(table_value) + " would take a branch that " +
                         current.problem + ", which " + hip + " lacks (the API tables); this value takes the "
                         "branch HIP provides";
      return;
    }
    const uint32_t at = current.branch < group.branches.size() ? group.branches[current.branch].offset
                                                               : group.branches.front().offset;
    result_.findings.push_back({Severity::kWarning, at,
                                "under " + hip + " this version chain selects a branch that " + current.problem +
                                    ", which " + hip + " lacks, and no version value selects one that HIP "
                                    "provides: needs a person (every branch was translated)."});
  }

  void EmitRewrites(const Group& group) {
    for (const MacroUse& use : group.uses) {
      const bool capped = use.macro == group.capped;
      const std::string expression =
          capped ? VersionMacroExpression(*use.macro, group.cap) : VersionMacroExpression(*use.macro);
      const int64_t value = capped ? group.cap : VersionMacroValue(*use.macro, options_.target_hip_version);
      result_.edits.push_back({use.token->offset, static_cast<uint32_t>(use.token->text.size()), expression});
      std::string message = "'" + std::string(use.token->text) + "' is not defined by HIP; rewritten to " +
                            expression + ", which reads " + std::to_string(value) + " under HIP " +
                            VersionText(options_.target_hip_version) + " (";
      message += capped ? "per feature: " + group.cap_reason : std::string(use.macro->why);
      result_.findings.push_back({Severity::kNote, use.token->offset,
                                  message + "; table: " + std::string(kTableFile) + ")."});
    }
  }

  const VersionConditionOptions& options_;
  std::span<const DirectiveToken> code_;
  std::vector<Group> groups_;
  std::vector<size_t> open_;  // indices into groups_ of the conditionals open here
  VersionConditionResult result_;
};

}  // namespace

VersionConditionResult RewriteVersionConditions(const std::vector<Directive>& directives,
                                                std::span<const DirectiveToken> code,
                                                const VersionConditionOptions& options) {
  return Rewriter(options, code).Run(directives);
}

}  // namespace hipforge::translate
