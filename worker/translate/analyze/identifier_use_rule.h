#pragma once
// Base for token rules that are decided by CUDA identifiers alone (API names are unambiguous): which names,
// how often to report, and what to say. Subclasses are still one class per rule.
#include <string>
#include <vector>

#include "worker/translate/analyze/rule.h"

namespace hipforge::translate::analyze {

class IdentifierUseRule : public Rule {
 public:
  enum class Granularity {
    kEveryCall,      // each call `name(...)`
    kEveryUse,       // each mention (types, enumerators, calls)
    kFirstPerScope,  // the first mention per function (or file scope): "this function uses subsystem X"
  };
  struct Spec {
    std::vector<IdentifierPattern> patterns;
    Granularity granularity = Granularity::kEveryCall;
    std::string message;  // "{name}" is replaced by the identifier found
    std::string fix;
  };

  using Rule::Rule;
  void CheckTokens(const TextFile& file) override;

 protected:
  virtual const Spec& spec() const = 0;
  // Further conditions on a match at tokens[index] (e.g. an argument); default: accept.
  virtual bool Accept(const TextFile& file, size_t index) const {
    (void)file;
    (void)index;
    return true;
  }
  virtual std::vector<EditSpec> Edits(const TextFile& file, size_t index) const {
    (void)file;
    (void)index;
    return {};
  }
};

std::string ReplaceName(std::string text, std::string_view name);

}  // namespace hipforge::translate::analyze
