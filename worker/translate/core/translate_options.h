#pragma once
// The translator's options (SourceTranslator's, and the parts' below it: argument rewrites, the edit composer, the
// name resolver, unit arguments), apart from source_translator.h so that those parts need not include it.
#include <cstdint>
#include <filesystem>
#include <optional>

#include "worker/translate/frontend/compile_arguments.h"
#include "worker/translate/frontend/cuda_frontend.h"
#include "worker/translate/tables/api_mapping.h"

namespace hipforge::translate {

struct TranslateOptions {
  CudaFrontendOptions frontend;
  ApiVersion target_hip_version{6, 4};       // emit only what this HIP/ROCm release supports
  bool hip_kernel_execution_syntax = false;  // hipLaunchKernelGGL instead of <<<>>>
  bool roc = false;                          // rocBLAS/rocSPARSE/... names instead of hip* where available
  bool miopen = false;                       // cuDNN -> MIOpen
  bool use_hip_data_types = false;           // hipDataType instead of hipblasDatatype_t etc.
  bool experimental = false;                 // translate APIs whose HIP side is experimental
  // Library headers at the path ROCm installs them (hipblas/hipblas.h, from the tables' hip_installed_name),
  // not HIPIFY's spelling (hipblas.h, which no ROCm 6 install has); migrate-hipify keeps HIPIFY's by default.
  bool installed_header_layout = true;
  // cuBLAS takes __half; hipBLAS (5.7.1, 6.4.3 checked) takes uint16_t unless HIPBLAS_USE_HIP_HALF is defined
  // before its header: the hipBLAS include gets that define. migrate-hipify adds it only when asked.
  bool hipblas_hip_half = true;
  bool translate_inactive_branches = true;  // false = --skip-excluded-preprocessor-conditional-blocks
  bool amap = false;                        // --amap: translate inactive branches even when skipping them
  bool default_preprocessor = false;
  bool guess_build_flags = true;  // without -p: include dirs guessed from the tree, -D from build files
  bool use_prelude_pch = true;    // precompile the CUDA prelude once (see prelude_pch.h)
  bool use_preamble_pch = true;   // and each distinct library preamble, chained on it (needs the prelude's)
  bool use_prefix_pch = true;     // and each include prefix units of a job share, for the job (prefix_pch.h)
  // A unit holding only #includes and declarations, nothing to translate of its own (ggml's template-instance
  // units: an #include and a macro call that instantiates kernels), is not parsed when an earlier unit of the same
  // configuration parsed every project header it includes: the headers' facts are that unit's (the report names
  // it: covered_by). The translation is the same (the facts sit in the templates' patterns), and a companion's
  // rules, which judge instantiations, run on the covered units in one parse per group of them, over their
  // instantiations only (ggml: tree, patch and findings identical, 37% less CPU, bench/ggml/README.md).
  // $HIPFORGE_SKIP_COVERED_UNITS=1 or 0 overrides it.
  bool skip_covered_units = true;
  std::optional<std::filesystem::path> pch_directory;  // unset: <cache_directory>/pch, else ~/.cache/hipforge/pch
  // The PCH directory's size cap in bytes, least recently used PCHs evicted past it (pch_cache.h); 0: unbounded.
  // Unset: $HIPFORGE_PCH_CACHE_SIZE ("2G", "500M"), else 2 GiB.
  std::optional<uint64_t> pch_cache_bytes;
  unsigned jobs = 0;                                     // 0: hardware concurrency
  std::optional<std::filesystem::path> cache_directory;  // content-hash cache
  // compile_commands.json (the file, or a directory holding one); unset: one found in the tree is used.
  std::optional<std::filesystem::path> compilation_database;
  ArgumentSource compilation_database_source = ArgumentSource::kCompileDatabase;  // reported per unit
  bool trust_compilation_database = false;  // the local user's own (-p): paths outside the tree are kept
  bool find_compile_commands = true;        // look for compile_commands.json in the tree (root, build/, out/)
};

}  // namespace hipforge::translate
