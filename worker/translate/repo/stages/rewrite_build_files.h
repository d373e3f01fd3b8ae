#pragma once
// Stage: build files, scripts, containers, CI and Python through their rewriters (RewriterRegistry), each
// result cached under <cache>/repo-pass by rewriter, version, pass fingerprint, path and content. CuPy kernels
// in Python go through the source translator (cupy_snippet.h).
#include "worker/translate/repo/stages/migration_state.h"

namespace hipforge::translate {

absl::Status RewriteBuildFiles(MigrationState& state, const MigrationTools& tools);

}  // namespace hipforge::translate
