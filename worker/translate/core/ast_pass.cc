#include "worker/translate/core/ast_pass.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "common/cuda_names.h"
#include "llvm/Support/Path.h"
#include "worker/translate/core/argument_rewrites.h"
#include "worker/translate/core/device_function_shims.h"
#include "worker/translate/core/name_resolver.h"
#include "worker/translate/core/token_pass.h"
#include "worker/translate/frontend/parent_index.h"
#include "worker/translate/frontend/project_paths.h"
#include "worker/translate/tables/warp_intrinsics.h"

namespace hipforge::translate {
namespace {

namespace mat = clang::ast_matchers;

// hasParent(cxxReinterpretCastExpr()) and hasAncestor(functionDecl(<__device__ or __global__>)) over
// frontend/parent_index.h's parents, the same lists as Clang's parent map (so the same answers), which costs more
// to build.
AST_MATCHER(clang::MemberExpr, hasReinterpretCastParent) {
  for (const clang::DynTypedNode& parent : ParentsOf(Finder->getASTContext(), Node)) {
    if (parent.get<clang::CXXReinterpretCastExpr>()) return true;
  }
  return false;
}
AST_MATCHER(clang::Expr, hasDeviceFunctionAncestor) {
  auto device = [](const clang::DynTypedNode& node) {
    const auto* function = node.get<clang::FunctionDecl>();
    return function && (function->hasAttr<clang::CUDADeviceAttr>() || function->hasAttr<clang::CUDAGlobalAttr>());
  };
  return FirstAncestor(Finder->getASTContext(), clang::DynTypedNode::create(Node), device).has_value();
}

// Maps Clang locations to (project file, byte offset); files outside the root are not ours to edit.
class ProjectFiles {
 public:
  ProjectFiles(const std::filesystem::path& root, UnitFacts& facts) : paths_(root), facts_(facts) {}

  std::optional<std::string> RelativePath(const clang::SourceManager& sm, clang::FileID id) {
    return paths_.RelativePath(sm, id);
  }

  FileFacts* FactsFor(const clang::SourceManager& sm, clang::FileID id) {
    const auto& relative = paths_.RelativePath(sm, id);
    return relative ? &facts_.files[*relative] : nullptr;
  }

  // A name the project declares is its own in every project file of the unit (declared in a header, used in main.cu).
  void AddOwnName(const std::string& name) {
    for (auto& [path, facts] : facts_.files) {
      if (std::find(facts.own_names.begin(), facts.own_names.end(), name) == facts.own_names.end()) {
        facts.own_names.push_back(name);
      }
    }
  }

 private:
  ProjectPaths paths_;
  UnitFacts& facts_;
};

struct Located {
  clang::FileID file;
  ByteRange range;
};

// Where to edit for an expression range: inside a macro definition when the whole range is spelled there,
// otherwise at the file location of the expansion.
std::optional<Located> Locate(const clang::SourceManager& sm, clang::SourceRange range) {
  clang::SourceLocation begin = range.getBegin();
  clang::SourceLocation end = range.getEnd();
  if (begin.isInvalid() || end.isInvalid()) return std::nullopt;
  if (begin.isMacroID() || end.isMacroID()) {
    const bool both_spelled_in_macro_args = sm.isMacroArgExpansion(begin) && sm.isMacroArgExpansion(end);
    const bool both_in_body = sm.isMacroBodyExpansion(begin) && sm.isMacroBodyExpansion(end);
    if (both_spelled_in_macro_args || both_in_body) {
      begin = sm.getSpellingLoc(begin);
      end = sm.getSpellingLoc(end);
    } else {
      begin = sm.getFileLoc(begin);
      end = sm.getFileLoc(end);
    }
  }
  const auto [begin_file, begin_offset] = sm.getDecomposedLoc(begin);
  const auto [end_file, end_offset] = sm.getDecomposedLoc(end);
  if (begin_file != end_file || end_offset < begin_offset) return std::nullopt;
  const unsigned token_length = clang::Lexer::MeasureTokenLength(end, sm, clang::LangOptions());
  return Located{begin_file, {begin_offset, end_offset + token_length}};
}

// For a call spelled in a #define body (`call_range`) whose argument comes from one of the macro's parameters
// (`CUDA_SET_SHARED_MEMORY_LIMIT(kernel, n)` calling `cudaFuncSetAttribute(kernel, ...)`): the parameter's token
// in the body, where an edit reaches every expansion. Walks the argument's expansion chain (through macros
// the body passes it to, such as CUDA_CHECK) to the parameter spelled inside the call.
std::optional<Located> LocateMacroParameter(const clang::SourceManager& sm, clang::SourceRange argument,
                                            const Located& call_range) {
  auto parameter = [&](clang::SourceLocation loc) -> std::optional<clang::SourceLocation> {
    while (loc.isMacroID() && sm.isMacroArgExpansion(loc)) {
      const clang::SourceLocation in_body = sm.getSpellingLoc(sm.getImmediateExpansionRange(loc).getBegin());
      const auto [file, offset] = sm.getDecomposedLoc(in_body);
      if (file == call_range.file && offset >= call_range.range.begin && offset < call_range.range.end) {
        return in_body;
      }
      loc = sm.getImmediateSpellingLoc(loc);
    }
    return std::nullopt;
  };
  const auto begin = parameter(argument.getBegin());
  const auto end = parameter(argument.getEnd());
  if (!begin || !end || *begin != *end) return std::nullopt;  // the argument is one whole parameter
  return Locate(sm, {*begin, *end});
}

class Collector : public mat::MatchFinder::MatchCallback {
 public:
  Collector(const NameResolver& resolver, ProjectFiles& files) : resolver_(resolver), files_(files) {}

  void run(const mat::MatchFinder::MatchResult& result) override {
    const clang::SourceManager& sm = *result.SourceManager;
    if (const auto* launch = result.Nodes.getNodeAs<clang::CUDAKernelCallExpr>("launch")) {
      CollectLaunch(sm, *launch);
    } else if (const auto* call = result.Nodes.getNodeAs<clang::CallExpr>("warp")) {
      CollectWarpCall(sm, *result.Context, *call);
    } else if (const auto* call = result.Nodes.getNodeAs<clang::CallExpr>("rewrite")) {
      CollectArgumentRewrites(sm, *call);
    } else if (const auto* member = result.Nodes.getNodeAs<clang::MemberExpr>("half2_member")) {
      CollectHalf2Member(sm, *member);
    } else if (const auto* conversion = result.Nodes.getNodeAs<clang::CXXMemberCallExpr>("type_shim_conversion")) {
      CollectTypeShimConversion(sm, *conversion);
    }
  }

 private:
  void Unrewritable(const clang::SourceManager& sm, clang::SourceLocation loc, const std::string& message,
                    std::string_view rule = kRuleLaunchNotRewritten) {
    const clang::SourceLocation file_loc = sm.getFileLoc(loc);
    FileFacts* facts = files_.FactsFor(sm, sm.getFileID(file_loc));
    if (!facts) return;
    Finding finding;
    finding.rule_id = std::string(rule);
    finding.severity = Severity::kWarning;
    finding.location.path = files_.RelativePath(sm, sm.getFileID(file_loc)).value_or("");
    finding.location.line = sm.getSpellingLineNumber(file_loc);
    finding.location.column = sm.getSpellingColumnNumber(file_loc);
    finding.message = message;
    facts->findings.push_back(std::move(finding));
  }

  // nvcc lets `h2.x` of a half2 read a half; HIP declares the members differently, so the read needs a cast
  // to keep the CUDA meaning.
  void CollectHalf2Member(const clang::SourceManager& sm, const clang::MemberExpr& member) {
    const clang::Expr* base = member.getBase();
    if (!base || base->getType().getUnqualifiedType().getAsString() != "half2") return;
    const auto located = Locate(sm, member.getSourceRange());
    if (!located) return;
    FileFacts* facts = files_.FactsFor(sm, located->file);
    if (!facts) return;
    FactsEdit open{TextEdit{located->range.begin, 0, "reinterpret_cast<half&>(", "device"}};
    FactsEdit close{TextEdit{located->range.end, 0, ")", "device"}};
    if (std::find(facts->edits.begin(), facts->edits.end(), open) != facts->edits.end()) return;
    facts->edits.push_back(std::move(open));
    facts->edits.push_back(std::move(close));
    Unrewritable(sm, member.getBeginLoc(),
                 "half2 member read through '.': cast to half& to keep CUDA's meaning (HIP's members differ).",
                 kRuleHalf2Member);
  }

  // An implicit conversion to float/double of a type with a type shim (OCP fp8, which HIP 6.4 converts on the host
  // only for gfx942): the object goes through the shim's decode, `static_cast<float>(x)` ->
  // `static_cast<float>(hipforge_fp8_to_float(x))`; the token pass writes the shim before the first such rewrite.
  void CollectTypeShimConversion(const clang::SourceManager& sm, const clang::CXXMemberCallExpr& call) {
    static const std::string kCall = [] {
      for (const DeviceFunctionShim& shim : DeviceFunctionShims()) {
        if (shim.type_names) return std::string(shim.rewritten_to) + "(";
      }
      return std::string();
    }();
    const auto* member = llvm::dyn_cast<clang::MemberExpr>(call.getCallee());
    const clang::Expr* object = call.getImplicitObjectArgument();
    if (!member || !object || member->getOperatorLoc().isValid()) return;  // `x.operator float()` is left
    const auto located = Locate(sm, object->getSourceRange());
    if (!located) return;
    FileFacts* facts = files_.FactsFor(sm, located->file);
    if (!facts) return;
    FactsEdit open{TextEdit{located->range.begin, 0, kCall, "device"}};
    FactsEdit close{TextEdit{located->range.end, 0, ")", "device"}};
    if (std::find(facts->edits.begin(), facts->edits.end(), open) != facts->edits.end()) return;
    facts->edits.push_back(std::move(open));
    facts->edits.push_back(std::move(close));
  }

  enum class MacroMode { kFile, kDefinition, kInvocation };

  // Where a piece of the launch is read from. In a macro definition, macro parameters are read as written
  // in the definition; otherwise a range that starts/ends exactly at a macro expansion's edges is read as the
  // macro name (so `ARGS` stays `ARGS`), and anything else from its spelling.
  std::optional<Located> ReadRange(const clang::SourceManager& sm, clang::SourceRange range, MacroMode mode) {
    clang::SourceLocation begin = range.getBegin();
    clang::SourceLocation end = range.getEnd();
    if (begin.isInvalid() || end.isInvalid()) return std::nullopt;
    const clang::LangOptions lang;
    if (mode == MacroMode::kDefinition) {
      auto definition = [&](clang::SourceLocation loc) {
        while (loc.isMacroID() && sm.isMacroArgExpansion(loc)) loc = sm.getImmediateExpansionRange(loc).getBegin();
        return sm.getSpellingLoc(loc);
      };
      begin = definition(begin);
      end = definition(end);
    } else if (begin.isMacroID() || end.isMacroID()) {
      const bool begin_safe =
          !sm.isMacroBodyExpansion(begin) || clang::Lexer::isAtStartOfMacroExpansion(begin, sm, lang);
      const bool end_safe = !sm.isMacroBodyExpansion(end) || clang::Lexer::isAtEndOfMacroExpansion(end, sm, lang);
      if (begin_safe && end_safe) {
        begin = sm.getFileLoc(begin);
        end = sm.getFileLoc(end);
      } else {
        begin = sm.getSpellingLoc(begin);
        end = sm.getSpellingLoc(end);
      }
    }
    const auto [begin_file, begin_offset] = sm.getDecomposedLoc(begin);
    const auto [end_file, end_offset] = sm.getDecomposedLoc(end);
    if (begin_file != end_file || end_offset < begin_offset) return std::nullopt;
    return Located{begin_file, {begin_offset, end_offset + clang::Lexer::MeasureTokenLength(end, sm, lang)}};
  }

  void CollectLaunch(const clang::SourceManager& sm, const clang::CUDAKernelCallExpr& launch) {
    const clang::CallExpr* config = launch.getConfig();
    if (!config || config->getNumArgs() < 2) return;
    const clang::SourceLocation begin = launch.getBeginLoc();
    const clang::SourceLocation end = launch.getRParenLoc();
    if (begin.isInvalid() || end.isInvalid()) return;
    MacroMode mode = MacroMode::kFile;
    std::optional<Located> whole;
    if (!begin.isMacroID() && !end.isMacroID()) {
      whole = Locate(sm, {begin, end});
    } else if (sm.isMacroBodyExpansion(begin) && sm.isMacroBodyExpansion(end) &&
               sm.getExpansionLoc(begin) == sm.getExpansionLoc(end)) {
      mode = MacroMode::kDefinition;  // the whole launch is spelled in one macro definition: rewrite it there
      whole = ReadRange(sm, {begin, end}, mode);
    } else {
      mode = MacroMode::kInvocation;  // mixed: the macro invocation as written becomes the HIP launch
      const clang::SourceLocation first = begin.isMacroID() ? sm.getExpansionRange(begin).getBegin() : begin;
      const clang::SourceLocation last = end.isMacroID() ? sm.getExpansionRange(end).getEnd() : end;
      whole = Locate(sm, {first, last});
    }
    const auto callee = ReadRange(sm, launch.getCallee()->getSourceRange(), mode);
    if (!whole || !callee || callee->file != whole->file) {
      Unrewritable(sm, begin, "kernel launch spread over macro expansions; left as <<<>>>.");
      return;
    }
    FileFacts* facts = files_.FactsFor(sm, whole->file);
    if (!facts) return;
    LaunchSite site;
    site.whole = whole->range;
    site.callee = callee->range;
    const clang::FunctionDecl* kernel = launch.getDirectCallee();
    site.template_callee = kernel ? kernel->isTemplateInstantiation() || kernel->getPrimaryTemplate()
                                  : llvm::isa<clang::UnresolvedLookupExpr>(launch.getCallee()->IgnoreImplicit());
    for (unsigned i = 0; i < config->getNumArgs() && i < 4; ++i) {
      const clang::Expr* arg = config->getArg(i);
      if (llvm::isa<clang::CXXDefaultArgExpr>(arg)) break;
      const auto located = ReadRange(sm, arg->getSourceRange(), mode);
      if (!located || located->file != whole->file) {
        Unrewritable(sm, begin, "kernel launch configuration comes from a macro; left as <<<>>>.");
        return;
      }
      site.config.push_back(located->range);
    }
    unsigned explicit_args = 0;
    while (explicit_args < launch.getNumArgs() && !llvm::isa<clang::CXXDefaultArgExpr>(launch.getArg(explicit_args))) {
      ++explicit_args;
    }
    if (explicit_args > 0) {
      const auto args =
          ReadRange(sm, {launch.getArg(0)->getBeginLoc(), launch.getArg(explicit_args - 1)->getEndLoc()}, mode);
      if (!args || args->file != whole->file) {
        Unrewritable(sm, begin, "kernel arguments come from a macro; left as <<<>>>.");
        return;
      }
      site.args = args->range;
    }
    if (std::find(facts->launches.begin(), facts->launches.end(), site) == facts->launches.end()) {
      facts->launches.push_back(std::move(site));
    }
  }

  void CollectWarpCall(const clang::SourceManager& sm, const clang::ASTContext& context, const clang::CallExpr& call) {
    const clang::FunctionDecl* callee = call.getDirectCallee();
    if (!callee || call.getNumArgs() < 2) return;
    const auto name_range = ReadRange(sm, call.getCallee()->getSourceRange(), MacroMode::kFile);
    const auto mask = ReadRange(sm, call.getArg(0)->getSourceRange(), MacroMode::kFile);
    const auto next = ReadRange(sm, call.getArg(1)->getSourceRange(), MacroMode::kFile);
    if (!name_range || !mask || !next || mask->file != name_range->file || next->file != name_range->file ||
        !(name_range->range.end <= mask->range.begin && mask->range.end <= next->range.begin)) {
      return;
    }
    FileFacts* facts = files_.FactsFor(sm, name_range->file);
    if (!facts) return;
    WarpCallSite site;
    site.callee = name_range->range;
    site.name = callee->getNameAsString();
    site.mask = mask->range;
    site.next_arg = next->range.begin;
    clang::Expr::EvalResult value;
    const clang::Expr* mask_expr = call.getArg(0);
    if (!mask_expr->isValueDependent() && mask_expr->EvaluateAsInt(value, context)) {
      const llvm::APSInt& mask_value = value.Val.getInt();
      site.full_mask =
          mask_value.isAllOnes() || (mask_value.getBitWidth() >= 32 && mask_value.getZExtValue() == 0xffffffffULL);
    }
    if (std::find(facts->warp_calls.begin(), facts->warp_calls.end(), site) == facts->warp_calls.end()) {
      facts->warp_calls.push_back(std::move(site));
    }
  }

  void CollectArgumentRewrites(const clang::SourceManager& sm, const clang::CallExpr& call) {
    const clang::FunctionDecl* callee = call.getDirectCallee();
    if (!callee) return;
    const std::string name = callee->getNameAsString();
    const auto call_range = Locate(sm, call.getSourceRange());
    const auto callee_range = Locate(sm, call.getCallee()->getSourceRange());
    if (!call_range || !callee_range || callee_range->file != call_range->file) return;
    FileFacts* facts = files_.FactsFor(sm, call_range->file);
    if (!facts) return;
    CallShape shape;
    shape.callee = callee_range->range;
    shape.close_paren = call_range->range.end - 1;
    const bool in_macro = call.getBeginLoc().isMacroID();
    for (unsigned i = 0; i < call.getNumArgs(); ++i) {
      if (llvm::isa<clang::CXXDefaultArgExpr>(call.getArg(i))) break;
      auto located = Locate(sm, call.getArg(i)->getSourceRange());
      if (in_macro && (!located || located->file != call_range->file ||
                       located->range.begin < call_range->range.begin || located->range.end > call_range->range.end)) {
        located = LocateMacroParameter(sm, call.getArg(i)->getSourceRange(), *call_range);
      }
      if (!located || located->file != call_range->file) return;  // arguments from macros: leave the call
      shape.args.push_back(located->range);
    }
    std::vector<std::string> warnings;
    for (TextEdit& edit :
         RewriteCallArguments(name, shape, sm.getBufferData(call_range->file), resolver_.options(), &warnings)) {
      FactsEdit fact{std::move(edit)};
      if (std::find(facts->edits.begin(), facts->edits.end(), fact) == facts->edits.end()) {
        facts->edits.push_back(std::move(fact));
      }
    }
    for (const auto& warning : warnings) Unrewritable(sm, call.getBeginLoc(), warning, kRuleArgumentDropped);
  }

  const NameResolver& resolver_;
  ProjectFiles& files_;
};

class PreprocessorFacts : public clang::PPCallbacks {
 public:
  PreprocessorFacts(const clang::SourceManager& sm, ProjectFiles& files) : sm_(sm), files_(files) {}

  void SourceRangeSkipped(clang::SourceRange range, clang::SourceLocation) override {
    const auto [file, begin] = sm_.getDecomposedLoc(sm_.getFileLoc(range.getBegin()));
    const auto [end_file, end] = sm_.getDecomposedLoc(sm_.getFileLoc(range.getEnd()));
    if (file != end_file) return;
    if (FileFacts* facts = files_.FactsFor(sm_, file)) facts->skipped.push_back({begin, end});
  }

  void MacroDefined(const clang::Token& name, const clang::MacroDirective*) override {
    const clang::SourceLocation loc = name.getLocation();
    if (loc.isInvalid() || !loc.isFileID()) return;
    if (FileFacts* facts = files_.FactsFor(sm_, sm_.getFileID(loc))) {
      facts->macros.push_back(name.getIdentifierInfo()->getName().str());
    }
  }

  // A project macro used in another project file (CUDA_CHECK defined in a header, expanded in main.cu) is the
  // project's own name there too, not an unconverted CUDA one.
  void MacroExpands(const clang::Token& name, const clang::MacroDefinition& definition, clang::SourceRange,
                    const clang::MacroArgs*) override {
    const clang::MacroInfo* info = definition.getMacroInfo();
    const clang::SourceLocation use = name.getLocation();
    if (!info || use.isInvalid() || !use.isFileID()) return;
    const clang::SourceLocation defined_at = info->getDefinitionLoc();
    if (defined_at.isInvalid() || !defined_at.isFileID()) return;
    const clang::FileID defining_file = sm_.getFileID(defined_at);
    const clang::FileID using_file = sm_.getFileID(use);
    if (const clang::FileEntry* defining = sm_.getFileEntryForID(defining_file);
        defining && llvm::sys::path::filename(defining->getName()) == "cublas_v2.h") {
      if (FileFacts* facts = files_.FactsFor(sm_, using_file)) facts->blas_v2 = true;
      return;
    }
    if (defining_file == using_file || !files_.RelativePath(sm_, defining_file)) return;
    FileFacts* facts = files_.FactsFor(sm_, using_file);
    const llvm::StringRef macro = name.getIdentifierInfo()->getName();
    if (facts && std::find(facts->macros.begin(), facts->macros.end(), macro) == facts->macros.end()) {
      facts->macros.push_back(macro.str());
    }
  }

  void FileChanged(clang::SourceLocation loc, FileChangeReason reason, clang::SrcMgr::CharacteristicKind,
                   clang::FileID) override {
    // Make sure every project file the unit enters gets an entry, even when nothing in it needs the AST.
    if (reason == EnterFile && loc.isValid()) files_.FactsFor(sm_, sm_.getFileID(loc));
  }

 private:
  const clang::SourceManager& sm_;
  ProjectFiles& files_;
};

// CUDA-looking names the project's files declare (variables, functions, fields, types, enumerators): the program's
// own, not unknown CUDA names (issue 29: a program's `cudaBlockSize` was charged as one).
class OwnNames : public mat::MatchFinder::MatchCallback {
 public:
  explicit OwnNames(ProjectFiles& files) : files_(files) {}

  static auto Matcher() {
    return mat::namedDecl(mat::unless(mat::isExpansionInSystemHeader()), mat::matchesName("::(cu|CU)[^:]*$"),
                          mat::anyOf(mat::varDecl(), mat::functionDecl(), mat::fieldDecl(), mat::typedefNameDecl(),
                                     mat::tagDecl(), mat::enumConstantDecl()))
        .bind("own");
  }

  void run(const mat::MatchFinder::MatchResult& result) override {
    const auto* decl = result.Nodes.getNodeAs<clang::NamedDecl>("own");
    if (!decl || !decl->getIdentifier()) return;
    const clang::SourceManager& sm = *result.SourceManager;
    const clang::SourceLocation at = sm.getFileLoc(decl->getLocation());
    if (at.isInvalid() || !files_.RelativePath(sm, sm.getFileID(at))) return;
    const std::string name = decl->getName().str();
    if (LooksLikeCudaApiName(name)) files_.AddOwnName(name);
  }

 private:
  ProjectFiles& files_;
};

// The translator's consumer of the shared parse (frontend/unit_parser.h): preprocessor facts and the
// matchers whose callbacks collect launches, warp calls and argument rewrites.
class FactsConsumer : public ParseConsumer {
 public:
  FactsConsumer(const NameResolver& resolver, ProjectFiles& files, UnitFacts& facts)
      : resolver_(resolver), files_(files), facts_(facts) {}

  void BeginParse(clang::CompilerInstance& ci, const UnitParseRequest&) override {
    ci.getPreprocessor().addPPCallbacks(std::make_unique<PreprocessorFacts>(ci.getSourceManager(), files_));
  }

  // Only preprocessor facts exist after a prefix build (no matchers ran there).
  nlohmann::json PrefixRecord() override { return ToJson(facts_); }
  void SeedPrefix(const nlohmann::json& record) override { facts_ = UnitFactsFromJson(record); }

  void RegisterMatchers(mat::MatchFinder& finder) override {
    collector_ = std::make_unique<Collector>(resolver_, files_);
    own_names_ = std::make_unique<OwnNames>(files_);
    finder.addMatcher(OwnNames::Matcher(), own_names_.get());
    finder.addMatcher(mat::cudaKernelCallExpr().bind("launch"), collector_.get());
    if (resolver_.options().target_hip_version < kHipWarpSyncIntroduced) {
      std::vector<llvm::StringRef> with_maskless;  // the calls the token pass rewrites without their mask
      for (const WarpIntrinsic& intrinsic : WarpIntrinsics()) {
        if (!intrinsic.maskless.empty()) with_maskless.emplace_back(intrinsic.name.data(), intrinsic.name.size());
      }
      finder.addMatcher(
          mat::callExpr(mat::callee(mat::functionDecl(mat::hasAnyName(llvm::ArrayRef<llvm::StringRef>(with_maskless)))))
              .bind("warp"),
          collector_.get());
    }
    finder.addMatcher(mat::memberExpr(mat::member(mat::hasAnyName("x", "y")), mat::unless(hasReinterpretCastParent()))
                          .bind("half2_member"),
                      collector_.get());
    std::vector<llvm::StringRef> shimmed_types;  // type shims that apply to the target (DeviceFunctionShim::type_names)
    for (const DeviceFunctionShim& shim : DeviceFunctionShims()) {
      if (!shim.type_names || shim.checked_through < resolver_.options().target_hip_version) continue;
      for (std::string_view name : shim.names) shimmed_types.emplace_back(name.data(), name.size());
    }
    if (!shimmed_types.empty()) {
      finder.addMatcher(
          mat::cxxMemberCallExpr(
              mat::callee(mat::cxxConversionDecl(
                  mat::ofClass(mat::cxxRecordDecl(mat::hasAnyName(llvm::ArrayRef<llvm::StringRef>(shimmed_types)))),
                  mat::returns(mat::realFloatingPointType()))),
              // Device code only: the host conversions are HIP's own, exact.
              hasDeviceFunctionAncestor())
              .bind("type_shim_conversion"),
          collector_.get());
    }
    std::vector<llvm::StringRef> rewritten;
    for (const ArgumentRewrite& rewrite : ArgumentRewrites()) {
      rewritten.emplace_back(rewrite.function.data(), rewrite.function.size());
    }
    finder.addMatcher(
        mat::callExpr(mat::callee(mat::functionDecl(mat::hasAnyName(llvm::ArrayRef<llvm::StringRef>(rewritten)))))
            .bind("rewrite"),
        collector_.get());
  }

 private:
  const NameResolver& resolver_;
  ProjectFiles& files_;
  UnitFacts& facts_;
  std::unique_ptr<Collector> collector_;
  std::unique_ptr<OwnNames> own_names_;
};

// A FactsConsumer owning the facts it fills (a prefix PCH build's recorder).
class PrefixFactsRecorder : public ParseConsumer {
 public:
  PrefixFactsRecorder(const std::filesystem::path& root, const NameResolver& resolver)
      : files_(root, facts_), consumer_(resolver, files_, facts_) {}
  void BeginParse(clang::CompilerInstance& ci, const UnitParseRequest& request) override {
    consumer_.BeginParse(ci, request);
  }
  void RegisterMatchers(mat::MatchFinder&) override {}
  nlohmann::json PrefixRecord() override { return consumer_.PrefixRecord(); }
  // A prefix chained on a shorter one's PCH starts from that one's record (PrefixPchs::Get).
  void SeedPrefix(const nlohmann::json& record) override { consumer_.SeedPrefix(record); }

 private:
  UnitFacts facts_;
  ProjectFiles files_;
  FactsConsumer consumer_;
};

}  // namespace

std::unique_ptr<ParseConsumer> MakePrefixFactsRecorder(const std::filesystem::path& root,
                                                       const NameResolver& resolver) {
  return std::make_unique<PrefixFactsRecorder>(root, resolver);
}

UnitFacts RunAstPass(const AstPassRequest& request, const NameResolver& resolver, UnitParseResult* parse_result) {
  UnitFacts facts;
  ProjectFiles files(request.root, facts);
  FactsConsumer consumer(resolver, files, facts);
  if (request.prefix_record) consumer.SeedPrefix(*request.prefix_record);
  std::vector<ParseConsumer*> consumers = {&consumer};
  consumers.insert(consumers.end(), request.companions.begin(), request.companions.end());
  UnitParseRequest parse_request{request.root, request.file, request.args, request.readable_roots};
  parse_request.project_pch = request.project_pch;
  const UnitParseResult parse = ParseUnit(parse_request, consumers);
  facts.parsed = parse.parsed;
  facts.fallback_reason = parse.first_error;
  if (parse_result) *parse_result = parse;
  return facts;
}

}  // namespace hipforge::translate
