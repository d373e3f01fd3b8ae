#pragma once
// The rule interface (clang-tidy's shape, the house's names: RegisterMatchers/Check as ParseConsumer spells them;
// run, getID and onEndOfTranslationUnit are Clang's). Internal to the analyzer: includes Clang headers, so only rule
// implementations and the analyzer's own .cc files include it.
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "worker/translate/analyze/token_file.h"
#include "worker/translate/translation_types.h"

namespace hipforge::translate::analyze {

enum class RuleClass { kWavefront, kArchitecture, kLibrary, kRuntime, kBuild };
const char* RuleClassName(RuleClass rule_class);

struct RuleInfo {
  const char* id;
  Severity severity;
  RuleClass rule_class;
  const char* title;
};

// An edit relative to a reported location's file (offset in the ORIGINAL bytes of that file).
struct EditSpec {
  uint32_t offset = 0;
  uint32_t length = 0;
  std::string replacement;
};

// Where findings go, and how AST locations become root-relative paths. One per analysis task (file or TU).
class FindingSink {
 public:
  explicit FindingSink(std::filesystem::path canonical_root) : root_(std::move(canonical_root)) {}
  // Root-relative path of an absolute/real file path; nullopt when the file is outside the root.
  std::optional<std::string> RelativePath(std::string_view file_name);
  void Add(Finding finding) { findings_.push_back(std::move(finding)); }
  std::vector<Finding>& findings() { return findings_; }
  const std::filesystem::path& root() const { return root_; }

 private:
  std::filesystem::path root_;
  std::map<std::string, std::optional<std::string>, std::less<>> path_cache_;
  std::vector<Finding> findings_;
};

// Which location of a macro-expanded token a finding points at.
enum class MacroPlacement {
  kUse,       // the expansion site (a call written through a user macro is reported where the macro is used)
  kSpelling,  // where the token is spelled if that is a file under the root (`#define WARP_SIZE 32`), else the use
};

class Rule : public clang::ast_matchers::MatchFinder::MatchCallback {
 public:
  explicit Rule(FindingSink& sink) : sink_(sink) {}
  ~Rule() override = default;

  virtual const RuleInfo& info() const = 0;

  // AST form. Check() runs for each match; onEndOfTranslationUnit() (from MatchCallback) after the TU.
  virtual void RegisterMatchers(clang::ast_matchers::MatchFinder& finder) { (void)finder; }
  virtual void Check(const clang::ast_matchers::MatchFinder::MatchResult& result) { (void)result; }

  // Token form for C/C++/CUDA files. Token-only rules look at the whole file; rules that also have an AST form
  // look only where file.InFallbackRange() (the file did not parse, or a preprocessor-skipped block).
  virtual void CheckTokens(const TextFile& file) { (void)file; }

  // Line form for build files and scripts (CMake, Makefiles, shell, Dockerfiles, CI yaml, Python).
  virtual void CheckLines(const TextFile& file) { (void)file; }

  void run(const clang::ast_matchers::MatchFinder::MatchResult& result) final { Check(result); }
  llvm::StringRef getID() const override { return info().id; }

 protected:
  // AST report. Returns false when the location is outside the analyzed root (nothing reported).
  bool Report(const clang::SourceManager& sm, clang::SourceLocation location, MacroPlacement placement,
              std::string message, std::string fix, std::vector<EditSpec> edits = {});
  // Token/line report at a byte offset of `file`.
  void Report(const TextFile& file, uint32_t offset, std::string message, std::string fix,
              std::vector<EditSpec> edits = {});
  // The file location a finding at `location` would use (for computing edits in the same file).
  clang::SourceLocation PlacedLocation(const clang::SourceManager& sm, clang::SourceLocation location,
                                       MacroPlacement placement);
  FindingSink& sink() { return sink_; }

 private:
  FindingSink& sink_;
};

// ---- Shared helpers for token rules ----

// True when tokens[i] is an identifier used as a call: followed by '(' (optionally after a template argument
// list `<...>`) and not a member access of some other object (`x.name(` or `x->name(`).
bool IsCallAt(const std::vector<Token>& tokens, size_t i);
// Index of the token closing the parenthesis opened at tokens[open]; tokens.size() if none.
size_t MatchingParen(const std::vector<Token>& tokens, size_t open);
// True when `word` occurs in `text` delimited by non-identifier characters.
bool ContainsWord(std::string_view text, std::string_view word);
// The job's GPU targets for a fix text, joined by `separator` ("gfx942", "gfx90a;gfx942"); "<target>" without any.
// Messages name only these (a gfx942-only job was told about gfx90a).
std::string TargetList(std::span<const std::string> targets, std::string_view separator);

// Reports one finding per (identifier list) use: every call, or only the first use per function scope.
struct IdentifierPattern {
  std::string_view name;  // exact identifier, or a prefix when `prefix` is set
  bool prefix = false;
};
bool MatchesAny(std::string_view identifier, const std::vector<IdentifierPattern>& patterns);

// `asm [volatile] ( "..." "..." : ...)` statements: the keyword's token index and the concatenated template text.
struct AsmStatement {
  size_t keyword = 0;
  std::string text;
};
std::vector<AsmStatement> FindAsmStatements(const std::vector<Token>& tokens);
// True when asm text is PTX: typed opcodes (mov.u32, ld.global, mma.sync, ...), PTX special registers
// (%laneid, %clock, ...) or PTX-only instructions (trap, exit, brkpt). x86/ARM asm does not look like this.
bool LooksLikePtx(std::string_view text);

// The part of a build-file/script line that is not a comment (`#` comments outside quotes; `$#`/`${#` kept).
std::string_view CodePart(std::string_view line);
// True when the mention of a tool/variable at `position` of a build-file/script line is prose, not use: the
// line prints a message (echo, printf, print(...), message(...), logging calls) or the mention sits inside a
// quoted string that does not start with it (help texts, log lines). Shell expansions (`$VAR`, `${VAR`,
// `$(cmd`, backticks) are always use.
bool IsProseMention(std::string_view code, size_t position);
// Same for a C/C++/Python string literal's body: prose unless the body starts with the mention (a command
// line, an environment variable name or `NAME=value`) or expands it.
bool IsProseInString(std::string_view body, size_t position);
// Offsets (within `text`) where `word` occurs with neither neighbour in [A-Za-z0-9_] nor in `extra_word_chars`.
std::vector<size_t> FindWord(std::string_view text, std::string_view word, std::string_view extra_word_chars = "");

// `#define NAME <integer>` values of a file (for token rules that meet a macro instead of a literal).
std::map<std::string, unsigned long long, std::less<>> IntegerMacros(const std::vector<Token>& tokens);

}  // namespace hipforge::translate::analyze
