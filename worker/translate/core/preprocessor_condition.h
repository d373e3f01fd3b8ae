#pragma once
// Evaluates an `#if` condition from its tokens when every name in it is known (version macros read as the
// target HIP release has them, HIP's own platform macros); unknown names make the result unknown, except
// where && / || / ?: decide without them. Used to say, before anything is built, which branch of a
// version chain a translated file takes (and whether that branch is an #error).
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace hipforge::translate {

struct ConditionToken {
  enum Kind { kNumber, kIdentifier, kPunctuation } kind;
  std::string_view text;
};

struct ConditionNames {
  std::function<std::optional<int64_t>(std::string_view)> value;  // a macro's value; nullopt: unknown
  std::function<std::optional<bool>(std::string_view)> defined;   // defined(NAME); nullopt: unknown
};

std::optional<int64_t> EvaluateCondition(const std::vector<ConditionToken>& tokens, const ConditionNames& names);

}  // namespace hipforge::translate
