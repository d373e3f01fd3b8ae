#include "worker/validate/nvidia_backend/cuda_name_refusal.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace hipforge::validate {
namespace {

using translate::ApiKind;
using translate::ApiLibrary;

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
  static const std::set<std::string> kExtensions = {".cu", ".cuh", ".hip", ".h", ".hh", ".hpp", ".hxx",
                                                    ".c", ".cc", ".cpp", ".cxx", ".inl", ".inc"};
  return kExtensions.count(path.extension().string()) > 0;
}

}  // namespace

std::set<std::string, std::less<>> RefusedCudaNames(std::span<const std::span<const translate::ApiMapping>> tables) {
  std::set<std::string, std::less<>> names;
  for (const auto& table : tables) {
    for (const translate::ApiMapping& m : table) {
      if (m.kind == ApiKind::kHeader || m.kind == ApiKind::kNamespace) continue;
      if (m.library == ApiLibrary::kDevice || m.library == ApiLibrary::kCub ||
          m.library == ApiLibrary::kCooperativeGroups || m.library == ApiLibrary::kHeaders ||
          m.library == ApiLibrary::kCaffe2) {
        continue;
      }
      if (m.cuda_name == m.hip_name || !LooksCudaSpelled(m.cuda_name)) continue;
      if (m.cuda_name.empty() || !std::all_of(m.cuda_name.begin(), m.cuda_name.end(), IsIdentifierChar)) continue;
      names.insert(std::string(m.cuda_name));
    }
  }
  return names;
}

std::vector<CudaNameUse> FindCudaNames(std::string_view path, std::string_view text,
                                       const std::set<std::string, std::less<>>& names) {
  std::vector<CudaNameUse> uses;
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
      size_t k = i + 1;
      while (k < text.size() && (text[k] == ' ' || text[k] == '\t')) ++k;
      line_is_include = text.substr(k, 7) == "include";
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
      if (!line_is_include && !std::isdigit(static_cast<unsigned char>(word[0])) && names.count(word)) {
        uses.push_back({std::string(path), line, static_cast<unsigned>(begin - line_start + 1), std::string(word)});
      }
      continue;
    }
    ++i;
  }
  return uses;
}

std::vector<CudaNameUse> FindCudaNamesInTree(const std::filesystem::path& root,
                                             const std::set<std::string, std::less<>>& names) {
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
    auto found = FindCudaNames(file.lexically_relative(root).generic_string(), buffer.str(), names);
    uses.insert(uses.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
  }
  return uses;
}

}  // namespace hipforge::validate
