#pragma once
// Token-level facts and rewrites the token pass applies beside its renames: what clang's HIP mode rejects
// although nvcc accepts it, and where the runtime include may go in a file with `extern "C"` blocks or
// CUDA-only regions.
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "worker/translate/core/translation_facts.h"
#include "worker/translate/frontend/raw_lexer.h"

namespace hipforge::translate {

// The `register` storage-class words to delete (each range covers the word and the blanks after it). C++17
// removed the storage class and clang rejects it there (nvcc only warns); it never changed meaning since C++11,
// so deleting it is exact. Kept: GNU explicit register variables (`register int r asm("v0")`), which need it.
std::vector<ByteRange> RegisterStorageWords(std::string_view content, std::span<const RawToken> tokens);

// `extern "C" { ... }` blocks, from the `extern` word to the closing brace (an unclosed block runs to the end).
std::vector<ByteRange> ExternCBlocks(std::string_view content, std::span<const RawToken> tokens);

// Where text meant for file scope goes when `offset` lies inside one of `blocks`: the start of the block's line,
// or of the `#ifdef __cplusplus` / `#if defined(__cplusplus)` line right before it; `offset` otherwise. C++
// templates in an included header (hip_runtime.h) cannot have C linkage.
uint32_t OutsideExternC(std::string_view content, std::span<const ByteRange> blocks, uint32_t offset);

// The bodies of `#ifdef __CUDACC__` / `#if defined(__CUDACC__)` / `#if defined __CUDACC__` regions: from the
// line after the directive to the `#else`, `#elif` or `#endif` that ends it.
std::vector<ByteRange> CudaCompilerRegions(std::string_view content, std::span<const RawToken> tokens);

// The region of `regions` that holds every offset of `uses` (none when `uses` is empty or they spread).
std::optional<ByteRange> RegionHoldingAll(std::span<const ByteRange> regions, std::span<const uint32_t> uses);

// The offsets just after each file-scope `#include` line: not inside a conditional (an include guard does not
// count when `guarded`) nor an `extern "C"` block. Shims go after the last one before their first use.
std::vector<uint32_t> FileScopeIncludeEnds(std::string_view content, std::span<const RawToken> tokens, bool guarded);

// What a shimmed name at `index` is: a call (`name (`), a declaration or definition of the project's own
// (`type name (`: the program defines it itself), or neither (a member, a qualified name, not followed by '(').
enum class CallUse { kNone, kCall, kOwnDeclaration };
CallUse ClassifyCallUse(std::string_view content, std::span<const RawToken> tokens, size_t index);

// Whether the identifier at `index` is declared there by the program (`int cudaBlockSize = 256;`, a parameter
// `dim3 cudaGrid)`, `float cudaTile[32];`, a function `void cudaHelper(`): the same type-before reading as
// ClassifyCallUse, followed by what ends a declarator.
bool DeclaresName(std::string_view content, std::span<const RawToken> tokens, size_t index);

}  // namespace hipforge::translate
