#include "worker/translate/repo/file_classifier.h"

#include <algorithm>
#include <regex>
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
