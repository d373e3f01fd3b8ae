#pragma once
// Removes secrets from text bound for logs, job events and error messages: hipforge tokens keep
// their visible id ("hft_0123456789ab_<redacted>"), database URLs and libpq strings lose their
// passwords ("postgres://user:<redacted>@host/db", "password=<redacted>").
#include <string>
#include <string_view>

namespace hipforge {

std::string RedactSecrets(std::string_view text);

}  // namespace hipforge
