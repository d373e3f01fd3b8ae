#include "common/source_files.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <fstream>
#include <string>

#include "common/cuda_names.h"

namespace hipforge {
namespace {

namespace fs = std::filesystem;

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool StartsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }
bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

template <size_t N>
bool OneOf(std::string_view text, const std::array<std::string_view, N>& set) {
  return std::find(set.begin(), set.end(), text) != set.end();
}

constexpr std::array<std::string_view, 8> kHeaderExtensions = {".cuh", ".h",   ".hpp", ".hh",
                                                               ".hxx", ".inl", ".inc", ".tcc"};
constexpr std::array<std::string_view, 5> kCppExtensions = {".cpp", ".cc", ".cxx", ".c", ".c++"};

// `#!/bin/bash`, `#!/usr/bin/env python3`: the interpreter's name, without path or version.
FileKind KindOfShebang(std::string_view content) {
  if (!StartsWith(content, "#!")) return FileKind::kOther;
  std::string_view line =
      content.substr(2, content.find('\n') == std::string_view::npos ? std::string_view::npos : content.find('\n') - 2);
  auto next_word = [&line]() {
    const size_t begin = line.find_first_not_of(" \t");
    if (begin == std::string_view::npos) return std::string_view();
    const size_t end = line.find_first_of(" \t\r", begin);
    std::string_view word = line.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin);
    line = end == std::string_view::npos ? std::string_view() : line.substr(end);
    return word;
  };
  std::string_view program = next_word();
  program = program.substr(program.rfind('/') == std::string_view::npos ? 0 : program.rfind('/') + 1);
  if (program == "env") {
    program = next_word();
    while (StartsWith(program, "-")) program = next_word();  // env -S, env -i
  }
  if (StartsWith(program, "python")) return FileKind::kPython;
  constexpr std::array<std::string_view, 5> kShells = {"sh", "bash", "dash", "zsh", "ksh"};
  return OneOf(program, kShells) ? FileKind::kShellScript : FileKind::kOther;
}

// Kernel-language words CUDA and HIP share.
bool IsKernelWord(std::string_view word) {
  constexpr std::array<std::string_view, 12> kKernelWords = {
      "__global__", "__device__", "__shared__", "__constant__", "__managed__",       "__launch_bounds__",
      "threadIdx",  "blockIdx",   "blockDim",   "gridDim",      "__grid_constant__", "__activemask"};
  return OneOf(word, kKernelWords);
}

// `#include <cuda_runtime.h>` and the other CUDA headers; `at` is the '#'.
bool IsCudaInclude(std::string_view text, size_t at) {
  size_t i = at + 1;
  auto skip_blanks = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
  };
  skip_blanks();
  if (text.compare(i, 7, "include") != 0) return false;
  i += 7;
  skip_blanks();
  if (i >= text.size() || (text[i] != '<' && text[i] != '"')) return false;
  const std::string_view name = text.substr(i + 1, 64);
  constexpr std::array<std::string_view, 17> kPrefixes = {"cuda",
                                                          "cublas",
                                                          "curand",
                                                          "cufft",
                                                          "cusparse",
                                                          "cusolver",
                                                          "cudnn",
                                                          "nccl",
                                                          "thrust/",
                                                          "cub/",
                                                          "crt/",
                                                          "cooperative_groups",
                                                          "vector_types",
                                                          "nvrtc",
                                                          "nvtx3",
                                                          "nvToolsExt",
                                                          "device_launch_parameters"};
  for (std::string_view prefix : kPrefixes) {
    if (StartsWith(name, prefix)) return true;
  }
  // sm_61_intrinsics.h and friends.
  if (StartsWith(name, "sm_")) {
    size_t digits = 3;
    while (digits < name.size() && std::isdigit(static_cast<unsigned char>(name[digits]))) ++digits;
    return digits > 3 && StartsWith(name.substr(digits), "_intrinsics");
  }
  return false;
}

// Scans identifiers (whole words), #include lines and, with `kernel_code`, launches and kernel words.
bool Scan(std::string_view text, bool kernel_code) {
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '#') {
      if (IsCudaInclude(text, i)) return true;
    } else if (c == '<') {
      if (kernel_code && text.compare(i, 3, "<<<") == 0) return true;
    } else if (IsWordChar(c) && (i == 0 || !IsWordChar(text[i - 1]))) {
      size_t end = i;
      while (end < text.size() && IsWordChar(text[end])) ++end;
      const std::string_view word = text.substr(i, end - i);
      if (!std::isdigit(static_cast<unsigned char>(c)) &&
          (IsCudaOnlyIdentifier(word) || (kernel_code && IsKernelWord(word)))) {
        return true;
      }
      i = end - 1;
    }
  }
  return false;
}

}  // namespace

const char* FileKindName(FileKind kind) {
  switch (kind) {
    case FileKind::kCudaSource: return "cuda-source";
    case FileKind::kHeader: return "header";
    case FileKind::kCppSource: return "cpp-source";
    case FileKind::kCMake: return "cmake";
    case FileKind::kMakefile: return "makefile";
    case FileKind::kShellScript: return "shell";
    case FileKind::kDockerfile: return "dockerfile";
    case FileKind::kCiConfig: return "ci";
    case FileKind::kPython: return "python";
    case FileKind::kOther: return "other";
  }
  return "other";
}

bool IsSourceKind(FileKind kind) {
  return kind == FileKind::kCudaSource || kind == FileKind::kCppSource || kind == FileKind::kHeader;
}

FileKind FileKindOf(const fs::path& relative_path, std::string_view content) {
  const std::string name = relative_path.filename().string();
  const std::string lower = Lower(name);
  const std::string ext = Lower(relative_path.extension().string());
  const std::string generic = relative_path.generic_string();
  const bool c_extension =
      ext == ".cu" || OneOf(std::string_view(ext), kHeaderExtensions) || OneOf(std::string_view(ext), kCppExtensions);
  if (name == "CMakeLists.txt" || ext == ".cmake") return FileKind::kCMake;
  // make.inc / make.config are Makefile fragments; make.h is a header.
  if (lower == "makefile" || lower == "gnumakefile" || StartsWith(lower, "makefile.") ||
      (StartsWith(lower, "make.") && (!c_extension || ext == ".inc")) || ext == ".mk" || ext == ".mak" ||
      ext == ".make") {
    return FileKind::kMakefile;
  }
  if (lower == "dockerfile" || StartsWith(lower, "dockerfile.") || ext == ".dockerfile" || lower == "containerfile") {
    return FileKind::kDockerfile;
  }
  if (ext == ".cu") return FileKind::kCudaSource;
  if (OneOf(std::string_view(ext), kHeaderExtensions)) return FileKind::kHeader;
  if (OneOf(std::string_view(ext), kCppExtensions)) return FileKind::kCppSource;
  const bool yaml = ext == ".yml" || ext == ".yaml";
  if ((yaml && (StartsWith(generic, ".github/workflows/") || StartsWith(generic, ".gitlab/ci/"))) ||
      name == ".gitlab-ci.yml" || name == "Jenkinsfile") {
    return FileKind::kCiConfig;
  }
  if (ext == ".py") return FileKind::kPython;
  constexpr std::array<std::string_view, 7> kShellExtensions = {".sh",    ".bash", ".zsh",   ".ksh",
                                                                ".slurm", ".pbs",  ".sbatch"};
  if (OneOf(std::string_view(ext), kShellExtensions)) return FileKind::kShellScript;
  return KindOfShebang(content);
}

bool UsesCuda(std::string_view text) { return Scan(text, /*kernel_code=*/false); }

bool HasGpuCode(std::string_view text) { return Scan(text, /*kernel_code=*/true); }

bool TreeUsesCuda(const fs::path& root) {
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, fs::directory_options::none, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const FileKind kind = FileKindOf(it->path().lexically_relative(root), "");
    if (kind == FileKind::kCudaSource || it->path().extension() == ".cuh") return true;
    if (!IsSourceKind(kind)) continue;
    std::ifstream in(it->path(), std::ios::binary);
    std::string head(1 << 20, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(in.gcount()));
    if (UsesCuda(head)) return true;
  }
  return false;
}

}  // namespace hipforge
