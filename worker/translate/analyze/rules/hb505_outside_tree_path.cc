#include "worker/translate/analyze/rules/hb505_outside_tree_path.h"

#include <string_view>
#include <vector>

#include "worker/translate/analyze/rule_ids.h"

namespace hipforge::translate::analyze {
namespace {

// Prefixes that mean "the directory of this build file" before a relative path.
constexpr std::string_view kHere[] = {"$(CURDIR)/", "${CURDIR}/", "${CMAKE_CURRENT_SOURCE_DIR}/",
                                      "${CMAKE_CURRENT_LIST_DIR}/", "./"};

bool EndsPath(char c) {
  return c == ' ' || c == '\t' || c == '"' || c == '\'' || c == ')' || c == ',' || c == ';' || c == '\\' || c == '}';
}

// How many directories `path` (relative to the build file's directory, at `depth` below the tree's root) climbs
// above the root; 0 when it stays inside.
int ClimbsAbove(std::string_view path, int depth) {
  int level = depth;
  size_t start = 0;
  while (start <= path.size()) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    const std::string_view part = path.substr(start, slash - start);
    if (part == "..") {
      if (--level < 0) return -level;
    } else if (!part.empty() && part != ".") {
      ++level;
    }
    start = slash + 1;
  }
  return 0;
}

}  // namespace

const RuleInfo& OutsideTreePathRule::info() const {
  static const RuleInfo kInfo{kRuleOutsideTreePath, Severity::kError, RuleClass::kBuild,
                              "Build file reads a path outside the submitted tree"};
  return kInfo;
}

void OutsideTreePathRule::CheckLines(const TextFile& file) {
  if (file.kind() != FileKind::kMakefile && file.kind() != FileKind::kCMake) return;
  int depth = 0;  // directories between the tree's root and the build file
  for (char c : file.path()) depth += c == '/';
  for (uint32_t line = 1; line <= file.LineCount(); ++line) {
    const std::string_view code = CodePart(file.Line(line));
    for (size_t at = code.find(".."); at != std::string_view::npos; at = code.find("..", at + 2)) {
      // The path starts at "..", after a delimiter, a flag (-I, -L) or one of the "here" prefixes.
      size_t begin = at;
      for (std::string_view here : kHere) {
        if (begin >= here.size() && code.substr(begin - here.size(), here.size()) == here) begin -= here.size();
      }
      if (begin > 0) {
        const char before = code[begin - 1];
        const bool flag = begin >= 2 && code[begin - 2] == '-' && (before == 'I' || before == 'L');
        if (!flag && !EndsPath(before) && before != '=' && before != '(' && before != ':' && before != '{') continue;
      }
      size_t end = at;
      while (end < code.size() && !EndsPath(code[end])) ++end;
      const std::string_view path = code.substr(at, end - at);
      if (path.size() < 3 || path.substr(0, 3) != "../" || path.find('$') != std::string_view::npos) continue;
      if (ClimbsAbove(path, depth) == 0) continue;
      Report(file, file.LineStart(line) + static_cast<uint32_t>(at),
             "`" + std::string(path) +
                 "` is outside the submitted tree: a build step or test that reads it fails on "
                 "the service though it works in your checkout",
             "Submit the directory that holds both (e.g. the repository's root), or copy what the build needs into "
             "the tree.");
      break;  // one finding a line
    }
  }
}

}  // namespace hipforge::translate::analyze
