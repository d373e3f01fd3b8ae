#pragma once
// The lexer-driven pass over one file's original bytes: identifiers, string literals and #include names are
// renamed from the mapping tables. It runs for every file (the AST pass adds what needs semantics: launches,
// warp masks, argument rewrites), including code in inactive #if branches and files Clang could not parse.
// In fallback mode it also finds kernel launches and warp intrinsic calls itself, from tokens.
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "worker/translate/core/name_resolver.h"
#include "worker/translate/core/translation_facts.h"
#include "worker/translate/translation_types.h"

namespace hipforge::translate {

struct TokenPassInput {
  std::string_view path;             // relative to the root, for findings
  std::string_view content;          // original bytes
  const FileFacts* facts = nullptr;  // from the AST pass; nullptr in fallback mode
  bool main_file = false;            // a translation unit: gets <hip/hip_runtime.h> when no CUDA main header is there
  bool discover_sites = false;       // fallback: find launches and warp calls from tokens
};

struct IncludeName {
  std::string name;
  bool angled = false;
};

struct TokenPassOutput {
  std::vector<TextEdit> edits;
  TranslationStats stats;
  std::vector<Finding> findings;
  std::set<std::string> changed_by;
  std::vector<LaunchSite> launches;      // discovered when discover_sites
  std::vector<WarpCallSite> warp_calls;  // discovered when discover_sites
  std::vector<IncludeName> includes;     // every #include, to find project headers without a parse
  // Argument rewrites of calls found from tokens (discover_sites), keyed by the call's start offset.
  std::vector<std::pair<uint32_t, std::vector<TextEdit>>> call_rewrites;
  std::vector<std::string> call_warnings;
  // Warp calls of the AST facts (by callee offset) whose mask is a local variable initialised to all ones and
  // never changed in its scope: `unsigned mask = 0xffffffff; __shfl_down_sync(mask, ...)` (constant evaluation
  // cannot prove a non-const variable).
  std::vector<uint32_t> full_mask_variables;
};

TokenPassOutput RunTokenPass(const TokenPassInput& input, const NameResolver& resolver);

// Bytes of a UTF-8 byte-order mark that `content` starts with (3, else 0). Text the translator puts first in a
// file goes after it: a mark moved to the second line is a stray U+FEFF there, and clang rejects the file
// (HeCBench btree-cuda's map_kernels.cu).
uint32_t ByteOrderMarkLength(std::string_view content);

// 1-based line and column of `offset` in `content`.
SourceLocation LocateOffset(std::string_view path, std::string_view content, uint32_t offset);

}  // namespace hipforge::translate
