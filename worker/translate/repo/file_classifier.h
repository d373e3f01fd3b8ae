#pragma once
// Sorts a repository's files into the kinds the repository pass treats differently.
#include <filesystem>
#include <map>
#include <string>

#include "worker/translate/repo/repository_migration.h"

namespace hipforge::translate {

// By name alone where the name decides; C/C++ files also look at the content (does it use CUDA?).
RepoFileKind ClassifyFile(const std::string& relative_path, const std::string& content);

// True if C/C++ text refers to CUDA APIs, headers or libraries (so the source translator must see it).
bool UsesCuda(const std::string& content);

// Marks headers included (transitively) from CUDA sources as kHeader. `kinds` and `contents` are keyed by
// relative path; only entries classified kOther with a header extension are promoted.
void PromoteIncludedHeaders(const std::map<std::string, std::string>& contents,
                            std::map<std::string, RepoFileKind>& kinds);

// True if CUDA/C++ text declares device code that may be defined in another file: an `extern __device__` /
// `__constant__` / `__managed__` variable, or a `__device__` function declared without a body. Without such a
// declaration anywhere in a repository, no device code crosses files and relocatable device code is not needed.
// Comments are ignored; a forward declaration of a function defined later in the same file also counts (errs on
// keeping -fgpu-rdc).
bool DeclaresDeviceCodeDefinedElsewhere(const std::string& content);

const char* RepoFileKindName(RepoFileKind kind);

}  // namespace hipforge::translate
