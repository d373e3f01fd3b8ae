#include "worker/translate/core/token_pass.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <regex>

#include "common/cuda_names.h"
#include "worker/translate/core/argument_rewrites.h"
#include "worker/translate/core/compat_shims.h"
#include "worker/translate/core/device_function_shims.h"
#include "worker/translate/core/token_rewrites.h"
#include "worker/translate/core/token_sites.h"
#include "worker/translate/core/version_conditions.h"
#include "worker/translate/frontend/raw_lexer.h"
#include "worker/translate/tables/warp_intrinsics.h"

namespace hipforge::translate {
namespace {

using Token = RawToken;

constexpr std::string_view kHipRuntimeHeader = "hip/hip_runtime.h";

class TokenPass {
 public:
  TokenPass(const TokenPassInput& input, const NameResolver& resolver)
      : input_(input), resolver_(resolver), content_(input.content), tokens_(LexAll(input.content)) {}

  TokenPassOutput Run() {
    ScanDirectives();
    CollectCooperativeGroupsAliases();
    CollectOwnNames();
    for (size_t i = 0; i < tokens_.size(); ++i) {
      if (directive_tokens_.count(i)) continue;
      const Token& token = tokens_[i];
      if (version_macro_offsets_.count(token.begin)) continue;
      if (IsSkipped(token.begin)) continue;
      if (IsIdentifier(token)) {
        uses_warp_sync_ = uses_warp_sync_ || IsWarpSyncName(Text(token));
        if (HandleWarpCall(i)) continue;
        if (HandleMetaGroup(i)) continue;
        if (HandleSyncWarp(i)) continue;
        NoteUsingNamespaceCub(i);
        if (HandleQualifiedCooperativeGroups(i)) continue;
        if (HandleShimmedCall(i)) continue;
        if (HandleThrustCudaSystem(i)) continue;
        GuardOwnFloatAtomic(i);
        if (input_.discover_sites && HasArgumentRewrites(Text(token))) DiscoverCall(i);
        RenameIdentifier(token);
      } else if (token.kind == clang::tok::string_literal) {
        RenameInStringLiteral(token);
      } else if (input_.discover_sites && (token.kind == clang::tok::lesslessless || IsSplitTripleLess(tokens_, i))) {
        if (auto launch = LaunchAt(tokens_, i)) output_.launches.push_back(std::move(*launch));
      }
    }
    // nvcc includes cuda_runtime.h implicitly, so a project header may use the runtime API without including it;
    // clang's HIP mode has no such implicit include, so such a header gets hip_runtime.h too.
    // HIP 6.2+ declares the *_sync warp functions only when HIP_ENABLE_WARP_SYNC_BUILTINS is defined before
    // hip_runtime.h: the file that calls them defines it first thing (nvcc needs nothing).
    // Not twice: a file that defines it already (the pass over its own output) is left as it is.
    if (uses_warp_sync_ && resolver_.options().target_hip_version >= kHipWarpSyncIntroduced &&
        !project_macros_.count("HIP_ENABLE_WARP_SYNC_BUILTINS")) {
      AddEdit(ByteOrderMarkLength(content_), 0, "#define HIP_ENABLE_WARP_SYNC_BUILTINS 1\n", "warp");
    }
    DropRegisterStorage();
    IncludeMathHForHostClassification();
    if (!runtime_header_present_ && (input_.main_file || uses_runtime_api_)) InsertRuntimeHeader();
    InsertDeviceFunctionShims();
    if (input_.facts && resolver_.options().target_hip_version < kHipWarpSyncIntroduced) {
      for (const WarpCallSite& call : input_.facts->warp_calls) {
        if (!call.full_mask && IsFullMaskVariable(content_, tokens_, call.mask))
          output_.full_mask_variables.push_back(call.callee.begin);
      }
    }
    return std::move(output_);
  }

 private:
  std::string_view Text(const Token& token) const { return content_.substr(token.begin, token.length); }
  std::string_view Text(ByteRange range) const { return content_.substr(range.begin, range.end - range.begin); }

  static bool IsWarpSyncName(std::string_view name) {
    const WarpIntrinsic* intrinsic = FindWarpIntrinsic(name);
    return intrinsic != nullptr && intrinsic->needs_sync_builtins;
  }

  bool IsSkipped(uint32_t offset) const {
    const TranslateOptions& options = resolver_.options();
    if (options.translate_inactive_branches || options.amap || !input_.facts) return false;
    for (const ByteRange& range : input_.facts->skipped) {
      if (offset >= range.begin && offset < range.end) return true;
    }
    return false;
  }

  void Report(std::string_view rule, Severity severity, uint32_t offset, std::string message) {
    Finding finding;
    finding.rule_id = std::string(rule);
    finding.severity = severity;
    finding.location = LocateOffset(input_.path, content_, offset);
    finding.message = std::move(message);
    output_.findings.push_back(std::move(finding));
  }

  void AddEdit(uint32_t offset, uint32_t length, std::string replacement, std::string origin) {
    output_.edits.push_back({offset, length, std::move(replacement), origin});
    output_.changed_by.insert(std::move(origin));
  }

  // --- preprocessor directives -------------------------------------------------------------------------

  uint32_t LineEnd(uint32_t offset) const {
    while (offset < content_.size()) {
      if (content_[offset] == '\n' && (offset == 0 || content_[offset - 1] != '\\')) break;
      ++offset;
    }
    return offset;
  }

  // True when token `i` belongs to a preprocessor directive whose line ends before `offset`: not part of the
  // statement at `offset` (`#ifndef GGML_USE_HIP` above a `__syncwarp();` is no return type).
  bool EndsADirectiveBefore(size_t i, uint32_t offset) const {
    size_t first = i;
    while (first > 0 && !tokens_[first].line_start) --first;
    return tokens_[first].kind == clang::tok::hash && tokens_[first].line_start && LineEnd(tokens_[i].begin) < offset;
  }

  void ScanDirectives() {
    for (size_t i = 0; i < tokens_.size(); ++i) {
      if (tokens_[i].kind == clang::tok::hash && tokens_[i].line_start) collect_directive_names_.push_back(i);
    }
    // Pass 1: facts needed before renaming (defined macros, cublas_v2.h, include guard).
    // An include guard: the first directive is `#ifndef X`, X is #defined, and the last directive is #endif.
    std::string first_ifndef;
    uint32_t first_ifndef_end = 0;
    uint32_t guard_define_end = 0;
    bool guard_defined = false;
    std::string_view last_directive;
    int directive_number = 0;
    bool include_seen = false;
    for (size_t hash : collect_directive_names_) {
      if (hash + 1 >= tokens_.size() || !IsIdentifier(tokens_[hash + 1])) continue;
      const std::string_view directive = Text(tokens_[hash + 1]);
      last_directive = directive;
      ++directive_number;
      const bool has_name =
          hash + 2 < tokens_.size() && IsIdentifier(tokens_[hash + 2]) && !tokens_[hash + 2].line_start;
      if (!first_directive_offset_) first_directive_offset_ = tokens_[hash].begin;
      if (directive == "define" && has_name) {
        if (!include_seen) define_before_include_ = true;
        project_macros_.insert(std::string(Text(tokens_[hash + 2])));
        // `#define FULL_MASK 0xffffffff`: remembered so warp calls using the macro count as full-mask.
        const uint32_t define_end = LineEnd(tokens_[hash + 2].end());
        if (hash + 3 < tokens_.size() && tokens_[hash + 3].begin < define_end &&
            tokens_[hash + 3].begin > tokens_[hash + 2].end()) {
          size_t last = hash + 3;
          while (last + 1 < tokens_.size() && tokens_[last + 1].begin < define_end) ++last;
          full_mask_macros_[std::string(Text(tokens_[hash + 2]))] =
              IsFullWarpMaskLiteral(Text(ByteRange{tokens_[hash + 3].begin, tokens_[last].end()}));
        }
        if (!first_ifndef.empty() && !guard_defined && Text(tokens_[hash + 2]) == first_ifndef) {
          guard_defined = true;
          guard_define_end = LineEnd(tokens_[hash + 2].end());  // the include goes after `#define GUARD ...`
        }
      } else if (directive == "ifndef" && has_name && directive_number == 1) {
        first_ifndef = std::string(Text(tokens_[hash + 2]));
        first_ifndef_end = LineEnd(tokens_[hash + 2].end());
      } else if (directive == "pragma" && has_name && Text(tokens_[hash + 2]) == "once" && !pragma_once_end_) {
        pragma_once_end_ = tokens_[hash + 2].end();
      } else if (directive == "include" || directive == "include_next" || directive == "import") {
        include_seen = true;
        const auto include = ParseInclude(tokens_[hash + 1].end());
        if (include && include->name == "cublas_v2.h") blas_v2_included_ = true;
        if (include && IsCublasHeader(include->name)) blas_header_included_ = true;
        if (include && (include->name == "cuda_bf16.h" || include->name == "cuda_fp8.h")) bf16_header_included_ = true;
      }
    }
    if (guard_defined && last_directive == "endif") {
      // `#ifndef G` / `#pragma once` / `#define G`: the include goes right after the #ifndef, as HIPIFY puts it.
      const bool pragma_inside_guard =
          pragma_once_end_ && *pragma_once_end_ > first_ifndef_end && *pragma_once_end_ < guard_define_end;
      guard_insert_offset_ = pragma_inside_guard ? first_ifndef_end : guard_define_end;
    }
    if (input_.facts) {
      for (const auto& macro : input_.facts->macros) project_macros_.insert(macro);
      // cublas_v2.h through another header (ggml: common.cuh -> vendors/cuda.h): the parse saw v2 macros here.
      if (input_.facts->blas_v2) blas_v2_included_ = true;
    }
    RewriteVersionConditions();
    // Pass 2: rewrite the include names; mark directive-name tokens so they are not renamed as identifiers.
    for (size_t hash : collect_directive_names_) {
      if (hash + 1 >= tokens_.size() || !IsIdentifier(tokens_[hash + 1])) continue;
      directive_tokens_.insert(hash + 1);
      const std::string_view directive = Text(tokens_[hash + 1]);
      if (directive != "include" && directive != "include_next" && directive != "import") continue;
      const uint32_t line_end = LineEnd(tokens_[hash + 1].end());
      for (size_t j = hash + 2; j < tokens_.size() && tokens_[j].begin < line_end; ++j) directive_tokens_.insert(j);
      if (!first_include_offset_) first_include_offset_ = tokens_[hash].begin;
      if (IsSkipped(tokens_[hash].begin)) continue;
      RewriteInclude(tokens_[hash].begin, tokens_[hash + 1].end());
    }
  }

  // Version conditions (version_conditions.h): CUDA version macros in #if lines read as the target HIP has them.
  void RewriteVersionConditions() {
    auto kind_of = [&](const Token& token) {
      return IsIdentifier(token)                          ? ConditionToken::kIdentifier
             : token.kind == clang::tok::numeric_constant ? ConditionToken::kNumber
                                                          : ConditionToken::kPunctuation;
    };
    std::vector<Directive> directives;
    std::vector<DirectiveToken> code;                    // tokens outside directive lines: what each branch uses
    std::map<std::string, int64_t, std::less<>> values;  // `#define NAME <integer>`
    size_t next = 0;                                     // first token not yet placed in `code`
    for (size_t hash : collect_directive_names_) {
      for (; next < hash; ++next) code.push_back({kind_of(tokens_[next]), Text(tokens_[next]), tokens_[next].begin});
      const uint32_t line_end = LineEnd(tokens_[hash].end());
      while (next < tokens_.size() && tokens_[next].begin < line_end) ++next;
      if (hash + 1 >= tokens_.size() || !IsIdentifier(tokens_[hash + 1]) || IsSkipped(tokens_[hash].begin)) continue;
      Directive directive{Text(tokens_[hash + 1]), tokens_[hash].begin, {}};
      if (directive.name != "if" && directive.name != "elif" && directive.name != "ifdef" &&
          directive.name != "ifndef" && directive.name != "else" && directive.name != "endif" &&
          directive.name != "error" && directive.name != "elifdef" && directive.name != "elifndef" &&
          directive.name != "define") {
        continue;
      }
      for (size_t j = hash + 2; j < tokens_.size() && tokens_[j].begin < line_end; ++j) {
        directive.tokens.push_back({kind_of(tokens_[j]), Text(tokens_[j]), tokens_[j].begin});
      }
      if (directive.name == "define" && directive.tokens.size() == 2 &&
          directive.tokens[1].kind == ConditionToken::kNumber) {
        char* end = nullptr;
        const std::string digits(directive.tokens[1].text);
        const long long value = std::strtoll(digits.c_str(), &end, 0);
        if (end != digits.c_str()) values[std::string(directive.tokens[0].text)] = value;
      }
      directives.push_back(std::move(directive));
    }
    for (; next < tokens_.size(); ++next)
      code.push_back({kind_of(tokens_[next]), Text(tokens_[next]), tokens_[next].begin});
    VersionConditionOptions options{
        resolver_.options().target_hip_version, resolver_.options().miopen, &project_macros_, &values, {}};
    options.hip_lacks = [&](std::string_view name) {
      const ApiMapping* mapping = resolver_.Find(name);
      return mapping && TargetHipLacks(mapping, resolver_.options().target_hip_version);
    };
    VersionConditionResult result = translate::RewriteVersionConditions(directives, code, options);
    // Values in code are rewritten too; not in blocks the options skip.
    for (auto& edit : result.edits) {
      if (!IsSkipped(edit.offset)) AddEdit(edit.offset, edit.length, std::move(edit.replacement), "version-macros");
    }
    for (auto& finding : result.findings) {
      if (IsSkipped(finding.offset)) continue;
      Report(kRuleCudaVersionCondition, finding.severity, finding.offset, std::move(finding.message));
    }
    version_macro_offsets_ = std::move(result.handled_offsets);
  }

  struct ParsedInclude {
    std::string name;
    bool angled;
    uint32_t name_begin;  // after the opening delimiter
    uint32_t name_end;    // at the closing delimiter
  };

  std::optional<ParsedInclude> ParseInclude(uint32_t after_directive) const {
    uint32_t at = after_directive;
    const uint32_t end = LineEnd(at);
    while (at < end && (content_[at] == ' ' || content_[at] == '\t')) ++at;
    if (at >= end) return std::nullopt;
    const char open = content_[at];
    if (open != '<' && open != '"') return std::nullopt;
    const char close = open == '<' ? '>' : '"';
    const size_t closing = content_.find(close, at + 1);
    if (closing == std::string_view::npos || closing > end) return std::nullopt;
    return ParsedInclude{std::string(content_.substr(at + 1, closing - at - 1)), open == '<', at + 1,
                         static_cast<uint32_t>(closing)};
  }

  const ApiMapping* FindHeader(std::string_view name) const {
    for (const ApiMapping* mapping : resolver_.index().FindAll(name)) {
      if (mapping->kind == ApiKind::kHeader) return mapping;
    }
    return nullptr;
  }

  void RewriteInclude(uint32_t hash_offset, uint32_t after_directive) {
    const auto include = ParseInclude(after_directive);
    if (!include) return;
    output_.includes.push_back({include->name, include->angled});
    if (include->name == kHipRuntimeHeader) {
      // Already HIP (or half-migrated): no second runtime include, and a later cuda_runtime.h is a duplicate.
      runtime_header_present_ = true;
      emitted_main_headers_.insert(std::string(kHipRuntimeHeader));
      return;
    }
    if (include->name == "cooperative_groups/reduce.h" && NeedsCooperativeGroupsReduce()) {
      output_.stats.converted[std::string(KindName(ApiKind::kHeader))]++;
      AddEdit(hash_offset, include->name_end + 1 - hash_offset, CooperativeGroupsReduceShim(), "cooperative_groups");
      Report(kRuleCompatShim, Severity::kNote, include->name_begin,
             "HIP " + VersionText() +
                 " has no cooperative_groups::reduce: an inline warp-tile version (with plus, "
                 "less, greater, bit_and/or/xor) replaces this include; the lines below move down by 4.");
      return;
    }
    if (IsPipelineHeader(include->name)) {
      output_.stats.converted[std::string(KindName(ApiKind::kHeader))]++;
      AddEdit(hash_offset, include->name_end + 1 - hash_offset, PipelineFallbackShim(), "pipeline");
      Report(kRuleCompatShim, Severity::kWarning, include->name_begin,
             "HIP has no libcu++ pipeline: an inline synchronous fallback (copy by the group, block barriers) "
             "replaces <" +
                 include->name +
                 ">; the program builds and computes the same, but copies no longer "
                 "overlap compute (performance); the lines below move down by 4.");
      return;
    }
    const ApiMapping* mapping = FindHeader(include->name);
    if (!mapping) return;
    const std::string origin(LibraryName(mapping->library));
    if (HasFlag(*mapping, MappingFlag::kDropInclude)) {
      // A CUDA header HIP has no counterpart for (its content comes with hip_runtime.h): the directive goes.
      output_.stats.converted[std::string(KindName(ApiKind::kHeader))]++;
      AddEdit(hash_offset, include->name_end + 1 - hash_offset, "", origin);
      return;
    }
    const NameDecision decision = resolver_.Decide(*mapping, blas_v2_included_);
    if (!decision.replace) {
      output_.stats.unsupported++;
      Report(decision.rule, Severity::kWarning, include->name_begin,
             "'" + include->name + "' is an unsupported header: " + decision.message);
      return;
    }
    output_.stats.converted[std::string(KindName(ApiKind::kHeader))]++;
    const std::string name(InstalledHeaderName(*mapping, decision.name));
    const bool main_header =
        HasFlag(*mapping, MappingFlag::kMainHeader) || HasFlag(*mapping, MappingFlag::kMainHeaderV2);
    std::set<std::string>& emitted = main_header ? emitted_main_headers_ : emitted_other_headers_;
    const bool drop = emitted.count(name) > 0;
    if (name == kHipRuntimeHeader) runtime_header_present_ = true;
    if (drop) {
      // The whole directive goes; the line stays so line numbers in diagnostics keep matching.
      AddEdit(hash_offset, include->name_end + 1 - hash_offset, "", origin);
      return;
    }
    emitted.insert(name);
    if (name != include->name) AddEdit(include->name_begin, include->name_end - include->name_begin, name, origin);
    if (mapping->hip_name == "hipblas.h" && decision.name == mapping->hip_name &&
        resolver_.options().hipblas_hip_half && !project_macros_.count("HIPBLAS_USE_HIP_HALF") &&
        !defined_hipblas_half_) {
      defined_hipblas_half_ = true;
      AddEdit(hash_offset, 0, "#define HIPBLAS_USE_HIP_HALF 1 /* hipforge: cuBLAS takes __half */\n", origin);
    }
  }

  uint32_t RuntimeHeaderOffset() const {
    uint32_t offset = ByteOrderMarkLength(content_);
    if (pragma_once_end_ && guard_insert_offset_) {
      offset = std::min(*pragma_once_end_, *guard_insert_offset_);
    } else if (pragma_once_end_) {
      offset = *pragma_once_end_;
    } else if (guard_insert_offset_) {
      offset = *guard_insert_offset_;
    } else if (first_include_offset_) {
      offset = *first_include_offset_;
      // nvcc includes the runtime before a unit's first line: a main file that #defines a macro before its first
      // include (`#define T double`) gets it above its first directive, or HIP's headers meet the macro.
      if (input_.main_file && define_before_include_ && first_directive_offset_) offset = *first_directive_offset_;
    }
    // A header whose CUDA names all sit in an `#ifdef __CUDACC__` region includes the runtime there: C units
    // include it too (nvcc compiles .c files as C, where hip_runtime.h cannot be included).
    if (!input_.main_file) {
      const std::vector<ByteRange> regions = CudaCompilerRegions(content_, tokens_);
      if (const auto region = RegionHoldingAll(regions, runtime_use_offsets_)) offset = region->begin;
    }
    // Never inside `extern "C" {`: hip_runtime.h declares templates (nvcc includes cuda_runtime.h before it).
    return OutsideExternC(content_, ExternCBlocks(content_, tokens_), offset);
  }

  void InsertRuntimeHeader() { AddEdit(RuntimeHeaderOffset(), 0, "\n#include <hip/hip_runtime.h>\n", "runtime"); }

  // --- clang is stricter than nvcc (token_rewrites.h) --------------------------------------------------

  // nvcc's math headers declare isfinite/isnan/isinf/signbit in the global namespace for host code too; with HIP,
  // host code finds them there only through <math.h> (libstdc++'s brings std's overloads into the global
  // namespace). HeCBench qkv: `isfinite(cpu_reference[i])` in a host template after <cmath> failed with "no matching
  // function for call to 'isfinite'".
  void IncludeMathHForHostClassification() {
    static constexpr std::string_view kNames[] = {"isfinite", "isnan", "isinf", "signbit"};
    if (!first_include_offset_) return;
    bool uses = false;
    for (size_t i = 0; i + 1 < tokens_.size() && !uses; ++i) {
      if (directive_tokens_.count(i) || !IsIdentifier(tokens_[i]) || tokens_[i + 1].kind != clang::tok::l_paren ||
          std::find(std::begin(kNames), std::end(kNames), Text(tokens_[i])) == std::end(kNames)) {
        continue;
      }
      const auto before = i == 0 ? clang::tok::unknown : tokens_[i - 1].kind;
      uses = before != clang::tok::coloncolon && before != clang::tok::period && before != clang::tok::arrow;
    }
    static const std::regex kMathH(R"re((^|\n)[ \t]*#[ \t]*include[ \t]*<math\.h>)re");
    if (!uses || std::regex_search(content_.begin(), content_.end(), kMathH)) return;
    AddEdit(
        *first_include_offset_, 0,
        "#include <math.h>  // hipforge: host isfinite/isnan/isinf in the global namespace, as nvcc declares them\n",
        "headers");
  }

  void DropRegisterStorage() {
    const std::vector<ByteRange> words = RegisterStorageWords(content_, tokens_);
    for (const ByteRange& word : words) AddEdit(word.begin, word.end - word.begin, "", "c++17");
    if (!words.empty()) {
      output_.stats.converted["storage_class"] += static_cast<int>(words.size());
      Report(kRuleCompatShim, Severity::kNote, words.front().begin,
             "'register' removed (" + std::to_string(words.size()) +
                 " in this file): C++17 has no such storage "
                 "class and clang rejects it (nvcc only warns); it has had no effect since C++11.");
    }
  }

  // --- device functions HIP lacks, defined inline (device_function_shims.h) ---------------------------

  bool ShimApplies(const DeviceFunctionShim& shim) const {
    const ApiVersion target = resolver_.options().target_hip_version;
    if (!shim.record.empty()) return TargetHipLacks(resolver_.Find(shim.record), target);
    return !(shim.checked_through < target);
  }

  // A call of a shimmed name: remembered (first use, for the placement); names HIP lacks entirely are not
  // renamed or reported as unsupported. The program's own definition of the name turns the shim off.
  bool HandleShimmedCall(size_t index) {
    const std::string_view name = Text(tokens_[index]);
    const auto shims = DeviceFunctionShims();
    for (size_t s = 0; s < shims.size(); ++s) {
      if (std::find(shims[s].names.begin(), shims[s].names.end(), name) == shims[s].names.end()) continue;
      if (shims[s].type_names) continue;  // placed by the AST pass's rewrites (PlaceTypeShims); renamed as usual
      const CallUse use = ClassifyCallUse(content_, tokens_, index);
      if (use == CallUse::kOwnDeclaration) own_shim_names_.insert(std::string(name));
      if (use != CallUse::kCall) return false;
      if (!ShimApplies(shims[s])) continue;
      if (!shim_first_use_.count(s)) shim_first_use_[s] = tokens_[index].begin;
      // An overload of a name HIP has (atomicAdd on half, on bfloat16): renamed as usual, and the other shims of the
      // name are remembered too (each is written only where its types appear).
      if (shims[s].record.empty()) continue;
      output_.stats.converted["function"]++;
      uses_runtime_api_ = true;
      runtime_use_offsets_.push_back(tokens_[index].begin);
      return true;
    }
    return false;
  }

  bool FileHasWord(std::string_view word) const {
    return std::any_of(tokens_.begin(), tokens_.end(),
                       [&](const Token& token) { return IsIdentifier(token) && Text(token) == word; });
  }

  // A type shim goes where the AST pass rewrote a conversion into its call: before the first such rewrite.
  void PlaceTypeShims() {
    if (input_.facts == nullptr) return;
    const auto shims = DeviceFunctionShims();
    for (size_t s = 0; s < shims.size(); ++s) {
      if (!shims[s].type_names || !ShimApplies(shims[s])) continue;
      const std::string call = std::string(shims[s].rewritten_to) + "(";
      for (const FactsEdit& fact : input_.facts->edits) {
        if (fact.edit.replacement != call) continue;
        const auto [it, added] = shim_first_use_.emplace(s, fact.edit.offset);
        if (!added) it->second = std::min(it->second, fact.edit.offset);
      }
    }
  }

  void InsertDeviceFunctionShims() {
    PlaceTypeShims();
    const auto shims = DeviceFunctionShims();
    std::vector<uint32_t> include_ends;
    for (const auto& [index, first_use] : shim_first_use_) {
      const DeviceFunctionShim& shim = shims[index];
      if (std::any_of(shim.names.begin(), shim.names.end(),
                      [&](std::string_view name) { return own_shim_names_.count(std::string(name)) > 0; }) ||
          project_macros_.count(std::string(shim.guard))) {
        continue;
      }
      if (!shim.with_any_of.empty() && std::none_of(shim.with_any_of.begin(), shim.with_any_of.end(),
                                                    [&](std::string_view word) { return FileHasWord(word); })) {
        continue;
      }
      if (include_ends.empty())
        include_ends = FileScopeIncludeEnds(content_, tokens_, guard_insert_offset_.has_value());
      uint32_t offset = RuntimeHeaderOffset();
      std::string text(shim.code);
      for (uint32_t end : include_ends) {
        if (end <= first_use) offset = end;
      }
      if (offset == RuntimeHeaderOffset()) text = "\n" + text;
      const int lines = static_cast<int>(std::count(text.begin(), text.end(), '\n'));
      AddEdit(offset, 0, std::move(text), "device");
      Report(kRuleCompatShim, Severity::kNote, first_use,
             std::string(shim.note) + "; the lines below it move down by " + std::to_string(lines) + ".");
    }
  }

  // The path ROCm installs a library header at, where the options ask for it and the target has that layout.
  std::string_view InstalledHeaderName(const ApiMapping& mapping, std::string_view decided) const {
    const TranslateOptions& options = resolver_.options();
    if (!options.installed_header_layout || mapping.hip_installed_name.empty() || decided != mapping.hip_name ||
        options.target_hip_version < mapping.hip_installed_since) {
      return decided;
    }
    return mapping.hip_installed_name;
  }

  // --- identifiers and strings ------------------------------------------------------------------------

  // Names with a second record in the blas table (__nv_bfloat16: hipBLAS's hip_bfloat16 next to hip_bf16.h's
  // __hip_bfloat16) take the blas one in a file that reaches them only through cuBLAS.
  const ApiMapping* FindIdentifier(std::string_view name) const {
    if (blas_header_included_ && !bf16_header_included_) {
      if (const ApiMapping* blas = resolver_.index().Find(name, ApiLibrary::kBlas)) return blas;
    }
    return resolver_.Find(name);
  }

  static bool IsCublasHeader(std::string_view name) {
    return name == "cublas.h" || name == "cublas_v2.h" || name == "cublas_api.h" || name == "cublasLt.h";
  }

  // CUDA-looking names the program declares (a program's `int cudaBlockSize = 256;`): its own, not unknown CUDA
  // names (issue 29: counted and charged as unconverted). The parse's facts name those of every project file the
  // unit includes; this file's own declarations are read from its tokens too (no parse: the lexer fallback).
  void CollectOwnNames() {
    if (input_.facts) own_names_.insert(input_.facts->own_names.begin(), input_.facts->own_names.end());
    for (size_t i = 0; i < tokens_.size(); ++i) {
      if (!IsIdentifier(tokens_[i]) || !LooksLikeCudaApiName(Text(tokens_[i]))) continue;
      if (DeclaresName(content_, tokens_, i) && !FindIdentifier(Text(tokens_[i]))) own_names_.emplace(Text(tokens_[i]));
    }
  }

  void RenameIdentifier(const Token& token) {
    const std::string_view name = Text(token);
    const ApiMapping* mapping = FindIdentifier(name);
    if (!mapping || mapping->kind == ApiKind::kHeader) {
      if (LooksLikeCudaApiName(name) && !project_macros_.count(std::string(name)) && !own_names_.count(name)) {
        output_.stats.unconverted++;
        if (reported_unknown_.insert(std::string(name)).second) {
          Report(kRuleUnknownCuda, Severity::kNote, token.begin,
                 "'" + std::string(name) + "' looks like a CUDA name but no mapping table knows it; left as is.");
        }
      }
      return;
    }
    if (HasFlag(*mapping, MappingFlag::kDropWord)) {
      uint32_t end = token.end();
      while (end < content_.size() && (content_[end] == ' ' || content_[end] == '\t')) ++end;
      output_.stats.converted[std::string(KindName(mapping->kind))]++;
      AddEdit(token.begin, end - token.begin, "", std::string(LibraryName(mapping->library)));
      return;
    }
    ApplyDecision(*mapping, token.begin, static_cast<uint32_t>(name.size()));
  }

  void ApplyDecision(const ApiMapping& mapping, uint32_t offset, uint32_t length) {
    const NameDecision decision = resolver_.Decide(mapping, blas_v2_included_);
    if (!decision.replace) {
      output_.stats.unsupported++;
      Report(decision.rule, decision.severity, offset, decision.message);
      return;
    }
    if (!decision.rule.empty()) Report(decision.rule, decision.severity, offset, decision.message);
    output_.stats.converted[std::string(KindName(mapping.kind))]++;
    // A file whose only table names are plain C/C++ ones that HIP spells the same (min, max, sqrtf: ggml's
    // public C header ggml.h) does not use CUDA and gets no HIP include; CUDA's own spellings do.
    const std::string_view written = content_.substr(offset, length);
    if ((mapping.library == ApiLibrary::kRuntime || mapping.library == ApiLibrary::kDriver ||
         mapping.library == ApiLibrary::kDevice) &&
        (decision.name != written || IsGpuLanguageName(written))) {
      uses_runtime_api_ = true;
      runtime_use_offsets_.push_back(offset);
    }
    if (decision.name != content_.substr(offset, length)) {
      AddEdit(offset, length, std::string(decision.name), std::string(LibraryName(mapping.library)));
    }
  }

  // Like hipify-clang: each "cu..." word of a string literal (up to the next space) that names a CUDA API.
  void RenameInStringLiteral(const Token& token) {
    const std::string_view literal = Text(token);
    const size_t open = literal.find('"');
    if (open == std::string_view::npos || literal.size() < open + 2) return;
    const std::string_view body = literal.substr(open + 1, literal.size() - open - 2);
    size_t begin = 0;
    while ((begin = body.find("cu", begin)) != std::string_view::npos) {
      const size_t space = body.find(' ', begin + 4);
      const std::string_view word =
          body.substr(begin, space == std::string_view::npos ? body.size() - begin : space - begin);
      if (const ApiMapping* mapping = resolver_.Find(word); mapping && mapping->kind != ApiKind::kHeader) {
        const NameDecision decision = resolver_.Decide(*mapping, blas_v2_included_);
        if (decision.replace && decision.name != word) {
          output_.stats.converted["string_literal"]++;
          AddEdit(token.begin + static_cast<uint32_t>(open + 1 + begin), static_cast<uint32_t>(word.size()),
                  std::string(decision.name), std::string(LibraryName(mapping->library)));
        }
      }
      if (space == std::string_view::npos) break;
      begin = space + 1;
    }
  }

  // --- warp intrinsics (HIP < 6.2) ---------------------------------------------------------------------

  // For HIP before 6.2 the *_sync names are not renamed by the tables; the call is rewritten as a whole
  // (by the AST sites, or here from tokens in fallback mode) after proving the mask is full.
  bool HandleWarpCall(size_t index) {
    const std::string_view name = Text(tokens_[index]);
    if (MasklessWarpIntrinsic(name).empty()) return false;
    if (!(resolver_.options().target_hip_version < kHipWarpSyncIntroduced)) {
      // HIP 6.2+ has the *_sync names but static_asserts a 64-bit mask: every call's mask is widened (the AST
      // pass leaves these calls alone, so the sites come from tokens); the name itself is renamed as usual.
      DiscoverWarpCall(index, name);
      return false;
    }
    if (!input_.discover_sites) return true;  // the AST pass reported this call (or it is not a call)
    DiscoverWarpCall(index, name);
    return true;
  }

  void DiscoverWarpCall(size_t index, std::string_view name) {
    if (index + 1 >= tokens_.size() || tokens_[index + 1].kind != clang::tok::l_paren) return;
    int depth = 0;
    size_t j = index + 2;
    for (; j < tokens_.size(); ++j) {
      const auto kind = tokens_[j].kind;
      if (kind == clang::tok::l_paren || kind == clang::tok::l_square || kind == clang::tok::l_brace) ++depth;
      if (kind == clang::tok::r_paren || kind == clang::tok::r_square || kind == clang::tok::r_brace) {
        if (depth == 0) return;  // a single argument: not the documented form
        --depth;
      }
      if (kind == clang::tok::comma && depth == 0) break;
    }
    if (j + 1 >= tokens_.size() || j == index + 2) return;
    WarpCallSite site;
    site.callee = {tokens_[index].begin, tokens_[index].end()};
    site.name = std::string(name);
    site.mask = {tokens_[index + 2].begin, tokens_[j - 1].end()};
    site.next_arg = tokens_[j + 1].begin;
    const auto macro = full_mask_macros_.find(std::string(Text(site.mask)));
    site.full_mask = IsFullWarpMaskLiteral(Text(site.mask)) || IsFullMaskVariable(content_, tokens_, site.mask) ||
                     (macro != full_mask_macros_.end() && macro->second);
    output_.warp_calls.push_back(std::move(site));
  }

  // --- cooperative groups HIP lacks (compat_shims.h) ---------------------------------------------------

  bool NeedsCooperativeGroupsReduce() const {
    return TargetHipLacks(resolver_.Find("cooperative_groups::reduce"), resolver_.options().target_hip_version);
  }

  bool NeedsMetaGroupRewrite() const { return resolver_.options().target_hip_version < kHipTileMetaGroupSince; }

  std::string VersionText() const {
    const ApiVersion version = resolver_.options().target_hip_version;
    return std::to_string(version.major) + "." + std::to_string(version.minor);
  }

  // `namespace cg = cooperative_groups;` declares a qualifier for the cooperative-groups records; `cg` is also
  // taken as one by convention, since the alias usually sits in a shared header.
  void CollectCooperativeGroupsAliases() {
    cooperative_groups_qualifiers_ = {"cooperative_groups", "cg"};
    for (size_t i = 0; i + 4 < tokens_.size(); ++i) {
      if (IsIdentifier(tokens_[i]) && Text(tokens_[i]) == "namespace" && IsIdentifier(tokens_[i + 1]) &&
          tokens_[i + 2].kind == clang::tok::equal && IsIdentifier(tokens_[i + 3]) &&
          Text(tokens_[i + 3]) == "cooperative_groups") {
        cooperative_groups_qualifiers_.insert(std::string(Text(tokens_[i + 1])));
      }
    }
  }

  // `cg::reduce` and friends: the cooperative-groups records are qualified names, which the lexer sees as
  // separate tokens. Unsupported ones get their located warning here.
  bool HandleQualifiedCooperativeGroups(size_t index) {
    if (index < 2 || tokens_[index - 1].kind != clang::tok::coloncolon || !IsIdentifier(tokens_[index - 2]) ||
        !cooperative_groups_qualifiers_.count(std::string(Text(tokens_[index - 2])))) {
      return false;
    }
    const std::string_view name = Text(tokens_[index]);
    const ApiMapping* mapping = resolver_.Find("cooperative_groups::" + std::string(name));
    if (!mapping) return false;
    static constexpr std::string_view kShimmed[] = {"reduce",  "plus",   "less",   "greater",
                                                    "bit_and", "bit_or", "bit_xor"};
    if (NeedsCooperativeGroupsReduce() &&
        std::find(std::begin(kShimmed), std::end(kShimmed), name) != std::end(kShimmed)) {
      return true;  // provided by the inline shim (compat_shims.h); reported once at the include
    }
    const NameDecision decision = resolver_.Decide(*mapping, blas_v2_included_);
    if (!decision.replace) {
      output_.stats.unsupported++;
      Report(decision.rule, decision.severity, tokens_[index].begin, decision.message);
      return true;
    }
    output_.stats.converted[std::string(KindName(mapping->kind))]++;
    std::string_view spelled = decision.name;
    if (const size_t colons = spelled.rfind("::"); colons != std::string_view::npos) spelled.remove_prefix(colons + 2);
    if (spelled != name)
      AddEdit(tokens_[index].begin, tokens_[index].length, std::string(spelled), "cooperative_groups");
    return true;
  }

  // A file-scope `using namespace cub;` becomes `using namespace hipcub;`, and HIP's amd_hip_fp8.h, if included after
  // it (ggml's ssm-scan.cu through common.cuh), calls `internal::` unqualified: ambiguous with hipcub::internal, 23
  // errors. hip_fp8.h is included just before the directive, so its names are bound first. The name is renamed as
  // usual afterwards.
  void NoteUsingNamespaceCub(size_t index) {
    if (Text(tokens_[index]) != "cub" || index < 2 || index + 1 >= tokens_.size() ||
        Text(tokens_[index - 1]) != "namespace" || Text(tokens_[index - 2]) != "using" ||
        tokens_[index + 1].kind != clang::tok::semi || !tokens_[index - 2].line_start || fp8_before_using_cub_) {
      return;
    }
    int depth = 0;
    for (size_t i = 0; i < index; ++i) {
      if (directive_tokens_.count(i)) continue;
      depth += tokens_[i].kind == clang::tok::l_brace ? 1 : tokens_[i].kind == clang::tok::r_brace ? -1 : 0;
    }
    const ApiMapping* fp8 = resolver_.Find("cuda_fp8.h");
    if (depth != 0 || !fp8 || TargetHipLacks(fp8, resolver_.options().target_hip_version)) return;
    fp8_before_using_cub_ = true;
    AddEdit(tokens_[index - 2].begin, 0, "#include <hip/hip_fp8.h>  // hipforge: before `using namespace hipcub`\n",
            "headers");
    Report(kRuleCompatShim, Severity::kNote, tokens_[index - 2].begin,
           "hip/hip_fp8.h is included before `using namespace hipcub;`: HIP's amd_hip_fp8.h names `internal::` "
           "unqualified, which is ambiguous with hipcub::internal when it is included after the directive.");
  }

  // CUDA has atomicMax/atomicMin only on integers, so programs define their own on float and double (HeCBench
  // lebesgue, michalewicz: a compare-and-swap loop returning the old value); HIP declares those four overloads
  // (amd_hip_atomic.h) with the same meaning, and the program's definition is a redefinition there. It stays for
  // HIP's NVIDIA platform (CUDA's headers lack them) under `#if !defined(__HIP_PLATFORM_AMD__)`; AMD uses HIP's.
  void GuardOwnFloatAtomic(size_t index) {
    const std::string_view name = Text(tokens_[index]);
    if ((name != "atomicMax" && name != "atomicMin") ||
        ClassifyCallUse(content_, tokens_, index) != CallUse::kOwnDeclaration || index + 4 >= tokens_.size()) {
      return;
    }
    // The first parameter is `float*` or `double*`; a definition (a body follows), not a prototype.
    size_t at = index + 2;
    const std::string_view type = Text(tokens_[at]);
    if ((type != "float" && type != "double") || tokens_[at + 1].kind != clang::tok::star) return;
    int depth = 0;
    size_t close = index + 1;
    for (; close < tokens_.size(); ++close) {
      if (tokens_[close].kind == clang::tok::l_paren) ++depth;
      if (tokens_[close].kind == clang::tok::r_paren && --depth == 0) break;
    }
    if (close + 1 >= tokens_.size() || tokens_[close + 1].kind != clang::tok::l_brace) return;  // a prototype
    size_t end = close + 1;
    for (depth = 0; end < tokens_.size(); ++end) {
      if (tokens_[end].kind == clang::tok::l_brace) ++depth;
      if (tokens_[end].kind == clang::tok::r_brace && --depth == 0) break;
    }
    if (end >= tokens_.size()) return;
    // The declaration starts with the specifiers and type words before the name (`__device__ __forceinline__
    // double`), on the line of the first of them.
    size_t first = index;
    while (first > 0 && !directive_tokens_.count(first - 1) &&
           (IsIdentifier(tokens_[first - 1]) || tokens_[first - 1].kind == clang::tok::star ||
            tokens_[first - 1].kind == clang::tok::amp)) {
      --first;
    }
    uint32_t start = tokens_[first].begin;
    while (start > 0 && content_[start - 1] != '\n') --start;
    AddEdit(start, 0,
            "#if !defined(__HIP_PLATFORM_AMD__)  // hipforge: HIP has " + std::string(name) + "(" + std::string(type) +
                "*, " + std::string(type) + ")\n",
            "device");
    AddEdit(tokens_[end].end(), 0, "\n#endif", "device");
    Report(kRuleCompatShim, Severity::kNote, tokens_[index].begin,
           "the program's own " + std::string(name) + "(" + std::string(type) + "*, " + std::string(type) +
               ") is kept for HIP's NVIDIA platform only: HIP declares it (the same atomic " +
               (name == "atomicMax" ? "maximum" : "minimum") +
               ", returning the old value), and a second definition "
               "does not compile.");
  }

  // rocThrust keeps Thrust's CUDA-system policies and types under `hip` (thrust::hip::par, par_nosync,
  // thrust::system::hip::...); `thrust::cuda::` names nothing there (HeCBench nosync: "no member named 'cuda' in
  // namespace 'thrust'").
  bool HandleThrustCudaSystem(size_t index) {
    if (Text(tokens_[index]) != "cuda" || index < 2 || index + 1 >= tokens_.size() ||
        tokens_[index - 1].kind != clang::tok::coloncolon || tokens_[index + 1].kind != clang::tok::coloncolon) {
      return false;
    }
    std::string_view qualifier = Text(tokens_[index - 2]);
    if (qualifier == "system" && index >= 4 && tokens_[index - 3].kind == clang::tok::coloncolon) {
      qualifier = Text(tokens_[index - 4]);
    }
    if (qualifier != "thrust") return false;
    AddEdit(tokens_[index].begin, tokens_[index].length, "hip", "thrust");
    output_.stats.converted["namespace"]++;
    return true;
  }

  // `__syncwarp()` / `__syncwarp(mask)` where the target HIP has no __syncwarp (compat_shims.h).
  bool HandleSyncWarp(size_t index) {
    if (Text(tokens_[index]) != "__syncwarp" || index + 1 >= tokens_.size() ||
        tokens_[index + 1].kind != clang::tok::l_paren ||
        (index > 0 && !EndsADirectiveBefore(index - 1, tokens_[index].begin) &&
         (tokens_[index - 1].kind == clang::tok::period || tokens_[index - 1].kind == clang::tok::arrow ||
          tokens_[index - 1].kind == clang::tok::coloncolon ||
          (IsIdentifier(tokens_[index - 1]) && !IsAssignmentContext(content_, tokens_[index - 1])))) ||
        !TargetHipLacks(resolver_.Find("__syncwarp"), resolver_.options().target_hip_version)) {
      return false;
    }
    int depth = 0;
    size_t close = index + 2;
    for (; close < tokens_.size(); ++close) {
      const auto kind = tokens_[close].kind;
      if (kind == clang::tok::l_paren) ++depth;
      if (kind == clang::tok::r_paren && depth-- == 0) break;
    }
    if (close >= tokens_.size()) return false;
    AddEdit(tokens_[index].begin, tokens_[close].end() - tokens_[index].begin, SyncWarpReplacement(), "device");
    output_.stats.converted["function"]++;
    if (!reported_sync_warp_) {
      reported_sync_warp_ = true;
      Report(kRuleCompatShim, Severity::kNote, tokens_[index].begin,
             "HIP " + VersionText() +
                 " has no __syncwarp: written as a wavefront fence + wave barrier (lanes of a "
                 "wavefront are not scheduled independently, so the mask is not needed).");
    }
    return true;
  }

  // `tile.meta_group_rank()` -> block rank / tile size, for HIP releases whose tiles lack it.
  bool HandleMetaGroup(size_t index) {
    if (!NeedsMetaGroupRewrite() || index < 2 || index + 2 >= tokens_.size()) return false;
    const auto access = tokens_[index - 1].kind;
    if ((access != clang::tok::period && access != clang::tok::arrow) || !IsIdentifier(tokens_[index - 2]) ||
        tokens_[index + 1].kind != clang::tok::l_paren || tokens_[index + 2].kind != clang::tok::r_paren) {
      return false;
    }
    const auto rewrite = MetaGroupRewrite(Text(tokens_[index - 2]), Text(tokens_[index - 1]), Text(tokens_[index]));
    if (!rewrite) return false;
    const Token& object = tokens_[index - 2];
    if (IsSkipped(object.begin)) return true;
    AddEdit(object.begin, tokens_[index + 2].end() - object.begin, *rewrite, "cooperative_groups");
    output_.stats.converted["function"]++;
    Report(kRuleCompatShim, Severity::kNote, object.begin,
           "HIP " + VersionText() + " tiles have no " + std::string(Text(tokens_[index])) +
               "(): computed from the thread block, which is right for tiles partitioned from the block.");
    return true;
  }

  // --- kernel launches from tokens (fallback) ----------------------------------------------------------

  // Argument rewrites for a call found from tokens: `name ( args )`, split at top-level commas.
  void DiscoverCall(size_t name_index) {
    if (name_index + 1 >= tokens_.size() || tokens_[name_index + 1].kind != clang::tok::l_paren) return;
    CallShape call;
    call.callee = {tokens_[name_index].begin, tokens_[name_index].end()};
    int depth = 0;
    size_t arg_begin = name_index + 2;
    size_t j = arg_begin;
    for (; j < tokens_.size(); ++j) {
      const auto kind = tokens_[j].kind;
      if (kind == clang::tok::l_paren || kind == clang::tok::l_square || kind == clang::tok::l_brace) ++depth;
      if (kind == clang::tok::r_paren || kind == clang::tok::r_square || kind == clang::tok::r_brace) {
        if (depth == 0) break;
        --depth;
      }
      if (kind == clang::tok::comma && depth == 0) {
        if (j == arg_begin) return;
        call.args.push_back({tokens_[arg_begin].begin, tokens_[j - 1].end()});
        arg_begin = j + 1;
      }
    }
    if (j >= tokens_.size() || tokens_[j].kind != clang::tok::r_paren) return;
    if (j > arg_begin) call.args.push_back({tokens_[arg_begin].begin, tokens_[j - 1].end()});
    call.close_paren = tokens_[j].begin;
    auto edits =
        RewriteCallArguments(Text(tokens_[name_index]), call, content_, resolver_.options(), &output_.call_warnings);
    if (!edits.empty()) output_.call_rewrites.emplace_back(call.callee.begin, std::move(edits));
  }

  const TokenPassInput& input_;
  const NameResolver& resolver_;
  std::string_view content_;
  std::vector<Token> tokens_;
  TokenPassOutput output_;
  std::vector<size_t> collect_directive_names_;
  std::set<size_t> directive_tokens_;
  std::set<uint32_t> version_macro_offsets_;  // rewritten by RewriteVersionConditions
  std::set<std::string> project_macros_;
  std::set<std::string, std::less<>> own_names_;  // CollectOwnNames
  std::set<std::string> reported_unknown_;
  std::set<std::string> emitted_main_headers_;
  std::set<std::string> emitted_other_headers_;
  std::set<std::string> cooperative_groups_qualifiers_;
  std::map<std::string, bool> full_mask_macros_;
  std::map<size_t, uint32_t> shim_first_use_;  // DeviceFunctionShims() index -> offset of its first call
  std::set<std::string> own_shim_names_;       // shimmed names the file declares itself
  std::vector<uint32_t> runtime_use_offsets_;  // where the runtime, driver or device API names are  // object-like
                                               // macro -> its body is an all-ones literal
  bool blas_v2_included_ = false;
  bool fp8_before_using_cub_ = false;
  bool reported_sync_warp_ = false;
  bool defined_hipblas_half_ = false;
  bool blas_header_included_ = false;  // cublas.h, cublas_v2.h, cublas_api.h or cublasLt.h
  bool bf16_header_included_ = false;  // cuda_bf16.h or cuda_fp8.h
  bool runtime_header_present_ = false;
  bool uses_runtime_api_ = false;  // a runtime, driver or device API was translated here
  bool uses_warp_sync_ = false;    // a *_sync warp function is called here
  std::optional<uint32_t> pragma_once_end_;
  std::optional<uint32_t> guard_insert_offset_;
  std::optional<uint32_t> first_include_offset_;
  std::optional<uint32_t> first_directive_offset_;
  bool define_before_include_ = false;  // a #define precedes the first #include
};

}  // namespace

TokenPassOutput RunTokenPass(const TokenPassInput& input, const NameResolver& resolver) {
  return TokenPass(input, resolver).Run();
}

uint32_t ByteOrderMarkLength(std::string_view content) { return content.starts_with("\xEF\xBB\xBF") ? 3 : 0; }

SourceLocation LocateOffset(std::string_view path, std::string_view content, uint32_t offset) {
  SourceLocation location;
  location.path = std::string(path);
  location.line = 1;
  uint32_t line_start = 0;
  for (uint32_t i = 0; i < offset && i < content.size(); ++i) {
    if (content[i] == '\n') {
      ++location.line;
      line_start = i + 1;
    }
  }
  location.column = offset - line_start + 1;
  return location;
}

}  // namespace hipforge::translate
