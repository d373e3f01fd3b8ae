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
  return name == "HIP_VERSION" || name == "HIP_VERSION_MAJOR" || name == "HIP_VERSION_MINOR" || name == "__HIPCC__" ||
         name == "__HIP__" || name == "__HIP_PLATFORM_AMD__" || name == "__HIP_PLATFORM_HCC__";
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
  static constexpr std::string_view kWords[] = {"return", "else", "case",   "throw",  "co_return", "co_yield", "do",
                                                "sizeof", "new",  "delete", "typeid", "decltype",  "alignof"};
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
        Group group;
        if (!open_.empty()) group.parent = {open_.back(), Current().branches.size() - 1};
        open_.push_back(groups_.size());
        groups_.push_back(std::move(group));
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
        open_.pop_back();
      }
    }
    for (Group& group : groups_) {
      if (!group.uses.empty() && options_.hip_lacks) ChooseFeatureLevel(group);
    }
    // Innermost first: whether a chain reaches an #error depends on what the chains nested in it select.
    for (size_t i = groups_.size(); i-- > 0;) Decide(i);
    for (const Group& group : groups_) EmitRewrites(group);
    RewriteCodeUses(directives);
    std::ranges::stable_sort(result_.findings, {}, &VersionConditionFinding::offset);  // in file order
    return std::move(result_);
  }

 private:
  static constexpr uint32_t kNone = UINT32_MAX;
  struct Branch {
    const Directive* directive;
    uint32_t offset;       // of the '#'
    uint32_t end = kNone;  // of the next branch's or the #endif's '#'
    uint32_t error_offset = kNone;
    std::vector<std::string_view> defines;  // macros #defined inside the branch
  };
  struct MacroUse {
    const DirectiveToken* token;
    const VersionMacro* macro;
  };
  // Whether a chain selects an #error: its own, or one a version chain nested in the selected branch selects.
  enum class Level { kNo, kMaybe, kYes };
  struct Reach {
    Level level = Level::kNo;
    uint32_t at = kNone;  // the #error's '#', or the nested chain's
    bool nested = false;
  };
  struct Group {
    std::vector<Branch> branches;
    std::vector<MacroUse> uses;                       // version macros to rewrite
    std::vector<VersionConditionEdit> defined_edits;  // `defined(X)` -> HIP's own macro, emitted with the uses
    bool versioned = false;
    const VersionMacro* capped = nullptr;  // reads `cap` under the target HIP (per-feature choice)
    int64_t cap = 0;
    std::string cap_reason;
    std::optional<std::pair<size_t, size_t>> parent;  // the enclosing chain and its branch
    bool as_written = false;                          // its conditions stay as the project wrote them
    Reach reach;                                      // with the decision made
  };
  // A chain's choice under one value of a version macro: the branch taken (branches.size(): none of them) and
  // why HIP cannot build it (empty: it can; `error`: it is an #error, not a name HIP lacks).
  struct Choice {
    size_t branch;
    std::string problem;
    bool error = false;
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
    const bool bare_name = directive.name == "ifdef" || directive.name == "ifndef" || directive.name == "elifdef" ||
                           directive.name == "elifndef";
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
        group.defined_edits.push_back(
            {tokens[i].offset, static_cast<uint32_t>(tokens[i].text.size()), std::string(macro->defined_by)});
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
    std::optional<int64_t> result = EvaluateWith(directive, names);
    if (!result && defaulted) return 0;
    return result;
  }

  // The condition as the project wrote it, as HIP reads it: nothing defines CUDA's version macros (unless the
  // project does); other names of the project are unknown.
  std::optional<int64_t> EvaluateWritten(const Directive& directive) const {
    if (directive.name == "else") return 1;
    auto own = [&](std::string_view name) {
      return options_.project_macros && options_.project_macros->count(std::string(name)) > 0;
    };
    ConditionNames names;
    names.value = [&](std::string_view name) -> std::optional<int64_t> {
      if (own(name)) return ProjectValue(name);
      if (FindVersionMacro(name)) return 0;
      if (name == "HIP_VERSION_MAJOR") return options_.target_hip_version.major;
      if (name == "HIP_VERSION_MINOR") return options_.target_hip_version.minor;
      return std::nullopt;
    };
    names.defined = [&](std::string_view name) -> std::optional<bool> {
      if (own(name) || DefinedByHip(name)) return true;
      if (FindVersionMacro(name)) return false;
      return std::nullopt;
    };
    return EvaluateWith(directive, names);
  }

  static std::optional<int64_t> EvaluateWith(const Directive& directive, const ConditionNames& names) {
    std::vector<ConditionToken> tokens;
    for (const DirectiveToken& token : directive.tokens) tokens.push_back({token.kind, token.text});
    if (directive.name == "ifdef" || directive.name == "ifndef" || directive.name == "elifdef" ||
        directive.name == "elifndef") {
      if (tokens.empty()) return std::nullopt;
      auto known = names.defined(tokens.front().text);
      if (!known) return std::nullopt;
      return (directive.name == "ifdef" || directive.name == "elifdef") ? *known : !*known;
    }
    return EvaluateCondition(tokens, names);
  }

  void AddBranch(const Directive& directive) {
    Group& group = Current();
    group.versioned |= RecordCondition(directive, group);
    group.branches.push_back({&directive, directive.offset});
  }

  // --- #error branches ---------------------------------------------------------------------------------

  // The #error that branch `b` of chain `index` selects: its own, or the one a version chain nested in it selects.
  Reach ErrorIn(size_t index, size_t b) const {
    if (groups_[index].branches[b].error_offset != kNone) return {Level::kYes, groups_[index].branches[b].error_offset};
    Reach worst;
    for (size_t c = index + 1; c < groups_.size(); ++c) {
      const Group& child = groups_[c];
      if (child.parent != std::pair(index, b) || !child.versioned || child.reach.level <= worst.level) continue;
      worst = {child.reach.level, child.branches.front().offset, true};
    }
    return worst;
  }

  // Whether the chain selects an #error, its conditions read as rewritten (with the per-feature cap) or, with
  // `written`, as the project wrote them.
  Reach ReachesError(size_t index, bool written) const {
    const Group& group = groups_[index];
    for (size_t b = 0; b < group.branches.size(); ++b) {
      const Directive& directive = *group.branches[b].directive;
      const auto value = written ? EvaluateWritten(directive) : Evaluate(directive, false, group.capped, group.cap);
      if (value && *value == 0) continue;
      if (value) return ErrorIn(index, b);
      for (size_t later = b; later < group.branches.size(); ++later) {  // unknown from here on
        Reach reach = ErrorIn(index, later);
        if (reach.level == Level::kNo) continue;
        reach.level = Level::kMaybe;
        return reach;
      }
      return {};
    }
    return {};
  }

  // A chain whose rewrite would switch the program into an #error (issue 29: "CUBLAS error names missing" was the
  // branch a per-feature value took) is left as written, with a located warning: as written, HIP reads CUDA's
  // version macros as undefined, the reading the project itself gives a compiler that is not nvcc. Only where the
  // rewrite may select it (a project flag decides) and the untouched line surely does, the rewrite is the better.
  void Decide(size_t index) {
    Group& group = groups_[index];
    if (!group.versioned) return;
    const Reach rewritten = ReachesError(index, false);
    group.reach = rewritten;
    if (rewritten.level == Level::kNo) return;
    const bool rewrites = !group.uses.empty() || !group.defined_edits.empty();
    const Reach written = rewrites ? ReachesError(index, true) : rewritten;
    const bool keep = !rewrites || (rewritten.level == Level::kMaybe && written.level == Level::kYes);
    if (!keep) {
      group.as_written = true;
      group.reach = written;
    }
    ReportError(group, rewritten, keep ? Reach{} : written, rewrites);
  }

  // `written`: what the chain left as written selects (level kNo when it is rewritten).
  void ReportError(const Group& group, const Reach& rewritten, const Reach& written, bool rewrites) {
    const std::string hip = "HIP " + VersionText(options_.target_hip_version);
    const bool may = rewritten.level == Level::kMaybe;
    const uint32_t at = rewritten.nested ? group.branches.front().offset : rewritten.at;
    std::string message;
    if (!group.as_written) {
      message = may ? std::string(rewritten.nested ? "a version chain nested here" : "this #error") +
                          " may be selected under " + hip +
                          ": its version chain could not be evaluated; check "
                          "which branch HIP provides"
                    : "under " + hip +
                          " the version condition selects this #error; the branch HIP provides needs "
                          "a person";
      if (rewrites && may) message += "; rewritten all the same, as written HIP would surely select it";
    } else {
      message = "version chain left as written: rewritten for " + hip + ", it " + (may ? "might" : "would") +
                " select " + (rewritten.nested ? "the #error of a version chain nested in it" : "this #error") +
                "; as written, HIP reads CUDA's version macros as undefined";
      if (written.level == Level::kYes)
        message += ", which selects an #error too: the branch HIP provides needs a person";
      if (written.level == Level::kMaybe) message += "; check which branch HIP takes";
    }
    result_.findings.push_back({Severity::kWarning, at, message + " (every branch was translated)."});
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
              return "'" + std::string(token.text) + "' (where " + std::string(macro) +
                     ", which it defines, is tested)";
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
      if (at >= 2 && tokens[at - 1].text == "(" && tokens[at - 2].text == "defined")
        at -= 2;
      else if (at >= 1 && tokens[at - 1].text == "defined")
        at -= 1;
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
      // An #error is no branch HIP provides (issue 29: a lower value took "CUBLAS error names missing").
      if (group.branches[taken].error_offset != kNone) return {taken, "is an #error", true};
      std::string use = LackedUse(group.branches[taken]);
      if (!use.empty()) return {taken, "uses " + use};
    }
    // A branch that defines a name HIP lacks (a fallback of the project's own) is the one HIP needs.
    for (const Branch& branch : group.branches) {
      for (std::string_view name : Declared(branch)) {
        const bool kept =
            taken < group.branches.size() && std::ranges::count(Declared(group.branches[taken]), name) > 0;
        if (!kept) return {taken, "leaves out the project's own '" + std::string(name) + "'"};
      }
    }
    return {taken, {}};
  }

  void ChooseFeatureLevel(Group& group) {
    const Choice current = Choose(group, nullptr, 0);
    if (current.problem.empty()) return;
    const std::string hip = "HIP " + VersionText(options_.target_hip_version);
    const std::string problem = current.error ? current.problem : current.problem + ", which " + hip + " lacks";
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
      group.cap_reason = "the table's " + std::to_string(table_value) + " would take a branch that " + problem +
                         (current.error ? "" : " (the API tables)") + "; this value takes a branch HIP provides";
      return;
    }
    if (current.error) return;  // Decide says where, and leaves the chain as written
    const uint32_t at =
        current.branch < group.branches.size() ? group.branches[current.branch].offset : group.branches.front().offset;
    result_.findings.push_back({Severity::kWarning, at,
                                "under " + hip + " this version chain selects a branch that " + problem +
                                    ", and no version value selects one that HIP provides: needs a person "
                                    "(every branch was translated)."});
  }

  void EmitRewrites(const Group& group) {
    if (group.as_written) return;  // Decide said why
    result_.edits.insert(result_.edits.end(), group.defined_edits.begin(), group.defined_edits.end());
    for (const MacroUse& use : group.uses) {
      const bool capped = use.macro == group.capped;
      // A cap answers what AMD's HIP lacks. On HIP's NVIDIA platform the CUDA headers are there and define the
      // macro and the API (ggml's own __hgt2_mask, kept under the cap, redefined CUDA 13's), so it reads as written.
      const std::string expression = capped ? "(defined(__HIP_PLATFORM_NVIDIA__) ? " + std::string(use.token->text) +
                                                  " : " + VersionMacroExpression(*use.macro, group.cap) + ")"
                                            : VersionMacroExpression(*use.macro);
      const int64_t value = capped ? group.cap : VersionMacroValue(*use.macro, options_.target_hip_version);
      result_.edits.push_back({use.token->offset, static_cast<uint32_t>(use.token->text.size()), expression});
      std::string message = "'" + std::string(use.token->text) + "' is not defined by HIP; rewritten to " + expression +
                            ", which reads " + std::to_string(value) + " under HIP " +
                            VersionText(options_.target_hip_version) + " (";
      message += capped ? "per feature: " + group.cap_reason : std::string(use.macro->why);
      result_.findings.push_back(
          {Severity::kNote, use.token->offset, message + "; table: " + std::string(kTableFile) + ")."});
    }
  }

  // --- values in code ------------------------------------------------------------------------------------

  // The innermost chain around `offset` whose conditions test `macro`.
  const Group* EnclosingChain(uint32_t offset, const VersionMacro& macro) const {
    const Group* found = nullptr;
    for (const Group& group : groups_) {
      if (offset < group.branches.front().offset || offset >= group.branches.back().end) continue;
      for (const Branch& branch : group.branches) {
        for (const DirectiveToken& token : branch.directive->tokens) {
          if (token.text == macro.cuda_name) found = &group;
        }
      }
    }
    return found;
  }

  // A version macro's value in code (`CUDA_VERSION / 1000`, a #define's body) reads as the chain around it reads
  // it, so that the code and the branch it sits in agree (issue 29: `#ifdef CUDA_VERSION` became `#ifdef
  // HIP_VERSION` while the CUDA_VERSION inside stayed, undeclared on AMD and reporting "CUDA 0.x" on the NVIDIA
  // layer). The same value, not HIP's own HIP_VERSION: the code compares and prints it as a CUDA number, and leaving
  // the branch as written instead would drop code the project meant for every toolkit. In a chain left as written
  // it stays as written too.
  void RewriteCodeUses(const std::vector<Directive>& directives) {
    std::vector<const DirectiveToken*> uses;
    for (const DirectiveToken& token : code_) uses.push_back(&token);
    for (const Directive& directive : directives) {
      if (directive.name != "define") continue;
      const auto& tokens = directive.tokens;
      for (size_t i = 1; i < tokens.size(); ++i) {
        const bool in_defined =
            tokens[i - 1].text == "defined" || (i >= 2 && tokens[i - 1].text == "(" && tokens[i - 2].text == "defined");
        if (!in_defined) uses.push_back(&tokens[i]);
      }
    }
    const std::string hip = "HIP " + VersionText(options_.target_hip_version);
    for (const DirectiveToken* token : uses) {
      const VersionMacro* macro = token->kind == ConditionToken::kIdentifier ? Applicable(token->text) : nullptr;
      if (!macro) continue;
      result_.handled_offsets.insert(token->offset);
      const Group* group = EnclosingChain(token->offset, *macro);
      if (group && group->as_written) continue;
      const bool capped = group && group->capped == macro;
      const std::string expression =
          capped ? VersionMacroExpression(*macro, group->cap) : VersionMacroExpression(*macro);
      const int64_t value = capped ? group->cap : VersionMacroValue(*macro, options_.target_hip_version);
      result_.edits.push_back({token->offset, static_cast<uint32_t>(token->text.size()), expression});
      result_.findings.push_back({Severity::kNote, token->offset,
                                  "'" + std::string(token->text) +
                                      "' is not defined by HIP; its value in code is the one the version "
                                      "conditions read: rewritten to " +
                                      expression + ", which reads " + std::to_string(value) + " under " + hip +
                                      " (the CUDA API level " + hip +
                                      " provides, not a CUDA release; table: " + std::string(kTableFile) + ")."});
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
