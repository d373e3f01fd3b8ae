#include "worker/validate/compiler_diagnostics.h"
#include "worker/validate/text_util.h"

#include <regex>
#include <set>
#include <tuple>

#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace hipforge::validate {

std::vector<RawDiagnostic> ParseBuildErrors(std::string_view build_log_std) {
  const absl::string_view build_log = ToAbsl(build_log_std);
  // path:line:col: error: message   |   path:line: error: message (gcc without column)
  static const std::regex kClang(R"(^(.+?):(\d+):(?:(\d+):)? (?:fatal )?error: (.*)$)");
  // nvcc (the HIP-on-NVIDIA layer): path(line): error: message   |   path(line): catastrophic error: ...
  static const std::regex kNvcc(R"(^(.+?)\((\d+)\): (?:catastrophic )?error(?: #\d+(?:-D)?)?: (.*)$)");
  // CMake Error at CMakeLists.txt:12 (find_package):
  static const std::regex kCMake(R"(^CMake Error at (.+?):(\d+) ?(.*)$)");
  // ld.lld: error: undefined symbol: foo   |   /usr/bin/ld: x.o: undefined reference to `foo'
  static const std::regex kLinker(R"(^(?:ld\.lld|/usr/bin/ld|ld|lld): (?:error: )?(.*)$)");

  // clang: error: invalid target ID 'gfx942'...   (driver errors, no position)
  static const std::regex kDriver(
      R"(^(?:clang|clang\+\+|clang-\d+|clang\+\+-\d+|hipcc|nvcc): (?:fatal )?error: (.*)$)");

  std::vector<RawDiagnostic> out;
  std::set<std::tuple<std::string, int, int, std::string>> seen;
  std::smatch match;
  for (absl::string_view view : absl::StrSplit(build_log, '\n')) {
    std::string line(absl::StripSuffix(view, "\r"));
    RawDiagnostic diagnostic;
    if (std::regex_match(line, match, kCMake)) {
      diagnostic = {match[1], std::stoi(match[2]), 0, "CMake error " + std::string(match[3])};
    } else if (std::regex_match(line, match, kDriver)) {
      diagnostic = {"", 0, 0, std::string(match[1])};
    } else if (std::regex_match(line, match, kLinker)) {
      diagnostic = {"", 0, 0, std::string(match[1])};
    } else if (std::regex_match(line, match, kClang)) {
      diagnostic = {match[1], std::stoi(match[2]), match[3].matched ? std::stoi(match[3]) : 0, match[4]};
    } else if (std::regex_match(line, match, kNvcc)) {
      diagnostic = {match[1], std::stoi(match[2]), 0, match[3]};
    } else {
      continue;
    }
    if (seen.insert({diagnostic.path, diagnostic.line, diagnostic.column, diagnostic.message}).second) {
      out.push_back(std::move(diagnostic));
    }
  }
  return out;
}

std::vector<BuildError> MapBuildErrors(const std::vector<RawDiagnostic>& diagnostics, const SourceMapper& mapper,
                                       const std::filesystem::path& cwd, size_t limit) {
  std::vector<BuildError> out;
  for (const RawDiagnostic& d : diagnostics) {
    if (out.size() >= limit) break;
    if (d.path.empty()) {
      out.push_back({.path = "", .line = 0, .message = d.message});
      continue;
    }
    OriginalPosition position = mapper.Map(d.path, d.line, cwd);
    out.push_back({.path = position.path, .line = position.line, .message = d.message});
  }
  return out;
}

}  // namespace hipforge::validate
