#pragma once
// UTF-8 checks for names that come from users (archive entries, job specs): reports, JSON and
// PostgreSQL all need valid UTF-8, so invalid names are refused where they enter, with a message
// that shows the bytes safely.
#include <string>
#include <string_view>

namespace hipforge {

// True when `text` is well-formed UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF).
bool IsValidUtf8(std::string_view text);

// `text` with every byte that is not printable ASCII or part of valid UTF-8 written as \xNN, and
// control characters (NUL, newline, ...) as \xNN too: safe to put in logs and error messages.
std::string EscapeForMessage(std::string_view text);

}  // namespace hipforge
