#pragma once
// Parses one C/C++/CUDA file with Clang and runs the AST rules over it and over the project headers it includes.
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "worker/translate/translation_types.h"

namespace hipforge::translate::analyze {

struct TranslationUnitResult {
  bool parsed = false;      // no Clang errors: the AST findings are complete
  bool fatal = false;       // a fatal error (missing header, ...) cut the AST short: its findings are unusable
  std::string first_error;  // "path:line: message" of the first error when !parsed
  std::vector<Finding> findings;                 // AST findings in files under the root
  std::set<std::string> covered_files;           // root-relative files the preprocessor entered
  std::map<std::string, std::vector<std::pair<uint32_t, uint32_t>>> skipped_ranges;  // per root-relative file
};

// `readable_roots` non-empty: the parse reads nothing outside them (frontend/confined_file_system.h).
TranslationUnitResult RunAstRules(const std::vector<std::string>& clang_args, const std::filesystem::path& file,
                                  const std::filesystem::path& canonical_root, const std::set<std::string>& disabled,
                                  const std::vector<std::string>& readable_roots = {});

}  // namespace hipforge::translate::analyze
