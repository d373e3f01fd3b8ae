#pragma once
// Writes tar streams byte by byte, including what no well-behaved packer emits: names that are not
// UTF-8, GNU and PAX sparse entries whose holes dwarf their data, hard links carrying bodies. The
// hostile-input tests build every archive they need with it; no binary archive is committed.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace hipforge::testing {

class TarForge {
 public:
  TarForge& File(const std::string& name, const std::string& content, int mode = 0644);
  TarForge& Directory(const std::string& name);
  TarForge& Symlink(const std::string& name, const std::string& target);
  // A hard link (PAX) whose header declares `body_size` bytes and carries them (zeros).
  TarForge& HardlinkWithBody(const std::string& name, const std::string& target, uint64_t body_size);
  // Old GNU sparse entry (type 'S'): `real_size` bytes, of which only `data` at `data_offset` is stored.
  TarForge& GnuSparse(const std::string& name, uint64_t real_size, uint64_t data_offset, const std::string& data);
  // PAX sparse 1.0 entry (GNU.sparse.* records), same shape.
  TarForge& PaxSparse(const std::string& name, uint64_t real_size, uint64_t data_offset, const std::string& data);
  // A PAX extended header with these records for the next entry.
  TarForge& PaxHeader(const std::vector<std::pair<std::string, std::string>>& records);
  // Raw bytes appended as they are (e.g. garbage after the end marker).
  TarForge& Raw(const std::string& bytes);
  // The archive with its two zero end blocks.
  std::string Build() const;

 private:
  std::string Header(const std::string& name, char type, uint64_t size, const std::string& link = "", int mode = 0644,
                     bool gnu_magic = false) const;
  void AppendData(const std::string& data);
  std::string out_;
};

// `data` compressed as a gzip stream (libarchive's raw writer), to make bombs small.
std::string Gzip(const std::string& data);

}  // namespace hipforge::testing
