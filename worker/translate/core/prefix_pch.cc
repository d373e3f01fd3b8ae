#include "worker/translate/core/prefix_pch.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <regex>

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

}  // namespace

std::vector<IncludePrefix> IncludePrefixes(std::string_view content, const fs::path& unit, const fs::path& root,
                                           const std::vector<std::string>& args, const CacheLocations& locations,
                                           std::string_view salt) {
  const LeadingDirectives directives = LeadingDirectivesOf(content);
  const std::vector<fs::path> dirs = UserIncludeDirectories(args, unit);
  std::vector<IncludePrefix> prefixes;
  std::string text;
  bool project = false;  // the prefix so far includes a project file
  for (size_t i = 0; i < directives.lines.size(); ++i) {
    const std::string& line = directives.lines[i];
    std::smatch match;
    if (line.find("__has_include") != std::string::npos || !std::regex_match(line, match, DirectiveLine())) break;
    const std::string name = match[1];
    if (name == "include") {
      std::optional<std::string> include = PortableInclude(match[2], unit);
      if (!include) break;
      text += *include + '\n';
      project = project || ReachesProjectFile(match[2], unit, dirs, root);
      if (directives.balanced[i] && project) {
        const std::string extra = unit.extension().string() + '\n' + std::string(salt) + '\n' + text;
        prefixes.push_back({text, PchKey(args, extra, locations)});
      }
    } else if (name == "define" || name == "undef" || name == "if" || name == "ifdef" || name == "ifndef" ||
               name == "elif" || name == "else" || name == "endif") {
      text += line + '\n';
    } else {
      break;
    }
  }
  return prefixes;
}

void IncludePrefixPlan::Count(const std::vector<IncludePrefix>& candidates) {
  std::lock_guard lock(mutex_);
  for (const IncludePrefix& prefix : candidates) ++counts_[prefix.key];
}

std::optional<IncludePrefix> IncludePrefixPlan::Choose(const std::vector<IncludePrefix>& candidates) const {
  std::lock_guard lock(mutex_);
  for (auto it = candidates.rbegin(); it != candidates.rend(); ++it) {
    if (auto count = counts_.find(it->key); count != counts_.end() && count->second >= 2) return *it;
  }
  return std::nullopt;
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

const PrefixPchs::Built* PrefixPchs::Get(const IncludePrefix& prefix, const Request& request) {
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
    PchBuild build{directory_ / ("prefix-" + prefix.key + ".pch"),
                   directory_ / ("prefix-" + prefix.key + request.extension), prefix.text, request.args,
                   request.readable_roots};
    build.project_root = request.root;
    build.require_guarded_includes = true;
    for (const auto& consumer : consumers) build.consumers.push_back(consumer.get());
    const bool built = BuildPch(build);
    {
      std::lock_guard lock(mutex_);
      ++builds_;
    }
    if (!built) return;
    nlohmann::json record = nlohmann::json::array();
    for (const auto& consumer : consumers) record.push_back(consumer->PrefixRecord());
    entry->built = Built{build.pch, std::move(record)};
  });
  return entry->built ? &*entry->built : nullptr;
}

uint64_t PrefixPchs::builds() const {
  std::lock_guard lock(mutex_);
  return builds_;
}

}  // namespace hipforge::translate
