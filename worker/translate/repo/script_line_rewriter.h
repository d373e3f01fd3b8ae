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

// How a line is read: words and `$(...)` differ between Make and the shell, and where the ROCm root is found
// differs between a user's machine and a ROCm container (see ScriptLineRewriter::Rewrite).
enum class LineSyntax {
  kPlain,        // Dockerfile RUN/ENV, CI steps: they run in rocm/dev-* images, where ROCm is /opt/rocm
  kShellScript,  // a script run on the user's machine
  kMake,         // a Makefile: `$(fn ...)` calls are words of their own
};

struct ScriptLineOptions {
  std::vector<std::string> architectures;
  LineSyntax syntax = LineSyntax::kPlain;
  ApiVersion target_rocm{6, 4};   // picks each NVIDIA tool's ROCm name (tables/build_tables.h RocmToolFor)
  bool rename_cu_to_hip = false;  // `.cu` file names and patterns -> `.hip` (Makefiles)
  bool comment_lines_unchanged = true;
  bool relocatable_device_code = true;   // see RewriteContext::relocatable_device_code_needed
  std::set<std::string> arch_variables;  // see FlagMapOptions::arch_variables (Makefiles)
  bool cublaslt_used = true;             // see FlagMapOptions::cublaslt_used
};

// What a CUDA install path becomes where the ROCm root is not known in advance (Makefiles, scripts): the root the
// installed hipcc reports, else /opt/rocm (see ScriptLineRewriter::Rewrite).
extern const char kMakeRocmRoot[];
extern const char kShellRocmRoot[];

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
  std::string RewriteMakeCalls(const std::string& text, bool nvcc_context, ScriptLineResult& result) const;
  std::string ReplaceDeviceQueries(const std::string& text, ScriptLineResult& result) const;
  std::string MapCudaPaths(const std::string& text, ScriptLineResult& result) const;
  std::string MapIdentifiers(const std::string& text, ScriptLineResult& result) const;
  ScriptLineOptions options_;
};

// Splits `text` into shell-like words; quoted spans stay inside their word. `separators[i]` is the
// whitespace before words[i]; `trailing` is what follows the last word. With `make_calls`, a Make reference or
// function call (`$(foreach v,$(L),-gencode arch=compute_$(v))`) is never split: its blanks are Make's, not the
// shell's.
struct SplitWords {
  std::vector<std::string> separators;
  std::vector<std::string> words;
  std::string trailing;
};
SplitWords SplitShellWords(const std::string& text, bool make_calls = false);

// The index of the `)`/`}` that closes the `$(`/`${` whose `$` is at `dollar`; npos when the line does not close it.
size_t MakeCallEnd(const std::string& text, size_t dollar);

// Reads and writes a file as lines (keeps whether the file ended with a newline).
std::vector<std::string> SplitLinesKeepEnd(const std::string& content, bool& ends_with_newline);
std::string JoinLines(const std::vector<std::string>& lines, bool ends_with_newline);

}  // namespace hipforge::translate
