#pragma once
// Include prefixes shared by parses other than the translator's own (the analyzer's device side), as the
// translator's units share theirs (core/prefix_pch.h): a PCH of the longest prefix of leading directives a unit
// has in common with another counted unit, built once and removed with the object. Free of Clang headers.
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "worker/translate/frontend/unit_parser.h"

namespace hipforge::translate {

class SharedPrefixes {
 public:
  virtual ~SharedPrefixes() = default;
  // Each unit to be parsed (absolute) with its Clang arguments (no PCH), before the first For. Thread-safe.
  virtual void Count(const std::filesystem::path& unit, const std::vector<std::string>& args) = 0;
  struct Prefix {
    std::filesystem::path pch;
    nlohmann::json record;  // the recorder's PrefixRecord over the prefix: the parse's consumer is seeded with it
  };
  // The PCH for `unit`, chained on the one `args` loads (-include-pch of the prelude PCH), built on first use with
  // `recorder` (a consumer like the parse's, its preprocessor callbacks only); nullopt: none. Thread-safe.
  virtual std::optional<Prefix> For(const std::filesystem::path& unit, const std::vector<std::string>& args,
                                    const std::vector<std::string>& readable_roots,
                                    const std::function<std::unique_ptr<ParseConsumer>()>& recorder) = 0;
};

// Makes one per pass over the units of `root` (canonical); null: no shared prefixes there.
using SharedPrefixesFactory = std::function<std::unique_ptr<SharedPrefixes>(const std::filesystem::path& root)>;

}  // namespace hipforge::translate
