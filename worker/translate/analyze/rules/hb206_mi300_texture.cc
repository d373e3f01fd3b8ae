#include "worker/translate/analyze/rules/hb206_mi300_texture.h"

#include <set>

#include "worker/translate/analyze/rule_ids.h"
#include "worker/translate/analyze/texture_shim.h"

namespace hipforge::translate::analyze {
namespace {

// What global loads cannot stand in for: CUDA arrays (tiled image memory), surfaces, and reads that need the
// texture unit's addressing (layered, 3D, cube maps, gather, LOD/gradients), plus legacy references (HB405).
bool IsBlocker(std::string_view word) {
  static const std::set<std::string_view, std::less<>> kBlockers = {"tex1D",
                                                                    "tex3D",
                                                                    "tex1DLayered",
                                                                    "tex2DLayered",
                                                                    "texCubemap",
                                                                    "texCubemapLayered",
                                                                    "tex2Dgather",
                                                                    "tex1DLod",
                                                                    "tex2DLod",
                                                                    "tex3DLod",
                                                                    "tex1DGrad",
                                                                    "tex2DGrad",
                                                                    "tex3DGrad",
                                                                    "tex1DLayeredLod",
                                                                    "tex2DLayeredLod",
                                                                    "surf1Dread",
                                                                    "surf1Dwrite",
                                                                    "surf2Dread",
                                                                    "surf2Dwrite",
                                                                    "surf3Dread",
                                                                    "surf3Dwrite",
                                                                    "surf1DLayeredread",
                                                                    "surf1DLayeredwrite",
                                                                    "surf2DLayeredread",
                                                                    "surf2DLayeredwrite",
                                                                    "surfCubemapread",
                                                                    "surfCubemapwrite",
                                                                    "cudaSurfaceObject_t",
                                                                    "cudaCreateSurfaceObject",
                                                                    "cudaArray",
                                                                    "cudaArray_t",
                                                                    "cudaMallocArray",
                                                                    "cudaMalloc3DArray",
                                                                    "cudaMipmappedArray_t",
                                                                    "cudaMallocMipmappedArray",
                                                                    "cudaResourceTypeArray",
                                                                    "cudaResourceTypeMipmappedArray",
                                                                    "cudaMemcpyToArray",
                                                                    "cudaMemcpy2DToArray",
                                                                    "cudaMemcpy3D",
                                                                    "cudaBindTexture",
                                                                    "cudaBindTexture2D",
                                                                    "cudaBindTextureToArray"};
  return kBlockers.count(word) > 0;
}

bool IsMemberOrQualified(const std::vector<Token>& tokens, size_t i) {
  return i > 0 && (tokens[i - 1].text == "." || tokens[i - 1].text == "->" || tokens[i - 1].text == "::");
}

// `float tex2D(float x, float y)`: a function of the program's own that shares the name (a type before it).
bool DeclaresFunction(const std::vector<Token>& tokens, size_t i) {
  if (i == 0) return false;
  const Token& previous = tokens[i - 1];
  if (previous.kind == TokenKind::kIdentifier) return previous.text != "return";
  return previous.text == ">" || previous.text == "&" || previous.text == "::";
}

}  // namespace

std::string FirstMi300Target(std::span<const std::string> target_architectures) {
  for (const std::string& target : target_architectures) {
    if (target.rfind("gfx94", 0) == 0) return target;
  }
  return {};
}

Mi300TextureRule::Mi300TextureRule(FindingSink& sink, std::span<const std::string> target_architectures)
    : Rule(sink), mi300_target_(FirstMi300Target(target_architectures)) {}

const RuleInfo& Mi300TextureRule::info() const {
  static const RuleInfo kInfo{kRuleMi300Texture, Severity::kError, RuleClass::kArchitecture,
                              "Texture or surface API on MI300 (gfx94x has no texture path)"};
  return kInfo;
}

void Mi300TextureRule::CheckTokens(const TextFile& file) {
  if (mi300_target_.empty()) return;
  const auto& tokens = file.tokens();
  struct Use {
    size_t token;
    std::string replacement;  // the fix's name for it
  };
  std::vector<Use> uses;
  std::vector<size_t> blockers;
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    const Token& token = tokens[i];
    if (token.kind != TokenKind::kIdentifier || (token.in_directive && token.directive != "define")) continue;
    if (IsMemberOrQualified(tokens, i)) continue;
    const std::string_view word = token.text;
    if (word == "tex1Dfetch" || word == "tex2D") {
      // Texture-object reads are templates (tex2D<float>(obj, x, y)); the untemplated form reads a reference.
      if (tokens[i + 1].text == "<") {
        uses.push_back({i, "hipforge_" + std::string(word)});
      } else if (tokens[i + 1].text == "(" && !DeclaresFunction(tokens, i)) {
        blockers.push_back(i);  // tex2D(reference, x, y): a legacy texture reference
      }
    } else if ((word == "cudaCreateTextureObject" || word == "cudaDestroyTextureObject") && IsCallAt(tokens, i)) {
      uses.push_back({i, word == "cudaCreateTextureObject" ? "hipforge_create_texture_object"
                                                           : "hipforge_destroy_texture_object"});
    } else if (word == "texture" && tokens[i + 1].text == "<") {
      blockers.push_back(i);
    } else if (IsBlocker(word)) {
      blockers.push_back(i);
    }
  }
  if (uses.empty() && blockers.empty()) return;
  const std::string target = mi300_target_;
  if (!blockers.empty()) {
    const std::string first(tokens[blockers.front()].text);
    std::set<uint32_t> lines;
    std::vector<size_t> reported = blockers;
    for (const Use& use : uses) reported.push_back(use.token);
    std::sort(reported.begin(), reported.end());
    for (size_t i : reported) {
      if (!lines.insert(file.LineColumn(tokens[i].offset).first).second) continue;
      Report(file, tokens[i].offset,
             "`" + std::string(tokens[i].text) + "`: " + target + " (MI300) has no texture path, and this file uses `" +
                 first +
                 "` (CUDA arrays, surfaces, legacy references or layered/3D/cube/gather/LOD reads), which plain "
                 "global loads cannot stand in for: needs a person",
             "Keep the data in linear or pitch-linear device memory and read it with loads (point sampling: "
             "data[y * pitch + x]; bilinear: the four neighbours weighted by the fractions), or leave the MI300 "
             "targets out (CDNA GPUs before MI300 have a texture path).");
    }
    return;
  }
  // The fix: the shim after the includes that precede the first use, then each use renamed.
  uint32_t shim_offset = 0;
  for (size_t i = 0; i < uses.front().token; ++i) {
    if (tokens[i].in_directive && tokens[i].directive == "include") {
      const uint32_t line = file.LineColumn(tokens[i].offset).first;
      shim_offset = line < file.LineCount() ? file.LineStart(line + 1) : static_cast<uint32_t>(file.content().size());
    }
  }
  std::string shim = TextureShim();
  if (shim_offset > 0 && file.content()[shim_offset - 1] != '\n') shim = "\n" + shim;
  bool first = true;
  for (const Use& use : uses) {
    const Token& token = tokens[use.token];
    std::vector<EditSpec> edits = {{token.offset, static_cast<uint32_t>(token.text.size()), use.replacement}};
    if (first) edits.insert(edits.begin(), EditSpec{shim_offset, 0, shim});
    first = false;
    Report(file, token.offset,
           "`" + std::string(token.text) + "`: " + target +
               " (MI300) has no texture path (HIP: \"The image/texture API not supported on the device\"); "
               "rewritten to `" +
               use.replacement +
               "`, which reads linear/pitch-linear memory with global loads "
               "(same indexing, addressing and filtering)",
           "Rewritten automatically; hipforge_create_texture_object returns hipErrorNotSupported for CUDA arrays, "
           "views and half-float channels, which need a person.",
           std::move(edits));
  }
}

}  // namespace hipforge::translate::analyze
