#include "worker/translate/repo/stages/rewrite_build_files.h"

#include <algorithm>

#include "worker/translate/repo/rewrite_cache.h"
#include "worker/translate/repo/stages/cupy_snippet.h"

namespace hipforge::translate {
namespace fs = std::filesystem;
namespace {

std::string Fingerprint(const MigrationOptions& options, const RewriteContext& context) {
  std::string text = "archs=";
  for (const auto& arch : options.hip_architectures) text += arch + ";";
  text += "|rename=" + std::to_string(options.rename_to_hip);
  text += "|cuda_sources=" + std::to_string(context.has_cuda_sources);
  text += "|hip=" + std::to_string(options.translate.target_hip_version.major) + "." +
          std::to_string(options.translate.target_hip_version.minor);
  text += "|libs=";
  for (const auto& lib : context.cmake_cuda_libraries) text += lib + ";";
  text += "|snippets=" + std::to_string(static_cast<bool>(context.translate_snippet));
  text += "|rdc=" + std::to_string(context.relocatable_device_code_needed);
  text += "|cublaslt=" + std::to_string(context.cublaslt_used) + "|hip_host=";
  for (const auto& path : context.hip_host_sources) text += path + ";";
  return text;
}

}  // namespace

absl::Status RewriteBuildFiles(MigrationState& state, const MigrationTools& tools) {
  const MigrationOptions& options = state.options;
  RewriteContext& context = state.plan->context;
  if (state.engines->translator) context.translate_snippet = CupySnippetTranslator(*state.engines->translator);
  CollectedFiles& files = *state.files;
  BuildFileRewrites& rewrites = state.rewrites.emplace();
  const RewriteCache cache(options.translate.cache_directory ? *options.translate.cache_directory / "repo-pass"
                                                             : fs::path());
  const std::string fingerprint = Fingerprint(options, context);
  int done = 0;
  // Progress says "k of n", n the files a rewriter takes.
  const int total = static_cast<int>(std::count_if(files.kinds.begin(), files.kinds.end(), [&](const auto& entry) {
    return tools.rewriters.Find(entry.second) != nullptr;
  }));
  for (const auto& [path, kind] : files.kinds) {
    const BuildFileRewriter* rewriter = tools.rewriters.Find(kind);
    if (rewriter == nullptr) continue;
    const std::string& content = files.contents[path];
    const std::string key = RewriteCache::Key(rewriter->name(), rewriter->version(), fingerprint, path, content);
    RewriteResult& rewrite = rewrites.by_path[path];
    if (auto hit = cache.Lookup(key)) {
      rewrite = std::move(*hit);
      rewrites.cached.insert(path);
    } else {
      rewrite = rewriter->Rewrite(path, content, context);
      cache.Store(key, rewrite);
    }
    state.Report("build-files", ++done, total, path);
  }
  return absl::OkStatus();
}

}  // namespace hipforge::translate
