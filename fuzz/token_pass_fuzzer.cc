// The translator's token pass over arbitrary source bytes, in both modes (with AST facts absent,
// i.e. fallback, with and without site discovery): edits stay inside the file, nothing crashes.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "worker/translate/core/name_resolver.h"
#include "worker/translate/core/token_pass.h"
#include "worker/translate/tables/mapping_index.h"

using namespace hipforge::translate;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const MappingIndex index;
  static const TranslateOptions options;
  static const NameResolver resolver(index, options);
  if (size == 0) return 0;
  // Files reach the pass as std::string (NUL after the last byte, which Clang's lexer relies on).
  const std::string content(reinterpret_cast<const char*>(data) + 1, size - 1);
  TokenPassInput input;
  input.path = "fuzz.cu";
  input.content = content;
  input.main_file = (data[0] & 1) != 0;
  input.discover_sites = (data[0] & 2) != 0;
  TokenPassOutput output = RunTokenPass(input, resolver);
  for (const auto& edit : output.edits) {
    if (edit.offset > input.content.size() || edit.offset + edit.length > input.content.size()) abort();
  }
  return 0;
}
