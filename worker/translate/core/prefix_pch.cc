#include "worker/translate/core/prefix_pch.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <regex>

#include "common/file_io.h"
#include "worker/translate/core/prelude_pch.h"

namespace hipforge::translate {
namespace {

namespace fs = std::filesystem;

// `#name rest`, from LeadingDirectivesOf's lines.
const std::regex& DirectiveLine() {
  static const std::regex directive(R"(^[ \t]*#[ \t]*([A-Za-z_]+)[ \t]*(.*)$)");
  return directive;
}

// The include line as the PCH source must spell it to reach the same file: a quoted name found beside the unit
// gets the unit's directory (the PCH source lives elsewhere, and quoted includes search the includer's directory
// first), spelled as Clang forms it from the unit's path; nullopt for a computed include.
std::optional<std::string> PortableInclude(const std::string& rest, const fs::path& unit) {
  if (rest.empty()) return std::nullopt;
  if (rest[0] == '<') return "#include " + rest;
  const size_t close = rest.find('"', 1);
  if (rest[0] != '"' || close == std::string::npos) return std::nullopt;
  const std::string name = rest.substr(1, close - 1);
  std::error_code error;
  if (name.empty() || name[0] == '/' || !fs::exists(unit.parent_path() / name, error)) return "#include " + rest;
  return "#include \"" + unit.parent_path().string() + "/" + name + "\"" + rest.substr(close + 1);
}

// The -I and -iquote directories of `args` (relative ones from the unit's directory, where its parse runs).
std::vector<fs::path> UserIncludeDirectories(const std::vector<std::string>& args, const fs::path& unit) {
  std::vector<fs::path> dirs;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string dir;
    for (const std::string_view flag : {"-I", "-iquote"}) {
      if (args[i] == flag && i + 1 < args.size()) {
        dir = args[++i];
      } else if (args[i].size() > flag.size() && args[i].compare(0, flag.size(), flag) == 0) {
        dir = args[i].substr(flag.size());
      }
      if (!dir.empty()) break;
    }
    if (!dir.empty()) dirs.push_back(unit.parent_path() / dir);  // an absolute `dir` replaces the base
  }
  return dirs;
}

// Whether the include line `rest` ("name" or <name>) likely reaches a project file: found beside the unit (quoted)
// or in an -I/-iquote directory under the root. A guess that only decides whether a prefix is worth a PCH: a prefix
// of library headers alone is the library preamble PCH's (kept across jobs) or the prelude's.
bool ReachesProjectFile(const std::string& rest, const fs::path& unit, const std::vector<fs::path>& dirs,
                        const fs::path& root) {
  const size_t close = rest.find(rest[0] == '<' ? '>' : '"', 1);
  if (close == std::string::npos) return false;
  const std::string name = rest.substr(1, close - 1);
  std::error_code error;
  if (rest[0] == '"' && fs::exists(unit.parent_path() / name, error)) return true;
  for (const fs::path& dir : dirs) {
    const fs::path relative = dir.lexically_normal().lexically_relative(root);
    const bool inside = !relative.empty() && *relative.begin() != "..";
    if (fs::exists(dir / name, error)) return inside;  // the first directory that has it is the one used
  }
  return false;
}

// One unit's candidates as they are found (IncludePrefixes).
struct PrefixWalk {
  const fs::path& root;
  std::vector<fs::path> dirs;  // UserIncludeDirectories
  const std::vector<std::string>& args;
  const CacheLocations& locations;
  std::string key_head;  // the unit's extension and the salt, ahead of the text in each key
  std::vector<IncludePrefix> prefixes;
};

// Where the walk stands: the prefix so far and the headers walked into.
struct WalkState {
  std::string text;      // the directives so far
  bool project = false;  // the prefix so far includes a project file
  std::vector<fs::path> inside;
};

constexpr size_t kMaxHeadersInside = 3;

void WalkDirectives(PrefixWalk& walk, const std::vector<std::string>& lines, size_t first, const fs::path& file,
                    WalkState state);

// Follows a quoted include of a project header beside `file` (`rest`, outside any conditional) into the header's
// leading directives: what the preprocessor reads there comes before anything else of the header. Its #pragma once
// is left out: the unit's parse reads it on entering the header, then meets the guards of the files the PCH holds.
void FollowHeader(PrefixWalk& walk, const std::string& rest, const fs::path& file, WalkState state) {
  if (rest.empty() || rest[0] != '"' || state.inside.size() >= kMaxHeadersInside) return;
  const size_t close = rest.find('"', 1);
  if (close == std::string::npos) return;
  const std::string name = rest.substr(1, close - 1);
  if (name.empty() || name[0] == '/') return;
  const fs::path header = file.parent_path().string() + "/" + name;  // spelled as the unit's parse reaches it
  std::error_code error;
  const fs::path relative = fs::weakly_canonical(header, error).lexically_relative(walk.root);
  if (error || relative.empty() || *relative.begin() == "..") return;
  const std::optional<std::string> content = ReadFileBytes(header);
  if (!content) return;
  const std::vector<std::string> lines = LeadingDirectivesOf(*content).lines;
  std::smatch first;
  const bool once = !lines.empty() && std::regex_match(lines[0], first, DirectiveLine()) && first[1] == "pragma" &&
                    first[2] == "once";
  state.inside.push_back(header);
  WalkDirectives(walk, lines, once ? 1 : 0, header, std::move(state));
}

void WalkDirectives(PrefixWalk& walk, const std::vector<std::string>& lines, size_t first, const fs::path& file,
                    WalkState state) {
  int depth = 0;  // conditionals open
  for (size_t i = first; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    std::smatch match;
    if (line.find("__has_include") != std::string::npos || !std::regex_match(line, match, DirectiveLine())) break;
    const std::string name = match[1];
    if (name == "include") {
      std::optional<std::string> include = PortableInclude(match[2], file);
      if (!include) break;
      if (depth == 0) FollowHeader(walk, match[2], file, state);
      state.text += *include + '\n';
      state.project = state.project || ReachesProjectFile(match[2], file, walk.dirs, walk.root);
      if (depth == 0 && state.project) {
        walk.prefixes.push_back(
            {state.text, PchKey(walk.args, walk.key_head + state.text, walk.locations), state.inside});
      }
    } else if (name == "define" || name == "undef" || name == "if" || name == "ifdef" || name == "ifndef" ||
               name == "elif" || name == "else" || name == "endif") {
      state.text += line + '\n';
      if (name == "if" || name == "ifdef" || name == "ifndef") ++depth;
      if (name == "endif" && --depth < 0) break;
    } else {
      break;
    }
  }
}

// The longest of `shared` whose text begins `prefix`'s: a shorter cut of the same directives (texts end with a
// newline, so a cut falls between lines), in the same configuration (the candidates of one unit).
const IncludePrefix* BaseOf(const IncludePrefix& prefix, const std::vector<IncludePrefix>& shared) {
  const IncludePrefix* base = nullptr;
  for (const IncludePrefix& other : shared) {
    if (other.text.size() < prefix.text.size() && prefix.text.compare(0, other.text.size(), other.text) == 0 &&
        (!base || other.text.size() > base->text.size())) {
      base = &other;
    }
  }
  return base;
}

// `args` with `pch` in place of the PCH they load (the prelude's); nullopt when they load none.
std::optional<std::vector<std::string>> LoadingInstead(std::vector<std::string> args, const fs::path& pch) {
  for (size_t i = args.size(); i-- > 1;) {
    if (args[i - 1] == "-include-pch") {
      args[i] = pch.string();
      return args;
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<IncludePrefix> IncludePrefixes(std::string_view content, const fs::path& unit, const fs::path& root,
                                           const std::vector<std::string>& args, const CacheLocations& locations,
                                           std::string_view salt) {
  PrefixWalk walk{root, UserIncludeDirectories(args, unit), args, locations,
                  unit.extension().string() + '\n' + std::string(salt) + '\n'};
  WalkDirectives(walk, LeadingDirectivesOf(content).lines, 0, unit, {});
  return std::move(walk.prefixes);
}

void IncludePrefixPlan::Count(const std::vector<IncludePrefix>& candidates) {
  std::set<std::string> keys;  // once per unit: a cycle of headers reaches the same text twice
  for (const IncludePrefix& prefix : candidates) keys.insert(prefix.key);
  std::lock_guard lock(mutex_);
  for (const std::string& key : keys) ++counts_[key];
}

std::vector<IncludePrefix> IncludePrefixPlan::Choose(const std::vector<IncludePrefix>& candidates) const {
  std::lock_guard lock(mutex_);
  std::vector<IncludePrefix> shared;
  for (auto it = candidates.rbegin(); it != candidates.rend(); ++it) {
    if (auto count = counts_.find(it->key); count != counts_.end() && count->second >= 2) shared.push_back(*it);
  }
  return shared;
}

fs::path NewPrefixJobDirectory(const fs::path& pch_directory) {
  static std::atomic<uint64_t> jobs{0};
  static const std::regex kJob(R"(prefix-job-(\d{1,9})-\d+)");
  std::vector<fs::path> abandoned;
  std::error_code error;
  const auto now = fs::file_time_type::clock::now();
  for (fs::directory_iterator it(pch_directory, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    std::smatch match;
    if (!std::regex_match(name, match, kJob)) continue;
    std::error_code ignored;
    const auto written = fs::last_write_time(it->path(), ignored);
    if (ignored || now - written < std::chrono::hours(1)) continue;
    if (::kill(static_cast<pid_t>(std::stol(match[1])), 0) != 0 && errno == ESRCH) abandoned.push_back(it->path());
  }
  for (const fs::path& directory : abandoned) fs::remove_all(directory, error);
  return pch_directory / ("prefix-job-" + std::to_string(::getpid()) + "-" + std::to_string(jobs++));
}

PrefixPchs::~PrefixPchs() {
  std::error_code ignored;
  fs::remove_all(directory_, ignored);
}

const PrefixPchs::Built* PrefixPchs::Get(const IncludePrefix& prefix, const Request& request,
                                         const std::vector<IncludePrefix>& shared) {
  const Built* built = Build(prefix, request, shared);
  if (!built) return nullptr;
  // Units whose prefix text is the same share the PCH from inside different headers: each checks its own.
  for (const fs::path& header : prefix.inside) {
    std::error_code error;
    if (built->entered.count(fs::weakly_canonical(header, error).string())) return nullptr;
  }
  return built;
}

const PrefixPchs::Built* PrefixPchs::Build(const IncludePrefix& prefix, const Request& request,
                                           const std::vector<IncludePrefix>& shared) {
  Entry* entry = nullptr;
  {
    std::lock_guard lock(mutex_);
    std::unique_ptr<Entry>& slot = entries_[prefix.key];
    if (!slot) slot = std::make_unique<Entry>();
    entry = slot.get();
  }
  std::call_once(entry->once, [&] {
    std::vector<std::unique_ptr<ParseConsumer>> consumers;
    if (request.consumers) consumers = request.consumers();
    // A base is shorter, so the chain ends (and two threads never wait on each other's entries).
    const IncludePrefix* shorter = BaseOf(prefix, shared);
    const Built* base = shorter ? Build(*shorter, request, shared) : nullptr;
    // Neither an error nor an unguarded include in the base goes away with more directives after it.
    if (shorter && !base) return;
    std::optional<std::vector<std::string>> args;
    if (base && base->record.size() == consumers.size()) args = LoadingInstead(request.args, base->pch);
    if (!args) base = nullptr;
    // What the consumers saw over the base is where a parse of the whole prefix would have them start the rest.
    for (size_t i = 0; base && i < consumers.size(); ++i) consumers[i]->SeedPrefix(base->record[i]);
    PchBuild build{directory_ / ("prefix-" + prefix.key + ".pch"),
                   directory_ / ("prefix-" + prefix.key + request.extension), prefix.text, base ? *args : request.args,
                   request.readable_roots};
    build.project_root = request.root;
    build.require_guarded_includes = true;
    std::set<std::string> entered = base ? base->entered : std::set<std::string>{};
    build.entered = &entered;
    for (const auto& consumer : consumers) build.consumers.push_back(consumer.get());
    const bool built = BuildPch(build);
    {
      std::lock_guard lock(mutex_);
      ++builds_;
    }
    if (!built) return;
    nlohmann::json record = nlohmann::json::array();
    for (const auto& consumer : consumers) record.push_back(consumer->PrefixRecord());
    entry->built = std::make_unique<Built>(Built{build.pch, std::move(record), std::move(entered)});
  });
  return entry->built.get();
}

const PrefixPchs::Built* PrefixPchs::First(const std::vector<IncludePrefix>& shared, const Request& request,
                                           const std::function<bool(const Built&)>& usable) {
  const std::vector<fs::path>* failed_inside = nullptr;
  for (const IncludePrefix& prefix : shared) {
    if (failed_inside && prefix.inside == *failed_inside) continue;
    const Built* built = Get(prefix, request, shared);
    if (built && usable(*built)) return built;
    failed_inside = &prefix.inside;
  }
  return nullptr;
}

uint64_t PrefixPchs::builds() const {
  std::lock_guard lock(mutex_);
  return builds_;
}

namespace {

// The analyzer's device side: one configuration per unit, one consumer (its rules' recorder) per build.
class JobSharedPrefixes : public SharedPrefixes {
 public:
  JobSharedPrefixes(fs::path root, CacheLocations locations)
      : root_(std::move(root)), locations_(std::move(locations)), pchs_(NewPrefixJobDirectory(locations_.pch)) {}

  void Count(const fs::path& unit, const std::vector<std::string>& args) override {
    const std::optional<std::string> content = ReadFileBytes(unit);
    if (!content) return;
    std::vector<IncludePrefix> candidates = IncludePrefixes(*content, unit, root_, args, locations_, "shared");
    plan_.Count(candidates);
    std::lock_guard lock(mutex_);
    candidates_[unit] = std::move(candidates);
  }

  std::optional<Prefix> For(const fs::path& unit, const std::vector<std::string>& args,
                            const std::vector<std::string>& readable_roots,
                            const std::function<std::unique_ptr<ParseConsumer>()>& recorder) override {
    std::vector<IncludePrefix> shared;
    {
      std::lock_guard lock(mutex_);
      const auto it = candidates_.find(unit);
      if (it == candidates_.end()) return std::nullopt;
      shared = plan_.Choose(it->second);
    }
    PrefixPchs::Request request{unit.extension().string(), args, readable_roots, root_, [&recorder] {
                                  std::vector<std::unique_ptr<ParseConsumer>> consumers;
                                  consumers.push_back(recorder());
                                  return consumers;
                                }};
    const PrefixPchs::Built* built =
        pchs_.First(shared, request, [](const PrefixPchs::Built& pch) { return pch.record.size() == 1; });
    if (!built) return std::nullopt;
    return Prefix{built->pch, built->record.at(0)};
  }

 private:
  const fs::path root_;
  const CacheLocations locations_;
  PrefixPchs pchs_;
  IncludePrefixPlan plan_;
  std::mutex mutex_;
  std::map<fs::path, std::vector<IncludePrefix>> candidates_;
};

}  // namespace

std::unique_ptr<SharedPrefixes> MakeSharedPrefixes(const fs::path& root, const CacheLocations& locations) {
  return std::make_unique<JobSharedPrefixes>(root, locations);
}

}  // namespace hipforge::translate
