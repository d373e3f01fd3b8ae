#include "worker/translate/core/pch_cache.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>

#include "worker/translate/core/translate_options.h"

namespace hipforge::translate {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kPreamblePrefix = "preamble-";
constexpr std::string_view kPreludeSourcePrefix = "prelude-";

bool IsKey(std::string_view text) {
  return text.size() >= 16 &&
         std::all_of(text.begin(), text.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

std::optional<std::string> EntryOfName(std::string_view file_name) { return PchCache::EntryOf(std::string(file_name)); }

// On a tie (a preamble PCH is stamped with its prelude) the preamble goes first: it is useless without it.
int TieRank(std::string_view entry) { return entry.substr(0, kPreamblePrefix.size()) == kPreamblePrefix ? 0 : 1; }

}  // namespace

std::string CacheLocations::KeyText(std::string_view arg) const {
  std::string text(arg);
  for (const auto& [location, name] : {std::pair{&pch, "<hipforge-pch>"}, std::pair{&shims, "<hipforge-shims>"}}) {
    const std::string path = location->lexically_normal().string();
    if (path.empty() || path == "/") continue;
    for (size_t at = text.find(path); at != std::string::npos; at = text.find(path, at)) {
      const size_t end = at + path.size();
      if (end < text.size() && text[end] != '/') {  // another directory that merely starts the same
        at = end;
        continue;
      }
      text.replace(at, path.size(), name);
      at += std::string_view(name).size();
    }
  }
  return text;
}

std::optional<uint64_t> ParseByteSize(std::string_view text) {
  if (text.empty()) return std::nullopt;
  uint64_t value = 0;
  size_t i = 0;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
    if (value > (UINT64_MAX - 9) / 10) return std::nullopt;
    value = value * 10 + (text[i] - '0');
  }
  if (i == 0) return std::nullopt;
  std::string unit(text.substr(i));
  std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return std::tolower(c); });
  if (!unit.empty() && unit.back() == 'b') unit.pop_back();  // "2GB", "2gib"
  if (!unit.empty() && unit.back() == 'i') unit.pop_back();
  static const std::map<std::string, int> kShift = {{"", 0}, {"k", 10}, {"m", 20}, {"g", 30}, {"t", 40}};
  const auto shift = kShift.find(unit);
  if (shift == kShift.end()) return std::nullopt;
  if (shift->second && value > (UINT64_MAX >> shift->second)) return std::nullopt;
  return value << shift->second;
}

absl::StatusOr<uint64_t> PchCacheCap(std::optional<uint64_t> bytes) {
  if (bytes) return *bytes;
  const char* text = std::getenv("HIPFORGE_PCH_CACHE_SIZE");
  if (!text || !*text) return kDefaultPchCacheBytes;
  if (std::optional<uint64_t> parsed = ParseByteSize(text)) return *parsed;
  return absl::InvalidArgumentError(std::string("HIPFORGE_PCH_CACHE_SIZE: not a size (2G, 500M, 0 = unbounded): ") +
                                    text);
}

// The PCH is removed first: an entry never looks usable without its source.
PchCache::PchCache(fs::path directory, uint64_t cap_bytes, const Clock& clock)
    : cache_(std::move(directory), cap_bytes, {.entry_of = EntryOfName, .tie_rank = TieRank, .primary_suffix = ".pch"},
             clock) {}

PchCache::Use::Use(const PchCache* cache, std::vector<std::string> entries)
    : cache_(cache), entries_(std::move(entries)) {}

PchCache::Use::Use(Use&& other) noexcept : cache_(other.cache_), entries_(std::move(other.entries_)) {
  other.entries_.clear();
}

PchCache::Use::~Use() {
  if (entries_.empty()) return;
  std::lock_guard lock(cache_->mutex_);
  for (const std::string& entry : entries_) cache_->pinned_.erase(cache_->pinned_.find(entry));
}

PchCache::Use PchCache::Pin(const std::vector<fs::path>& pchs) const {
  std::vector<std::string> entries;
  for (const fs::path& pch : pchs) {
    if (auto entry = EntryOf(pch.filename().string())) entries.push_back(*entry);
  }
  {
    std::lock_guard lock(mutex_);
    pinned_.insert(entries.begin(), entries.end());
  }
  for (const std::string& entry : entries) Stamp(entry);
  return Use(this, std::move(entries));
}

void PchCache::Stamp(const std::string& entry) const {
  const fs::path stamp = cache_.directory() / (entry + ".used");
  std::error_code error;
  if (!fs::exists(stamp, error)) std::ofstream(stamp) << "hipforge: last use of this PCH (the file's mtime)\n";
  cache_.Touch(stamp);
}

std::optional<std::string> PchCache::EntryOf(const std::string& file_name) {
  const size_t dot = file_name.find('.');
  if (dot == std::string::npos || file_name.find(".tmp", dot) != std::string::npos) return std::nullopt;
  std::string_view stem = std::string_view(file_name).substr(0, dot);
  if (stem.substr(0, kPreludeSourcePrefix.size()) == kPreludeSourcePrefix)
    stem.remove_prefix(kPreludeSourcePrefix.size());
  const bool preamble = stem.substr(0, kPreamblePrefix.size()) == kPreamblePrefix;
  if (!IsKey(preamble ? stem.substr(kPreamblePrefix.size()) : stem)) return std::nullopt;
  return std::string(stem);
}

PchEviction PchCache::Enforce() const {
  std::lock_guard lock(mutex_);
  return cache_.Enforce([&](const std::string& entry) { return pinned_.count(entry) > 0; });
}

fs::path PchDirectoryFor(const TranslateOptions& options) {
  if (options.pch_directory) return fs::absolute(*options.pch_directory);
  if (options.cache_directory) return fs::absolute(*options.cache_directory / "pch");
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "hipforge" / "pch";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".cache" / "hipforge" / "pch";
  return fs::temp_directory_path() / "hipforge-pch";
}

}  // namespace hipforge::translate
