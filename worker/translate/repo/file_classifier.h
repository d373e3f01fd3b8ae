#pragma once
// Sorts a repository's files into the kinds the repository pass treats differently.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "common/source_files.h"
#include "worker/translate/repo/migration_types.h"

namespace hipforge::translate {

// The repository pass's kind: common/source_files.h's FileKindOf, except that a C/C++ file that does not use CUDA
// (UsesCuda) is kOther. .cu and .cuh files are CUDA whatever they contain.
RepoFileKind ClassifyFile(const std::string& relative_path, const std::string& content);

// The repository paths a file's `#include "..."` lines may name, in the order a compiler looks: beside the file,
// then from the repository root (each normalized; whether it exists is the caller's question).
std::vector<std::vector<std::string>> QuotedIncludeCandidates(const std::string& path, const std::string& content);

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

// The kind a report names a file by: FileKindOf's, as the analyzer names it, also for a C/C++ file that
// ClassifyFile made kOther because it does not use CUDA (the report's `translated_as_cuda` tells them apart).
RepoFileKind ReportedFileKind(const std::string& relative_path, RepoFileKind kind);

}  // namespace hipforge::translate
