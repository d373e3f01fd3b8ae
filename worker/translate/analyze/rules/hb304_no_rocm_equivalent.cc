#include "worker/translate/analyze/rules/hb304_no_rocm_equivalent.h"

#include <set>

namespace hipforge::translate::analyze {
namespace {

struct Library {
  std::string_view name;
  std::vector<std::string_view> header_prefixes;  // matched against the included file name
  std::vector<std::string_view> api_prefixes;
  std::string_view advice;
};

const std::vector<Library>& Libraries() {
  static const std::vector<Library> kLibraries = {
      {"NPP", {"npp"}, {"nppi", "npps", "nppc", "nppSet", "nppGet"}, "rocm has no NPP; use MIVisionX/rocAL or write the kernels"},
      {"nvJPEG", {"nvjpeg"}, {"nvjpeg"}, "use rocJPEG (ROCm 6.2+) or a CPU decoder"},
      {"NVSHMEM", {"nvshmem"}, {"nvshmem", "nvshmemx"}, "use rocSHMEM (separate, experimental) or MPI/RCCL"},
      {"cuFile (GPUDirect Storage)", {"cufile"}, {"cuFile"}, "use POSIX I/O into pinned host memory, then hipMemcpy"},
      {"OptiX", {"optix"}, {"optix"}, "use HIP RT (Radeon Rays) or a software BVH"},
      {"NVML", {"nvml"}, {"nvml"}, "use ROCm SMI (rocm_smi.h) or amdsmi"},
      {"nvGRAPH", {"nvgraph"}, {"nvgraph"}, "nvGRAPH was removed from CUDA; use rocGRAPH/hipGRAPH or own code"},
      {"nvCOMP", {"nvcomp"}, {"nvcomp"}, "no ROCm equivalent; use a CPU codec or own kernels"},
      {"cuDSS", {"cudss"}, {"cudss"}, "use rocSOLVER/hipSPARSE direct solvers"},
      {"NVTX2 host injection", {"nvToolsExtCuda", "nvToolsExtCudaRt"}, {}, "use roctx (roctracer)"},
      {"Video Codec SDK", {"nvcuvid", "cuviddec", "nvEncodeAPI"}, {"cuvid"}, "use rocDecode / AMF"},
      {"cuTensorNet/cuQuantum", {"cutensornet", "custatevec"}, {"cutensornet", "custatevec"}, "no ROCm equivalent"},
  };
  return kLibraries;
}

std::string_view IncludedName(std::string_view line) {
  const size_t open = line.find_first_of("<\"");
  if (open == std::string_view::npos) return {};
  const size_t close = line.find_first_of(">\"", open + 1);
  if (close == std::string_view::npos) return {};
  std::string_view name = line.substr(open + 1, close - open - 1);
  if (const size_t slash = name.rfind('/'); slash != std::string_view::npos) name = name.substr(slash + 1);
  return name;
}

}  // namespace

const RuleInfo& NoRocmEquivalentRule::info() const {
  static const RuleInfo kInfo{"HB304", Severity::kError, RuleClass::kLibrary,
                              "Libraries or APIs with no ROCm equivalent (NPP, nvJPEG, NVSHMEM, cuFile, OptiX, ...)"};
  return kInfo;
}

void NoRocmEquivalentRule::checkTokens(const TextFile& file) {
  const auto& tokens = file.tokens();
  std::set<std::string_view> included;
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (tokens[i].kind != TokenKind::kHash || tokens[i + 1].text != "include") continue;
    const auto [line, column] = file.LineColumn(tokens[i].offset);
    const std::string_view header = IncludedName(file.Line(line));
    for (const Library& library : Libraries()) {
      for (std::string_view prefix : library.header_prefixes) {
        if (header.rfind(prefix, 0) != 0) continue;
        included.insert(library.name);
        Report(file, tokens[i].offset,
               "#include <" + std::string(header) + ">: " + std::string(library.name) + " has no ROCm equivalent",
               "Replace the dependency: " + std::string(library.advice) + ".");
        break;
      }
    }
  }
  std::set<std::pair<std::string_view, uint32_t>> scopes_done;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& token = tokens[i];
    if (token.kind != TokenKind::kIdentifier || token.in_directive || !IsCallAt(tokens, i)) continue;
    for (const Library& library : Libraries()) {
      if (included.count(library.name)) continue;
      bool hit = false;
      for (std::string_view prefix : library.api_prefixes) hit |= token.text.rfind(prefix, 0) == 0;
      if (!hit || !scopes_done.insert({library.name, token.scope}).second) continue;
      Report(file, token.offset, std::string(token.text) + ": " + std::string(library.name) + " has no ROCm equivalent",
             "Replace the dependency: " + std::string(library.advice) + ".");
    }
  }
}

}  // namespace hipforge::translate::analyze
