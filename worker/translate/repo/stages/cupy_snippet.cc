#include "worker/translate/repo/stages/cupy_snippet.h"

#include <random>

#include "common/file_io.h"
#include "worker/translate/repo/stages/migration_state.h"

namespace hipforge::translate {
namespace fs = std::filesystem;

std::function<std::optional<std::string>(const std::string&)> CupySnippetTranslator(SourceTranslator& translator) {
  SourceTranslator* raw_translator = &translator;
  return [raw_translator](const std::string& source) -> std::optional<std::string> {
    std::mt19937_64 rng{std::random_device{}()};
    const fs::path dir = fs::temp_directory_path() / ("hipforge-snippet-" + std::to_string(rng()));
    if (!WriteFileBytes(dir / "kernel.cu", source).ok()) return std::nullopt;
    auto translated = raw_translator->Translate(dir, {fs::path("kernel.cu")}, {}, nullptr);
    std::error_code ignored;
    fs::remove_all(dir, ignored);
    if (!translated.ok() || translated->empty() || translated->front().status == FileStatus::kFailed) {
      return std::nullopt;
    }
    // hipRTC needs no runtime include: drop the one the translator puts on top of a file (it would also
    // stack up when the pass runs over its own output).
    std::string output = translated->front().output;
    if (source.find("hip/hip_runtime.h") == std::string::npos) {
      // The warp-sync define the translator puts first stays (hipRTC of HIP 6.2+ needs it too), once.
      constexpr std::string_view kWarpSyncDefine = "#define HIP_ENABLE_WARP_SYNC_BUILTINS 1";
      std::string kept;
      size_t body = 0;
      while (body < output.size()) {
        const size_t end = output.find('\n', body);
        const std::string line = output.substr(body, end == std::string::npos ? std::string::npos : end - body);
        if (line == kWarpSyncDefine) {
          if (kept.empty()) kept = line + "\n";
        } else if (!line.empty() && line != "#include <hip/hip_runtime.h>") {
          break;
        }
        if (end == std::string::npos) break;
        body = end + 1;
      }
      const size_t source_body = source.find_first_not_of("\n");
      output =
          source.substr(0, source_body == std::string::npos ? source.size() : source_body) + kept + output.substr(body);
    }
    return output;
  };
}

}  // namespace hipforge::translate
