// The hipforge.yaml manifest parser over arbitrary text: errors are statuses, never crashes, hangs
// or exceptions.
#include <cstdint>
#include <string_view>

#include "worker/validate/manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  hipforge::validate::ParseManifest(std::string_view(reinterpret_cast<const char*>(data), size)).ok();
  return 0;
}
