#pragma once
// Inline-PTX asm statements matched against the PTX idiom table (tables/ptx_table.h): the statement's parts
// (template text, operands) and, when one record matches, the HIP statement that replaces it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "worker/translate/analyze/token_file.h"

namespace hipforge::translate::analyze {

struct AsmOperand {
  std::string constraint;  // "=r", "+f", "l", "n", ...
  std::string expression;  // the C++ expression inside the parentheses
};

struct ParsedAsm {
  uint32_t begin = 0;                // the asm keyword
  uint32_t end = 0;                  // one past the closing ')'
  std::string text;                  // the template, string literals concatenated (escapes as written)
  std::vector<AsmOperand> operands;  // outputs, then inputs (PTX numbers them in this order)
  bool rewritable = false;           // plain literals, positional operands, no goto: a candidate for the table
};

// Parses the asm statement whose keyword is tokens[keyword]; nullopt when it is not one.
std::optional<ParsedAsm> ParseAsmStatement(const TextFile& file, size_t keyword);

// The template as the table writes it (see PtxIdiom::ptx): one space between words, none around punctuation,
// `%%` -> `%`, operand references `%N` kept, no trailing ';'.
std::string NormalizePtx(std::string_view text);

struct PtxReplacement {
  std::string statement;    // HIP text replacing the asm statement (without the ';' that follows it)
  std::string instruction;  // the table record's PTX, for the message
  std::string caveat;       // non-empty when the rewrite is not bit-identical
};
std::optional<PtxReplacement> MatchPtxIdiom(const ParsedAsm& statement);

// The opcodes of a PTX template ("cp.async.cg.shared.global", "ld.global.v4.f32"), in order, without repeats.
std::vector<std::string> PtxInstructions(std::string_view text);

}  // namespace hipforge::translate::analyze
