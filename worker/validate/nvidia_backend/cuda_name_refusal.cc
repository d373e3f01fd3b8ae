#include "worker/validate/nvidia_backend/cuda_name_refusal.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <optional>
#include <sstream>

#include "worker/translate/core/preprocessor_condition.h"
#include "worker/validate/nvidia_backend/hip_on_cuda_header.h"

namespace hipforge::validate {
namespace {

using translate::ApiKind;
using translate::ApiLibrary;
using translate::ConditionToken;

// The cache-hint loads and stores: CUDA has them for every built-in and vector type, HIP 6.4 __ldcg/__ldca/__ldcs
// for __half/__half2 only.
constexpr std::string_view kCacheHintNames[] = {"__ldcs", "__ldcg", "__ldca", "__ldlu", "__ldcv",
                                                "__stcs", "__stcg", "__stwb", "__stwt"};
// The legacy driver launch API (cuParamSet*, cuFuncSetBlockShape, cuLaunchGrid...), removed from HIP.
constexpr std::string_view kLegacyLaunchNames[] = {"cuParamSetv",    "cuParamSeti",         "cuParamSetf",
                                                   "cuParamSetSize", "cuFuncSetBlockShape", "cuFuncSetSharedSize",
                                                   "cuLaunch",       "cuLaunchGrid",        "cuLaunchGridAsync"};
// CUDA names the translator keeps and defines for HIP in the file itself, under these guards
// (translate/core/device_function_shims.cc): translated, not left. (On HIP's NVIDIA platform the legacy launch
// shim keeps out and CUDA's own functions run.)
struct ShimmedNames {
  std::string_view guard;
  std::span<const std::string_view> names;
};
constexpr ShimmedNames kShims[] = {{"HIPFORGE_CACHE_HINT_SHIM", kCacheHintNames},
                                   {"HIPFORGE_LEGACY_LAUNCH_SHIM", kLegacyLaunchNames}};

// Whether `word` is defined by a shim the file carries.
bool Shimmed(std::string_view text, std::string_view word) {
  for (const ShimmedNames& shim : kShims) {
    if (std::find(shim.names.begin(), shim.names.end(), word) != shim.names.end() &&
        text.find(shim.guard) != std::string_view::npos) {
      return true;
    }
  }
  return false;
}

bool IsIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool LooksCudaSpelled(std::string_view name) {
  size_t i = 0;
  while (i < name.size() && name[i] == '_') ++i;
  const std::string_view rest = name.substr(i);
  auto starts = [&](std::string_view prefix) {
    if (rest.size() < prefix.size()) return false;
    for (size_t k = 0; k < prefix.size(); ++k) {
      if (std::tolower(static_cast<unsigned char>(rest[k])) != prefix[k]) return false;
    }
    return true;
  };
  return starts("cu") || starts("nv");
}

bool IsSourcePath(const std::filesystem::path& path) {
  static const std::set<std::string> kExtensions = {".cu", ".cuh", ".hip", ".h",   ".hh",  ".hpp", ".hxx",
                                                    ".c",  ".cc",  ".cpp", ".cxx", ".inl", ".inc"};
  return kExtensions.count(path.extension().string()) > 0;
}

// The macros whose value the AMD build of the translation is certain of: HIP's platform macros (hip-clang defines
// the AMD ones, never the NVIDIA ones) and HIP_VERSION* of the release the layer stands for.
translate::ConditionNames AmdBuildNames() {
  auto value = [](std::string_view name) -> std::optional<int64_t> {
    const HipVersionNumbers& v = kHipOnCudaHipVersion;
    if (name == "__HIP_PLATFORM_AMD__" || name == "__HIP_PLATFORM_HCC__" || name == "__HIPCC__" || name == "__HIP__") {
      return 1;
    }
    if (name == "__HIP_PLATFORM_NVIDIA__" || name == "__HIP_PLATFORM_NVCC__") return 0;
    if (name == "HIP_VERSION_MAJOR") return v.major;
    if (name == "HIP_VERSION_MINOR") return v.minor;
    if (name == "HIP_VERSION_PATCH") return v.patch;
    if (name == "HIP_VERSION") return int64_t{v.major} * 10000000 + int64_t{v.minor} * 100000 + v.patch;
    return std::nullopt;
  };
  auto defined = [value](std::string_view name) -> std::optional<bool> {
    if (name == "__HIP_PLATFORM_NVIDIA__" || name == "__HIP_PLATFORM_NVCC__") return false;
    if (value(name)) return true;
    return std::nullopt;
  };
  return {.value = value, .defined = defined};
}

std::vector<ConditionToken> Tokenize(std::string_view text) {
  std::vector<ConditionToken> tokens;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    const size_t begin = i;
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      while (i < text.size() && (IsIdentifierChar(text[i]) || text[i] == '.' || text[i] == '\'')) ++i;
      tokens.push_back({ConditionToken::kNumber, text.substr(begin, i - begin)});
    } else if (IsIdentifierChar(c)) {
      while (i < text.size() && IsIdentifierChar(text[i])) ++i;
      tokens.push_back({ConditionToken::kIdentifier, text.substr(begin, i - begin)});
    } else {
      static constexpr std::string_view kPairs[] = {"&&", "||", "==", "!=", "<=", ">=", "<<", ">>"};
      const std::string_view two = text.substr(i, 2);
      i += std::find(std::begin(kPairs), std::end(kPairs), two) != std::end(kPairs) ? 2 : 1;
      tokens.push_back({ConditionToken::kPunctuation, text.substr(begin, i - begin)});
    }
  }
  return tokens;
}

// The #if/#ifdef/#elif/#else/#endif nesting of one file and whether the code at the current line is kept.
class Conditionals {
 public:
  // `directive` and `rest` of one logical directive line (comments out); other directives are ignored.
  void Apply(std::string_view directive, std::string_view rest) {
    if (directive == "if" || directive == "ifdef" || directive == "ifndef") {
      const std::optional<bool> c = Condition(directive, rest);
      stack_.push_back({.parent_live = Live(), .taken = c == true, .live = Live() && c != false});
    } else if (stack_.empty()) {
      return;
    } else if (directive == "elif" || directive == "elifdef" || directive == "elifndef") {
      Group& group = stack_.back();
      const std::optional<bool> c = Condition(directive.substr(2), rest);
      group.live = group.parent_live && !group.taken && c != false;
      group.taken = group.taken || c == true;
    } else if (directive == "else") {
      Group& group = stack_.back();
      group.live = group.parent_live && !group.taken;
      group.taken = true;
    } else if (directive == "endif") {
      stack_.pop_back();
    }
  }
  bool Live() const { return stack_.empty() || stack_.back().live; }

 private:
  struct Group {
    bool parent_live = true;
    bool taken = false;  // an earlier branch is certainly the one kept
    bool live = true;
  };
  std::optional<bool> Condition(std::string_view directive, std::string_view rest) const {
    const std::vector<ConditionToken> tokens = Tokenize(rest);
    if (directive != "if") {  // ifdef / ifndef NAME
      if (tokens.empty() || tokens.front().kind != ConditionToken::kIdentifier) return std::nullopt;
      const std::optional<bool> defined = names_.defined(tokens.front().text);
      if (!defined) return std::nullopt;
      return directive == "ifdef" ? *defined : !*defined;
    }
    const std::optional<int64_t> value = translate::EvaluateCondition(tokens, names_);
    if (!value) return std::nullopt;
    return *value != 0;
  }

  translate::ConditionNames names_ = AmdBuildNames();
  std::vector<Group> stack_;
};

// The directive whose '#' is at `hash`: its name and the rest of its logical line (continuations joined, comments
// out).
struct DirectiveLine {
  std::string directive;
  std::string rest;
};
DirectiveLine ReadDirective(std::string_view text, size_t hash) {
  DirectiveLine line;
  std::string joined;
  for (size_t i = hash + 1; i < text.size() && text[i] != '\n'; ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      ++i;
    } else if (text.substr(i, 2) == "//") {
      break;
    } else if (text.substr(i, 2) == "/*") {
      const size_t close = text.find("*/", i + 2);
      i = (close == std::string_view::npos ? text.size() : close + 2) - 1;
      joined += ' ';
    } else {
      joined += text[i];
    }
  }
  size_t k = joined.find_first_not_of(" \t");
  size_t word_end = k == std::string::npos ? joined.size() : k;
  while (word_end < joined.size() && IsIdentifierChar(joined[word_end])) ++word_end;
  if (k != std::string::npos) line.directive = joined.substr(k, word_end - k);
  line.rest = joined.substr(word_end);
  return line;
}

// `<name>` of an include line's rest, empty for a quoted include.
std::string_view AngleInclude(std::string_view rest) {
  const size_t open = rest.find('<');
  const size_t close = rest.find('>', open == std::string_view::npos ? 0 : open);
  if (open == std::string_view::npos || close == std::string_view::npos) return {};
  if (rest.substr(0, open).find_first_not_of(" \t") != std::string_view::npos) return {};
  return rest.substr(open + 1, close - open - 1);
}

}  // namespace

RefusedCuda RefusedCudaNames(std::span<const std::span<const translate::ApiMapping>> tables) {
  RefusedCuda refused;
  for (const auto& table : tables) {
    for (const translate::ApiMapping& m : table) {
      if (m.kind == ApiKind::kHeader) {
        // A CUDA toolkit header HIP has none for (Caffe2's are the project's own files).
        if (m.hip_name.empty() && m.hip_state == translate::SupportState::kUnsupported &&
            !m.cuda_name.starts_with("caffe2/")) {
          refused.headers.insert(std::string(m.cuda_name));
        }
        continue;
      }
      if (m.kind == ApiKind::kNamespace) continue;
      if (m.library == ApiLibrary::kDevice || m.library == ApiLibrary::kCub ||
          m.library == ApiLibrary::kCooperativeGroups || m.library == ApiLibrary::kHeaders ||
          m.library == ApiLibrary::kCaffe2) {
        continue;
      }
      if (m.cuda_name == m.hip_name || !LooksCudaSpelled(m.cuda_name)) continue;
      if (m.cuda_name.empty() || !std::all_of(m.cuda_name.begin(), m.cuda_name.end(), IsIdentifierChar)) continue;
      refused.names.insert(std::string(m.cuda_name));
    }
  }
  refused.names.insert("nvcuda");  // WMMA (mma.h): rocWMMA's API is another one
  for (std::string_view name : kCacheHintNames) refused.names.insert(std::string(name));
  return refused;
}

std::vector<CudaNameUse> FindCudaNames(std::string_view path, std::string_view text, const RefusedCuda& refused) {
  std::vector<CudaNameUse> uses;
  Conditionals conditionals;
  unsigned line = 1;
  size_t line_start = 0;
  bool line_is_include = false;  // `#include <cuda_runtime.h>`: a file name, not code
  bool at_line_start = true;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = ++i;
      line_is_include = false;
      at_line_start = true;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      const size_t end = text.find("*/", i + 2);
      const size_t stop = end == std::string_view::npos ? text.size() : end + 2;
      for (; i < stop; ++i) {
        if (text[i] == '\n') ++line, line_start = i + 1;
      }
      continue;
    }
    if (at_line_start && c == '#') {
      const DirectiveLine directive = ReadDirective(text, i);
      if (directive.directive == "include") {
        const std::string_view header = AngleInclude(directive.rest);
        if (conditionals.Live() && !header.empty() && refused.headers.count(header)) {
          uses.push_back({std::string(path), line, static_cast<unsigned>(i - line_start + 1),
                          "#include <" + std::string(header) + ">"});
        }
        line_is_include = true;  // the file name is not code; the scan goes on over the line
      } else {
        // The names on a kept #if line count too (`#if CUDA_VERSION` reads 0 on AMD); #define bodies are code.
        conditionals.Apply(directive.directive, directive.rest);
      }
    }
    at_line_start = false;
    if (c == '"' || c == '\'') {
      const bool raw = c == '"' && i > 0 && text[i - 1] == 'R';
      if (raw) {
        const size_t open = text.find('(', i);
        const std::string close = ")" + std::string(text.substr(i + 1, open - i - 1)) + "\"";
        const size_t end = open == std::string_view::npos ? std::string_view::npos : text.find(close, open);
        const size_t stop = end == std::string_view::npos ? text.size() : end + close.size();
        for (; i < stop; ++i) {
          if (text[i] == '\n') ++line, line_start = i + 1;
        }
        continue;
      }
      for (++i; i < text.size() && text[i] != c && text[i] != '\n'; ++i) {
        if (text[i] == '\\') ++i;
      }
      ++i;
      continue;
    }
    if (IsIdentifierChar(c)) {
      const size_t begin = i;
      while (i < text.size() && IsIdentifierChar(text[i])) ++i;
      const std::string_view word = text.substr(begin, i - begin);
      if (!line_is_include && conditionals.Live() && !std::isdigit(static_cast<unsigned char>(word[0])) &&
          refused.names.count(word) && !Shimmed(text, word)) {
        uses.push_back({std::string(path), line, static_cast<unsigned>(begin - line_start + 1), std::string(word)});
      }
      continue;
    }
    ++i;
  }
  return uses;
}

std::vector<CudaNameUse> FindCudaNamesInTree(const std::filesystem::path& root, const RefusedCuda& refused) {
  std::vector<CudaNameUse> uses;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.is_regular_file() && IsSourcePath(entry.path())) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    auto found = FindCudaNames(file.lexically_relative(root).generic_string(), buffer.str(), refused);
    uses.insert(uses.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
  }
  return uses;
}

}  // namespace hipforge::validate
