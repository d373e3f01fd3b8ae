#include "worker/translate/analyze/rules/hb405_texture_reference.h"

#include <set>

#include "worker/translate/analyze/rule_ids.h"

namespace hipforge::translate::analyze {

const RuleInfo& TextureReferenceRule::info() const {
  static const RuleInfo kInfo{kRuleTextureReference, Severity::kError, RuleClass::kRuntime,
                              "Legacy texture/surface references (texture objects needed)"};
  return kInfo;
}

void TextureReferenceRule::CheckTokens(const TextFile& file) {
  const auto& tokens = file.tokens();
  std::set<uint32_t> lines_done;
  std::set<uint32_t> scopes_done;
  for (size_t i = 0; i + 1 < tokens.size(); ++i) {
    const Token& token = tokens[i];
    if (token.kind != TokenKind::kIdentifier || (token.in_directive && token.directive != "define")) continue;
    const std::string_view word = token.text;
    const bool qualified_elsewhere = i > 0 && (tokens[i - 1].text == "." || tokens[i - 1].text == "->" ||
                                               (tokens[i - 1].text == "::" && (i < 2 || tokens[i - 2].text != "")));
    if ((word == "texture" || word == "surface") && tokens[i + 1].text == "<" && !qualified_elsewhere) {
      // A declaration: texture<...> name  (not a template parameter or a cast).
      size_t close = i + 1;
      int depth = 0;
      for (; close < tokens.size(); ++close) {
        if (tokens[close].text == "<") ++depth;
        if (tokens[close].text == ">" && --depth == 0) break;
        if (tokens[close].text == ">>") {
          depth -= 2;
          if (depth <= 0) break;
        }
        if (tokens[close].text == ";" || tokens[close].text == "{") break;
      }
      if (close + 1 >= tokens.size() || (tokens[close].text != ">" && tokens[close].text != ">>")) continue;
      const Token& next = tokens[close + 1];
      if (next.kind != TokenKind::kIdentifier && next.text != "&") continue;
      if (!lines_done.insert(file.LineColumn(token.offset).first).second) continue;
      Report(file, token.offset,
             std::string(word) + " reference `" + std::string(next.text) +
                 "`: legacy texture/surface references were removed from CUDA 12 and are not supported by current HIP",
             word == "texture"
                 ? "Create a texture object (hipCreateTextureObject with hipResourceDesc/hipTextureDesc), pass it "
                   "to the kernel, and read with tex1Dfetch<T>(obj, i) / tex2D<T>(obj, x, y)."
                 : "Create a surface object (hipCreateSurfaceObject) and pass it to the kernel.");
      continue;
    }
    const bool binding = word == "cudaBindTexture" || word == "cudaBindTexture2D" || word == "cudaBindTextureToArray" ||
                         word == "cudaBindTextureToMipmappedArray" || word == "cudaUnbindTexture" ||
                         word == "cudaGetTextureReference" || word == "cudaBindSurfaceToArray" ||
                         word == "cudaGetSurfaceReference" || word == "cudaGetTextureAlignmentOffset" ||
                         word == "cuTexRefSetArray" || word == "cuTexRefSetAddress" || word == "cuModuleGetTexRef";
    if (!binding || !IsCallAt(tokens, i)) continue;
    if (!scopes_done.insert(token.scope).second) continue;
    if (!lines_done.insert(file.LineColumn(token.offset).first).second) continue;
    Report(file, token.offset,
           std::string(word) + ": texture-reference binding API, removed from CUDA 12 and unsupported in current HIP",
           "Replace the bound reference with a texture object (hipCreateTextureObject / hipDestroyTextureObject).");
  }
}

}  // namespace hipforge::translate::analyze
