#include "worker/translate/frontend/compile_arguments.h"

#include <algorithm>
#include <array>
#include <optional>
#include <regex>

namespace hipforge::translate {
namespace {

namespace fs = std::filesystem;

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && text.substr(0, prefix.size()) == prefix;
}

// Language flags that change what parses and cannot touch the host.
constexpr std::array<std::string_view, 22> kAllowedFFlags = {"-fexceptions",
                                                             "-fno-exceptions",
                                                             "-frtti",
                                                             "-fno-rtti",
                                                             "-fopenmp",
                                                             "-fms-extensions",
                                                             "-fno-ms-extensions",
                                                             "-fdeclspec",
                                                             "-fsigned-char",
                                                             "-funsigned-char",
                                                             "-fchar8_t",
                                                             "-fno-char8_t",
                                                             "-fgnu-keywords",
                                                             "-fno-gnu-keywords",
                                                             "-fno-strict-aliasing",
                                                             "-ffast-math",
                                                             "-fno-fast-math",
                                                             "-fPIC",
                                                             "-fpic",
                                                             "-fgnu89-inline",
                                                             "-fcxx-exceptions",
                                                             "-fno-cxx-exceptions"};

// Flags (with a separate value) that only matter to a build: skipped together with their value.
constexpr std::array<std::string_view, 17> kIgnoredWithValue = {"-o",
                                                                "-arch",
                                                                "-gencode",
                                                                "-Xcompiler",
                                                                "-Xptxas",
                                                                "-Xlinker",
                                                                "-Xnvlink",
                                                                "-ccbin",
                                                                "-L",
                                                                "-l",
                                                                "--compiler-bindir",
                                                                "--compiler-options",
                                                                "--linker-options",
                                                                "-x",
                                                                "--generate-code",
                                                                "--gpu-architecture",
                                                                "-rdc"};

// Flags (with a separate value) that write or read host files, load code or reach Clang's internals.
constexpr std::array<std::string_view, 14> kRejectedWithValue = {"--serialize-diagnostics",
                                                                 "-serialize-diagnostics",
                                                                 "-Xclang",
                                                                 "-MF",
                                                                 "-MT",
                                                                 "-MQ",
                                                                 "-dependency-file",
                                                                 "-load",
                                                                 "-isysroot",
                                                                 "--sysroot",
                                                                 "-imacros",
                                                                 "-include-pch",
                                                                 "-ivfsoverlay",
                                                                 "--config"};

bool IsIgnoredFlag(std::string_view arg) {
  // Optimisation, debug, warnings, codegen and nvcc build options: no effect on what the parse sees.
  static const std::regex kIgnored(
      R"(^(-O.*|-g.*|-W.*|-w|-c|-m64|-m32|-pipe|-pthread|-shared|-static|-pedantic|-v|--?expt-.*|--use_fast_math|)"
      R"(-use_fast_math|-lineinfo|--?lineinfo|-G|-dc|-dlink|--?relocatable-device-code=.*|-rdc=.*|--?gpu-architecture=.*|)"
      R"(-arch=.*|-code=.*|-gencode=.*|--generate-code=.*|-Xcompiler=.*|--compiler-options=.*|-Xptxas=.*|)"
      R"(--?ptxas-options=.*|-ccbin=.*|--?compiler-bindir=.*|-L.+|-l.+|-MD|-MMD|-MP|-M|-MM|--?forward-unknown-to-host-compiler|)"
      R"(-fvisibility.*|-fstack-protector.*|-ffunction-sections|-fdata-sections|-fno-omit-frame-pointer|-fomit-frame-pointer|)"
      R"(-march=.*|-mtune=.*|-mavx.*|-msse.*|-mfma|-mf16c)$)");
  return std::regex_match(std::string(arg), kIgnored);
}

bool IsAllowedStandard(std::string_view value) {
  static const std::regex kStandard(R"(^(c\+\+|gnu\+\+)(98|03|11|0x|14|1y|17|1z|20|2a|23|2b)$|^(c|gnu)(99|11|17)$)");
  return std::regex_match(std::string(value), kStandard);
}

bool IsMacroDefinition(std::string_view value) {
  static const std::regex kMacro(R"(^[A-Za-z_][A-Za-z0-9_]*(\([^)]*\))?(=[\s\S]*)?$)");
  return std::regex_match(std::string(value), kMacro);
}

}  // namespace

std::string_view ArgumentSourceName(ArgumentSource source) {
  switch (source) {
    case ArgumentSource::kFrontend: return "frontend";
    case ArgumentSource::kCompileDatabase: return "compile_commands.json";
    case ArgumentSource::kCMake: return "cmake";
    case ArgumentSource::kMakefile: return "make -n";
    case ArgumentSource::kBuildFileScan: return "build-file scan";
    case ArgumentSource::kTreeGuess: return "tree layout";
    case ArgumentSource::kManifest: return "hipforge.yaml";
    case ArgumentSource::kCommandLine: return "command line";
    case ArgumentSource::kJobOptions: return "job options";
  }
  return "unknown";
}

bool ResolvesInside(const fs::path& path, const fs::path& directory, const fs::path& root, fs::path* resolved) {
  std::error_code error;
  const fs::path absolute = path.is_absolute() ? path : directory / path;
  // weakly_canonical follows every symlink of the existing prefix, so a link out of the tree is seen.
  const fs::path canonical = fs::weakly_canonical(absolute, error);
  if (error) return false;
  const std::string root_text = root.generic_string();
  const std::string text = canonical.generic_string();
  const bool inside =
      text == root_text || (StartsWith(text, root_text) && (root_text.back() == '/' || text[root_text.size()] == '/'));
  if (inside && resolved) *resolved = canonical;
  return inside;
}

ArgumentCheck AllowListArguments(const std::vector<std::string>& args, const fs::path& tree_root,
                                 const fs::path& directory) {
  ArgumentCheck check;
  std::error_code error;
  const fs::path root = fs::weakly_canonical(tree_root, error);
  auto reject = [&](std::string arg, std::string reason) {
    check.rejected.push_back({std::move(arg), std::move(reason)});
  };
  // A path flag: kept as `flag + resolved` (joined) or `flag, resolved` (separate) when inside the tree.
  auto path_flag = [&](const std::string& flag, const std::string& value, bool joined) {
    if (value.empty()) return reject(flag, "missing path");
    fs::path resolved;
    if (!ResolvesInside(value, directory, root, &resolved)) {
      return reject(flag + (joined ? "" : " ") + value, "path outside the repository tree");
    }
    if (joined) {
      check.kept.push_back(flag + resolved.string());
    } else {
      check.kept.push_back(flag);
      check.kept.push_back(resolved.string());
    }
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    const bool has_next = i + 1 < args.size();
    // `-I dir` / `-Idir` / `--include-path dir` / `--include-path=dir` (nvcc) all read as (flag, value).
    auto value_of = [&](std::initializer_list<std::string_view> spellings) -> std::optional<std::string> {
      for (std::string_view spelling : spellings) {
        if (arg == spelling) {
          if (!has_next) return std::string();
          return args[++i];
        }
        if (StartsWith(spelling, "--") && StartsWith(arg, std::string(spelling) + "=")) {
          return arg.substr(spelling.size() + 1);
        }
        if (!StartsWith(spelling, "--") && spelling.size() == 2 && StartsWith(arg, spelling)) {
          return arg.substr(spelling.size());
        }
      }
      return std::nullopt;
    };
    if (arg.empty()) continue;
    if (arg[0] == '@') {
      reject(arg, "response files read host files");
    } else if (auto value = value_of({"-D", "--define-macro"})) {
      if (IsMacroDefinition(*value)) {
        check.kept.push_back("-D" + *value);
      } else {
        reject("-D" + *value, "not a macro definition");
      }
    } else if (auto value = value_of({"-U", "--undefine-macro"})) {
      if (IsMacroDefinition(*value)) {
        check.kept.push_back("-U" + *value);
      } else {
        reject("-U" + *value, "not a macro name");
      }
    } else if (auto value = value_of({"-I", "--include-path"})) {
      path_flag("-I", *value, true);
    } else if (arg == "-isystem" || arg == "--system-include" || StartsWith(arg, "-isystem") ||
               StartsWith(arg, "--system-include=")) {
      std::string value = arg == "-isystem" || arg == "--system-include"
                              ? (has_next ? args[++i] : std::string())
                              : arg.substr(arg[1] == '-' ? std::string("--system-include=").size() : 8);
      path_flag("-isystem", value, true);
    } else if (arg == "-iquote" || StartsWith(arg, "-iquote")) {
      std::string value = arg == "-iquote" ? (has_next ? args[++i] : std::string()) : arg.substr(7);
      path_flag("-iquote", value, true);
    } else if (arg == "-include" || arg == "--pre-include" || StartsWith(arg, "--pre-include=")) {
      std::string value = StartsWith(arg, "--pre-include=") ? arg.substr(14) : (has_next ? args[++i] : std::string());
      path_flag("-include", value, false);
    } else if (StartsWith(arg, "-std=") || StartsWith(arg, "--std=") || arg == "-std" || arg == "--std") {
      const std::string value =
          arg.find('=') != std::string::npos ? arg.substr(arg.find('=') + 1) : (has_next ? args[++i] : std::string());
      if (IsAllowedStandard(value)) {
        check.kept.push_back("-std=" + value);
      } else {
        reject(arg, "unknown language standard");
      }
    } else if (std::find(kAllowedFFlags.begin(), kAllowedFFlags.end(), arg) != kAllowedFFlags.end()) {
      check.kept.push_back(arg);
    } else if (std::find(kRejectedWithValue.begin(), kRejectedWithValue.end(), arg) != kRejectedWithValue.end()) {
      reject(has_next ? arg + " " + args[++i] : arg, "writes or reads host files or reaches Clang internals");
    } else if (std::find(kIgnoredWithValue.begin(), kIgnoredWithValue.end(), arg) != kIgnoredWithValue.end()) {
      check.ignored.push_back(has_next ? arg + " " + args[++i] : arg);
    } else if (IsIgnoredFlag(arg)) {
      check.ignored.push_back(arg);
    } else if (arg[0] != '-') {
      check.ignored.push_back(arg);  // the compiler, the source file, an object: not a flag
    } else {
      reject(arg, "not on the allow-list (-D, -U, -I inside the tree, -std, a few -f flags)");
    }
  }
  return check;
}

}  // namespace hipforge::translate
