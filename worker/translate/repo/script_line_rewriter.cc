#include "worker/translate/repo/script_line_rewriter.h"

#include <algorithm>
#include <cctype>
#include <regex>

#include "worker/translate/analyze/rule_ids.h"
#include "worker/translate/repo/nvcc_flag_mapper.h"
#include "worker/translate/tables/build_tables.h"

namespace hipforge::translate {
namespace {

bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// A word = prefix (shell/make assignment and opening quotes) + core + suffix (closing quotes, `)`, `;`).
struct WordParts {
  std::string prefix, core, suffix;
};

WordParts SplitWordParts(const std::string& word) {
  WordParts parts;
  size_t start = 0;
  static const std::regex kAssignment(R"(^[A-Za-z_][A-Za-z0-9_]*(\+|:|\?|::)?=)");
  std::smatch m;
  if (std::regex_search(word, m, kAssignment)) start = static_cast<size_t>(m.length(0));
  while (start < word.size() && (word[start] == '"' || word[start] == '\'')) ++start;
  size_t end = word.size();
  // A `)`/`}` that closes something opened before the word (`$(foreach ...,-arch=sm_$(v))` split over lines, a
  // shell `$(...)`) stays after the rewritten core, so that a flag replaced as a whole keeps the text balanced.
  int parens = 0, braces = 0;
  for (size_t i = start; i < end; ++i) {
    parens += word[i] == '(' ? 1 : word[i] == ')' ? -1 : 0;
    braces += word[i] == '{' ? 1 : word[i] == '}' ? -1 : 0;
  }
  while (end > start) {
    const char c = word[end - 1];
    if (c == ')' && parens < 0) {
      ++parens;
    } else if (c == '}' && braces < 0) {
      ++braces;
    } else if (c != '"' && c != '\'' && c != ';') {
      break;
    }
    --end;
  }
  parts.prefix = word.substr(0, start);
  parts.core = word.substr(start, end - start);
  parts.suffix = word.substr(end);
  return parts;
}

// A docker/podman line's words: `--gpus X` becomes the ROCm device nodes, `--runtime=nvidia` goes, nvidia-docker is
// docker. Returns whether a word changed.
bool RewriteContainerGpuFlags(std::vector<std::string>& out_words, ScriptLineResult& result) {
  bool changed = false;
  for (size_t i = 0; i < out_words.size(); ++i) {
    std::string& word = out_words[i];
    if (word == "nvidia-docker") {
      word = "docker";
      changed = true;
      result.origins.insert("docker");
    } else if (word == "--gpus" || word.rfind("--gpus=", 0) == 0) {
      std::string value = word == "--gpus" && i + 1 < out_words.size() ? out_words[i + 1]
                                                                       : word.substr(std::min(word.size(), size_t{7}));
      if (word == "--gpus" && i + 1 < out_words.size()) out_words[i + 1].clear();
      word = "--device /dev/kfd --device /dev/dri --group-add video";
      changed = true;
      result.origins.insert("docker");
      if (value != "all") {
        result.notes.push_back({"docker", 0,
                                "`--gpus " + value +
                                    "` selected GPUs: all are passed; restrict with "
                                    "HIP_VISIBLE_DEVICES or specific /dev/dri/renderD* nodes",
                                true});
      }
    } else if (word == "--runtime=nvidia" ||
               (word == "--runtime" && i + 1 < out_words.size() && out_words[i + 1] == "nvidia")) {
      if (word == "--runtime") out_words[i + 1].clear();
      word.clear();
      changed = true;
      result.origins.insert("docker");
    }
  }
  return changed;
}

}  // namespace

size_t MakeCallEnd(const std::string& text, size_t dollar) {
  if (dollar + 1 >= text.size()) return std::string::npos;
  // Make matches only the bracket kind that opened the reference, counting nested ones of that kind.
  const char open = text[dollar + 1];
  const char close = open == '(' ? ')' : open == '{' ? '}' : '\0';
  if (close == '\0') return std::string::npos;
  int depth = 0;
  for (size_t i = dollar + 1; i < text.size(); ++i) {
    if (text[i] == open) ++depth;
    if (text[i] == close && --depth == 0) return i;
  }
  return std::string::npos;
}

SplitWords SplitShellWords(const std::string& text, bool make_calls) {
  SplitWords split;
  size_t i = 0;
  std::string separator;
  while (i < text.size()) {
    if (text[i] == ' ' || text[i] == '\t') {
      separator += text[i++];
      continue;
    }
    std::string word;
    char quote = 0;
    while (i < text.size()) {
      const char c = text[i];
      if (make_calls && !quote && c == '$' && i + 1 < text.size() && text[i + 1] == '$') {
        word += "$$";  // Make's escaped `$`: what follows is the shell's
        i += 2;
        continue;
      }
      if (make_calls && !quote && c == '$' && i + 1 < text.size() && (text[i + 1] == '(' || text[i + 1] == '{')) {
        const size_t end = MakeCallEnd(text, i);
        const size_t stop = end == std::string::npos ? text.size() : end + 1;
        word += text.substr(i, stop - i);
        i = stop;
        continue;
      }
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == ' ' || c == '\t') {
        break;
      }
      word += c;
      ++i;
    }
    split.separators.push_back(separator);
    split.words.push_back(word);
    separator.clear();
  }
  split.trailing = separator;
  return split;
}

std::vector<std::string> SplitLinesKeepEnd(const std::string& content, bool& ends_with_newline) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < content.size()) {
    size_t end = content.find('\n', start);
    if (end == std::string::npos) {
      lines.push_back(content.substr(start));
      ends_with_newline = false;
      return lines;
    }
    lines.push_back(content.substr(start, end - start));
    start = end + 1;
  }
  ends_with_newline = true;
  return lines;
}

std::string JoinLines(const std::vector<std::string>& lines, bool ends_with_newline) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) {
    out += lines[i];
    if (i + 1 < lines.size() || ends_with_newline) out += '\n';
  }
  return out;
}

ScriptLineResult ScriptLineRewriter::Rewrite(const std::string& line) const {
  ScriptLineResult result;
  const size_t first = line.find_first_not_of(" \t");
  if (first == std::string::npos || (options_.comment_lines_unchanged && line[first] == '#')) {
    result.text = line;
    return result;
  }
  // Flags that could be someone else's (`-G` for cmake, `-dc`) are nvcc's only where nvcc is meant.
  const bool nvcc_context = IsNvccContext(line);
  std::string text = ReplaceDeviceQueries(line, result);
  text = RewriteWords(text, nvcc_context, result);
  text = MapIdentifiers(text, result);
  std::string mapped = MapCudaPaths(text, result);
  if (options_.rename_cu_to_hip) {
    static const std::regex kCuName(R"(([A-Za-z0-9_%*:\-\)])\.cu(?![A-Za-z0-9_]))");
    const std::string renamed = std::regex_replace(mapped, kCuName, "$1.hip");
    if (renamed != mapped) result.origins.insert("rename");
    mapped = renamed;
  }
  result.text = mapped;
  return result;
}

std::string ScriptLineRewriter::RewriteWords(const std::string& text, bool nvcc_context,
                                             ScriptLineResult& result) const {
  const bool make = options_.syntax == LineSyntax::kMake;
  SplitWords split = SplitShellWords(text, make);
  if (split.words.empty()) return text;
  const bool docker_line =
      Lower(text).find("docker") != std::string::npos || Lower(text).find("podman") != std::string::npos;
  std::vector<WordParts> parts;
  std::vector<std::string> cores;
  // A quoted group of flags is one word; it is rewritten inside its quotes (below) unless it is the value of
  // the flag before it (`-Xcompiler "-O3 -g"`). The marker keeps the flag table away from it meanwhile.
  const std::string kGroupMarker = "\x01";
  std::vector<std::string> cores_to_map;
  for (const auto& word : split.words) {
    parts.push_back(SplitWordParts(word));
    cores.push_back(parts.back().core);
    const bool is_value = !cores_to_map.empty() && NvccFlagTakesNextWord(cores_to_map.back(), nvcc_context);
    // In a Makefile a flag may hold a call with blanks (`-gencode=arch=compute_$(subst .,,$(v))`): still one flag.
    const bool whole_flag = make && FindNvccFlagRule(cores.back(), true) != nullptr;
    cores_to_map.push_back(cores.back().find_first_of(" \t") != std::string::npos && !is_value && !whole_flag &&
                                   (cores.back() != text || make)
                               ? kGroupMarker
                               : cores.back());
  }
  FlagMapOptions flag_options{options_.architectures, nvcc_context, options_.relocatable_device_code,
                              options_.arch_variables, options_.cublaslt_used};
  FlagMapResult mapped = MapNvccFlags(cores_to_map, flag_options);
  bool changed = mapped.changed;
  for (const auto& note : mapped.notes) result.notes.push_back({kRuleNvccFlags, 0, note.message, note.left_for_person});
  if (mapped.changed) result.origins.insert(kRuleNvccFlags);

  std::vector<std::string> out_words(split.words.size());
  for (size_t i = 0; i < split.words.size(); ++i) {
    std::string joined;
    for (const auto& flag : mapped.per_word[i]) joined += (joined.empty() ? "" : " ") + flag;
    // A quoted group of flags (`NVCCFLAGS="-arch=sm_70 -O3"`) is rewritten inside its quotes.
    // (an unbalanced quote would recurse forever; RewriteMakeCalls recurses only into a call's arguments)
    if (cores_to_map[i] == kGroupMarker && (cores[i] != text || make)) {
      ScriptLineResult inner;
      // One Make word with blanks inside its calls (`$(addprefix -Xcompiler ,$(F))`): the calls' arguments are
      // rewritten one by one, so the call keeps its parentheses and commas.
      joined = make && SplitShellWords(cores[i], true).words.size() <= 1
                   ? RewriteMakeCalls(cores[i], nvcc_context, inner)
                   : RewriteWords(cores[i], nvcc_context, inner);
      if (joined != cores[i]) {
        changed = true;
        result.origins.insert(inner.origins.begin(), inner.origins.end());
        result.notes.insert(result.notes.end(), inner.notes.begin(), inner.notes.end());
      }
    }
    // CMake cache definitions on a command line: the HIP language's variables.
    if (cores[i].rfind("-DCMAKE_CUDA_ARCHITECTURES=", 0) == 0) {
      std::string archs;
      for (const auto& arch : options_.architectures) archs += (archs.empty() ? "" : ";") + arch;
      joined = "\"-DCMAKE_HIP_ARCHITECTURES=" + archs + "\"";
      changed = true;
      result.origins.insert(kRuleCudaCmake);
    } else if (cores[i].rfind("-DCMAKE_CUDA_FLAGS=", 0) == 0) {
      joined = "-DCMAKE_HIP_FLAGS=" + cores[i].substr(19);
      changed = true;
      result.origins.insert(kRuleCudaCmake);
    } else if (cores[i].rfind("-DCMAKE_CUDA_COMPILER=", 0) == 0 ||
               cores[i].rfind("-DCMAKE_CUDA_HOST_COMPILER=", 0) == 0) {
      result.notes.push_back(
          {kRuleCudaCmake, 0,
           "dropped `" + cores[i] + "`: use -DCMAKE_CXX_COMPILER=hipcc where CMake has no HIP language", false});
      joined.clear();
      changed = true;
      result.origins.insert(kRuleCudaCmake);
    }
    // A word consumed as a flag's value (or dropped) goes with its quotes, but not with a `)`/`}` that closes
    // what an earlier line or word opened; an assignment keeps its name.
    if (joined.empty() && (mapped.consumed[i] || parts[i].prefix.find('=') == std::string::npos)) {
      std::string closers;
      for (char c : parts[i].suffix) {
        if (c == ')' || c == '}') closers += c;
      }
      size_t previous = i;
      while (previous > 0 && out_words[previous - 1].empty()) --previous;
      if (!closers.empty() && previous > 0)
        out_words[previous - 1] += closers;
      else if (!closers.empty())
        out_words[i] = closers;
      continue;
    }
    out_words[i] = parts[i].prefix + joined + parts[i].suffix;
  }
  // docker/podman: `--gpus X` -> the ROCm device nodes; `--runtime=nvidia` dropped.
  if (docker_line && RewriteContainerGpuFlags(out_words, result)) changed = true;
  if (!changed) return text;
  std::string out;
  for (size_t i = 0; i < out_words.size(); ++i) {
    if (out_words[i].empty()) continue;
    // Keep the original whitespace before a word, but never start with a separator taken from a dropped word.
    out += (out.empty() ? split.separators[0] : (split.separators[i].empty() ? " " : split.separators[i]));
    out += out_words[i];
  }
  if (out.empty()) out = split.separators[0];
  return out + split.trailing;
}

const char kMakeRocmRoot[] = "$(shell hipconfig --rocmpath 2>/dev/null || echo /opt/rocm)";
const char kShellRocmRoot[] = "\"${ROCM_PATH:-$(hipconfig --rocmpath 2>/dev/null || echo /opt/rocm)}\"";

std::string ScriptLineRewriter::RewriteMakeCalls(const std::string& text, bool nvcc_context,
                                                 ScriptLineResult& result) const {
  // GNU Make's functions and how many arguments each splits at commas (0: any number); the last one keeps its
  // commas. Other references (`$(CC)`, `$(SRC:.cu=.o)`) are left as written.
  static const std::map<std::string, size_t> kArguments = {
      {"foreach", 3},    {"subst", 3}, {"patsubst", 3}, {"addprefix", 2}, {"addsuffix", 2}, {"filter", 2},
      {"filter-out", 2}, {"if", 3},    {"or", 0},       {"and", 0},       {"call", 0},      {"join", 2},
      {"findstring", 2}, {"word", 2},  {"wordlist", 3}, {"eval", 1},      {"shell", 1},     {"strip", 1},
      {"sort", 1},       {"info", 1},  {"warning", 1},  {"error", 1},     {"firstword", 1}, {"lastword", 1}};
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    const size_t end = text[i] == '$' && (i == 0 || text[i - 1] != '$') ? MakeCallEnd(text, i) : std::string::npos;
    const std::string inner = end == std::string::npos ? "" : text.substr(i + 2, end - i - 2);
    const size_t name_end = inner.find_first_of(" \t");
    const auto function = name_end == std::string::npos ? kArguments.end() : kArguments.find(inner.substr(0, name_end));
    if (function == kArguments.end()) {
      const size_t stop = end == std::string::npos ? i + 1 : end + 1;
      out += text.substr(i, stop - i);
      i = stop;
      continue;
    }
    std::vector<std::string> arguments(1);
    int depth = 0;
    for (size_t k = name_end + 1; k < inner.size(); ++k) {
      const char c = inner[k];
      depth += (c == '(' || c == '{') ? 1 : (c == ')' || c == '}') ? -1 : 0;
      if (c == ',' && depth == 0 && (function->second == 0 || arguments.size() < function->second)) {
        arguments.emplace_back();
        continue;
      }
      arguments.back() += c;
    }
    out += text.substr(i, 2) + inner.substr(0, name_end + 1);
    for (size_t a = 0; a < arguments.size(); ++a) {
      out += (a ? "," : "") + RewriteWords(arguments[a], nvcc_context, result);
    }
    out += text[end];
    i = end + 1;
  }
  return out;
}

std::string ScriptLineRewriter::ReplaceDeviceQueries(const std::string& text, ScriptLineResult& result) const {
  // What asks the build machine's NVIDIA GPU for its compute capability (llm.c, CUDA samples' scripts).
  static const std::regex kQuery(R"(__nvcc_device_query|nvidia-smi\b.*compute_cap)");
  if (!std::regex_search(text, kQuery)) return text;
  std::string archs;
  for (const auto& arch : options_.architectures) archs += (archs.empty() ? "" : " ") + arch;
  std::string out = text;
  if (options_.syntax == LineSyntax::kMake) {
    // `$(shell __nvcc_device_query)` becomes the job's targets: without a GPU query a plain `make` would build
    // for hipcc's default target, silently. The variable it sets can still be given on make's command line.
    for (size_t i = out.find('$'); i != std::string::npos; i = out.find('$', i + 1)) {
      if (i > 0 && out[i - 1] == '$') continue;  // `$$(...)`: the recipe's shell, flagged below
      const size_t end = MakeCallEnd(out, i);
      if (end == std::string::npos || !std::regex_search(out.substr(i, end - i), kQuery)) continue;
      result.notes.push_back({kRuleNvccFlags, 0,
                              "`" + out.substr(i, end + 1 - i) +
                                  "` asked the build machine's NVIDIA GPU: the job's "
                                  "AMD targets (" +
                                  archs + ") instead",
                              false});
      result.origins.insert(kRuleNvccFlags);
      out.replace(i, end + 1 - i, archs);
    }
  }
  if (std::regex_search(out, kQuery)) {
    result.notes.push_back({kRuleNvccFlags, 0,
                            "asks the NVIDIA GPU for its compute capability: give the AMD target (" + archs +
                                ") instead; amd-smi and rocminfo name it differently",
                            true});
  }
  return out;
}

std::string ScriptLineRewriter::MapCudaPaths(const std::string& text, ScriptLineResult& result) const {
  // Where ROCm lives is not known in advance: AMD's packages use /opt/rocm, Debian's and the validate toolchains
  // /usr (hipcc is /usr/bin/hipcc) and have no /opt/rocm, and hipcc follows ROCM_PATH when it is set, so a
  // ROCM_PATH=/opt/rocm there breaks hipcc itself. Makefiles and scripts therefore take the root the installed
  // hipcc reports (`hipconfig --rocmpath`), else /opt/rocm; -I/-L words keep working on both layouts. Dockerfile
  // and CI lines run in rocm/dev-* images, where /opt/rocm is right.
  static const std::regex kCudaPath(R"(/usr/local/cuda(-[0-9]+(\.[0-9]+)*)?(?![A-Za-z0-9_]))");
  // A root variable set to the CUDA install (`CUDA_PATH ?= /usr/local/cuda`, `CUDA_DIR = /sw/cuda-11.0`).
  static const std::regex kMakeRootAssignment(
      R"(^(\s*(?:export\s+|override\s+)?ROCM_PATH\s*(?:\?|:|::)?=\s*)["']?/[^\s$"'#]*cuda[^\s$"'#]*["']?(\s*(?:#.*)?)$)",
      std::regex::icase);
  static const std::regex kShellRootAssignment(
      R"(^(\s*(?:export\s+)?ROCM_PATH=)["']?/[^\s$"'#;]*cuda[^\s$"'#;]*["']?(\s.*)?$)", std::regex::icase);
  std::string mapped = text;
  std::smatch m;
  if (options_.syntax == LineSyntax::kMake && std::regex_match(text, m, kMakeRootAssignment)) {
    mapped = m[1].str() + kMakeRocmRoot + m[2].str();
  } else if (options_.syntax == LineSyntax::kShellScript && std::regex_match(text, m, kShellRootAssignment)) {
    mapped = m[1].str() + kShellRocmRoot + m[2].str();
  } else {
    mapped = std::regex_replace(text, kCudaPath, options_.syntax == LineSyntax::kMake ? "$$(ROCM_PATH)" : "/opt/rocm");
  }
  // CUDA's layout under the root: targets/<triple>/ and lib64 (with its stubs/) have no ROCm counterpart.
  static const std::regex kRocmTargets(R"((/opt/rocm|\$\(ROCM_PATH\)|\$\{ROCM_PATH\}|\$ROCM_PATH)/targets/[^/\s"']+/)");
  mapped = std::regex_replace(mapped, kRocmTargets, "$1/");
  static const std::regex kRocmStubs(
      R"((/opt/rocm|\$\(ROCM_PATH\)|\$\{ROCM_PATH\}|\$ROCM_PATH)/lib(?:64)?/stubs(?![A-Za-z0-9_]))");
  mapped = std::regex_replace(mapped, kRocmStubs, "$1/lib");
  static const std::regex kRocmLib64(R"((/opt/rocm|\$\(ROCM_PATH\)|\$\{ROCM_PATH\}|\$ROCM_PATH)/lib64)");
  mapped = std::regex_replace(mapped, kRocmLib64, "$1/lib");
  if (mapped != text) result.origins.insert("paths");
  return mapped;
}

std::string ScriptLineRewriter::MapIdentifiers(const std::string& text, ScriptLineResult& result) const {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    if (!IsIdentChar(text[i]) || (i > 0 && (IsIdentChar(text[i - 1])))) {
      out += text[i++];
      continue;
    }
    // A tool-name run may contain '-' (nvidia-smi); an identifier run may not.
    size_t tool_end = i;
    while (tool_end < text.size() && (IsIdentChar(text[tool_end]) || text[tool_end] == '-')) ++tool_end;
    while (tool_end > i && text[tool_end - 1] == '-') --tool_end;
    const std::string tool_word = text.substr(i, tool_end - i);
    const bool standalone = (i == 0 || text[i - 1] != '-') && (tool_end == text.size() || text[tool_end] != '.');
    bool handled = false;
    for (const ToolMapping& tool : ToolMappings()) {
      if (tool_word != tool.cuda_tool || !standalone) continue;
      const std::string_view rocm_tool = RocmToolFor(tool, options_.target_rocm);
      if (rocm_tool.empty()) {
        out += tool_word;
        result.notes.push_back({kRuleNvidiaTool, 0, std::string(tool.cuda_tool) + ": " + std::string(tool.note), true});
      } else {
        out += rocm_tool;
        result.origins.insert(kRuleNvidiaTool);
        // Arguments follow the tool: they rarely carry over.
        const bool has_args = tool_end < text.size() && text.find_first_not_of(" \t", tool_end) != std::string::npos &&
                              text[text.find_first_not_of(" \t", tool_end)] == '-';
        // Without arguments (`command -v nvidia-smi`, a message) the rename is the whole fix.
        const bool check_arguments = has_args && !tool.note.empty();
        result.notes.push_back({kRuleNvidiaTool, 0,
                                std::string(tool.cuda_tool) + " -> " + std::string(rocm_tool) +
                                    (check_arguments ? ": " + std::string(tool.note) : ""),
                                check_arguments});
      }
      i = tool_end;
      handled = true;
      break;
    }
    if (handled) continue;
    size_t end = i;
    while (end < text.size() && IsIdentChar(text[end])) ++end;
    std::string ident = text.substr(i, end - i);
    std::string replacement = ident;
    for (const EnvVarMapping& env : EnvVarMappings()) {
      if (ident != env.cuda_name) continue;
      if (env.rocm_name.empty()) {
        result.notes.push_back({kRuleCudaEnvVar, 0, std::string(env.cuda_name) + ": " + std::string(env.note), true});
        break;
      }
      replacement = std::string(env.rocm_name);
      result.origins.insert(kRuleCudaEnvVar);
      result.notes.push_back({kRuleCudaEnvVar, 0, ident + " -> " + replacement + ": " + std::string(env.note), false});
      if (!env.value_from.empty() && end < text.size() && text[end] == '=') {
        const std::string value_from = std::string(env.value_from);
        size_t value_start = end + 1;
        const bool quoted = value_start < text.size() && (text[value_start] == '"' || text[value_start] == '\'');
        if (quoted) ++value_start;
        if (text.compare(value_start, value_from.size(), value_from) == 0 &&
            (value_start + value_from.size() == text.size() || !IsIdentChar(text[value_start + value_from.size()]))) {
          out += replacement + text.substr(end, value_start - end) + std::string(env.value_to);
          i = value_start + value_from.size();
          replacement.clear();
        }
      }
      break;
    }
    if (replacement.empty()) continue;  // already written with its value
    if (replacement == ident) {
      for (std::string_view root : CudaRootVariables()) {
        if (ident == root) {
          replacement = "ROCM_PATH";
          result.origins.insert("paths");
        }
      }
    }
    if (replacement == ident && ident == "nvcc") {
      replacement = "hipcc";
      result.origins.insert(kRuleNvccFlags);
    }
    if (replacement == ident && ident.find("NVCC") != std::string::npos) {
      for (size_t at = replacement.find("NVCC"); at != std::string::npos; at = replacement.find("NVCC", at + 5)) {
        replacement.replace(at, 4, "HIPCC");
      }
      result.origins.insert(kRuleNvccFlags);
    }
    out += replacement;
    i = end;
  }
  return out;
}

}  // namespace hipforge::translate
