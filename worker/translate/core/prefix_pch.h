#pragma once
// Include prefixes shared by a job's units (issue 31): most units of a large project begin with the same
// project headers (ggml's `#include "common.cuh"`, or `#include "../fattn-vec.cuh"` in 49 template instances),
// which every unit's parse would preprocess and parse again. The longest prefix of a unit's leading directives
// that another unit to be parsed in this job shares (same configuration: the same Clang arguments) is built
// once per job into a PCH chained on the prelude PCH, and each unit starting with it is parsed once, whole,
// with it. Project function bodies stay in it; what the consumers' preprocessor callbacks saw over the prefix
// is recorded at the build (ParseConsumer::PrefixRecord) and handed to each parse that loads it, and the
// matchers visit the PCH's project declarations (UnitParseRequest::project_pch): the facts are those of a parse
// without the PCH. The PCHs live in a directory of the job's own, removed at its end: a PCH never outlives the
// files it was built from, and a job never sees another's.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "worker/translate/core/pch_cache.h"
#include "worker/translate/core/translate_options.h"
#include "worker/translate/frontend/shared_prefixes.h"
#include "worker/translate/frontend/unit_parser.h"

namespace hipforge::translate {

struct IncludePrefix {
  std::string text;  // the directives, one per line; quoted includes found beside the unit made absolute
  std::string key;   // text, Clang arguments, extension and `salt`: equal keys precompile the same thing
  // A prefix taken from inside the project headers the unit begins with (acc.cu's `#include "acc.cuh"`, whose own
  // leading `#include "common.cuh"` is the prefix), outermost first: the unit's parse enters each after loading the
  // PCH, so a PCH that entered one of them is not the unit's (PrefixPchs::Get).
  std::vector<std::filesystem::path> inside;
};

// A unit's candidate prefixes in one configuration (`args`: its Clang arguments, without any PCH), shortest
// first: its leading directives cut after each #include where every conditional is closed, once one of the
// includes reaches a project file under `root` (beside the unit, or through an -I/-iquote directory in the tree):
// library headers alone are the prelude's and the library preamble's. Only #include, #define, #undef and
// conditionals qualify (a #pragma or anything else ends the candidates, so does a computed include or
// __has_include, which would look in the PCH source's directory). A quoted include of a project header beside the
// file, outside any conditional, is also followed into the header's own leading directives (past its #pragma once;
// three headers deep at most): those candidates come before the include's own, as what the preprocessor reads
// first (ggml: 41 of ggml-cuda's 66 units begin with a header of their own that begins with common.cuh, which
// only 15 include first themselves). An #ifndef-guarded header is not followed: its #define would have to stay out
// of the PCH (the unit's parse must enter the header), so only units beginning with that same header could share
// the prefix, and they share the header's own include.
std::vector<IncludePrefix> IncludePrefixes(std::string_view content, const std::filesystem::path& unit,
                                           const std::filesystem::path& root, const std::vector<std::string>& args,
                                           const CacheLocations& locations, std::string_view salt);

// Which prefix each unit of a job uses: the longest of its candidates that at least one other unit (or another
// configuration) to be parsed in the job has too. Count every unit first, then Choose: the shared candidates,
// longest first (the next is tried when a PCH does not build or is not the unit's).
class IncludePrefixPlan {
 public:
  void Count(const std::vector<IncludePrefix>& candidates);  // thread-safe
  std::vector<IncludePrefix> Choose(const std::vector<IncludePrefix>& candidates) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, int> counts_;
};

// A directory of the job's own for its prefix PCHs under `pch_directory`: `prefix-job-<pid>-<n>` (no dot, so the
// cache's eviction leaves it alone; PrefixPchs removes it). On the way, removes those of jobs whose process is gone
// (killed before removing theirs) and that nothing wrote to for an hour.
std::filesystem::path NewPrefixJobDirectory(const std::filesystem::path& pch_directory);

// One job's prefix PCHs, in `directory` (created on first use, removed with everything in it on destruction).
class PrefixPchs {
 public:
  explicit PrefixPchs(std::filesystem::path directory) : directory_(std::move(directory)) {}
  ~PrefixPchs();
  PrefixPchs(const PrefixPchs&) = delete;
  PrefixPchs& operator=(const PrefixPchs&) = delete;

  struct Built {
    std::filesystem::path pch;
    nlohmann::json record;          // one ParseConsumer::PrefixRecord per consumer, in the order the build gave them
    std::set<std::string> entered;  // the files the build entered (real paths)
  };
  struct Request {
    std::string extension;          // the unit's (".cu"): the PCH source is parsed as the unit is
    std::vector<std::string> args;  // the unit's, with -include-pch of the prelude PCH
    std::vector<std::string> readable_roots;
    std::filesystem::path root;  // the project
    // The consumers whose preprocessor callbacks record the prefix (called only when it is built).
    std::function<std::vector<std::unique_ptr<ParseConsumer>>()> consumers;
  };
  // The PCH of `prefix`, built by the first caller (others wait for it); null when it does not build (an error in
  // the prefix, a directly included file without an include guard) or when it entered a header the prefix was
  // taken from (a cycle back to it): the unit is parsed without it. `shared`: the unit's other shared candidates
  // (Choose's); the longest whose text begins `prefix`'s is built first and `prefix` is chained on it, its
  // consumers seeded with that one's record, so what every prefix begins with (ggml's common.cuh) is parsed once
  // per job and configuration instead of once per prefix.
  const Built* Get(const IncludePrefix& prefix, const Request& request, const std::vector<IncludePrefix>& shared = {});
  // The PCH of the first of `shared` (IncludePrefixPlan::Choose's order) that Get gives and `usable` accepts. After
  // one that does not, only a prefix taken from another file is tried: a shorter cut of the same directives would
  // most likely fail the same way.
  const Built* First(const std::vector<IncludePrefix>& shared, const Request& request,
                     const std::function<bool(const Built&)>& usable);

  uint64_t builds() const;  // PCH builds so far (tests: one per shared prefix and configuration)

 private:
  // Get without the check of the headers the prefix was taken from (a base's PCH is checked with the PCH of the
  // prefix chained on it, which holds the files both entered).
  const Built* Build(const IncludePrefix& prefix, const Request& request, const std::vector<IncludePrefix>& shared);
  struct Entry {
    std::once_flag once;
    std::unique_ptr<Built> built;  // null until built, and when it does not build
  };
  std::filesystem::path directory_;
  mutable std::mutex mutex_;
  std::map<std::string, std::unique_ptr<Entry>> entries_;
  uint64_t builds_ = 0;
};

// SharedPrefixes (frontend/shared_prefixes.h) over PrefixPchs of their own, in a job directory under
// `locations.pch`: the analyzer's device-side parses of the units of `root` (canonical).
std::unique_ptr<SharedPrefixes> MakeSharedPrefixes(const std::filesystem::path& root, const CacheLocations& locations);
// Makes them in the translator's PCH directory for `options` (AnalyzeOptions::device_prefixes; defined beside the
// translator, source_translator.cc); null where the translator would have no prefix PCHs (off in `options` or with
// $HIPFORGE_PREFIX_PCH=0, prelude PCHs off, no CUDA toolkit). The factory gives null for a root holding that directory.
SharedPrefixesFactory MakeSharedPrefixesFactory(TranslateOptions options);

}  // namespace hipforge::translate
