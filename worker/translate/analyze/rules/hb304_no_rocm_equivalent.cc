#include "worker/translate/analyze/rules/hb304_no_rocm_equivalent.h"

#include <algorithm>
#include <set>

#include "worker/translate/analyze/rule_ids.h"
#include "worker/translate/core/device_function_shims.h"

namespace hipforge::translate::analyze {
namespace {

// A name the translator writes a definition for (the legacy launch API): translated, not left as is (TR013).
bool ShimmedByTranslator(std::string_view name) {
  for (const DeviceFunctionShim& shim : DeviceFunctionShims()) {
    if (!shim.record.empty() && std::ranges::find(shim.names, name) != shim.names.end()) return true;
  }
  return false;
}

struct Library {
  std::string_view name;
  std::vector<std::string_view> header_prefixes;  // matched against the included file name
  std::vector<std::string_view> api_prefixes;
  std::string_view advice;
};

const std::vector<Library>& Libraries() {
  static const std::vector<Library> kLibraries = {
      {"NPP",
       {"npp"},
       {"nppi", "npps", "nppc", "nppSet", "nppGet"},
       "rocm has no NPP; use MIVisionX/rocAL or write the kernels"},
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

// Libraries whose table states say nothing about "no ROCm equivalent": device intrinsics and cooperative
// groups (HIP provides most under other headers; their table states lag), types/macros/headers (uses, not
// calls), and cuBLASLt (HB302 covers all of it).
bool TableLibraryCounts(ApiLibrary library) {
  switch (library) {
    case ApiLibrary::kDevice:
    case ApiLibrary::kCooperativeGroups:
    case ApiLibrary::kTypes:
    case ApiLibrary::kHeaders:
    case ApiLibrary::kBlasLt:
    case ApiLibrary::kCaffe2: return false;
    default: return true;
  }
}

// Functions another rule already explains (graphs, pools, managed memory, textures, driver modules): one
// finding per problem.
bool CoveredByAnotherRule(std::string_view name) {
  static constexpr std::string_view kPrefixes[] = {"cudaGraph",
                                                   "cuGraph",
                                                   "cudaStreamBeginCapture",
                                                   "cudaStreamEndCapture",
                                                   "cudaStreamGetCapture",
                                                   "cudaStreamUpdateCapture",
                                                   "cudaStreamIsCapturing",
                                                   "cudaUserObject",
                                                   "cudaMemPool",
                                                   "cuMemPool",
                                                   "cudaMallocAsync",
                                                   "cudaFreeAsync",
                                                   "cudaMallocFromPool",
                                                   "cudaMemAdvise",
                                                   "cudaMemPrefetch",
                                                   "cuMemAdvise",
                                                   "cuMemPrefetch",
                                                   "cudaBindTexture",
                                                   "cudaBindSurface",
                                                   "cudaUnbindTexture",
                                                   "cudaGetTextureReference",
                                                   "cudaGetSurfaceReference",
                                                   "cuTexRef",
                                                   "cuSurfRef",
                                                   "cuCtx",
                                                   "cuModule",
                                                   "cuLink",
                                                   "cuLibrary",
                                                   "cudaLibrary",
                                                   "nvrtcGet",
                                                   "cublasLt",
                                                   "cublasGemmEx",
                                                   "cublasGemmBatchedEx",
                                                   "cublasGemmStridedBatchedEx",
                                                   "curandCreateGenerator"};
  for (std::string_view prefix : kPrefixes) {
    if (name.rfind(prefix, 0) == 0) return true;
  }
  return false;
}

// The table record that makes `name` a call with no ROCm equivalent, or null. Every record of the name must
// agree (a name some library maps is not reported).
const ApiMapping* UnsupportedEverywhere(const MappingIndex& mappings, std::string_view name) {
  const ApiMapping* found = nullptr;
  for (const ApiMapping* mapping : mappings.FindAll(name)) {
    if (mapping->kind != ApiKind::kFunction || !TableLibraryCounts(mapping->library)) return nullptr;
    if (mapping->hip_state != SupportState::kUnsupported) return nullptr;
    if (!mapping->roc_name.empty() && mapping->roc_state != SupportState::kUnsupported) return nullptr;
    found = mapping;
  }
  return found;
}

// `name(` that declares or defines a function of that name (a wrapper the project writes) is not a call.
bool IsDeclaration(const std::vector<Token>& tokens, size_t i) {
  if (i == 0) return false;
  const Token& previous = tokens[i - 1];
  if (previous.kind != TokenKind::kIdentifier && previous.text != "*" && previous.text != "&") return false;
  static constexpr std::string_view kExpressionKeywords[] = {
      "return", "else", "case", "co_return", "throw", "do", "co_await", "sizeof", "decltype", "new", "delete"};
  for (std::string_view keyword : kExpressionKeywords) {
    if (previous.text == keyword) return false;
  }
  return previous.kind == TokenKind::kIdentifier;
}

}  // namespace

void NoRocmEquivalentRule::CheckUnsupportedCalls(const TextFile& file) {
  if (!mappings_) return;
  const auto& tokens = file.tokens();
  std::set<uint32_t> lines_done;
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& token = tokens[i];
    if (token.kind != TokenKind::kIdentifier || token.in_directive || !IsCallAt(tokens, i)) continue;
    if (i > 0 && tokens[i - 1].text == "::" && (i < 2 || tokens[i - 2].kind == TokenKind::kIdentifier)) continue;
    if (IsDeclaration(tokens, i) || CoveredByAnotherRule(token.text) || ShimmedByTranslator(token.text)) continue;
    const ApiMapping* mapping = UnsupportedEverywhere(*mappings_, token.text);
    if (!mapping) continue;
    bool library_rule = false;  // the named libraries above report these themselves
    for (const Library& library : Libraries()) {
      for (std::string_view prefix : library.api_prefixes) library_rule |= token.text.rfind(prefix, 0) == 0;
    }
    if (library_rule || !lines_done.insert(file.LineColumn(token.offset).first).second) continue;
    Report(file, token.offset,
           std::string(token.text) + ": no HIP/ROCm equivalent (marked unsupported in the " +
               std::string(LibraryName(mapping->library)) + " mapping table); the translator leaves the call as is",
           "Rewrite this part by hand: find what the call achieves and use a supported HIP API, or drop it where "
           "it only tunes NVIDIA hardware (docs/mappings lists the supported names).");
    sink().findings().back().one_call = true;  // a local rewrite, not a library replacement (effort.cc)
  }
}

const RuleInfo& NoRocmEquivalentRule::info() const {
  static const RuleInfo kInfo{kRuleNoRocmEquivalent, Severity::kError, RuleClass::kLibrary,
                              "Libraries or APIs with no ROCm equivalent (NPP, nvJPEG, NVSHMEM, cuFile, OptiX, ...)"};
  return kInfo;
}

void NoRocmEquivalentRule::CheckTokens(const TextFile& file) {
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
  CheckUnsupportedCalls(file);
}

}  // namespace hipforge::translate::analyze
