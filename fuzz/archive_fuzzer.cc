// SafeExtract over arbitrary bytes: it must never crash, never write outside its target, never
// leave anything behind when it refuses, and stay within its limits.
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

#include "common/archive.h"
#include "fuzz/fuzz_support.h"

namespace fs = std::filesystem;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const fs::path sandbox = hipforge::fuzz::MakeSandbox("archive");
  const fs::path target = sandbox / "t";
  hipforge::ExtractLimits limits;
  limits.max_uncompressed_bytes = 8 << 20;
  limits.max_files = 2000;
  limits.ratio_check_floor_bytes = 1 << 20;
  // The first byte picks the chunk size the bytes arrive in: the verdict must not depend on it.
  const size_t chunk = size > 0 ? size_t{1} << (data[0] % 17) : 1;
  const std::string_view archive(reinterpret_cast<const char*>(data), size);
  auto extract = [&](size_t piece) {
    size_t offset = 0;
    auto source = [&]() -> absl::StatusOr<std::string_view> {
      std::string_view next = archive.substr(offset, piece);
      offset += next.size();
      return next;
    };
    return hipforge::SafeExtract(source, target, limits);
  };
  absl::StatusOr<hipforge::ExtractResult> first = extract(chunk);
  if (first.ok() && first->uncompressed_bytes > limits.max_uncompressed_bytes) abort();
  hipforge::fuzz::ExpectOnlyChild(sandbox, "t", /*child_may_be_non_empty=*/first.ok());
  hipforge::fuzz::Clear(target);
  absl::StatusOr<hipforge::ExtractResult> whole = extract(archive.size() + 1);
  if (first.ok() != whole.ok() || first.status().code() != whole.status().code()) abort();  // chunking changed it
  hipforge::fuzz::Clear(target);
  return 0;
}
