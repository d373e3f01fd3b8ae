#pragma once
// Debian's Abseil is built with its own absl::string_view (not std::string_view); this bridges the two.
#include <string_view>

#include "absl/strings/string_view.h"

namespace hipforge::validate {

inline absl::string_view ToAbsl(std::string_view s) { return absl::string_view(s.data(), s.size()); }

}  // namespace hipforge::validate
