#pragma once
// Rewrites one line of a Makefile, shell script, Dockerfile RUN/ENV instruction or CI `run:` step:
// nvcc -> hipcc, nvcc flags, CUDA libraries, CUDA paths and root variables, environment variables,
// NVIDIA tools and `docker run --gpus`. Word-level (quote-aware), never a regex over the whole file.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "worker/translate/repo/build_file_rewriter.h"
#include "worker/translate/tables/api_mapping.h"

namespace hipforge::translate {

struct ScriptLineOptions {
  std::vector<std::string> architectures;
  ApiVersion target_rocm{6, 4};  // picks each NVIDIA tool's ROCm name (tables/build_tables.h RocmToolFor)
  bool rename_cu_to_hip = false;  // `.cu` file names and patterns -> `.hip` (Makefiles)
  bool comment_lines_unchanged = true;
  bool relocatable_device_code = true;  // see RewriteContext::relocatable_device_code_needed
  std::set<std::string> arch_variables;  // see FlagMapOptions::arch_variables (Makefiles)
};

struct ScriptLineResult {
  std::string text;
  std::vector<RewriteNote> notes;  // line numbers left 0; the caller fills them in
  std::set<std::string> origins;
};

class ScriptLineRewriter {
 public:
  explicit ScriptLineRewriter(ScriptLineOptions options) : options_(std::move(options)) {}
  ScriptLineResult Rewrite(const std::string& line) const;

 private:
  std::string RewriteWords(const std::string& text, bool nvcc_context, ScriptLineResult& result) const;
  std::string MapIdentifiers(const std::string& text, ScriptLineResult& result) const;
  ScriptLineOptions options_;
};

// Splits `text` into shell-like words; quoted spans stay inside their word. `separators[i]` is the
// whitespace before words[i]; `trailing` is what follows the last word.
struct SplitWords {
  std::vector<std::string> separators;
  std::vector<std::string> words;
  std::string trailing;
};
SplitWords SplitShellWords(const std::string& text);

// Reads and writes a file as lines (keeps whether the file ended with a newline).
std::vector<std::string> SplitLinesKeepEnd(const std::string& content, bool& ends_with_newline);
std::string JoinLines(const std::vector<std::string>& lines, bool ends_with_newline);

}  // namespace hipforge::translate
