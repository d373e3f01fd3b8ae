#include "worker/translate/core/prelude_pch.h"

#include <unistd.h>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <sstream>

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "common/disk_cache.h"
#include "common/file_io.h"
#include "llvm/ADT/SmallString.h"
#include "worker/translate/frontend/confined_file_system.h"
#include "worker/translate/frontend/project_paths.h"

namespace hipforge::translate {
namespace {

namespace fs = std::filesystem;

std::atomic<uint64_t> build_count{0};

// Flags every file the PCH's source enters that is the project's (its own source excepted), and keeps the files
// its own #include lines (or the command line's -include) enter: a unit parsed with the PCH includes them again.
// `entered`, when set, gets the real path of every file entered.
class ProjectFileWatch : public clang::PPCallbacks {
 public:
  ProjectFileWatch(const clang::SourceManager& sm, std::optional<fs::path> forbidden, bool& touched,
                   std::vector<const clang::FileEntry*>& direct, std::set<std::string>* entered)
      : sm_(sm), forbidden_(std::move(forbidden)), touched_(touched), direct_(direct), entered_(entered) {}
  void FileChanged(clang::SourceLocation loc, FileChangeReason reason, clang::SrcMgr::CharacteristicKind,
                   clang::FileID) override {
    if (reason != EnterFile) return;
    const clang::FileID id = sm_.getFileID(loc);
    if (!id.isValid() || id == sm_.getMainFileID()) return;
    if (forbidden_ && forbidden_->RelativePath(sm_, id)) touched_ = true;
    const clang::FileID includer = sm_.getFileID(sm_.getIncludeLoc(id));
    const clang::FileEntry* entry = sm_.getFileEntryForID(id);
    if (entry && (includer == sm_.getMainFileID() || !sm_.getFileEntryForID(includer))) direct_.push_back(entry);
    if (entry && entered_) {
      const llvm::StringRef name = entry->tryGetRealPathName().empty() ? entry->getName() : entry->tryGetRealPathName();
      std::error_code error;
      entered_->insert(fs::weakly_canonical(name.str(), error).string());
    }
  }

 private:
  const clang::SourceManager& sm_;
  std::optional<ProjectPaths> forbidden_;
  bool& touched_;
  std::vector<const clang::FileEntry*>& direct_;
  std::set<std::string>* entered_;
};

// Skips the bodies of functions outside the project (the unit's parse skips those; a prefix PCH keeps the
// project's). Joined to the PCH writer, which would skip every body: a multiplexer skips only what all skip.
class LibraryBodySkipper : public clang::ASTConsumer {
 public:
  explicit LibraryBodySkipper(fs::path root) : project_(std::move(root)) {}
  void Initialize(clang::ASTContext& context) override { sm_ = &context.getSourceManager(); }
  bool shouldSkipFunctionBody(clang::Decl* decl) override {
    return sm_ && !project_.Contains(*sm_, decl->getLocation());
  }

 private:
  ProjectPaths project_;
  const clang::SourceManager* sm_ = nullptr;
};

struct BuildOutcome {
  bool touched_project = false;
  bool unguarded_include = false;  // a file included from the source itself is not include-guarded
};

class WatchedGeneratePchAction : public clang::GeneratePCHAction {
 public:
  WatchedGeneratePchAction(const PchBuild& build, BuildOutcome& outcome) : build_(build), outcome_(outcome) {}

 protected:
  bool BeginSourceFileAction(clang::CompilerInstance& compiler) override {
    if (!clang::GeneratePCHAction::BeginSourceFileAction(compiler)) return false;
    compiler.getPreprocessor().addPPCallbacks(std::make_unique<ProjectFileWatch>(
        compiler.getSourceManager(), build_.forbidden_root, outcome_.touched_project, direct_, build_.entered));
    UnitParseRequest request{build_.project_root.value_or(fs::path()), build_.source, build_.args,
                             build_.readable_roots};
    for (ParseConsumer* consumer : build_.consumers) consumer->BeginParse(compiler, request);
    return true;
  }

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance& compiler,
                                                        llvm::StringRef file) override {
    std::unique_ptr<clang::ASTConsumer> writer = clang::GeneratePCHAction::CreateASTConsumer(compiler, file);
    if (!writer || !build_.project_root) return writer;
    std::vector<std::unique_ptr<clang::ASTConsumer>> consumers;
    consumers.push_back(std::move(writer));
    consumers.push_back(std::make_unique<LibraryBodySkipper>(*build_.project_root));
    return std::make_unique<clang::MultiplexConsumer>(std::move(consumers));
  }

  void EndSourceFileAction() override {
    if (build_.require_guarded_includes) {
      clang::HeaderSearch& search = getCompilerInstance().getPreprocessor().getHeaderSearchInfo();
      for (const clang::FileEntry* entry : direct_) {
        if (!search.isFileMultipleIncludeGuarded(entry)) outcome_.unguarded_include = true;
      }
    }
    clang::GeneratePCHAction::EndSourceFileAction();
  }

 private:
  const PchBuild& build_;
  BuildOutcome& outcome_;
  std::vector<const clang::FileEntry*> direct_;
};

class GeneratePch : public clang::tooling::ToolAction {
 public:
  GeneratePch(const PchBuild& build, std::string output) : build_(build), output_(std::move(output)) {}

  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> invocation, clang::FileManager* files,
                     std::shared_ptr<clang::PCHContainerOperations> pch_operations,
                     clang::DiagnosticConsumer* diagnostics) override {
    invocation->getFrontendOpts().OutputFile = output_;
    invocation->getFrontendOpts().ProgramAction = clang::frontend::GeneratePCH;
    // The unit's parse skips bodies outside the project (a library preamble holds nothing else).
    invocation->getFrontendOpts().SkipFunctionBodies = build_.skip_bodies;
    clang::CompilerInstance compiler(std::move(pch_operations));
    compiler.setInvocation(std::move(invocation));
    compiler.setFileManager(files);
    compiler.createDiagnostics(diagnostics, /*ShouldOwnClient=*/false);
    compiler.createSourceManager(*files);
    WatchedGeneratePchAction action(build_, outcome);
    return compiler.ExecuteAction(action) && !compiler.getDiagnostics().hasErrorOccurred() &&
           !outcome.touched_project && !outcome.unguarded_include;
  }

  BuildOutcome outcome;

 private:
  const PchBuild& build_;
  std::string output_;
};

// Keeps the first error (HIPFORGE_PCH_DEBUG=1 prints why a PCH did not build).
class SilentConsumer : public clang::DiagnosticConsumer {
 public:
  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error || !first_error.empty()) return;
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    if (info.hasSourceManager() && info.getLocation().isValid()) {
      first_error = info.getLocation().printToString(info.getSourceManager()) + ": ";
    }
    first_error += std::string(message.str());
  }
  std::string first_error;
};

// Whether `arg` only chooses which diagnostics are shown (warning flags, error limits, diagnostic formatting):
// it never changes what a header declares, and Clang checks diagnostic options only for implicit modules, not
// for a PCH. -Wp, -Wl, -Wa, pass options on to other tools and are kept.
bool IsDiagnosticOnly(std::string_view arg) {
  auto starts = [&](std::string_view prefix) { return arg.substr(0, prefix.size()) == prefix; };
  if (starts("-Wp,") || starts("-Wl,") || starts("-Wa,")) return false;
  return arg == "-w" || arg == "-pedantic" || arg == "-pedantic-errors" || (starts("-W") && arg.size() > 2) ||
         starts("-ferror-limit=") || starts("-fdiagnostics-") || starts("-fno-diagnostics-") ||
         arg == "-fcolor-diagnostics" || arg == "-fno-color-diagnostics" || starts("-fmessage-length=");
}

// One build per PCH at a time in this process (other processes race safely via rename); different PCHs build
// in parallel.
std::mutex& BuildMutex(const fs::path& pch) {
  static std::mutex guard;
  static std::map<fs::path, std::unique_ptr<std::mutex>> mutexes;
  std::lock_guard lock(guard);
  auto& mutex = mutexes[pch];
  if (!mutex) mutex = std::make_unique<std::mutex>();
  return *mutex;
}

}  // namespace

bool BuildPch(const PchBuild& build) {
  std::error_code error;
  fs::create_directories(build.pch.parent_path(), error);
  if (error) return false;
  {
    std::ofstream out(build.source, std::ios::binary);
    out << build.text;
    if (!out) return false;
  }
  build_count.fetch_add(1, std::memory_order_relaxed);
  const fs::path temporary = TemporaryBeside(build.pch);  // two threads or processes may build the same PCH
  clang::tooling::FixedCompilationDatabase database(build.pch.parent_path().string(), build.args);
  clang::tooling::ClangTool tool(database, {build.source.string()}, std::make_shared<clang::PCHContainerOperations>(),
                                 MakeParseFileSystem(build.readable_roots));
  SilentConsumer diagnostics;
  tool.setDiagnosticConsumer(&diagnostics);
  tool.setPrintErrorMessage(false);
  // As in a unit's parse: Clang prints "N warnings generated" itself unless carets are off (a prefix PCH keeps
  // the unit's warning flags, and each of ggml's printed a line into the progress display).
  tool.appendArgumentsAdjuster(
      clang::tooling::getInsertArgumentAdjuster("-fno-caret-diagnostics", clang::tooling::ArgumentInsertPosition::END));
  GeneratePch action(build, temporary.string());
  const bool built = tool.run(&action) == 0 && fs::exists(temporary, error);
  if (built) fs::rename(temporary, build.pch, error);
  if (!built || error) {
    if (const char* debug = std::getenv("HIPFORGE_PCH_DEBUG"); debug && *debug) {
      std::fprintf(stderr, "hipforge: no PCH %s: %s\n", build.pch.c_str(),
                   action.outcome.touched_project     ? "it includes a project file"
                   : action.outcome.unguarded_include ? "it includes a file without an include guard"
                                                      : diagnostics.first_error.c_str());
    }
    fs::remove(temporary, error);
    return false;
  }
  return true;
}

namespace {

// The implicit CUDA wrapper include, and the standard headers most CUDA sources begin with: in the shared prelude
// they are parsed once per run instead of once per unit (HIPIFY's lit suite on a cold cache: 40.0 -> 32.2 s
// translator CPU, all 136 outputs identical). A unit that includes one meets its include guard (InclusionDirective
// still fires); one that does not sees declarations it did not ask for, as with nvcc's own implicit includes.
constexpr char kPreludeSource[] =
    "// hipforge: CUDA prelude; the implicit CUDA wrapper include and common standard headers are precompiled.\n"
    "#ifdef __cplusplus\n"
    "#include <cstdio>\n#include <cstdlib>\n#include <cstring>\n#include <cmath>\n"
    "#include <string>\n#include <vector>\n#include <iostream>\n#include <algorithm>\n"
    "#endif\n";

// The directives that begin `content` (Clang's preamble), one per line with comments dropped, so that units
// differing only in their leading comments share a PCH. nullopt unless they include something and every quoted
// include would resolve the same from the PCH's source as from the unit: nothing of that name beside the unit
// (quoted includes search the includer's directory first).
std::optional<std::string> LibraryPreamble(std::string_view content, const fs::path& unit) {
  const LeadingDirectives directives = LeadingDirectivesOf(content);
  std::string preamble;
  for (size_t i = directives.lines.size(); i-- > 0;) {
    if (!directives.balanced[i]) continue;
    for (size_t j = 0; j <= i; ++j) preamble += directives.lines[j] + '\n';
    break;
  }
  // Line-wise: a preamble is only comments and directives (a commented-out include errs on the safe side).
  static const std::regex kInclude(R"(^[ \t]*#[ \t]*(include|include_next|import)\b[ \t]*(.*)$)");
  if (preamble.find("__has_include") != std::string::npos) return std::nullopt;  // may see the unit's directory
  bool includes = false;
  std::istringstream lines(preamble);
  for (std::string line; std::getline(lines, line);) {
    std::smatch match;
    if (!std::regex_match(line, match, kInclude)) continue;
    includes = true;
    const std::string target = match[2];
    if (!target.empty() && target[0] == '<') continue;  // <...>: never the includer's directory
    const size_t close = target.find('"', 1);
    if (target.empty() || target[0] != '"' || close == std::string::npos) return std::nullopt;  // computed
    std::error_code error;
    if (fs::exists(unit.parent_path() / target.substr(1, close - 1), error)) return std::nullopt;
  }
  if (!includes) return std::nullopt;
  return preamble;
}

}  // namespace

// A PCH's build arguments and key: the unit's without diagnostic-only options, so units whose build flags differ
// only in warnings share one prelude and one preamble PCH (their own parse keeps every flag).
std::vector<std::string> PchArguments(const std::vector<std::string>& args) {
  std::vector<std::string> kept;
  kept.reserve(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    if (IsDiagnosticOnly(args[i])) continue;
    if (args[i] == "-Xclang" && i + 1 < args.size() && IsDiagnosticOnly(args[i + 1])) {
      ++i;
      continue;
    }
    kept.push_back(args[i]);
  }
  return kept;
}

std::string PchKey(const std::vector<std::string>& args, std::string_view extra, const CacheLocations& locations) {
  CacheKey key("pch", 1);
  key.Add("clang", clang::getClangFullVersion());
  for (const auto& arg : args) key.Add("arg", locations.KeyText(arg));
  // 24 hex digits: the key is in every PCH's file name and the path Clang records in those chained on it.
  return key.Add("source", extra).Hex().substr(0, 24);
}

LeadingDirectives LeadingDirectivesOf(std::string_view content) {
  clang::LangOptions lang;
  lang.CPlusPlus = lang.CPlusPlus11 = lang.CPlusPlus14 = lang.CPlusPlus17 = lang.LineComment = true;
  const llvm::StringRef buffer(content.data(), content.size());
  const clang::PreambleBounds bounds = clang::Lexer::ComputePreamble(buffer, lang);
  const std::string region(content.substr(0, bounds.Size));  // the lexer needs a NUL at the end
  clang::Lexer lexer(clang::SourceLocation(), lang, region.data(), region.data(), region.data() + region.size());
  // Clang's preamble may end inside an #if (its own preambles carry the conditional stack): `balanced` says
  // after which lines every conditional is closed.
  LeadingDirectives result;
  int depth = 0;
  bool directive_name = false;
  clang::Token token;
  for (;;) {
    const bool last = lexer.LexFromRawLexer(token);
    if (token.is(clang::tok::eof)) break;
    if (token.isAtStartOfLine() && !result.lines.empty()) {
      result.balanced.push_back(depth == 0);
      result.lines.emplace_back();
    } else if (token.hasLeadingSpace()) {
      if (result.lines.empty()) result.lines.emplace_back();
      result.lines.back() += ' ';  // never inside <a.h>: its pieces touch
    }
    if (result.lines.empty()) result.lines.emplace_back();
    const char* end = lexer.getBufferLocation();
    result.lines.back().append(end - token.getLength(), token.getLength());
    if (directive_name && token.is(clang::tok::raw_identifier)) {
      const llvm::StringRef name = token.getRawIdentifier();
      if (name == "if" || name == "ifdef" || name == "ifndef") ++depth;
      if (name == "endif") --depth;
    }
    directive_name = token.isAtStartOfLine() && token.is(clang::tok::hash);
    if (last) break;
  }
  if (!result.lines.empty()) result.balanced.push_back(depth == 0);
  return result;
}

std::optional<fs::path> EnsurePreludePch(const std::vector<std::string>& unit_args, const CacheLocations& locations) {
  const std::vector<std::string> args = PchArguments(unit_args);
  const fs::path& directory = locations.pch;
  // Library bodies are skipped as the units' own parses skip them (their key says so: older PCHs had them).
  const std::string key = PchKey(args, std::string(kPreludeSource) + "\nbodies skipped", locations);
  const auto pch = directory / (key + ".pch");
  std::lock_guard lock(BuildMutex(pch));
  std::error_code error;
  if (fs::exists(pch, error)) return pch;
  PchBuild build{pch, directory / ("prelude-" + key + ".cu"), kPreludeSource, args};
  if (!BuildPch(build)) return std::nullopt;
  return pch;
}

std::optional<fs::path> EnsurePreamblePch(const PreamblePchRequest& request, bool* refused) {
  if (refused) *refused = true;
  std::optional<std::string> preamble = LibraryPreamble(request.content, request.unit);
  if (!preamble) return std::nullopt;
  const std::string extension = request.unit.extension().string();
  std::vector<std::string> args = PchArguments(request.args);
  const std::string key = PchKey(args, extension + '\n' + *preamble, {request.directory, request.shim_directory});
  const auto pch = request.directory / ("preamble-" + key + ".pch");
  const auto marker = request.directory / ("preamble-" + key + ".none");
  const auto seen = request.directory / ("preamble-" + key + ".seen");
  std::lock_guard lock(BuildMutex(pch));
  std::error_code error;
  if (fs::exists(pch, error)) return pch;
  if (fs::exists(marker, error)) return std::nullopt;
  if (refused) *refused = false;
  // Admitted on its second sighting, in this run or a later one: writing a PCH costs more than parsing the
  // preamble once, so a preamble no other unit shares (most of them on a first run) must not pay for one.
  if (!fs::exists(seen, error)) {
    fs::create_directories(request.directory, error);
    std::ofstream(seen) << "hipforge: this preamble was seen once; it is precompiled when seen again\n";
    return std::nullopt;
  }
  PchBuild build{pch, request.directory / ("preamble-" + key + extension), std::move(*preamble), std::move(args),
                 request.readable_roots};
  build.forbidden_root = request.root;
  if (!BuildPch(build)) {
    std::ofstream(marker) << "hipforge: this preamble includes a project file or does not build alone\n";
    if (refused) *refused = true;
    return std::nullopt;
  }
  return pch;
}

void RejectPreamblePch(const fs::path& pch, bool stale) {
  std::error_code ignored;
  if (!stale) {
    fs::path marker = pch;
    marker.replace_extension(".none");
    std::ofstream(marker) << "hipforge: a unit with this preamble did not parse with its PCH\n";
  }
  fs::remove(pch, ignored);
}

uint64_t PchBuildCount() { return build_count.load(std::memory_order_relaxed); }

bool IsPchProblem(const std::string& first_error) {
  return first_error.find("PCH") != std::string::npos || first_error.find("precompiled") != std::string::npos ||
         first_error.find("AST file") != std::string::npos;
}

}  // namespace hipforge::translate
