#include "worker/translate/repo/file_classifier.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <string_view>
#include <vector>

namespace hipforge::translate {
namespace {

// Blanks // and /* */ comments (keeps offsets and newlines); string literals are not special-cased.
std::string WithoutComments(const std::string& text) {
  std::string out = text;
  for (size_t i = 0; i + 1 < out.size(); ++i) {
    if (out[i] == '/' && out[i + 1] == '/') {
      while (i < out.size() && out[i] != '\n') out[i++] = ' ';
    } else if (out[i] == '/' && out[i + 1] == '*') {
      const size_t end = out.find("*/", i + 2);
      const size_t stop = end == std::string::npos ? out.size() : end + 2;
      for (; i < stop; ++i) {
        if (out[i] != '\n') out[i] = ' ';
      }
      --i;
    }
  }
  return out;
}

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

bool DeclaresDeviceCodeDefinedElsewhere(const std::string& content) {
  if (content.find("__device__") == std::string::npos && content.find("__constant__") == std::string::npos &&
      content.find("__managed__") == std::string::npos) {
    return false;
  }
  const std::string text = WithoutComments(content);
  for (const char* keyword : {"__device__", "__constant__", "__managed__"}) {
    const size_t length = std::char_traits<char>::length(keyword);
    for (size_t at = text.find(keyword); at != std::string::npos; at = text.find(keyword, at + length)) {
      if ((at > 0 && IsWordChar(text[at - 1])) || (at + length < text.size() && IsWordChar(text[at + length]))) {
        continue;
      }
      // `extern __device__ int x;` / `extern "C" __device__ float f(float);` (not `extern __shared__`).
      const size_t line_start = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
      static const std::regex kExtern(R"((^|[^A-Za-z0-9_])extern([^A-Za-z0-9_]|$))");
      const std::string before = text.substr(line_start, at - line_start);
      const size_t statement_end = text.find_first_of(";{", at);
      const std::string declaration = text.substr(at, statement_end == std::string::npos ? 0 : statement_end - at);
      if (std::regex_search(before, kExtern) && declaration.find("__shared__") == std::string::npos) return true;
      if (std::string(keyword) != "__device__") continue;
      // `__device__ <type> name(params) <qualifiers>;`: a function declared here without its body.
      size_t i = at + length;
      while (i < text.size() && std::string_view(";{}()=").find(text[i]) == std::string_view::npos) ++i;
      if (i >= text.size() || text[i] != '(') continue;
      int depth = 0;
      for (; i < text.size(); ++i) {
        if (text[i] == '(') ++depth;
        if (text[i] == ')' && --depth == 0) break;
        if (text[i] == ';' || text[i] == '{' || text[i] == '}') break;
      }
      if (i >= text.size() || text[i] != ')') continue;
      ++i;
      while (i < text.size() && std::string_view(";{=:").find(text[i]) == std::string_view::npos) ++i;
      if (i < text.size() && text[i] == ';') return true;
    }
  }
  return false;
}

const char* RepoFileKindName(RepoFileKind kind) { return FileKindName(kind); }

RepoFileKind ReportedFileKind(const std::string& relative_path, RepoFileKind kind) {
  if (kind != FileKind::kOther) return kind;
  const FileKind by_name = FileKindOf(relative_path, "");
  return IsSourceKind(by_name) ? by_name : kind;
}

RepoFileKind ClassifyFile(const std::string& relative_path, const std::string& content) {
  const FileKind kind = FileKindOf(relative_path, content);
  // .cu and .cuh always; other C/C++ files only when they use CUDA (the rest is copied as it is).
  if (kind == FileKind::kCudaSource || std::filesystem::path(relative_path).extension() == ".cuh") return kind;
  if (IsSourceKind(kind) && !UsesCuda(content)) return FileKind::kOther;
  return kind;
}

std::vector<std::vector<std::string>> QuotedIncludeCandidates(const std::string& path, const std::string& content) {
  static const std::regex kInclude(R"re(#\s*include\s*"([^"]+)")re");
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::vector<std::vector<std::string>> includes;
  for (auto it = std::sregex_iterator(content.begin(), content.end(), kInclude); it != std::sregex_iterator(); ++it) {
    const std::filesystem::path included = (*it)[1].str();
    includes.push_back(
        {(dir / included).lexically_normal().generic_string(), included.lexically_normal().generic_string()});
  }
  return includes;
}

void PromoteIncludedHeaders(const std::map<std::string, std::string>& contents,
                            std::map<std::string, RepoFileKind>& kinds) {
  std::vector<std::string> work;
  for (const auto& [path, kind] : kinds) {
    if (kind == RepoFileKind::kCudaSource || kind == RepoFileKind::kHeader) work.push_back(path);
  }
  while (!work.empty()) {
    const std::string path = work.back();
    work.pop_back();
    const auto content = contents.find(path);
    if (content == contents.end()) continue;
    for (const std::vector<std::string>& candidates : QuotedIncludeCandidates(path, content->second)) {
      for (const std::string& key : candidates) {
        auto kind = kinds.find(key);
        if (kind == kinds.end() || kind->second != RepoFileKind::kOther) continue;
        if (FileKindOf(key, "") != FileKind::kHeader) continue;
        kind->second = RepoFileKind::kHeader;
        work.push_back(key);
        break;
      }
    }
  }
}

}  // namespace hipforge::translate
