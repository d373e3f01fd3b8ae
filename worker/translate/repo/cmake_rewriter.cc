#include "worker/translate/repo/cmake_rewriter.h"

#include <algorithm>
#include <cctype>
#include <regex>

#include "worker/translate/analyze/rule_ids.h"
#include "worker/translate/repo/cmake_tokenizer.h"
#include "worker/translate/repo/nvcc_flag_mapper.h"
#include "worker/translate/repo/text_edits.h"
#include "worker/translate/tables/build_tables.h"

namespace hipforge::translate {
namespace {

constexpr const char* kHipLanguageVariable = "HIP_SOURCE_LANGUAGE";
constexpr const char* kHipCompilerVariable = "HIP_SOURCE_COMPILER";
constexpr const char* kHipHostCompilerVariable = "HIP_SOURCE_HOST_COMPILER";
constexpr const char* kHipLanguageReference = "${HIP_SOURCE_LANGUAGE}";
constexpr const char* kHipSourceMarker = "HIP_SOURCE ON";

bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Replaces whole identifiers `from` (not part of a longer identifier) by `to`.
bool ReplaceIdentifier(std::string& text, const std::string& from, const std::string& to) {
  bool changed = false;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at)) {
    const bool left_ok = at == 0 || !IsIdentChar(text[at - 1]);
    const bool right_ok = at + from.size() >= text.size() || !IsIdentChar(text[at + from.size()]);
    if (left_ok && right_ok) {
      text.replace(at, from.size(), to);
      at += to.size();
      changed = true;
    } else {
      at += from.size();
    }
  }
  return changed;
}

std::string Upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
  return s;
}

const LibraryMapping* LibraryFromCMakeName(std::string name) {
  // CUDA::cublas, CUDA_cublas_LIBRARY, CUDA_CUBLAS_LIBRARIES, CUDA_CUDART_LIBRARY -> "cublas"/"cudart".
  if (const LibraryMapping* exact = FindLibraryMapping(name)) return exact;
  for (const LibraryMapping& mapping : LibraryMappings()) {
    if (Upper(std::string(mapping.cuda_name)) == Upper(name)) return &mapping;
  }
  return nullptr;
}

struct ArgumentMapping {
  std::string text;
  std::set<std::string> origins;
  std::vector<std::string> notes;
  std::vector<std::string> manual;
};

// Rewrites CUDA references inside one argument's raw text (not flags: those need the command's context).
ArgumentMapping MapArgumentReferences(std::string raw, bool in_condition, const RewriteContext& context) {
  ArgumentMapping result;
  // Generator expressions on the CUDA language.
  static const std::regex kLanguageGenex(R"(\$<(COMPILE_LANGUAGE|LINK_LANGUAGE):CUDA>)");
  static const std::regex kLangAndId(R"(\$<COMPILE_LANG_AND_ID:CUDA,[A-Za-z,]+>)");
  std::string mapped = std::regex_replace(raw, kLanguageGenex, "$<$1:" + std::string(kHipLanguageReference) + ">");
  mapped = std::regex_replace(mapped, kLangAndId, "$<COMPILE_LANGUAGE:" + std::string(kHipLanguageReference) + ">");
  if (mapped != raw) result.origins.insert(kRuleCudaCmake);
  // Imported targets CUDA::x and FindCUDA's library variables.
  static const std::regex kCudaTarget(R"(CUDA::([A-Za-z0-9_]+))");
  static const std::regex kLibraryVariable(R"(\$\{CUDA_([A-Za-z0-9]+)_LIBRAR(?:Y|IES)\})");
  for (const std::regex* pattern : {&kCudaTarget, &kLibraryVariable}) {
    std::string out;
    auto begin = std::sregex_iterator(mapped.begin(), mapped.end(), *pattern);
    size_t last = 0;
    for (auto it = begin; it != std::sregex_iterator(); ++it) {
      const std::smatch& m = *it;
      out += mapped.substr(last, static_cast<size_t>(m.position(0)) - last);
      last = static_cast<size_t>(m.position(0) + m.length(0));
      const LibraryMapping* lib = LibraryFromCMakeName(m[1].str());
      if (lib == nullptr || lib->cmake_target.empty()) {
        out += m.str(0);
        result.manual.push_back(m.str(0) + " has no ROCm CMake target: link the ROCm equivalent by hand");
        continue;
      }
      out += std::string(lib->cmake_target);
      result.origins.insert(kRuleCudaCmake);
      if (!lib->note.empty()) result.manual.push_back(m.str(0) + ": " + std::string(lib->note));
    }
    out += mapped.substr(last);
    mapped = out;
  }
  if (mapped.find("${CUDA_LIBRARIES}") != std::string::npos) {
    mapped = std::regex_replace(mapped, std::regex(R"(\$\{CUDA_LIBRARIES\})"), "hip::host");
    result.origins.insert(kRuleCudaCmake);
  }
  for (const char* include_var : {"${CUDA_INCLUDE_DIRS}", "${CUDAToolkit_INCLUDE_DIRS}", "${CUDA_INCLUDE_DIR}"}) {
    for (size_t at = mapped.find(include_var); at != std::string::npos; at = mapped.find(include_var, at)) {
      mapped.replace(at, std::string(include_var).size(), "${hip_INCLUDE_DIRS}");
      result.origins.insert(kRuleCudaCmake);
    }
  }
  // Variables with a HIP-language counterpart.
  static const std::regex kLanguageVariable(
      R"(CMAKE_CUDA_(FLAGS(_[A-Z]*)?|STANDARD|STANDARD_REQUIRED|EXTENSIONS|ARCHITECTURES)(?![A-Za-z0-9_]))");
  const std::string before_vars = mapped;
  mapped = std::regex_replace(mapped, kLanguageVariable, "CMAKE_HIP_$1");
  if (ReplaceIdentifier(mapped, "CUDA_NVCC_FLAGS", "CMAKE_HIP_FLAGS")) result.origins.insert(kRuleNvccFlags);
  for (const char* found : {"CUDA_FOUND", "CUDAToolkit_FOUND"}) ReplaceIdentifier(mapped, found, "hip_FOUND");
  for (const char* version : {"CUDA_VERSION", "CUDAToolkit_VERSION"}) ReplaceIdentifier(mapped, version, "hip_VERSION");
  // nvcc's host compiler: HIP has none apart (clang compiles both sides; hipcc over nvcc takes nvcc's default), so
  // the block defines it empty. Left undefined, ggml's `if(NOT CMAKE_CUDA_HOST_COMPILER STREQUAL "")` compares
  // the name itself and appends a bare -ccbin to its compiler query.
  ReplaceIdentifier(mapped, "CMAKE_CUDA_HOST_COMPILER", kHipHostCompilerVariable);
  if (in_condition) {
    ReplaceIdentifier(mapped, "CMAKE_CUDA_COMPILER", kHipLanguageVariable);
  } else {
    // Elsewhere the project runs or locates the compiler (ggml asks `${CMAKE_CUDA_COMPILER} -Xcompiler --version`
    // for nvcc's host compiler): the compiler of the HIP sources answers, hipcc over nvcc on NVIDIA, clang on AMD.
    ReplaceIdentifier(mapped, "CMAKE_CUDA_COMPILER", kHipCompilerVariable);
  }
  if (mapped != before_vars) result.origins.insert(kRuleCudaCmake);
  if (context.options != nullptr && context.options->rename_to_hip) {
    static const std::regex kCuSource(R"(([A-Za-z0-9_*\-])\.cu(?![A-Za-z0-9_]))");
    const std::string renamed = std::regex_replace(mapped, kCuSource, "$1.hip");
    if (renamed != mapped) result.origins.insert("rename");
    mapped = renamed;
  }
  result.text = mapped;
  return result;
}

// A CMake word naming a GPU source file, CUDA's or already renamed to HIP (`a.cu`, `src/b.hip`); file kinds in
// general are common/source_files.h's.
bool NamesGpuSourceFile(const std::string& text) {
  const auto ends_with = [&](const char* suffix) {
    const size_t n = std::char_traits<char>::length(suffix);
    return text.size() > n && text.compare(text.size() - n, n, suffix) == 0;
  };
  return ends_with(".cu") || ends_with(".hip");
}

std::string Join(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? separator : "") + items[i];
  return out;
}

// Splits a flags string/list argument (spaces or ';') into words.
std::vector<std::string> SplitFlagWords(const std::string& text) {
  std::vector<std::string> words;
  std::string current;
  for (char c : text) {
    if (c == ' ' || c == ';' || c == '\t' || c == '\n') {
      if (!current.empty()) words.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) words.push_back(current);
  return words;
}

class CMakeFileRewrite {
 public:
  CMakeFileRewrite(const std::string& relative_path, const std::string& content, const RewriteContext& context)
      : relative_path_(relative_path), content_(content), context_(context), file_(TokenizeCMake(content)) {
    if (context.options != nullptr) architectures_ = context.options->hip_architectures;
    if (architectures_.empty()) architectures_ = {"gfx90a", "gfx942"};
  }

  RewriteResult Run() {
    CollectCudaFlagVariables();
    for (size_t i = 0; i < file_.commands.size(); ++i) {
      const CMakeCommand& command = file_.commands[i];
      const CMakeCommand* next = i + 1 < file_.commands.size() ? &file_.commands[i + 1] : nullptr;
      RewriteCommand(command, next);
    }
    if (!file_.complete) Manual(0, "the file did not parse completely; its end was left unchanged");
    result_.output = ApplyTextEdits(content_, edits_);
    return std::move(result_);
  }

 private:
  std::string Raw(const CMakeArgument& arg) const { return content_.substr(arg.offset, arg.length); }

  void Edit(uint32_t offset, uint32_t length, std::string replacement, const std::string& origin, uint32_t line) {
    if (content_.compare(offset, length, replacement) == 0) return;
    edits_.push_back({offset, length, std::move(replacement), origin});
    result_.changed_by.insert(origin);
    result_.changed_lines.insert(line);
  }
  void Note(uint32_t line, const std::string& origin, const std::string& message) {
    result_.notes.push_back({origin, line, message, false});
  }
  void Manual(uint32_t line, const std::string& message, const std::string& origin = kRuleCudaCmake) {
    result_.notes.push_back({origin, line, message, true});
  }

  // Replaces the whole command with `text`.
  void ReplaceCommand(const CMakeCommand& command, const std::string& text, const std::string& origin) {
    Edit(command.offset, command.end - command.offset, text, origin, command.line);
  }
  // Removes a command; when it was alone on its line, the line goes too.
  void RemoveCommandLine(const CMakeCommand& command) {
    uint32_t start = command.offset;
    uint32_t end = command.end;
    const bool alone_before = command.offset == 0 || command.offset - command.indent.size() == 0 ||
                              content_[command.offset - command.indent.size() - 1] == '\n';
    size_t after = end;
    while (after < content_.size() && (content_[after] == ' ' || content_[after] == '\t')) ++after;
    if (alone_before && (after == content_.size() || content_[after] == '\n')) {
      start = static_cast<uint32_t>(command.offset - command.indent.size());
      end = static_cast<uint32_t>(std::min(content_.size(), after + 1));
    }
    Edit(start, end - start, "", kRuleCudaCmake, command.line);
  }
  void InsertAfter(const CMakeCommand& command, const std::string& text, const std::string& origin) {
    Edit(command.end, 0, "\n" + text, origin, command.line);
  }

  std::vector<std::string> Values(const CMakeCommand& command) const {
    std::vector<std::string> values;
    for (const auto& arg : command.arguments) values.push_back(arg.text);
    return values;
  }

  void RewriteCommand(const CMakeCommand& command, const CMakeCommand* next) {
    const std::string& name = command.lower_name;
    TrackSourceVariables(command);
    if (name == "cmake_minimum_required") return RewriteMinimumVersion(command);
    if (name == "project") return RewriteProject(command);
    if (name == "enable_language") return RewriteEnableLanguage(command);
    if (name == "check_language") return RewriteCheckLanguage(command);
    if (name == "find_package") {
      if (RewriteFindPackage(command)) return;
    }
    if (name == "cuda_add_executable" || name == "cuda_add_library") return RewriteCudaAddTarget(command, next);
    if (name == "cuda_add_cublas_to_target" || name == "cuda_add_cufft_to_target") {
      const std::string target = command.arguments.empty() ? "" : command.arguments[0].text;
      const char* lib = name == "cuda_add_cublas_to_target" ? "roc::hipblas" : "hip::hipfft";
      return ReplaceCommand(command, "target_link_libraries(" + target + " " + lib + ")", kRuleCudaCmake);
    }
    if (name == "cuda_include_directories") {
      return Edit(command.offset, static_cast<uint32_t>(command.name.size()), "include_directories", kRuleCudaCmake,
                  command.line);
    }
    if (name.rfind("cuda_", 0) == 0 &&
        (name == "cuda_compile" || name == "cuda_compile_ptx" || name == "cuda_wrap_srcs" ||
         name == "cuda_select_nvcc_arch_flags" || name == "cuda_compile_fatbin" || name == "cuda_compile_cubin")) {
      Manual(command.line, command.name + "() is FindCUDA-only: replace it by a HIP target by hand");
      return;
    }
    if ((name == "set" || name == "list" || name == "string") && RewriteFlagsVariable(command)) return;
    if ((name == "set" || name == "list") && RewriteNvccFlagListVariable(command)) return;
    if (name == "set" && RewriteArchitecturesVariable(command)) return;
    if (name == "set_source_files_properties" && RewriteSourceLanguage(command)) return;
    if (name == "set_target_properties" || name == "set_property") {
      if (RewritePropertyCommand(command)) return;
    }
    const bool flag_command = name == "target_compile_options" || name == "add_compile_options" ||
                              name == "target_link_options" || name == "add_link_options";
    const bool link_command = name == "target_link_libraries" || name == "link_libraries";
    const bool condition = name == "if" || name == "elseif" || name == "while";
    RewriteArguments(command, flag_command, link_command, condition, IsProjectLibraryCommand(name));
    if ((name == "add_executable" || name == "add_library" || name == "target_sources")) {
      MarkHipSources(command, next, 1);
    }
  }

  // find_library() and project macros that collect libraries (BabelStream's register_link_library): a plain
  // CUDA library name there is a link name, not a target.
  static bool IsProjectLibraryCommand(const std::string& name) {
    if (name == "target_link_libraries" || name == "link_libraries" || name == "add_library") return false;
    return name.find("link") != std::string::npos || name.find("librar") != std::string::npos;
  }

  // `nvidia-ml`, `"cublas"`, `-lcufft` as a whole argument -> the ROCm library's link name.
  std::string MapLibraryName(const std::string& text, CMakeArgumentKind kind, ArgumentMapping& mapping) {
    const bool quoted = kind == CMakeArgumentKind::kQuoted && text.size() >= 2;
    const std::string body = quoted ? text.substr(1, text.size() - 2) : text;
    const bool dash_l = body.rfind("-l", 0) == 0;
    const LibraryMapping* lib = FindLibraryMapping(dash_l ? body.substr(2) : body);
    if (lib == nullptr || lib->rocm_link_flag.size() <= 2) return text;
    mapping.origins.insert(kRuleCudaCmake);
    if (!lib->note.empty()) mapping.manual.push_back(body + ": " + std::string(lib->note));
    const std::string link_name = std::string(lib->rocm_link_flag.substr(2));
    const std::string quote = quoted ? "\"" : "";
    return quote + (dash_l ? "-l" : "") + link_name + quote;
  }

  // `$<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math -lineinfo>`: CMake splits the genex into unquoted arguments and
  // joins them with ';' before evaluating it. The flags of such a span are mapped together; returns the index of
  // the span's last argument, or `first` when arguments[first] does not open one.
  size_t MapSplitLanguageGenex(const CMakeCommand& command, size_t first) {
    const std::string genex_head = std::string("$<$<COMPILE_LANGUAGE:") + kHipLanguageReference + ">:";
    const auto& args = command.arguments;
    if (args[first].kind != CMakeArgumentKind::kUnquoted) return first;
    const std::string opening = MapArgumentReferences(Raw(args[first]), false, context_).text;
    if (opening.rfind(genex_head, 0) != 0) return first;
    std::vector<std::string> parts = {opening.substr(genex_head.size())};
    int depth = 1;
    size_t last = first;
    for (size_t b = first;; ++b) {
      if (b != first) {
        if (b >= args.size() || args[b].kind != CMakeArgumentKind::kUnquoted) return first;
        parts.push_back(Raw(args[b]));
      }
      const std::string& part = parts.back();
      for (size_t i = 0; i < part.size() && depth > 0; ++i) {
        if (part.compare(i, 2, "$<") == 0) return first;  // nested expressions are left as written
        if (part[i] == '>' && --depth == 0 && i + 1 != part.size()) return first;
      }
      if (depth == 0) {
        last = b;
        break;
      }
    }
    if (last == first) return first;  // one argument: MapFlagsInArgument maps it
    parts.back().pop_back();          // the closing '>'
    std::vector<std::string> words;
    for (const auto& part : parts) {
      for (auto& word : SplitFlagWords(part)) words.push_back(word);
    }
    FlagMapResult mapped = MapNvccFlags(words, {architectures_, true, context_.relocatable_device_code_needed});
    for (const auto& note : mapped.notes)
      result_.notes.push_back({kRuleNvccFlags, command.line, note.message, note.left_for_person});
    if (!mapped.changed) return first;  // the arguments' own mapping (CUDA -> HIP_SOURCE_LANGUAGE) is enough
    uint32_t start = args[first].offset;
    const uint32_t end = args[last].offset + args[last].length;
    if (mapped.flags.empty()) {  // every flag dropped: the expression goes, with the whitespace before it
      while (start > 0 && (content_[start - 1] == ' ' || content_[start - 1] == '\t')) --start;
    }
    Edit(start, end - start, mapped.flags.empty() ? "" : genex_head + Join(mapped.flags, " ") + ">", kRuleNvccFlags,
         command.line);
    result_.changed_by.insert(kRuleCudaCmake);
    return last;
  }

  void RewriteArguments(const CMakeCommand& command, bool flag_command, bool link_command, bool condition,
                        bool library_command = false) {
    for (size_t a = 0; a < command.arguments.size(); ++a) {
      const CMakeArgument& arg = command.arguments[a];
      if (arg.kind == CMakeArgumentKind::kParen || arg.kind == CMakeArgumentKind::kBracket) continue;
      if (flag_command) {
        const size_t span_end = MapSplitLanguageGenex(command, a);
        if (span_end != a) {
          a = span_end;
          continue;
        }
      }
      std::string raw = Raw(arg);
      ArgumentMapping mapping = MapArgumentReferences(raw, condition, context_);
      std::string text = mapping.text;
      if (link_command && arg.kind == CMakeArgumentKind::kUnquoted) {
        std::string bare = text.rfind("-l", 0) == 0 ? text.substr(2) : text;
        if (const LibraryMapping* lib = FindLibraryMapping(bare)) {
          if (!lib->cmake_target.empty()) {
            text = std::string(lib->cmake_target);
            mapping.origins.insert(kRuleCudaCmake);
          }
          if (!lib->note.empty()) mapping.manual.push_back(bare + ": " + std::string(lib->note));
        }
      }
      if (library_command) text = MapLibraryName(text, arg.kind, mapping);
      if (flag_command) text = MapFlagsInArgument(text, arg.kind, command.line, mapping.origins);
      for (const auto& note : mapping.manual) Manual(command.line, note);
      if (text != raw) {
        const std::string origin = mapping.origins.empty() ? "cmake" : *mapping.origins.begin();
        for (const auto& o : mapping.origins) result_.changed_by.insert(o);
        uint32_t start = arg.offset;
        if (text.empty()) {  // a removed argument takes the whitespace before it along
          while (start > 0 && (content_[start - 1] == ' ' || content_[start - 1] == '\t')) --start;
        }
        Edit(start, arg.offset + arg.length - start, text, origin, command.line);
      }
    }
  }

  // nvcc flags inside a CUDA-language generator expression, or distinctive nvcc flags anywhere.
  std::string MapFlagsInArgument(const std::string& text, CMakeArgumentKind kind, uint32_t line,
                                 std::set<std::string>& origins) {
    const std::string genex_head = std::string("$<$<COMPILE_LANGUAGE:") + kHipLanguageReference + ">:";
    const bool quoted = kind == CMakeArgumentKind::kQuoted && text.size() >= 2;
    const std::string body = quoted ? text.substr(1, text.size() - 2) : text;
    const std::string quote = quoted ? "\"" : "";
    if (body.rfind(genex_head, 0) == 0 && body.size() > genex_head.size() && body.back() == '>') {
      const std::string inner = body.substr(genex_head.size(), body.size() - genex_head.size() - 1);
      const std::string mapped = MapFlagString(inner, true, line, origins, ";");
      if (mapped == inner) return text;
      if (mapped.empty()) return "";  // every flag dropped: the argument goes
      return quote + genex_head + mapped + ">" + quote;
    }
    if (body.find("$<") != std::string::npos) return text;
    const std::string mapped = MapFlagString(body, false, line, origins, " ");
    if (mapped == body) return text;
    return quoted ? "\"" + mapped + "\"" : mapped;
  }

  std::string MapFlagString(const std::string& flags, bool nvcc_context, uint32_t line, std::set<std::string>& origins,
                            const std::string& separator) {
    const std::vector<std::string> words = SplitFlagWords(flags);
    FlagMapResult mapped = MapNvccFlags(words, {architectures_, nvcc_context, context_.relocatable_device_code_needed});
    for (const auto& note : mapped.notes)
      result_.notes.push_back({kRuleNvccFlags, line, note.message, note.left_for_person});
    if (!mapped.changed) return flags;
    origins.insert(kRuleNvccFlags);
    return Join(mapped.flags, separator);
  }

  // Variables this file expands inside a CUDA-language generator expression (before or after the rewrite).
  void CollectCudaFlagVariables() {
    static const std::regex kGenex(R"(\$<\$<COMPILE_LANGUAGE:(?:CUDA|\$\{HIP_SOURCE_LANGUAGE\})>:([^>]*)>)");
    static const std::regex kReference(R"(\$\{([A-Za-z0-9_]+)\})");
    for (auto it = std::sregex_iterator(content_.begin(), content_.end(), kGenex); it != std::sregex_iterator(); ++it) {
      const std::string inner = (*it)[1].str();
      for (auto ref = std::sregex_iterator(inner.begin(), inner.end(), kReference); ref != std::sregex_iterator();
           ++ref) {
        cuda_flag_variables_.insert((*ref)[1].str());
      }
    }
  }

  // set(VAR ...) / list(APPEND VAR ...) of such a variable holds nvcc flags, mapped like the genex's own (ggml:
  // set(CUDA_FLAGS -use_fast_math -extended-lambda), list(APPEND CUDA_FLAGS -lineinfo), then
  // target_compile_options(ggml-cuda PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:${CUDA_FLAGS}>"); clang refuses
  // -extended-lambda). Quoted values and cache entries are left as they are.
  // nvcc's -Xcompiler takes several host flags in one argument (ggml: list(JOIN CUDA_CXX_FLAGS " " JOINED), then
  // -Xcompiler ${JOINED}); hipcc takes each as an argument of its own (one "-Wa -Wb" argument is an unknown warning
  // option). A variable given to -Xcompiler is split first, into NAME_HIP_LIST; returns those commands.
  static std::string SplitHostFlagVariables(std::vector<std::string>& words, const std::string& indent) {
    static const std::regex kReference(R"(\$\{([A-Za-z0-9_]+)\})");
    std::string split;
    for (size_t i = 0; i + 1 < words.size(); ++i) {
      std::smatch reference;
      if ((words[i] != "-Xcompiler" && words[i] != "--compiler-options") ||
          !std::regex_match(words[i + 1], reference, kReference)) {
        continue;
      }
      const std::string list = reference[1].str() + "_HIP_LIST";
      split += "separate_arguments(" + list + " UNIX_COMMAND \"" + words[i + 1] + "\")\n" + indent;
      words[i + 1] = "${" + list + "}";
    }
    return split;
  }

  bool RewriteNvccFlagListVariable(const CMakeCommand& command) {
    const bool append = command.lower_name == "list";
    const size_t var_index = append ? 1 : 0;
    if (command.arguments.size() <= var_index + 1) return false;
    if (append && command.arguments[0].text != "APPEND") return false;
    if (!cuda_flag_variables_.count(command.arguments[var_index].text)) return false;
    std::vector<std::string> words;
    for (size_t i = var_index + 1; i < command.arguments.size(); ++i) {
      const CMakeArgument& arg = command.arguments[i];
      if (arg.kind == CMakeArgumentKind::kQuoted || arg.text == "CACHE" || arg.text == "PARENT_SCOPE") return false;
      words.push_back(arg.text);
    }
    const std::string split = SplitHostFlagVariables(words, command.indent);
    FlagMapResult mapped = MapNvccFlags(words, {architectures_, true, context_.relocatable_device_code_needed});
    for (const auto& note : mapped.notes) {
      result_.notes.push_back({kRuleNvccFlags, command.line, note.message, note.left_for_person});
    }
    if (!mapped.changed) return false;
    std::string text = split + command.name + "(" + (append ? "APPEND " : "") + command.arguments[var_index].text;
    for (const auto& flag : mapped.flags) text += " " + flag;
    ReplaceCommand(command, text + ")", kRuleNvccFlags);
    return true;
  }

  // set(CMAKE_CUDA_FLAGS ...), string(APPEND CMAKE_CUDA_FLAGS ...), set/list(APPEND CUDA_NVCC_FLAGS ...).
  bool RewriteFlagsVariable(const CMakeCommand& command) {
    const auto values = Values(command);
    size_t var_index = command.lower_name == "set" ? 0 : 1;
    if (values.size() <= var_index) return false;
    if (command.lower_name != "set" && values[0] != "APPEND") return false;
    const std::string& var = values[var_index];
    static const std::regex kFlagsVariable(R"((CMAKE_CUDA_FLAGS|CMAKE_HIP_FLAGS|CUDA_NVCC_FLAGS)(_[A-Z]+)?)");
    std::smatch m;
    if (!std::regex_match(var, m, kFlagsVariable)) return false;
    const std::string hip_var = "CMAKE_HIP_FLAGS" + m[2].str();
    std::vector<std::string> words;
    bool cache = false;
    std::vector<std::string> cache_tail;
    for (size_t i = var_index + 1; i < values.size(); ++i) {
      if (values[i] == "CACHE" || values[i] == "PARENT_SCOPE") {
        cache = true;
        cache_tail.assign(values.begin() + static_cast<long>(i), values.end());
        break;
      }
      for (auto& w : SplitFlagWords(values[i])) words.push_back(w);
    }
    for (auto& w : words) {
      ReplaceIdentifier(w, "CUDA_NVCC_FLAGS", hip_var);
      w = std::regex_replace(w, std::regex(R"(CMAKE_CUDA_FLAGS)"), "CMAKE_HIP_FLAGS");
    }
    std::set<std::string> origins;
    FlagMapResult mapped = MapNvccFlags(words, {architectures_, true, context_.relocatable_device_code_needed});
    for (const auto& note : mapped.notes) {
      result_.notes.push_back({kRuleNvccFlags, command.line, note.message, note.left_for_person});
    }
    const std::string joined = Join(mapped.flags, " ");
    std::string text;
    if (command.lower_name == "set") {
      text = command.name + "(" + hip_var + " \"" + joined + "\"";
      for (const auto& t : cache_tail) text += " " + (t.find(' ') != std::string::npos ? "\"" + t + "\"" : t);
      text += ")";
      (void)cache;
    } else {
      // list(APPEND CUDA_NVCC_FLAGS a b) / string(APPEND CMAKE_CUDA_FLAGS " a b"): flags form one string.
      const bool from_list = command.lower_name == "list";
      const bool leading_space = from_list || (values.size() > 2 && !values[2].empty() && values[2][0] == ' ');
      text = std::string(from_list ? "string" : command.name) + "(APPEND " + hip_var + " \"" +
             (leading_space && !joined.empty() ? " " : "") + joined + "\")";
    }
    // Unchanged when already in HIP form (second run).
    const std::string original = content_.substr(command.offset, command.end - command.offset);
    if (var == hip_var && !mapped.changed) return true;
    if (text != original) ReplaceCommand(command, text, mapped.changed ? kRuleNvccFlags : kRuleCudaCmake);
    return true;
  }

  bool RewriteArchitecturesVariable(const CMakeCommand& command) {
    const auto values = Values(command);
    if (values.empty() || values[0] != "CMAKE_CUDA_ARCHITECTURES") return false;
    ReplaceCommand(command,
                   command.name + "(CMAKE_HIP_ARCHITECTURES " + Join(architectures_, " ") +
                       " CACHE STRING \"AMD GPU architectures\")",
                   kRuleCudaCmake);
    Note(command.line, kRuleCudaCmake, "CUDA architectures -> HIP architectures " + Join(architectures_, ";"));
    return true;
  }

  void RewriteMinimumVersion(const CMakeCommand& command) {
    if (!context_.has_cuda_sources) return;
    for (const auto& arg : command.arguments) {
      static const std::regex kVersion(R"(^(\d+)\.(\d+)(\.\d+)?)");
      std::smatch m;
      if (arg.kind != CMakeArgumentKind::kUnquoted || !std::regex_search(arg.text, m, kVersion)) continue;
      const int major = std::stoi(m[1].str());
      const int minor = std::stoi(m[2].str());
      if (major < 3 || (major == 3 && minor < 21)) {
        Edit(arg.offset, static_cast<uint32_t>(m.length(0)), "3.21", kRuleCudaCmake, command.line);
        Note(command.line, kRuleCudaCmake, "CMake's HIP language needs CMake 3.21");
      }
      return;
    }
  }

  void EmitLanguageBlock(const CMakeCommand& after, bool replace) {
    const std::string block = after.indent + HipMigrationInclude(relative_path_);
    result_.generated_files[kHipMigrationModule] = HipMigrationModule(architectures_);
    if (block_emitted_) {
      if (replace)
        ReplaceCommand(after, std::string("# hipforge ") + kRuleCudaCmake + ": HIP is enabled above", kRuleCudaCmake);
      return;
    }
    block_emitted_ = true;
    if (replace) {
      // The block starts with the indentation of the command it replaces.
      ReplaceCommand(after, block.substr(after.indent.size()), kRuleCudaCmake);
    } else {
      InsertAfter(after, block, kRuleCudaCmake);
    }
  }

  void RewriteProject(const CMakeCommand& command) {
    bool has_cuda = false, has_cxx = false;
    for (const auto& arg : command.arguments) {
      has_cuda |= arg.text == "CUDA";
      has_cxx |= arg.text == "CXX";
    }
    if (!has_cuda) return;
    for (const auto& arg : command.arguments) {
      if (arg.text != "CUDA") continue;
      if (!has_cxx) {
        Edit(arg.offset, arg.length, "CXX", kRuleCudaCmake, command.line);
        has_cxx = true;
      } else {
        // Remove the argument with the whitespace before it.
        uint32_t start = arg.offset;
        while (start > 0 && (content_[start - 1] == ' ' || content_[start - 1] == '\t')) --start;
        Edit(start, arg.offset + arg.length - start, "", kRuleCudaCmake, command.line);
      }
    }
    if (context_.has_cuda_sources) {
      EmitLanguageBlock(command, false);
    } else {
      InsertAfter(command, command.indent + "find_package(hip REQUIRED)", kRuleCudaCmake);
    }
  }

  void RewriteEnableLanguage(const CMakeCommand& command) {
    bool has_cuda = false;
    for (const auto& arg : command.arguments) has_cuda |= arg.text == "CUDA";
    if (!has_cuda) return;
    if (command.arguments.size() == 1) return EmitLanguageBlock(command, true);
    for (const auto& arg : command.arguments) {
      if (arg.text == "CUDA") Edit(arg.offset, arg.length, "", kRuleCudaCmake, command.line);
    }
    EmitLanguageBlock(command, false);
  }

  void RewriteCheckLanguage(const CMakeCommand& command) {
    if (command.arguments.empty() || command.arguments[0].text != "CUDA") return;
    // `if(CMAKE_CUDA_COMPILER)` after it becomes `if(HIP_SOURCE_LANGUAGE)`, which the block sets.
    EmitLanguageBlock(command, true);
  }

  // find_package(CUDA ...) / find_package(CUDAToolkit ...) -> find_package(hip) and the ROCm library packages.
  bool RewriteFindPackage(const CMakeCommand& command) {
    const auto values = Values(command);
    if (values.empty() || (values[0] != "CUDA" && values[0] != "CUDAToolkit")) return false;
    const bool required = std::find(values.begin(), values.end(), "REQUIRED") != values.end();
    std::vector<std::string> lines;
    std::set<std::string> packages;
    for (const auto& lib : context_.cmake_cuda_libraries) {
      const LibraryMapping* mapping = FindLibraryMapping(lib);
      if (mapping != nullptr && !mapping->cmake_package.empty()) packages.insert(std::string(mapping->cmake_package));
    }
    if (context_.has_cuda_sources && !block_emitted_) {
      EmitLanguageBlock(command, true);
      if (packages.empty()) return true;
      std::string text;
      for (const auto& package : packages) {
        text += command.indent + "find_package(" + package + (required ? " REQUIRED" : "") + ")\n";
      }
      text.pop_back();
      InsertAfter(command, text, kRuleCudaCmake);
      return true;
    }
    // The block above in this file already found hip: only the library packages are left to find.
    std::string text = block_emitted_ ? "" : "find_package(hip" + std::string(required ? " REQUIRED" : "") + ")";
    for (const auto& package : packages) {
      text +=
          (text.empty() ? "" : "\n" + command.indent) + "find_package(" + package + (required ? " REQUIRED" : "") + ")";
    }
    if (text.empty()) {
      RemoveCommandLine(command);
    } else {
      ReplaceCommand(command, text, kRuleCudaCmake);
    }
    return true;
  }

  // cuda_add_executable/cuda_add_library (FindCUDA) -> add_executable/add_library + HIP sources + options.
  void RewriteCudaAddTarget(const CMakeCommand& command, const CMakeCommand* next) {
    const bool executable = command.lower_name == "cuda_add_executable";
    std::vector<std::string> kept;
    std::vector<std::string> options;
    bool in_options = false;
    for (const auto& arg : command.arguments) {
      if (arg.text == "OPTIONS") {
        in_options = true;
        continue;
      }
      ArgumentMapping mapping = MapArgumentReferences(Raw(arg), false, context_);
      (in_options ? options : kept).push_back(mapping.text);
    }
    if (kept.empty()) return;
    std::string text = std::string(executable ? "add_executable" : "add_library") + "(" + Join(kept, " ") + ")";
    if (!options.empty()) {
      std::set<std::string> origins;
      std::vector<std::string> words;
      for (auto& o : options) {
        for (auto& w : SplitFlagWords(o)) words.push_back(w);
      }
      FlagMapResult mapped = MapNvccFlags(words, {architectures_, true, context_.relocatable_device_code_needed});
      for (const auto& note : mapped.notes) {
        result_.notes.push_back({kRuleNvccFlags, command.line, note.message, note.left_for_person});
      }
      if (!mapped.flags.empty()) {
        text +=
            "\n" + command.indent + "target_compile_options(" + kept[0] + " PRIVATE " + Join(mapped.flags, " ") + ")";
      }
    }
    ReplaceCommand(command, text, kRuleCudaCmake);
    MarkHipSources(command, next, 1);
  }

  // set_target_properties(... PROPERTIES CUDA_xxx v) / set_property(TARGET ... PROPERTY CUDA_xxx v).
  bool RewritePropertyCommand(const CMakeCommand& command) {
    const auto values = Values(command);
    std::vector<std::string> targets;
    std::vector<std::pair<std::string, std::string>> pairs;
    bool is_set_property = command.lower_name == "set_property";
    size_t i = 0;
    if (is_set_property) {
      if (values.empty() || values[0] != "TARGET") return RewriteSourceLanguage(command);
      for (i = 1; i < values.size() && values[i] != "PROPERTY" && values[i] != "APPEND" && values[i] != "APPEND_STRING";
           ++i) {
        targets.push_back(values[i]);
      }
      while (i < values.size() && values[i] != "PROPERTY") ++i;
      if (i + 1 >= values.size()) return false;
      std::vector<std::string> rest(values.begin() + static_cast<long>(i) + 2, values.end());
      pairs.push_back({values[i + 1], Join(rest, ";")});
    } else {
      for (; i < values.size() && values[i] != "PROPERTIES"; ++i) targets.push_back(values[i]);
      for (++i; i + 1 < values.size(); i += 2) pairs.push_back({values[i], values[i + 1]});
    }
    bool touched = false;
    bool rdc = false;
    std::vector<std::pair<std::string, std::string>> out_pairs;
    for (auto [property, value] : pairs) {
      if (property == "CUDA_ARCHITECTURES") {
        out_pairs.push_back({"HIP_ARCHITECTURES", "\"${CMAKE_HIP_ARCHITECTURES}\""});
        touched = true;
      } else if (property == "CUDA_STANDARD" || property == "CUDA_STANDARD_REQUIRED" || property == "CUDA_EXTENSIONS") {
        out_pairs.push_back({"HIP" + property.substr(4), value});
        touched = true;
      } else if (property == "CUDA_SEPARABLE_COMPILATION") {
        rdc = value == "ON" || value == "TRUE" || value == "1" || value == "YES";
        if (rdc && !context_.relocatable_device_code_needed) {
          Note(command.line, kRuleCudaCmake,
               "dropped CUDA_SEPARABLE_COMPILATION: " + std::string(kRelocatableDeviceCodeNotNeeded));
          rdc = false;
        }
        touched = true;
      } else if (property == "CUDA_RESOLVE_DEVICE_SYMBOLS" || property == "CUDA_RUNTIME_LIBRARY" ||
                 property == "CUDA_PTX_COMPILATION") {
        Note(command.line, kRuleCudaCmake, "dropped target property " + property + " (no HIP counterpart needed)");
        touched = true;
      } else {
        out_pairs.push_back({property, value.find_first_of(" ;") != std::string::npos && !is_set_property
                                           ? "\"" + value + "\""
                                           : value});
      }
    }
    if (!touched) {
      if (!is_set_property) return false;
      return RewriteSourceLanguage(command);
    }
    std::string text;
    if (!out_pairs.empty()) {
      if (is_set_property) {
        text = command.name + "(TARGET " + Join(targets, " ") + " PROPERTY " + out_pairs[0].first + " " +
               out_pairs[0].second + ")";
      } else {
        text = command.name + "(" + Join(targets, " ") + " PROPERTIES";
        for (const auto& [p, v] : out_pairs) text += " " + p + " " + v;
        text += ")";
      }
    }
    if (rdc) {
      for (const auto& target : targets) {
        if (!text.empty()) text += "\n" + command.indent;
        text += "target_compile_options(" + target + " PRIVATE -fgpu-rdc)\n" + command.indent + "target_link_options(" +
                target + " PUBLIC -fgpu-rdc)";
      }
      Note(command.line, kRuleCudaCmake, "CUDA_SEPARABLE_COMPILATION -> -fgpu-rdc (compile and link)");
    }
    if (text.empty()) text = "# hipforge HB502: CUDA-only target properties removed";
    ReplaceCommand(command, text, kRuleCudaCmake);
    return true;
  }

  // set_source_files_properties(... LANGUAGE CUDA) / set_property(SOURCE ... PROPERTY LANGUAGE CUDA).
  // The sources also get HIP_SOURCE ON: with hipcc as the C++ compiler their language is CXX like the host
  // sources', and the block's end-of-configure step gives CMAKE_HIP_FLAGS only to HIP sources.
  bool RewriteSourceLanguage(const CMakeCommand& command) {
    bool changed = false;
    const bool set_property = command.lower_name == "set_property";
    for (size_t a = 1; a < command.arguments.size(); ++a) {
      const auto& arg = command.arguments[a];
      if (arg.text == "CUDA" && command.arguments[a - 1].text == "LANGUAGE") {
        Edit(arg.offset, arg.length,
             std::string(kHipLanguageReference) + (set_property ? "" : " " + std::string(kHipSourceMarker)),
             kRuleCudaCmake, command.line);
        changed = true;
      }
    }
    if (!changed) return false;
    RewriteArguments(command, false, false, false);  // renamed sources
    if (set_property) {
      // set_property sets one property: a second command marks the same sources.
      std::string marker = command.name + "(";
      for (const auto& arg : command.arguments) {
        if (arg.text == "PROPERTY" || arg.text == "APPEND" || arg.text == "APPEND_STRING") break;
        marker += MapArgumentReferences(Raw(arg), false, context_).text + " ";
      }
      InsertAfter(command, command.indent + marker + "PROPERTY " + kHipSourceMarker + ")", kRuleCudaCmake);
    }
    return true;
  }

  void TrackSourceVariables(const CMakeCommand& command) {
    const auto values = Values(command);
    std::string var;
    size_t first = 0;
    if (command.lower_name == "set" && !values.empty()) {
      var = values[0];
      first = 1;
    } else if (command.lower_name == "list" && values.size() > 1 && values[0] == "APPEND") {
      var = values[1];
      first = 2;
    } else if (command.lower_name == "file" && values.size() > 1 &&
               (values[0] == "GLOB" || values[0] == "GLOB_RECURSE")) {
      var = values[1];
      first = 2;
    }
    if (var.empty()) return;
    for (size_t i = first; i < values.size(); ++i) {
      for (const auto& item : SplitFlagWords(values[i])) {
        if (NamesGpuSourceFile(item) ||
            source_variables_.count(item.size() > 3 ? item.substr(2, item.size() - 3) : "")) {
          source_variables_.insert(var);
        }
      }
    }
  }

  // After a target definition: its CUDA sources are compiled as HIP.
  void MarkHipSources(const CMakeCommand& command, const CMakeCommand* next, size_t first_source) {
    if (!context_.has_cuda_sources) return;
    std::vector<std::string> sources;
    for (size_t a = first_source; a < command.arguments.size(); ++a) {
      const std::string raw = MapArgumentReferences(Raw(command.arguments[a]), false, context_).text;
      const std::string& text = command.arguments[a].text;
      if (NamesGpuSourceFile(text)) {
        sources.push_back(raw);
      } else if (text.size() > 3 && text.rfind("${", 0) == 0 && text.back() == '}' &&
                 source_variables_.count(text.substr(2, text.size() - 3))) {
        sources.push_back(raw);
      }
    }
    if (sources.empty()) return;
    // Already marked (second run), or the project marks them itself (LANGUAGE CUDA, rewritten there): look at
    // the few commands that follow the target (a rewritten cuda_add_* puts its options in between).
    for (const CMakeCommand* later = next;
         later != nullptr && later < next + 3 && later < file_.commands.data() + file_.commands.size(); ++later) {
      if (later->lower_name != "set_source_files_properties") continue;
      const std::string later_text = content_.substr(later->offset, later->end - later->offset);
      if (later_text.find(kHipLanguageReference) != std::string::npos ||
          std::regex_search(later_text, std::regex(R"(LANGUAGE\s+CUDA)"))) {
        return;
      }
    }
    InsertAfter(command,
                command.indent + "set_source_files_properties(" + Join(sources, " ") + " PROPERTIES LANGUAGE " +
                    kHipLanguageReference + ")",
                kRuleCudaCmake);
  }

  std::string relative_path_;
  const std::string& content_;
  const RewriteContext& context_;
  CMakeFile file_;
  std::vector<std::string> architectures_;
  std::vector<TextEdit> edits_;
  RewriteResult result_;
  bool block_emitted_ = false;
  std::set<std::string> source_variables_;
  std::set<std::string> cuda_flag_variables_;  // expanded inside a CUDA-language generator expression
};

}  // namespace

std::set<std::string> CudaLibrariesInCMake(const std::string& content) {
  std::set<std::string> libraries;
  static const std::regex kReference(R"(CUDA::([A-Za-z0-9_]+)|\$\{CUDA_([A-Za-z0-9]+)_LIBRAR(?:Y|IES)\})");
  for (auto it = std::sregex_iterator(content.begin(), content.end(), kReference); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1].matched ? (*it)[1].str() : (*it)[2].str();
    if (const LibraryMapping* lib = LibraryFromCMakeName(name)) libraries.insert(std::string(lib->cuda_name));
  }
  const CMakeFile file = TokenizeCMake(content);
  for (const auto& command : file.commands) {
    if (command.lower_name != "target_link_libraries" && command.lower_name != "link_libraries") continue;
    for (const auto& arg : command.arguments) {
      std::string bare = arg.text.rfind("-l", 0) == 0 ? arg.text.substr(2) : arg.text;
      if (const LibraryMapping* lib = FindLibraryMapping(bare)) libraries.insert(std::string(lib->cuda_name));
    }
  }
  if (content.find("cuda_add_cublas_to_target") != std::string::npos) libraries.insert("cublas");
  if (content.find("cuda_add_cufft_to_target") != std::string::npos) libraries.insert("cufft");
  return libraries;
}

RewriteResult CMakeRewriter::Rewrite(const std::string& relative_path, const std::string& content,
                                     const RewriteContext& context) const {
  return CMakeFileRewrite(relative_path, content, context).Run();
}

}  // namespace hipforge::translate
