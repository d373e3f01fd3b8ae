#include "worker/translate/analyze/rules/hb504_nvidia_tool.h"

#include <set>

#include "worker/translate/analyze/rule_ids.h"
#include "worker/translate/tables/build_tables.h"

namespace hipforge::translate::analyze {
namespace {

// The tools and their ROCm counterparts are the build table's (tables/build_tables.h), which the script
// rewriter applies.
using Tool = ToolMapping;

// The first mention of a tool; with `skip_prose`, mentions in printed messages and prose strings do not count.
const Tool* FindTool(std::string_view text, size_t* position, bool skip_prose = false) {
  for (const Tool& tool : ToolMappings()) {
    for (size_t hit : FindWord(text, tool.cuda_tool, "-")) {
      if (skip_prose && IsProseMention(text, hit)) continue;
      *position = hit;
      return &tool;
    }
  }
  return nullptr;
}

std::string Message(const Tool& tool) {
  return std::string(tool.cuda_tool) + ": NVIDIA tool, not available on ROCm systems";
}
std::string Fix(const Tool& tool) { return ToolAdvice(tool); }

}  // namespace

const RuleInfo& NvidiaToolRule::info() const {
  static const RuleInfo kInfo{
      kRuleNvidiaTool, Severity::kError, RuleClass::kBuild,
      "NVIDIA tools in scripts (nvidia-smi, nvprof, nsys, ncu, cuda-memcheck, compute-sanitizer)"};
  return kInfo;
}

void NvidiaToolRule::CheckLines(const TextFile& file) {
  for (uint32_t line = 1; line <= file.LineCount(); ++line) {
    const std::string_view code = CodePart(file.Line(line));
    size_t position = 0;
    const Tool* tool = FindTool(code, &position, /*skip_prose=*/true);
    if (!tool) continue;
    Report(file, file.LineStart(line) + static_cast<uint32_t>(position), Message(*tool), Fix(*tool));
  }
}

void NvidiaToolRule::CheckTokens(const TextFile& file) {
  std::set<uint32_t> lines_done;
  for (const Token& token : file.tokens()) {
    if (token.kind != TokenKind::kString || token.in_directive) continue;
    size_t position = 0;
    const std::string_view body = StringLiteralBody(token.text);
    const Tool* tool = FindTool(body, &position);
    if (!tool) continue;
    // Only a command line (the string starts with the tool, possibly with a path), not prose that mentions it
    // (help texts such as "profile with nvprof").
    const size_t start = body.find_first_not_of(" ");
    const size_t word_end = body.find(' ', start);
    const std::string_view command =
        body.substr(start, word_end == std::string_view::npos ? body.size() - start : word_end - start);
    const size_t slash = command.rfind('/');
    if ((slash == std::string_view::npos ? command : command.substr(slash + 1)) != tool->cuda_tool) continue;
    const uint32_t offset = token.offset + 1 + static_cast<uint32_t>(position);
    if (!lines_done.insert(file.LineColumn(offset).first).second) continue;
    Report(file, offset, Message(*tool), Fix(*tool));
  }
}

}  // namespace hipforge::translate::analyze
