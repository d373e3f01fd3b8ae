#pragma once
// What a parse (or the lexer fallback) learned about one file, as plain offsets into its ORIGINAL bytes.
// Kept free of Clang headers and serialisable, so the content-hash cache can store it and headers included by
// several translation units can merge the facts of each.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "worker/translate/translation_types.h"

namespace hipforge::translate {

struct ByteRange {
  uint32_t begin = 0;
  uint32_t end = 0;  // one past the last byte
  bool operator==(const ByteRange&) const = default;
  auto operator<=>(const ByteRange&) const = default;
};

// `kernel<<<grid, block[, shmem[, stream]]>>>(args)`; absent shmem/stream (or default arguments) mean 0.
struct LaunchSite {
  ByteRange whole;   // from the kernel name to the closing parenthesis
  ByteRange callee;  // kernel name, with template arguments
  bool template_callee = false;
  std::vector<ByteRange> config;  // 2 to 4 ranges
  std::optional<ByteRange> args;  // all kernel arguments, when there are any
  // The `<<<` and `>>>` as written; set by the lexer when they were split (`<< <`), so they can be rejoined.
  std::optional<ByteRange> open_chevrons;
  std::optional<ByteRange> close_chevrons;
  bool operator==(const LaunchSite&) const = default;
};

// A warp *_sync intrinsic call whose mask must go for HIP releases before 6.2.
struct WarpCallSite {
  ByteRange callee;
  std::string name;
  ByteRange mask;          // the first argument
  uint32_t next_arg = 0;   // where the second argument starts
  bool full_mask = false;  // proven all-ones (AST: constant evaluation; lexer: literal)
  bool operator==(const WarpCallSite&) const = default;
};

// A rewrite of one call argument decided on the AST (see argument_rewrites.h), as a plain edit.
struct FactsEdit {
  TextEdit edit;
  bool operator==(const FactsEdit& other) const {
    return edit.offset == other.edit.offset && edit.length == other.edit.length &&
           edit.replacement == other.edit.replacement;
  }
};

struct FileFacts {
  std::vector<ByteRange> skipped;  // inactive preprocessor branches in this configuration
  std::vector<LaunchSite> launches;
  std::vector<WarpCallSite> warp_calls;
  std::vector<FactsEdit> edits;     // AST-decided argument rewrites and overload renames
  std::vector<Finding> findings;    // e.g. a launch the translator could not rewrite
  std::vector<std::string> macros;  // macros this project defines here (not unconverted CUDA names)
  // CUDA-looking names the project declares in any of its files this unit includes (`int cudaBlockSize` in a header
  // used here): the program's own, not unconverted CUDA names.
  std::vector<std::string> own_names;
  // A legacy cuBLAS name here expanded to cublas_v2.h's macro (cublasSgemm -> cublasSgemm_v2): cublas_v2.h came in
  // through another header, so the v2 API is what this file calls.
  bool blas_v2 = false;
};

// Everything one translation unit contributes: its own facts and those of the project headers it includes.
struct UnitFacts {
  bool parsed = false;                              // false: the lexer fallback produced these facts
  std::string fallback_reason;                      // first Clang error when !parsed
  std::map<std::string, FileFacts> files;           // key: path relative to the root; includes the unit itself
  std::map<std::string, std::string> dependencies;  // relative path -> sha256 of its content at parse time
  // What a companion of the parse (frontend/unit_parser.h: the analyzer's AST rules) recorded, cached with the
  // facts; null without a companion.
  nlohmann::json companion;
};

nlohmann::json ToJson(const UnitFacts& facts);
UnitFacts UnitFactsFromJson(const nlohmann::json& json);  // throws nlohmann::json::exception on bad input

}  // namespace hipforge::translate
