#include "worker/translate/frontend/raw_lexer.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"

namespace hipforge::translate {
namespace {

clang::LangOptions CudaLangOptions() {
  clang::LangOptions options;
  options.CPlusPlus = options.CPlusPlus11 = options.CPlusPlus14 = options.CPlusPlus17 = 1;
  options.CUDA = 1;
  options.Bool = 1;
  options.LineComment = 1;
  options.GNUMode = 1;
  return options;
}

}  // namespace

std::vector<RawToken> LexAll(std::string_view content) {
  std::vector<RawToken> tokens;
  const clang::LangOptions options = CudaLangOptions();
  // An invalid file location makes token locations equal to their byte offsets.
  clang::Lexer lexer(clang::SourceLocation(), options, content.data(), content.data(), content.data() + content.size());
  clang::Token token;
  while (true) {
    lexer.LexFromRawLexer(token);
    if (token.is(clang::tok::eof)) break;
    tokens.push_back(
        {token.getKind(), token.getLocation().getRawEncoding(), token.getLength(), token.isAtStartOfLine()});
  }
  return tokens;
}

}  // namespace hipforge::translate
