#include "worker/translate/core/preprocessor_condition.h"

#include <cstdlib>
#include <string>

namespace hipforge::translate {
namespace {

// Precedence climbing over C's preprocessor operators; std::nullopt flows as "unknown".
class Evaluator {
 public:
  Evaluator(const std::vector<ConditionToken>& tokens, const ConditionNames& names) : tokens_(tokens), names_(names) {}

  std::optional<int64_t> Run() {
    auto value = Conditional();
    if (!ok_ || at_ != tokens_.size()) return std::nullopt;
    return value;
  }

 private:
  using Value = std::optional<int64_t>;

  bool Is(std::string_view text) const { return at_ < tokens_.size() && tokens_[at_].text == text; }
  bool Accept(std::string_view text) {
    if (!Is(text)) return false;
    ++at_;
    return true;
  }

  Value Conditional() {
    Value condition = Binary(0);
    if (!Accept("?")) return condition;
    Value then = Conditional();
    if (!Accept(":")) ok_ = false;
    Value otherwise = Conditional();
    if (!condition) return then && otherwise && *then == *otherwise ? then : std::nullopt;
    return *condition ? then : otherwise;
  }

  static int Precedence(std::string_view op) {
    static constexpr std::pair<std::string_view, int> kTable[] = {
        {"||", 1}, {"&&", 2}, {"|", 3},  {"^", 4},  {"&", 5}, {"==", 6}, {"!=", 6}, {"<", 7},  {">", 7},
        {"<=", 7}, {">=", 7}, {"<<", 8}, {">>", 8}, {"+", 9}, {"-", 9},  {"*", 10}, {"/", 10}, {"%", 10}};
    for (const auto& [text, precedence] : kTable) {
      if (text == op) return precedence;
    }
    return 0;
  }

  Value Binary(int min_precedence) {
    Value left = Unary();
    while (at_ < tokens_.size() && tokens_[at_].kind == ConditionToken::kPunctuation) {
      const std::string_view op = tokens_[at_].text;
      const int precedence = Precedence(op);
      if (precedence == 0 || precedence <= min_precedence) break;
      ++at_;
      Value right = Binary(precedence);
      left = Apply(op, left, right);
    }
    return left;
  }

  static Value Apply(std::string_view op, Value a, Value b) {
    if (op == "&&") {
      if ((a && !*a) || (b && !*b)) return 0;
      return a && b ? Value(1) : std::nullopt;
    }
    if (op == "||") {
      if ((a && *a) || (b && *b)) return 1;
      return a && b ? Value(0) : std::nullopt;
    }
    if (!a || !b) return std::nullopt;
    const int64_t x = *a, y = *b;
    if (op == "|") return x | y;
    if (op == "^") return x ^ y;
    if (op == "&") return x & y;
    if (op == "==") return x == y;
    if (op == "!=") return x != y;
    if (op == "<") return x < y;
    if (op == ">") return x > y;
    if (op == "<=") return x <= y;
    if (op == ">=") return x >= y;
    if (op == "<<") return y >= 0 && y < 63 ? Value(x << y) : std::nullopt;
    if (op == ">>") return y >= 0 && y < 63 ? Value(x >> y) : std::nullopt;
    if (op == "+") return x + y;
    if (op == "-") return x - y;
    if (op == "*") return x * y;
    if (op == "/") return y != 0 ? Value(x / y) : std::nullopt;
    if (op == "%") return y != 0 ? Value(x % y) : std::nullopt;
    return std::nullopt;
  }

  Value Unary() {
    if (Accept("!")) {
      Value v = Unary();
      return v ? Value(!*v) : std::nullopt;
    }
    if (Accept("-")) {
      Value v = Unary();
      return v ? Value(-*v) : std::nullopt;
    }
    if (Accept("+")) return Unary();
    if (Accept("~")) {
      Value v = Unary();
      return v ? Value(~*v) : std::nullopt;
    }
    return Primary();
  }

  Value Primary() {
    if (at_ >= tokens_.size()) {
      ok_ = false;
      return std::nullopt;
    }
    if (Accept("(")) {
      Value v = Conditional();
      if (!Accept(")")) ok_ = false;
      return v;
    }
    const ConditionToken& token = tokens_[at_++];
    if (token.kind == ConditionToken::kNumber) {
      std::string digits(token.text);
      while (!digits.empty() &&
             (digits.back() == 'u' || digits.back() == 'U' || digits.back() == 'l' || digits.back() == 'L')) {
        digits.pop_back();
      }
      char* end = nullptr;
      const long long value = std::strtoll(digits.c_str(), &end, 0);
      if (end == nullptr || *end != '\0') return std::nullopt;
      return value;
    }
    if (token.kind != ConditionToken::kIdentifier) {
      ok_ = false;
      return std::nullopt;
    }
    if (token.text == "defined") {
      const bool paren = Accept("(");
      if (at_ >= tokens_.size() || tokens_[at_].kind != ConditionToken::kIdentifier) {
        ok_ = false;
        return std::nullopt;
      }
      const std::string_view name = tokens_[at_++].text;
      if (paren && !Accept(")")) ok_ = false;
      auto known = names_.defined(name);
      return known ? Value(*known) : std::nullopt;
    }
    if (Is("(")) return std::nullopt;  // a function-like macro: unknown
    return names_.value(token.text);
  }

  const std::vector<ConditionToken>& tokens_;
  const ConditionNames& names_;
  size_t at_ = 0;
  bool ok_ = true;
};

}  // namespace

std::optional<int64_t> EvaluateCondition(const std::vector<ConditionToken>& tokens, const ConditionNames& names) {
  return Evaluator(tokens, names).Run();
}

}  // namespace hipforge::translate
