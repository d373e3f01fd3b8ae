#include "worker/translate/core/pch_cache.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>

namespace hipforge::translate {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kPreamblePrefix = "preamble-";
constexpr std::string_view kPreludeSourcePrefix = "prelude-";
constexpr auto kDeadBuildAge = std::chrono::hours(1);  // a temporary older than this has no live build

bool IsKey(std::string_view text) {
  return text.size() >= 16 && std::all_of(text.begin(), text.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

fs::file_time_type ToFileTime(std::chrono::system_clock::time_point time) {
  return std::chrono::file_clock::from_sys(std::chrono::time_point_cast<std::chrono::system_clock::duration>(time));
}

struct Entry {
  std::vector<fs::path> files;
  uint64_t bytes = 0;
  fs::file_time_type last_use = fs::file_time_type::min();
  bool prelude = false;
};

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
  if (!unit.empty() && unit.back() == 'b') unit.pop_back();   // "2GB", "2gib"
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
  return absl::InvalidArgumentError(std::string("HIPFORGE_PCH_CACHE_SIZE: not a size (2G, 500M, 0 = unbounded): ") + text);
}

PchCache::PchCache(fs::path directory, uint64_t cap_bytes, const Clock& clock)
    : directory_(std::move(directory)), cap_bytes_(cap_bytes), clock_(clock) {}

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
  const fs::path stamp = directory_ / (entry + ".used");
  std::error_code error;
  if (!fs::exists(stamp, error)) std::ofstream(stamp) << "hipforge: last use of this PCH (the file's mtime)\n";
  fs::last_write_time(stamp, ToFileTime(clock_.Now()), error);  // a read-only cache: use goes unrecorded
}

std::optional<std::string> PchCache::EntryOf(const std::string& file_name) {
  const size_t dot = file_name.find('.');
  if (dot == std::string::npos || file_name.find(".tmp", dot) != std::string::npos) return std::nullopt;
  std::string_view stem = std::string_view(file_name).substr(0, dot);
  if (stem.substr(0, kPreludeSourcePrefix.size()) == kPreludeSourcePrefix) stem.remove_prefix(kPreludeSourcePrefix.size());
  const bool preamble = stem.substr(0, kPreamblePrefix.size()) == kPreamblePrefix;
  if (!IsKey(preamble ? stem.substr(kPreamblePrefix.size()) : stem)) return std::nullopt;
  return std::string(stem);
}

PchEviction PchCache::Enforce() const {
  PchEviction result;
  if (cap_bytes_ == 0) return result;
  std::lock_guard lock(mutex_);
  const fs::file_time_type now = ToFileTime(clock_.Now());
  std::map<std::string, Entry> entries;
  std::error_code error;
  for (fs::directory_iterator it(directory_, error), end; !error && it != end; it.increment(error)) {
    const fs::path& path = it->path();
    const std::string name = path.filename().string();
    std::error_code stat_error;  // every file may vanish under us: another process evicting or renaming
    const uint64_t bytes = it->file_size(stat_error);
    if (stat_error) continue;
    const fs::file_time_type modified = it->last_write_time(stat_error);
    if (stat_error) continue;
    const std::optional<std::string> entry = EntryOf(name);
    if (!entry) {
      const size_t tmp = name.find(".pch.tmp");
      if (tmp != std::string::npos && EntryOf(name.substr(0, tmp + 4)) && now - modified > kDeadBuildAge) {
        fs::remove(path, stat_error);
      }
      continue;
    }
    Entry& target = entries[*entry];
    target.files.push_back(path);
    target.bytes += bytes;
    target.last_use = std::max(target.last_use, modified);
    target.prelude = entry->substr(0, kPreamblePrefix.size()) != kPreamblePrefix;
  }
  for (const auto& [name, entry] : entries) result.bytes_before += entry.bytes;
  result.bytes_after = result.bytes_before;
  if (result.bytes_before <= cap_bytes_) return result;

  std::vector<std::pair<const std::string*, const Entry*>> order;
  for (const auto& [name, entry] : entries) order.emplace_back(&name, &entry);
  // A preamble PCH is stamped with its prelude: on a tie the preamble goes first (it is useless without it).
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) {
    return std::tie(a.second->last_use, a.second->prelude, *a.first) < std::tie(b.second->last_use, b.second->prelude, *b.first);
  });
  for (const auto& [name, entry] : order) {
    if (result.bytes_after <= cap_bytes_) break;
    if (pinned_.count(*name)) continue;
    // The PCH first: an entry never looks usable without its source.
    std::vector<fs::path> files = entry->files;
    std::stable_partition(files.begin(), files.end(), [](const fs::path& file) { return file.extension() == ".pch"; });
    for (const fs::path& file : files) fs::remove(file, error);  // gone already: another process evicted it
    result.bytes_after -= entry->bytes;
    ++result.entries_evicted;
  }
  return result;
}

}  // namespace hipforge::translate
