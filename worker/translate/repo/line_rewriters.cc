#include "worker/translate/repo/line_rewriters.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <set>

#include "worker/translate/analyze/rule_ids.h"
#include "worker/translate/repo/nvcc_flag_mapper.h"
#include "worker/translate/repo/script_line_rewriter.h"

namespace hipforge::translate {
namespace {

std::string RocmVersion(const RewriteContext& context) {
  if (context.options == nullptr) return "6.4";
  const ApiVersion v = context.options->translate.target_hip_version;
  return std::to_string(v.major) + "." + std::to_string(v.minor);
}

ScriptLineOptions LineOptions(const RewriteContext& context, bool rename, LineSyntax syntax = LineSyntax::kPlain) {
  ScriptLineOptions options;
  options.syntax = syntax;
  options.cublaslt_used = context.cublaslt_used;
  if (context.options != nullptr) {
    options.architectures = context.options->hip_architectures;
    options.target_rocm = context.options->translate.target_hip_version;
    options.rename_cu_to_hip = rename && context.options->rename_to_hip;
  }
  options.relocatable_device_code = context.relocatable_device_code_needed;
  if (options.architectures.empty()) options.architectures = {"gfx90a", "gfx942"};
  return options;
}

// Runs `rewriter` over every line; `special` may take a line over (returns true when it did).
template <typename Special>
RewriteResult RewriteLines(const std::string& content, const ScriptLineRewriter& rewriter, const std::string& origin,
                           Special special) {
  RewriteResult result;
  bool ends_with_newline = true;
  std::vector<std::string> lines = SplitLinesKeepEnd(content, ends_with_newline);
  for (size_t i = 0; i < lines.size(); ++i) {
    const uint32_t line_number = static_cast<uint32_t>(i + 1);
    const std::string before = lines[i];
    if (!special(lines[i], line_number, result)) {
      ScriptLineResult rewritten = rewriter.Rewrite(lines[i]);
      for (auto note : rewritten.notes) {
        note.line = line_number;
        result.notes.push_back(std::move(note));
      }
      if (rewritten.text != lines[i]) {
        result.changed_by.insert(rewritten.origins.begin(), rewritten.origins.end());
        if (rewritten.origins.empty()) result.changed_by.insert(origin);
      }
      lines[i] = rewritten.text;
    }
    if (lines[i] != before) result.changed_lines.insert(line_number);
  }
  result.output = JoinLines(lines, ends_with_newline);
  return result;
}

bool NoSpecial(std::string&, uint32_t, RewriteResult&) { return false; }

// `NAME ?= sm_80` / `NAME := sm_70 sm_80` (nothing but sm_/compute_ values): the variable's name and value.
struct ArchAssignment {
  std::string name;
  std::string head;   // up to and including the operator and the blank after it
  std::string value;  // the architecture words
  std::string tail;   // a trailing comment
};
std::optional<ArchAssignment> ParseArchAssignment(const std::string& line) {
  static const std::regex kAssignment(
      R"(^(\s*(?:override\s+|export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(?:\?|:|::)?=\s*)([^#]*?)(\s*(?:#.*)?)$)");
  static const std::regex kCudaArchitectures(R"(^(?:(?:sm|compute)_\d+[a-z]?)(?:\s+(?:sm|compute)_\d+[a-z]?)*$)");
  std::smatch m;
  if (!std::regex_match(line, m, kAssignment) || !std::regex_match(m[3].str(), kCudaArchitectures)) return std::nullopt;
  return ArchAssignment{m[2].str(), m[1].str(), m[3].str(), m[4].str()};
}

// Variables a Makefile uses only as nvcc's -arch value and assigns only CUDA architectures: the pass gives them
// the AMD architectures, so a user's `make ARCH=...` keeps choosing what is built for.
std::set<std::string> ArchOnlyVariables(const std::vector<std::string>& lines) {
  static const std::regex kReference(R"(\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}])");
  static const std::regex kArchReference(R"((?:-arch|--gpu-architecture)(?:=|\s+)\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}])");
  std::map<std::string, int> references, arch_references;
  std::map<std::string, bool> only_cuda_values;  // assigned at least once, never anything else
  static const std::regex kAnyAssignment(
      R"(^\s*(?:override\s+|export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(?:\?|:|::|\+)?=)");
  for (const std::string& line : lines) {
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos || line[first] == '#') continue;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), kReference); it != std::sregex_iterator(); ++it) {
      ++references[(*it)[1].str()];
    }
    for (auto it = std::sregex_iterator(line.begin(), line.end(), kArchReference); it != std::sregex_iterator(); ++it) {
      ++arch_references[(*it)[1].str()];
    }
    std::smatch m;
    if (std::regex_search(line, m, kAnyAssignment)) {
      const bool cuda = ParseArchAssignment(line).has_value();  // never `+=`: its pattern has no `+`
      auto [at, inserted] = only_cuda_values.emplace(m[1].str(), cuda);
      if (!inserted) at->second = at->second && cuda;
    }
  }
  std::set<std::string> variables;
  for (const auto& [name, cuda] : only_cuda_values) {
    if (cuda && arch_references[name] > 0 && arch_references[name] == references[name]) variables.insert(name);
  }
  return variables;
}

// One recipe command that runs a compiler: its physical lines, which compiler, where its name ends on the first
// line, and what the Makefile tells about it.
struct CompilerCommand {
  size_t first = 0, last = 0;        // 0-based physical lines (a command continues over lines ending in `\`)
  bool nvcc = false;                 // nvcc (hipcc after the pass); else a host compiler (g++, $(CXX), mpicxx, ...)
  size_t compiler_end = 0;           // offset in lines[first] just after the compiler word
  bool source_is_c = false;          // the rule's first prerequisite is a .c file
  bool has_arch = false;             // an architecture flag reaches it (directly or through variables)
  std::vector<std::string> sources;  // C/C++ source words it may compile: names, `%.cpp`/`*.cpp` patterns
};

// Variables of a Makefile: every value assigned to each (target-specific ones too), continuation lines joined.
std::map<std::string, std::string> MakeAssignments(const std::vector<std::string>& lines) {
  static const std::regex kAssignment(
      R"(^\s*(?:[^:=#\t]*:\s*)?(?:export\s+|override\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(?:\?|:|::|\+|!)?=(.*)$)");
  std::map<std::string, std::string> values;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string logical = lines[i];
    while (!logical.empty() && logical.back() == '\\' && i + 1 < lines.size()) {
      logical.pop_back();
      logical += " " + lines[++i];
    }
    if (logical.empty() || logical[0] == '\t') continue;
    std::smatch m;
    if (std::regex_match(logical, m, kAssignment)) values[m[1].str()] += " " + m[2].str();
  }
  return values;
}

// Which variables carry an nvcc/hipcc architecture flag, directly or through the variables they reference.
std::set<std::string> ArchCarryingVariables(const std::map<std::string, std::string>& values) {
  static const std::regex kArchFlag(
      R"((^|[\s"'])(-arch[=\s]|--gpu-architecture|-gencode|--generate-code|--offload-arch|--cuda-gpu-arch))");
  static const std::regex kReference(R"(\$[({]([A-Za-z_][A-Za-z0-9_]*)[:)}])");
  std::set<std::string> carrying;
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [name, value] : values) {
      if (carrying.count(name)) continue;
      bool carries = std::regex_search(value, kArchFlag);
      for (auto it = std::sregex_iterator(value.begin(), value.end(), kReference);
           !carries && it != std::sregex_iterator(); ++it) {
        carries = carrying.count((*it)[1].str()) > 0;
      }
      if (carries) grew = carrying.insert(name).second || grew;
    }
  }
  return carrying;
}

// The compiler word of a recipe's first line: nvcc (directly, by a path ending in /nvcc, or through a variable
// assigned one) or a host C/C++ compiler; env prefixes (`PATH=x`) and empty-looking `$(EXEC)` words before it are
// skipped. Returns the offset after the word, or npos.
size_t CompilerWordEnd(const std::string& line, const std::map<std::string, std::string>& values, bool& nvcc) {
  static const std::regex kNvccValue(R"(^\s*(?:\S*/)?nvcc(?:\s.*)?$)");
  static const std::regex kHostCompiler(
      R"(^(?:\S*/)?(?:g\+\+|c\+\+|gcc|cc|clang\+\+|clang|mpicxx|mpic\+\+|mpicc|mpiCC|icpx|icpc)(?:-[0-9.]+)?$)");
  static const std::regex kHostValue(
      R"(^\s*(?:\S*/)?(?:g\+\+|c\+\+|gcc|cc|clang\+\+|clang|mpicxx|mpic\+\+|mpicc|mpiCC|icpx|icpc)(?:-[0-9.]+)?(?:\s.*)?$)");
  const SplitWords split = SplitShellWords(line, true);
  size_t offset = 0;
  for (size_t w = 0; w < split.words.size() && w < 4; ++w) {
    offset += split.separators[w].size() + split.words[w].size();
    std::string word = split.words[w];
    word.erase(0, word.find_first_not_of("@+-"));
    const std::optional<std::string> variable = MakeVariableReference(word);
    const auto value = variable ? values.find(*variable) : values.end();
    if (word == "nvcc" || (word.size() > 5 && word.compare(word.size() - 5, 5, "/nvcc") == 0) ||
        (value != values.end() && std::regex_match(value->second, kNvccValue))) {
      nvcc = true;
      return offset;
    }
    // $(CXX)/$(CC) that the Makefile leaves to make's defaults (g++, cc) are host compilers too.
    if (std::regex_match(word, kHostCompiler) ||
        (variable && ((value == values.end() && (*variable == "CXX" || *variable == "CC")) ||
                      (value != values.end() && std::regex_match(value->second, kHostValue))))) {
      nvcc = false;
      return offset;
    }
    // Skipped: `VAR=value` before the command, and `$(EXEC)`-like words that are empty or only echo (CUDA samples).
    const bool env_prefix = word.find('=') != std::string::npos && word[0] != '$' && word[0] != '-';
    const bool empty_variable =
        variable && (value == values.end() || value->second.find_first_not_of(" \t") == std::string::npos ||
                     value->second.find("echo") != std::string::npos);
    if (!env_prefix && !empty_variable) return std::string::npos;
  }
  return std::string::npos;
}

// The recipe commands of a Makefile that run a compiler.
std::vector<CompilerCommand> CompilerCommands(const std::vector<std::string>& lines) {
  const std::map<std::string, std::string> values = MakeAssignments(lines);
  const std::set<std::string> carrying = ArchCarryingVariables(values);
  static const std::regex kArchFlag(
      R"((^|[\s"'])(-arch[=\s]|--gpu-architecture|-gencode|--generate-code|--offload-arch|--cuda-gpu-arch))");
  static const std::regex kReference(R"(\$[({]([A-Za-z_][A-Za-z0-9_]*)[:)}])");
  static const std::regex kSourceWord(R"((?:^|\s)(\S*\.(?:cpp|cc|cxx|c|C|c\+\+))(?=\s|$))");
  const auto continued = [](const std::string& text) {
    const size_t end = text.find_last_not_of(" \t\r\n");
    return end != std::string::npos && text[end] == '\\';
  };
  std::vector<CompilerCommand> commands;
  bool in_recipe = false;
  std::string prerequisites;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    const size_t first = line.find_first_not_of(" \t\r\n");
    if (!line.empty() && line[0] == '\t' && in_recipe) {
      CompilerCommand command;
      command.first = i;
      command.last = i;
      while (command.last + 1 < lines.size() && continued(lines[command.last])) ++command.last;
      i = command.last;
      command.compiler_end = CompilerWordEnd(line, values, command.nvcc);
      if (command.compiler_end == std::string::npos) continue;
      std::string text;
      for (size_t j = command.first; j <= command.last; ++j) text += lines[j] + " ";
      command.has_arch = std::regex_search(text, kArchFlag);
      for (auto it = std::sregex_iterator(text.begin(), text.end(), kReference);
           !command.has_arch && it != std::sregex_iterator(); ++it) {
        command.has_arch = carrying.count((*it)[1].str()) > 0;
      }
      // What it compiles: its own source words, else (`$<`, `$^`, `$*.c`) the rule's prerequisites.
      const std::string automatic = text.find("$<") != std::string::npos || text.find("$^") != std::string::npos ||
                                            text.find("$+") != std::string::npos || text.find("$?") != std::string::npos
                                        ? prerequisites
                                        : "";
      for (const std::string& from : {text, automatic}) {
        for (auto it = std::sregex_iterator(from.begin(), from.end(), kSourceWord); it != std::sregex_iterator();
             ++it) {
          command.sources.push_back((*it)[1].str());
        }
      }
      static const std::regex kFirstPrerequisite(R"(^[ \t]*(\S+?\.c)(?:[ \t\r\n\\]|$))");
      command.source_is_c = std::regex_search(prerequisites, kFirstPrerequisite);
      commands.push_back(std::move(command));
      continue;
    }
    if (first == std::string::npos || line[first] == '#') continue;
    in_recipe = false;
    // A rule: `targets: prerequisites` (also `targets: %.o: %.c`), not an assignment; `.cpp.o:` is a suffix rule.
    const size_t colon = line.find(':');
    if (colon == std::string::npos || line.compare(colon, 2, ":=") == 0 || line.compare(colon, 3, "::=") == 0 ||
        line.substr(0, colon).find('=') != std::string::npos) {
      continue;
    }
    in_recipe = true;
    prerequisites = line.substr(line.find_last_of(':') + 1);
    static const std::regex kSuffixRule(R"(^\s*\.(cpp|cc|cxx|c|C)\.o\s*:)");
    std::smatch m;
    if (std::regex_search(line, m, kSuffixRule)) prerequisites = "%." + m[1].str() + " " + prerequisites;
  }
  return commands;
}

// nvcc hands a `.c` file to its host compiler as C++; hipcc, like clang, compiles it as C (then `-std=c++17` is
// refused and C++ in the file fails). The physical lines of recipes that give a `.c` file to nvcc, each with
// whether its rule's source `$<` is a `.c`.
std::map<uint32_t, bool> NvccCSourceRecipeLines(const std::vector<std::string>& lines,
                                                const std::vector<CompilerCommand>& commands) {
  // A Makefile that chooses the language itself (`--x cu`, HeCBench leukocyte: its .c files are CUDA) keeps it.
  static const std::regex kLanguageChoice(R"((^|\s)--?x(\s+|=)(cu|c\+\+|hip)(\s|$))");
  for (const std::string& line : lines) {
    if (std::regex_search(line, kLanguageChoice)) return {};
  }
  std::map<uint32_t, bool> recipe_lines;
  for (const CompilerCommand& command : commands) {
    if (!command.nvcc) continue;
    for (size_t j = command.first; j <= command.last; ++j)
      recipe_lines[static_cast<uint32_t>(j + 1)] = command.source_is_c;
  }
  return recipe_lines;
}

// Whether a host compiler command compiles a source that includes HIP after the pass: a named one, or, for a
// pattern (`%.cpp`, `$*.c`), any such source with that extension under the Makefile's directory.
bool CompilesHipHostSource(const CompilerCommand& command, const std::string& makefile_path,
                           const std::set<std::string>& hip_host_sources) {
  const std::filesystem::path dir = std::filesystem::path(makefile_path).parent_path();
  for (const std::string& source : command.sources) {
    const bool pattern = source.find_first_of("%*$") != std::string::npos;
    const std::string extension = std::filesystem::path(source).extension().string();
    for (const std::string& hip : hip_host_sources) {
      const std::filesystem::path relative = std::filesystem::path(hip).lexically_relative(dir);
      if (relative.empty() || *relative.begin() == "..") continue;
      if (pattern ? std::filesystem::path(hip).extension() == extension
                  : (dir / source).lexically_normal().generic_string() == hip) {
        return true;
      }
    }
  }
  return false;
}

// `-x c++ FILE.c -x none` for each `.c` word of a recipe line (and `$<` when the rule's source is a `.c`).
bool CompileCAsCxx(std::string& line, bool source_is_c) {
  static const std::regex kCWord(R"((^|[ \t])([^\s$]*\.c)(?=[ \t\r\n\\]|$))");
  static const std::regex kSource(R"((^|[ \t])(\$<)(?=[ \t\r\n\\]|$))");
  std::string out = std::regex_replace(line, kCWord, "$1-x c++ $2 -x none");
  if (source_is_c) out = std::regex_replace(out, kSource, "$1-x c++ $2 -x none");
  if (out == line) return false;
  line = out;
  return true;
}

}  // namespace

std::string MapContainerImage(const std::string& image, const std::string& rocm_version, std::string& note) {
  static const std::regex kCudaImage(R"(^(?:docker\.io/)?(?:nvidia|nvcr\.io/nvidia)/cuda(?::(\S+))?$)");
  static const std::regex kFrameworkImage(R"(^nvcr\.io/nvidia/(pytorch|tensorflow)(?::\S+)?$)");
  std::smatch m;
  if (std::regex_match(image, m, kFrameworkImage)) {
    note = "NGC " + m[1].str() + " image -> rocm/" + m[1].str() + ": check the framework version";
    return "rocm/" + m[1].str() + ":latest";
  }
  if (!std::regex_match(image, m, kCudaImage)) return "";
  const std::string tag = m[1].matched ? m[1].str() : "";
  if (tag.find("cudnn") != std::string::npos) note = "the CUDA image shipped cuDNN: install MIOpen (miopen-hip-dev)";
  static const std::regex kUbuntu(R"(ubuntu(\d\d)\.?(\d\d))");
  std::smatch os;
  if (std::regex_search(tag, os, kUbuntu)) {
    return "rocm/dev-ubuntu-" + os[1].str() + "." + os[2].str() + ":" + rocm_version;
  }
  if (tag.find("ubi") != std::string::npos || tag.find("rocky") != std::string::npos ||
      tag.find("centos") != std::string::npos || tag.find("oracle") != std::string::npos) {
    note += std::string(note.empty() ? "" : "; ") + "RHEL-family CUDA image -> rocm/dev-almalinux-8: check the base";
    return "rocm/dev-almalinux-8:" + rocm_version;
  }
  note += std::string(note.empty() ? "" : "; ") + "no OS in the CUDA image tag: Ubuntu 22.04 assumed";
  return "rocm/dev-ubuntu-22.04:" + rocm_version;
}

RewriteResult MakefileRewriter::Rewrite(const std::string& relative_path, const std::string& content,
                                        const RewriteContext& context) const {
  ScriptLineOptions options = LineOptions(context, true, LineSyntax::kMake);
  bool ends_with_newline = true;
  const std::vector<std::string> original = SplitLinesKeepEnd(content, ends_with_newline);
  options.arch_variables = ArchOnlyVariables(original);
  ScriptLineRewriter rewriter(options);
  std::string architectures, arch_flags;
  for (const auto& arch : options.architectures) architectures += (architectures.empty() ? "" : " ") + arch;
  for (const auto& flag : OffloadArchFlags(options.architectures)) arch_flags += " " + flag;
  const std::vector<CompilerCommand> commands = CompilerCommands(original);
  const std::map<uint32_t, bool> c_recipes = NvccCSourceRecipeLines(original, commands);
  std::map<uint32_t, const CompilerCommand*> command_at;  // 1-based first line
  for (const CompilerCommand& command : commands) command_at[static_cast<uint32_t>(command.first + 1)] = &command;
  RewriteResult rewritten =
      RewriteLines(content, rewriter, "makefile", [&](std::string& line, uint32_t number, RewriteResult& result) {
        if (const auto at = command_at.find(number); at != command_at.end()) {
          const CompilerCommand& command = *at->second;
          // hipcc without an architecture builds for its default target (or the build machine's GPU): the
          // job's targets, as nvcc's -arch would have chosen them.
          std::string inserted;
          if (command.nvcc && !command.has_arch) inserted = arch_flags;
          // hipcc defines the HIP platform; a host compiler given a file that includes HIP does not.
          if (!command.nvcc && line.find("__HIP_PLATFORM_AMD__") == std::string::npos &&
              CompilesHipHostSource(command, relative_path, context.hip_host_sources)) {
            inserted = " -D__HIP_PLATFORM_AMD__";
          }
          if (!inserted.empty()) {
            line.insert(command.compiler_end, inserted);
            result.changed_by.insert(kRuleNvccFlags);
            result.notes.push_back({kRuleNvccFlags, number,
                                    command.nvcc ? "hipcc called without an architecture: " + arch_flags.substr(1) +
                                                       " (the job's targets) added"
                                                 : "a host compiler compiles a file that includes HIP: "
                                                   "-D__HIP_PLATFORM_AMD__ added (hipcc defines it itself)",
                                    false});
          }
        }
        if (const auto recipe = c_recipes.find(number);
            recipe != c_recipes.end() && CompileCAsCxx(line, recipe->second)) {
          result.notes.push_back({kRuleNvccFlags, number,
                                  "a .c file nvcc compiled as C++: `-x c++` for hipcc, which compiles .c as C", false});
          result.changed_by.insert(kRuleNvccFlags);
          return false;  // the line's other words are still rewritten (nvcc -> hipcc, flags)
        }
        const std::optional<ArchAssignment> assignment = ParseArchAssignment(line);
        if (!assignment || !options.arch_variables.count(assignment->name)) return false;
        result.notes.push_back({kRuleNvccFlags, number,
                                assignment->name + ": " + assignment->value + " -> " + architectures +
                                    " (AMD GPU architectures; -arch=$(" + assignment->name +
                                    ") became one --offload-arch per entry)",
                                false});
        line = assignment->head + architectures + assignment->tail;
        result.changed_by.insert(kRuleNvccFlags);
        return true;
      });
  // CUDA paths became $(ROCM_PATH) (ScriptLineRewriter::MapCudaPaths); a Makefile that never set the root gets it.
  static const std::regex kRocmReference(R"(\$[({]ROCM_PATH[)}])");
  static const std::regex kRocmAssignment(R"((^|\n)\s*(?:export\s+|override\s+)?ROCM_PATH\s*(?:\?|:|::)?=)");
  // Also when it is set only below its first use: a `:=` above would read it empty.
  std::smatch reference, assignment;
  if (std::regex_search(rewritten.output, reference, kRocmReference) &&
      (!std::regex_search(rewritten.output, assignment, kRocmAssignment) ||
       assignment.position(0) > reference.position(0))) {
    rewritten.output = std::string(
                           "# hipforge: ROCm's root as the installed hipcc reports it (/usr for Debian's "
                           "packages, /opt/rocm for AMD's)\nROCM_PATH ?= ") +
                       kMakeRocmRoot + "\n" + rewritten.output;
    rewritten.changed_lines.insert(1);
    rewritten.changed_by.insert("paths");
  }
  return rewritten;
}

RewriteResult ShellScriptRewriter::Rewrite(const std::string& relative_path, const std::string& content,
                                           const RewriteContext& context) const {
  (void)relative_path;
  ScriptLineRewriter rewriter(LineOptions(context, true, LineSyntax::kShellScript));
  return RewriteLines(content, rewriter, "shell", NoSpecial);
}

RewriteResult DockerfileRewriter::Rewrite(const std::string& relative_path, const std::string& content,
                                          const RewriteContext& context) const {
  (void)relative_path;
  ScriptLineRewriter rewriter(LineOptions(context, false));
  const std::string rocm_version = RocmVersion(context);
  return RewriteLines(content, rewriter, "docker", [&](std::string& line, uint32_t number, RewriteResult& result) {
    static const std::regex kFrom(R"(^(\s*FROM\s+(?:--platform=\S+\s+)?)(\S+)(.*)$)", std::regex::icase);
    static const std::regex kNvidiaEnv(
        R"(^\s*ENV\s+(NVIDIA_VISIBLE_DEVICES|NVIDIA_DRIVER_CAPABILITIES|NVIDIA_REQUIRE_CUDA)\b.*$)");
    static const std::regex kCudaPackages(
        R"((^|\s)(cuda-[a-z-]*\d|cuda-toolkit\S*|libcudnn\S*|libnccl\S*|nvidia-\S+))");
    std::smatch m;
    if (std::regex_match(line, m, kFrom)) {
      std::string note;
      const std::string original_image = m[2].str();  // `m` points into `line`, which is replaced below
      const std::string image = MapContainerImage(original_image, rocm_version, note);
      if (image.empty()) return true;
      line = m[1].str() + image + m[3].str();
      result.changed_by.insert("docker");
      result.notes.push_back({"docker", number, original_image + " -> " + image, false});
      if (!note.empty()) result.notes.push_back({"docker", number, note, true});
      return true;
    }
    if (std::regex_match(line, m, kNvidiaEnv)) {
      const std::string variable = m[1].str();
      result.notes.push_back({"docker", number, variable + " is for the NVIDIA container runtime: removed", false});
      line = "# hipforge: " + variable + " removed (NVIDIA container runtime only)";
      result.changed_by.insert("docker");
      return true;
    }
    if (std::regex_search(line, m, kCudaPackages)) {
      result.notes.push_back({"docker", number,
                              "installs NVIDIA package `" + m[2].str() +
                                  "`: install the ROCm counterparts (e.g. hipblas-dev, miopen-hip-dev) instead",
                              true});
    }
    return false;
  });
}

RewriteResult CiConfigRewriter::Rewrite(const std::string& relative_path, const std::string& content,
                                        const RewriteContext& context) const {
  (void)relative_path;
  ScriptLineRewriter rewriter(LineOptions(context, false));
  const std::string rocm_version = RocmVersion(context);
  return RewriteLines(content, rewriter, "ci", [&](std::string& line, uint32_t number, RewriteResult& result) {
    static const std::regex kImage(R"(^(\s*-?\s*(?:image|container)\s*:\s*["']?)([^"'\s]+)(["']?\s*)$)");
    static const std::regex kGpuRunner(R"(^\s*(runs-on|tags)\s*:.*\b(gpu|nvidia|cuda)\b.*$)", std::regex::icase);
    static const std::regex kCudaAction(R"(uses\s*:\s*\S*cuda\S*)", std::regex::icase);
    std::smatch m;
    if (std::regex_match(line, m, kImage)) {
      std::string note;
      const std::string original_image = m[2].str();  // `m` points into `line`, which is replaced below
      const std::string image = MapContainerImage(original_image, rocm_version, note);
      if (image.empty()) return false;
      line = m[1].str() + image + m[3].str();
      result.changed_by.insert("ci");
      result.notes.push_back({"ci", number, original_image + " -> " + image, false});
      if (!note.empty()) result.notes.push_back({"ci", number, note, true});
      return true;
    }
    if (std::regex_match(line, kGpuRunner)) {
      result.notes.push_back({"ci", number,
                              "GPU job: needs a runner with an AMD GPU (/dev/kfd, /dev/dri) and ROCm instead of "
                              "the NVIDIA one",
                              true});
      return true;
    }
    if (std::regex_search(line, kCudaAction)) {
      result.notes.push_back(
          {"ci", number, "step installs the CUDA toolkit: use a rocm/dev-* container or install ROCm instead", true});
      return true;
    }
    return false;
  });
}

std::vector<std::string> CudaExtensionSources(const std::string& setup_py) {
  std::vector<std::string> sources;
  if (setup_py.find("CUDAExtension") == std::string::npos) return sources;
  static const std::regex kSourceLiteral(R"(['"]([^'"\s]+\.(?:cu|cuh|cpp|cc|cxx|h|hpp))['"])");
  for (auto it = std::sregex_iterator(setup_py.begin(), setup_py.end(), kSourceLiteral); it != std::sregex_iterator();
       ++it) {
    sources.push_back((*it)[1].str());
  }
  return sources;
}

namespace {

// nvcc flags in `'nvcc': [...]` lists of a PyTorch extension.
void RewriteNvccArgumentLists(std::string& content, const RewriteContext& context, RewriteResult& result) {
  const ScriptLineOptions options = LineOptions(context, false);
  static const std::regex kNvccList(R"((['"])nvcc\1\s*:\s*\[)");
  std::string out;
  size_t cursor = 0;
  for (auto it = std::sregex_iterator(content.begin(), content.end(), kNvccList); it != std::sregex_iterator(); ++it) {
    const size_t list_start = static_cast<size_t>(it->position(0) + it->length(0));
    const size_t list_end = content.find(']', list_start);
    if (list_end == std::string::npos || list_start < cursor) continue;
    out += content.substr(cursor, list_start - cursor);
    std::string list = content.substr(list_start, list_end - list_start);
    static const std::regex kLiteral(R"((['"])([^'"]*)\1(\s*,)?)");
    std::string mapped_list;
    size_t last = 0;
    for (auto lit = std::sregex_iterator(list.begin(), list.end(), kLiteral); lit != std::sregex_iterator(); ++lit) {
      mapped_list += list.substr(last, static_cast<size_t>(lit->position(0)) - last);
      last = static_cast<size_t>(lit->position(0) + lit->length(0));
      const std::string quote = (*lit)[1].str();
      std::vector<std::string> words;
      std::string word;
      for (char c : (*lit)[2].str() + " ") {
        if (c == ' ') {
          if (!word.empty()) words.push_back(word);
          word.clear();
        } else {
          word += c;
        }
      }
      FlagMapResult flags = MapNvccFlags(words, {options.architectures, true, options.relocatable_device_code});
      const uint32_t line =
          1 + static_cast<uint32_t>(std::count(content.begin(), content.begin() + static_cast<long>(list_start), '\n'));
      for (const auto& note : flags.notes)
        result.notes.push_back({kRuleNvccFlags, line, note.message, note.left_for_person});
      if (!flags.changed) {
        mapped_list += lit->str(0);
        continue;
      }
      result.changed_by.insert(kRuleNvccFlags);
      result.changed_lines.insert(line);
      for (size_t f = 0; f < flags.flags.size(); ++f) {
        mapped_list += (f ? ", " : "") + quote + flags.flags[f] + quote;
      }
      if (!flags.flags.empty()) mapped_list += (*lit)[3].str();
    }
    mapped_list += list.substr(last);
    // A dropped last flag leaves the comma of the one before it.
    const auto trimmed_end = [](const std::string& text) {
      const size_t end = text.find_last_not_of(" \t\n");
      return end == std::string::npos ? '\0' : text[end];
    };
    if (trimmed_end(mapped_list) == ',' && trimmed_end(list) != ',') {
      mapped_list.erase(mapped_list.find_last_of(','));
    }
    out += mapped_list;
    cursor = list_end;
  }
  out += content.substr(cursor);
  content = out;
}

// CuPy RawKernel/RawModule sources: a string literal passed directly or through a variable.
void RewriteCupyKernels(std::string& content, const RewriteContext& context, RewriteResult& result) {
  if (content.find("RawKernel") == std::string::npos && content.find("RawModule") == std::string::npos) return;
  static const std::regex kCall(
      R"((RawKernel|RawModule)\s*\(\s*(?:code\s*=\s*)?([rRbBuU]?('''|"""|'|")|[A-Za-z_][A-Za-z0-9_]*))");
  std::vector<std::pair<size_t, size_t>> literal_ranges;  // content of the literals to translate
  for (auto it = std::sregex_iterator(content.begin(), content.end(), kCall); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    const uint32_t line = 1 + static_cast<uint32_t>(std::count(content.begin(), content.begin() + m.position(0), '\n'));
    size_t open = std::string::npos;
    std::string quote;
    if (m[3].matched) {
      quote = m[3].str();
      open = static_cast<size_t>(m.position(3) + m.length(3));
    } else {
      // `name = r'''...'''` earlier in the file.
      const std::regex assignment("(^|\\n)\\s*" + m[2].str() + R"(\s*=\s*[rRuU]?('''|"""))");
      std::smatch a;
      const std::string before = content.substr(0, static_cast<size_t>(m.position(0)));
      std::string::const_iterator search_start = before.begin();
      size_t found = std::string::npos;
      while (std::regex_search(search_start, before.end(), a, assignment)) {
        found = static_cast<size_t>(a.position(0) + a.length(0) + (search_start - before.begin()));
        quote = a[2].str();
        search_start = a.suffix().first;
      }
      open = found;
    }
    if (open == std::string::npos) {
      result.notes.push_back({"python", line, m[1].str() + " source not found in this file: check it by hand", true});
      continue;
    }
    const size_t close = content.find(quote, open);
    if (close == std::string::npos) continue;
    literal_ranges.push_back({open, close});
  }
  std::sort(literal_ranges.begin(), literal_ranges.end());
  literal_ranges.erase(std::unique(literal_ranges.begin(), literal_ranges.end()), literal_ranges.end());
  for (auto it = literal_ranges.rbegin(); it != literal_ranges.rend(); ++it) {
    const uint32_t line =
        1 + static_cast<uint32_t>(std::count(content.begin(), content.begin() + static_cast<long>(it->first), '\n'));
    const std::string source = content.substr(it->first, it->second - it->first);
    if (!context.translate_snippet) {
      result.notes.push_back({"python", line,
                              "CuPy kernel source not translated: the source translator is not "
                              "available; hipRTC compiles it on ROCm, check CUDA-only calls",
                              true});
      continue;
    }
    std::optional<std::string> translated = context.translate_snippet(source);
    if (!translated) {
      result.notes.push_back({"python", line, "CuPy kernel source could not be translated: check it by hand", true});
      continue;
    }
    if (*translated == source) continue;
    content.replace(it->first, it->second - it->first, *translated);
    result.changed_by.insert("cupy");
    result.changed_lines.insert(line);
    result.notes.push_back(
        {"python", line, "CuPy kernel source translated to HIP (compiled by hipRTC on ROCm)", false});
  }
}

}  // namespace

RewriteResult PythonRewriter::Rewrite(const std::string& relative_path, const std::string& content,
                                      const RewriteContext& context) const {
  (void)relative_path;
  RewriteResult result;
  std::string text = content;
  if (text.find("CUDAExtension") != std::string::npos) {
    result.notes.push_back({"python", 1,
                            "PyTorch CUDAExtension kept: ROCm PyTorch hipifies the extension's sources when it "
                            "builds them, so they stay CUDA here",
                            false});
    RewriteNvccArgumentLists(text, context, result);
  }
  RewriteCupyKernels(text, context, result);
  // Environment variables set from Python (`os.environ["CUDA_VISIBLE_DEVICES"]`); torch.cuda stays as it is.
  static const std::regex kVisible(R"((['"])CUDA_VISIBLE_DEVICES\1)");
  std::string mapped = std::regex_replace(text, kVisible, "$1HIP_VISIBLE_DEVICES$1");
  static const std::regex kBlocking(R"((['"])CUDA_LAUNCH_BLOCKING\1(\s*\]\s*=\s*)(['"])1\3)");
  mapped = std::regex_replace(mapped, kBlocking, "$1AMD_SERIALIZE_KERNEL$1$2$033$3");
  if (mapped != text) {
    result.changed_by.insert(kRuleCudaEnvVar);
    result.notes.push_back({kRuleCudaEnvVar, 0, "CUDA environment variables -> HIP/AMD ones", false});
  }
  text = mapped;
  bool ends_with_newline = true;
  const auto lines = SplitLinesKeepEnd(text, ends_with_newline);
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (line.find("from numba import cuda") != std::string::npos || line.find("numba.cuda") != std::string::npos ||
        line.find("@cuda.jit") != std::string::npos) {
      result.notes.push_back({"python", static_cast<uint32_t>(i + 1),
                              "Numba CUDA kernels: Numba has no ROCm backend; port to HIP (or CuPy) by hand", true});
      break;
    }
  }
  static const std::regex kTool(R"(['"](nvidia-smi|nvprof|nsys|ncu)\b)");
  std::smatch m;
  if (std::regex_search(text, m, kTool)) {
    result.notes.push_back({kRuleNvidiaTool, 0, "runs " + m[1].str() + ": use amd-smi/rocprofv3 on ROCm", true});
  }
  // Which lines changed: compare line by line with the original.
  bool original_end = true;
  const auto before = SplitLinesKeepEnd(content, original_end);
  for (size_t i = 0; i < before.size() && i < lines.size(); ++i) {
    if (before[i] != lines[i]) result.changed_lines.insert(static_cast<uint32_t>(i + 1));
  }
  result.output = text;
  return result;
}

}  // namespace hipforge::translate
