#pragma once
// Inline-PTX idioms with an exact HIP equivalent (data). The analyzer's HB201 rule matches one-instruction asm
// statements against these records and rewrites them; every other PTX asm is reported with its instructions named.
#include <span>
#include <string_view>

namespace hipforge::translate {

// How the HIP text of a record is made.
enum class PtxRewrite : unsigned char {
  kTemplate,         // `hip` with $d/$a/$b/$c replaced by the operands' expressions
  kBitFieldExtract,  // bfe.u32/u64 with immediate position and length: a shift and a mask
  kBitFieldInsert,   // bfi.b32/b64 with immediate position and length
  kLop3,             // lop3.b32 with an immediate look-up table: the table's minterms written out
};

struct PtxIdiom {
  // The instruction as written, after normalization: whitespace runs become one space, no space after commas,
  // `%%` becomes `%`, the trailing ';' goes. Operands: $d (destination), $a $b $c (sources), #a #b #c
  // (integer immediates, written literally or passed with an "n" constraint).
  std::string_view ptx;
  std::string_view hip;  // HIP expression statement (kTemplate)
  PtxRewrite rewrite = PtxRewrite::kTemplate;
  // Why the rewrite is not bit-identical, when it is not (said in the finding); empty when exact.
  std::string_view caveat = {};
};

std::span<const PtxIdiom> PtxIdioms();

}  // namespace hipforge::translate
