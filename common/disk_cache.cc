#include "common/disk_cache.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>
#include <vector>

#include "common/file_io.h"
#include "common/sha256.h"

namespace hipforge {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kHeaderMagic = "hipforge-cache-entry 1 ";
constexpr auto kDeadWriterAge = std::chrono::hours(1);  // a temporary older than this has no live writer

bool IsHex(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

std::optional<std::string> DefaultEntryOf(std::string_view file_name) {
  const std::string_view stem = file_name.substr(0, file_name.find('.'));
  if (stem.size() < 16 || !IsHex(stem)) return std::nullopt;
  return std::string(stem);
}

fs::file_time_type ToFileTime(std::chrono::system_clock::time_point time) {
  return std::chrono::file_clock::from_sys(std::chrono::time_point_cast<std::chrono::system_clock::duration>(time));
}

// "<magic><sha256 of the payload> <payload size>\n": a reader tells a whole entry from a damaged one.
std::string Header(std::string_view payload) {
  return std::string(kHeaderMagic) + Sha256Hex(payload) + " " + std::to_string(payload.size()) + "\n";
}

std::optional<std::string> Unwrap(std::string_view bytes) {
  const size_t end = bytes.find('\n');
  if (end == std::string_view::npos || bytes.substr(0, kHeaderMagic.size()) != kHeaderMagic) return std::nullopt;
  const std::string_view payload = bytes.substr(end + 1);
  if (bytes.substr(0, end + 1) != Header(payload)) return std::nullopt;
  return std::string(payload);
}

struct Entry {
  std::vector<fs::path> files;
  uint64_t bytes = 0;
  fs::file_time_type last_use = fs::file_time_type::min();
};

// The folders entries live in: the directory, or its two-hex-digit subdirectories.
std::vector<fs::path> ListFolders(const fs::path& directory, bool fan_out) {
  if (!fan_out) return {directory};
  std::vector<fs::path> folders;
  std::error_code error;
  for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.size() == 2 && IsHex(name)) folders.push_back(it->path());
  }
  return folders;
}

// The entries in `folders` by name, with their files, sizes and last use; removes dead writers' temporaries.
std::map<std::string, Entry> ScanEntries(const std::vector<fs::path>& folders,
                                         const std::function<std::optional<std::string>(std::string_view)>& entry_of,
                                         fs::file_time_type now) {
  std::map<std::string, Entry> entries;
  for (const fs::path& folder : folders) {
    std::error_code list_error;
    for (fs::directory_iterator it(folder, list_error), end; !list_error && it != end; it.increment(list_error)) {
      const std::string name = it->path().filename().string();
      std::error_code stat_error;  // every file may vanish under us: another process evicting or renaming
      if (!it->is_regular_file(stat_error) || stat_error) continue;
      const uint64_t bytes = it->file_size(stat_error);
      if (stat_error) continue;
      const fs::file_time_type modified = it->last_write_time(stat_error);
      if (stat_error) continue;
      const size_t tmp = name.find(".tmp");
      if (tmp != std::string::npos) {
        if (entry_of(name.substr(0, tmp)).has_value() && now - modified > kDeadWriterAge) {
          fs::remove(it->path(), stat_error);
        }
        continue;
      }
      const std::optional<std::string> entry = entry_of(name);
      if (!entry.has_value()) continue;
      Entry& target = entries[entry.value()];
      target.files.push_back(it->path());
      target.bytes += bytes;
      target.last_use = std::max(target.last_use, modified);
    }
  }
  return entries;
}

bool EndsWith(std::string_view text, std::string_view suffix) {
  return !suffix.empty() && text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// Removes entries, least recently used first, until `result.bytes_after` is within `cap`.
void EvictOldest(const std::map<std::string, Entry>& entries, const CacheLayout& layout, uint64_t cap,
                 const std::function<bool(const std::string& entry)>& pinned, CacheEviction& result) {
  std::vector<std::pair<const std::string*, const Entry*>> order;
  order.reserve(entries.size());
  for (const auto& [name, entry] : entries) order.emplace_back(&name, &entry);
  const auto rank = [&](const std::string& name) { return layout.tie_rank ? layout.tie_rank(name) : 0; };
  std::sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
    const int rank_a = rank(*a.first), rank_b = rank(*b.first);
    return std::tie(a.second->last_use, rank_a, *a.first) < std::tie(b.second->last_use, rank_b, *b.first);
  });
  for (const auto& [name, entry] : order) {
    if (result.bytes_after <= cap) break;
    if (pinned && pinned(*name)) continue;
    std::vector<fs::path> files = entry->files;
    std::stable_partition(files.begin(), files.end(), [&](const fs::path& file) {
      return EndsWith(file.filename().string(), layout.primary_suffix);
    });
    std::error_code ignored;
    for (const fs::path& file : files) fs::remove(file, ignored);  // gone already: another process evicted it
    result.bytes_after -= entry->bytes;
    ++result.entries_evicted;
  }
}

}  // namespace

CacheKey::CacheKey(std::string_view schema, int version) {
  Add("schema", schema);
  Add("version", std::to_string(version));
}

CacheKey& CacheKey::Add(std::string_view name, std::string_view value) {
  for (const std::string_view field : {name, value}) {
    material_ += std::to_string(field.size());
    material_ += ':';
    material_ += field;
  }
  return *this;
}

std::string CacheKey::Hex() const { return Sha256Hex(material_); }

DiskCache::DiskCache(fs::path directory, uint64_t cap_bytes, CacheLayout layout, const Clock& clock)
    : directory_(std::move(directory)), cap_bytes_(cap_bytes), layout_(std::move(layout)), clock_(clock) {}

const Clock& DiskCache::DefaultClock() {
  static const SystemClock clock;
  return clock;
}

std::optional<std::string> DiskCache::EntryOf(std::string_view file_name) const {
  return layout_.entry_of ? layout_.entry_of(file_name) : DefaultEntryOf(file_name);
}

fs::path DiskCache::PathOf(std::string_view key, std::string_view suffix) const {
  const std::string name = std::string(key) + std::string(suffix);
  return layout_.fan_out ? directory_ / std::string(key.substr(0, 2)) / name : directory_ / name;
}

std::optional<std::string> DiskCache::Read(std::string_view key, std::string_view suffix) const {
  if (!enabled()) return std::nullopt;
  const fs::path path = PathOf(key, suffix);
  const std::optional<std::string> bytes = ReadFileBytes(path);
  if (!bytes) return std::nullopt;
  std::optional<std::string> payload = Unwrap(*bytes);
  std::error_code ignored;
  if (!payload) {
    fs::remove(path, ignored);  // damaged (or of an older layout): the next Write replaces it
    return std::nullopt;
  }
  Touch(path);
  return payload;
}

void DiskCache::Touch(const fs::path& file) const {
  std::error_code ignored;  // a read-only cache: use goes unrecorded
  fs::last_write_time(file, ToFileTime(clock_.Now()), ignored);
}

absl::Status DiskCache::Write(std::string_view key, std::string_view suffix, std::string_view bytes) const {
  if (!enabled()) return absl::OkStatus();
  const std::string wrapped = Header(bytes) + std::string(bytes);
  const fs::path path = PathOf(key, suffix);
  absl::Status written = WriteFileAtomically(path, wrapped);
  if (!written.ok()) return written;
  Touch(path);  // last use on the cache's clock, as a hit's
  if (cap_bytes_ == 0) return written;
  // Counting the directory costs a scan: once per cache object, then again only when its own writes pass the cap.
  std::lock_guard lock(mutex_);
  if (known_bytes_) *known_bytes_ += wrapped.size();
  if (!known_bytes_ || *known_bytes_ > cap_bytes_) known_bytes_ = EnforceLocked({}).bytes_after;
  return written;
}

CacheEviction DiskCache::Enforce(const std::function<bool(const std::string& entry)>& pinned) const {
  std::lock_guard lock(mutex_);
  CacheEviction eviction = EnforceLocked(pinned);
  known_bytes_ = eviction.bytes_after;
  return eviction;
}

CacheEviction DiskCache::EnforceLocked(const std::function<bool(const std::string& entry)>& pinned) const {
  CacheEviction result;
  if (!enabled() || cap_bytes_ == 0) return result;
  const std::map<std::string, Entry> entries = ScanEntries(
      ListFolders(directory_, layout_.fan_out), [this](std::string_view name) { return EntryOf(name); },
      ToFileTime(clock_.Now()));
  for (const auto& [name, entry] : entries) result.bytes_before += entry.bytes;
  result.bytes_after = result.bytes_before;
  if (result.bytes_before > cap_bytes_) EvictOldest(entries, layout_, cap_bytes_, pinned, result);
  return result;
}

bool FilesUnchanged(const fs::path& root, const std::map<std::string, std::string>& hashes, std::string_view except) {
  for (const auto& [path, hash] : hashes) {
    if (path == except) continue;
    const absl::StatusOr<std::string> current = Sha256HexOfFile(root / path);
    if (!current.ok() || *current != hash) return false;
  }
  return true;
}

}  // namespace hipforge
