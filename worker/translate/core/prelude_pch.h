#pragma once
// A precompiled header of the CUDA prelude (Clang's CUDA runtime wrapper and the toolkit headers it pulls
// in), built once per distinct argument list and reused by every parse, in this process and later ones.
// Parsing those headers is most of the time a translation takes; loading the PCH is lazy and cheap.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "worker/translate/core/pch_cache.h"
#include "worker/translate/frontend/unit_parser.h"

namespace hipforge::translate {

// The PCH for `args` (Clang arguments without the file) in `locations.pch`, built when missing. nullopt when it
// cannot be built (for example without a CUDA toolkit there is little to precompile; callers parse normally).
// Its key names the cache's locations by role (CacheLocations::KeyText): a copied cache hits.
std::optional<std::filesystem::path> EnsurePreludePch(const std::vector<std::string>& args,
                                                      const CacheLocations& locations);

// A precompiled header of a unit's library preamble (Clang's preamble: the leading comments and directives),
// chained on the prelude PCH. Built only when every file the preamble includes, directly or not, lies outside
// the project, so project headers stay in the unit's own parse (the translator rewrites them). The unit is then
// parsed whole with `-include-pch` of it: its own #includes meet include guards, and the preprocessor callbacks
// still see every directive. Units with the same preamble bytes and arguments share one PCH.
struct PreamblePchRequest {
  std::string_view content;                 // the unit's bytes
  std::filesystem::path unit;               // absolute
  std::filesystem::path root;               // absolute, canonical: the project
  std::vector<std::string> args;            // the unit's Clang arguments, the prelude's -include-pch included
  std::vector<std::string> readable_roots;  // as the parse's (empty: unconfined)
  std::filesystem::path directory;          // the PCH cache directory
  std::filesystem::path shim_directory;     // keys name it and `directory` by role, not by path (pch_cache.h)
};

// The preamble PCH for `request`, built when missing and seen before (a `.seen` marker records the first
// sighting: a preamble is precompiled only once a second unit or a later run has it); nullopt when the unit has
// no library preamble, on its first sighting, when it includes a project file, or when it does not build (a
// `.none` marker then keeps it from being tried again). `refused`, when given, says whether the unit's preamble
// is not a library preamble or cannot be precompiled as one (not set on a first sighting): its units may then
// share a project include prefix instead (prefix_pch.h).
std::optional<std::filesystem::path> EnsurePreamblePch(const PreamblePchRequest& request, bool* refused = nullptr);

// Forgets a preamble PCH that failed a parse the unit passes without it: removed; when not merely `stale` (a
// header changed since it was built: rebuilt next time) also marked, so it is never built again.
void RejectPreamblePch(const std::filesystem::path& pch, bool stale);

// PCHs this process built so far, prelude, preamble and prefix (tests: a shared preamble is built once).
uint64_t PchBuildCount();

// One PCH build: `text` written to `source`, precompiled into `pch` (through a temporary, renamed into place).
struct PchBuild {
  std::filesystem::path pch;
  std::filesystem::path source;
  std::string text;
  std::vector<std::string> args;
  std::vector<std::string> readable_roots;  // as the parse's (empty: unconfined)
  bool skip_bodies = true;                  // function bodies skipped (all, or only the library's: project_root)
  std::optional<std::filesystem::path> forbidden_root;  // a project file entered fails the build (library preamble)
  // A project prefix (prefix_pch.h): the bodies of functions in files under it are kept, the files the source
  // includes itself must be include-guarded (a unit parsed with the PCH includes them again), and `consumers`
  // see the preprocessor run (ParseConsumer::BeginParse; no matchers).
  std::optional<std::filesystem::path> project_root;
  bool require_guarded_includes = false;
  std::vector<ParseConsumer*> consumers;
  std::set<std::string>* entered = nullptr;  // when set: the real path of every file the build entered
};
// Whether it built without errors (HIPFORGE_PCH_DEBUG=1 prints why not).
bool BuildPch(const PchBuild& build);

// A PCH's build arguments: the unit's without diagnostic-only options, so units whose build flags differ only
// in warnings share one prelude and one preamble PCH (their own parse keeps every flag).
std::vector<std::string> PchArguments(const std::vector<std::string>& args);
// A PCH's key: Clang's version, `args` (cache locations by role) and `extra` (what it precompiles), hashed.
std::string PchKey(const std::vector<std::string>& args, std::string_view extra, const CacheLocations& locations);

// The directives that begin a file (Clang's preamble), one per line with comments dropped and tokens joined
// (units differing only in comments get the same lines); `balanced[i]`: every conditional is closed after line i.
struct LeadingDirectives {
  std::vector<std::string> lines;
  std::vector<bool> balanced;
};
LeadingDirectives LeadingDirectivesOf(std::string_view content);

// Whether a Clang error message says the PCH itself is unusable (stale or from another compiler build).
bool IsPchProblem(const std::string& first_error);

}  // namespace hipforge::translate
