#pragma once
// CUDA device functions (and overloads) that HIP's headers lack but that have an exact definition in terms of
// what HIP has: written inline into the translated file, once, after the last file-scope #include before the
// first call (compat_shims.h has the include-replacing shims). Each use is reported as a TR013 note.
#include <span>
#include <string_view>

#include "worker/translate/tables/api_mapping.h"

namespace hipforge::translate {

struct DeviceFunctionShim {
  std::string_view guard;  // macro the definitions sit under, so a second copy (another header) is harmless
  std::span<const std::string_view> names;  // calls of these names need it
  // Only when one of these words appears in the file too (the half overloads of atomicAdd: the call name alone
  // is every atomicAdd); empty = always.
  std::span<const std::string_view> with_any_of;
  // The mapping record naming the CUDA function whose table state decides (TargetHipLacks); empty: decided by
  // `checked_through` instead (an overload HIP may add under a name it already has).
  std::string_view record;
  ApiVersion checked_through;  // with `record` empty: HIP releases up to this one lack it (checked headers)
  std::string_view code;       // the lines written, ending in '\n'
  std::string_view note;       // what the TR013 note says about it
  // `names` are types, not functions: the AST pass rewrites their conversions in device code into calls of
  // `rewritten_to`, and the code is written where it did.
  bool type_names = false;
  std::string_view rewritten_to;
};

std::span<const DeviceFunctionShim> DeviceFunctionShims();

}  // namespace hipforge::translate
