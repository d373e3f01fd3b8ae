#pragma once
// CuPy kernels: a CUDA source string from Python goes through the same source translator as a one-file
// repository; the result is what hipRTC compiles (RewriteContext::translate_snippet).
#include <functional>
#include <optional>
#include <string>

#include "worker/translate/core/source_translator.h"

namespace hipforge::translate {

// `translator` must outlive the returned function. Nullopt when the snippet cannot be translated.
std::function<std::optional<std::string>(const std::string& cuda_source)> CupySnippetTranslator(
    SourceTranslator& translator);

}  // namespace hipforge::translate
