#include "worker/translate/repo/file_classifier.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <string_view>
#include <vector>

namespace hipforge::translate {
namespace {

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

bool IsHeaderExtension(const std::string& ext) {
  return ext == ".h" || ext == ".hpp" || ext == ".hh" || ext == ".hxx" || ext == ".inl" || ext == ".cuh";
}

bool IsCppExtension(const std::string& ext) {
  return ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".c" || ext == ".c++";
}

}  // namespace

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

const char* RepoFileKindName(RepoFileKind kind) {
  switch (kind) {
    case RepoFileKind::kCudaSource: return "cuda-source";
    case RepoFileKind::kHeader: return "header";
    case RepoFileKind::kCppSource: return "cpp-source";
    case RepoFileKind::kCMake: return "cmake";
    case RepoFileKind::kMakefile: return "makefile";
    case RepoFileKind::kShellScript: return "shell";
    case RepoFileKind::kDockerfile: return "dockerfile";
    case RepoFileKind::kCiConfig: return "ci";
    case RepoFileKind::kPython: return "python";
    case RepoFileKind::kOther: return "other";
  }
  return "other";
}

bool UsesCuda(const std::string& content) {
  static const std::regex kCuda(
      R"((^|[^A-Za-z0-9_])(cuda[A-Z][A-Za-z0-9_]*|CUDA_[A-Z_]+|cu(blas|blasLt|rand|fft|sparse|solver|dnn)[A-Z][A-Za-z0-9_]*|nccl[A-Z][A-Za-z0-9_]*|__shfl[a-z_]*_sync|__(ballot|any|all|activemask)_sync|nvcuda|cooperative_groups|__nv_[a-z0-9_]+)|#\s*include\s*[<"](cuda|cublas|curand|cufft|cusparse|cusolver|cudnn|nccl|thrust/|cub/|cooperative_groups|device_launch_parameters|vector_types|sm_[0-9]+_intrinsics|crt/|nvrtc|nvToolsExt|nvtx3))");
  return std::regex_search(content, kCuda);
}

RepoFileKind ClassifyFile(const std::string& relative_path, const std::string& content) {
  const std::filesystem::path path(relative_path);
  const std::string name = path.filename().string();
  const std::string lower = Lower(name);
  const std::string ext = Lower(path.extension().string());
  const std::string generic = path.generic_string();
  if (name == "CMakeLists.txt" || ext == ".cmake") return RepoFileKind::kCMake;
  if (lower == "makefile" || lower == "gnumakefile" || ext == ".mk" || ext == ".mak" ||
      lower.rfind("makefile.", 0) == 0 || lower.rfind("make.", 0) == 0 || ext == ".make") {
    return RepoFileKind::kMakefile;
  }
  if (lower == "dockerfile" || lower.rfind("dockerfile.", 0) == 0 || ext == ".dockerfile" ||
      lower == "containerfile") {
    return RepoFileKind::kDockerfile;
  }
  if ((generic.rfind(".github/workflows/", 0) == 0 && (ext == ".yml" || ext == ".yaml")) ||
      name == ".gitlab-ci.yml" || (generic.rfind(".gitlab/ci/", 0) == 0 && ext == ".yml")) {
    return RepoFileKind::kCiConfig;
  }
  if (ext == ".py") return RepoFileKind::kPython;
  if (ext == ".sh" || ext == ".bash" || ext == ".slurm" || ext == ".pbs" ||
      (ext.empty() && (content.rfind("#!/bin/sh", 0) == 0 || content.rfind("#!/bin/bash", 0) == 0 ||
                       content.rfind("#!/usr/bin/env bash", 0) == 0 || content.rfind("#!/usr/bin/env sh", 0) == 0))) {
    return RepoFileKind::kShellScript;
  }
  if (ext == ".cu") return RepoFileKind::kCudaSource;
  if (ext == ".cuh") return RepoFileKind::kHeader;
  if (IsHeaderExtension(ext)) return UsesCuda(content) ? RepoFileKind::kHeader : RepoFileKind::kOther;
  if (IsCppExtension(ext)) return UsesCuda(content) ? RepoFileKind::kCppSource : RepoFileKind::kOther;
  return RepoFileKind::kOther;
}

void PromoteIncludedHeaders(const std::map<std::string, std::string>& contents,
                            std::map<std::string, RepoFileKind>& kinds) {
  static const std::regex kInclude(R"re(#\s*include\s*"([^"]+)")re");
  std::vector<std::string> work;
  for (const auto& [path, kind] : kinds) {
    if (kind == RepoFileKind::kCudaSource || kind == RepoFileKind::kHeader) work.push_back(path);
  }
  while (!work.empty()) {
    const std::string path = work.back();
    work.pop_back();
    const auto content = contents.find(path);
    if (content == contents.end()) continue;
    const std::filesystem::path dir = std::filesystem::path(path).parent_path();
    for (auto it = std::sregex_iterator(content->second.begin(), content->second.end(), kInclude);
         it != std::sregex_iterator(); ++it) {
      const std::string included = (*it)[1].str();
      for (const std::filesystem::path& candidate : {dir / included, std::filesystem::path(included)}) {
        const std::string key = candidate.lexically_normal().generic_string();
        auto kind = kinds.find(key);
        if (kind == kinds.end() || kind->second != RepoFileKind::kOther) continue;
        if (!IsHeaderExtension(Lower(std::filesystem::path(key).extension().string()))) continue;
        kind->second = RepoFileKind::kHeader;
        work.push_back(key);
        break;
      }
    }
  }
}

}  // namespace hipforge::translate
