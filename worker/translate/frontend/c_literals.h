#pragma once
// C/C++ literal values read from token text: the one integer-literal parser the analyzer's token rules and the
// translator's token pass share (tests/translate/core/source_translator_test.cc, CLiterals).
#include <string_view>

namespace hipforge::translate {

// The value of a C++ integer literal: decimal, hex (0x), binary (0b), octal (0...), digit separators ('),
// u/l/ul/ll/ull suffixes ("0xFFFF'FFFFu" -> 4294967295). False when the text is not an integer literal or the
// value does not fit in 64 bits.
bool ParseIntegerLiteral(std::string_view text, unsigned long long* value);

// The contents of a string-literal token without quotes and prefixes (escapes left as written).
std::string_view StringLiteralBody(std::string_view token_text);

}  // namespace hipforge::translate
