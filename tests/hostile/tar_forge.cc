#include "tests/hostile/tar_forge.h"

#include <archive.h>
#include <archive_entry.h>

#include <cstring>
#include <stdexcept>

namespace hipforge::testing {
namespace {

constexpr size_t kBlock = 512;

void PutOctal(std::string& header, size_t offset, size_t width, uint64_t value) {
  // width-1 octal digits and a NUL, as ustar writes them.
  std::string digits(width - 1, '0');
  for (size_t i = width - 1; i-- > 0 && value > 0; value >>= 3) digits[i] = static_cast<char>('0' + (value & 7));
  if (value != 0) throw std::invalid_argument("value too large for the tar field");
  header.replace(offset, width - 1, digits);
  header[offset + width - 1] = '\0';
}

void PutString(std::string& header, size_t offset, size_t width, const std::string& value) {
  if (value.size() > width) throw std::invalid_argument("name too long for the tar field: use a PAX header");
  header.replace(offset, value.size(), value);
}

void PadToBlock(std::string& out) { out.append((kBlock - out.size() % kBlock) % kBlock, '\0'); }

std::string PaxRecord(const std::string& key, const std::string& value) {
  const std::string body = " " + key + "=" + value + "\n";
  size_t length = body.size() + 1;
  while (std::to_string(length).size() + body.size() != length) ++length;
  return std::to_string(length) + body;
}

}  // namespace

std::string TarForge::Header(const std::string& name, char type, uint64_t size, const std::string& link, int mode,
                             bool gnu_magic) const {
  std::string header(kBlock, '\0');
  PutString(header, 0, 100, name);
  PutOctal(header, 100, 8, static_cast<uint64_t>(mode));
  PutOctal(header, 108, 8, 0);
  PutOctal(header, 116, 8, 0);
  PutOctal(header, 124, 12, size);
  PutOctal(header, 136, 12, 1700000000);
  header[156] = type;
  PutString(header, 157, 100, link);
  if (gnu_magic) {
    header.replace(257, 8, std::string("ustar  \0", 8));
  } else {
    header.replace(257, 6, std::string("ustar\0", 6));
    header.replace(263, 2, "00");
  }
  header.replace(148, 8, "        ");
  unsigned sum = 0;
  for (unsigned char c : header) sum += c;
  PutOctal(header, 148, 7, sum);
  header[155] = ' ';
  return header;
}

void TarForge::AppendData(const std::string& data) {
  out_ += data;
  PadToBlock(out_);
}

TarForge& TarForge::File(const std::string& name, const std::string& content, int mode) {
  out_ += Header(name, '0', content.size(), "", mode);
  AppendData(content);
  return *this;
}

TarForge& TarForge::Directory(const std::string& name) {
  out_ += Header(name, '5', 0, "", 0755);
  return *this;
}

TarForge& TarForge::Symlink(const std::string& name, const std::string& target) {
  out_ += Header(name, '2', 0, target, 0777);
  return *this;
}

TarForge& TarForge::HardlinkWithBody(const std::string& name, const std::string& target, uint64_t body_size) {
  // A PAX header first: libarchive honours a hard link's size only in pax interchange archives.
  PaxHeader({{"linkpath", target}});
  out_ += Header(name, '1', body_size, target);
  AppendData(std::string(body_size, '\0'));
  return *this;
}

TarForge& TarForge::GnuSparse(const std::string& name, uint64_t real_size, uint64_t data_offset,
                              const std::string& data) {
  std::string header = Header(name, 'S', data.size(), "", 0644, /*gnu_magic=*/true);
  // One map entry at 386 (offset, numbytes), isextended at 482 = 0, realsize at 483.
  PutOctal(header, 386, 12, data_offset);
  PutOctal(header, 398, 12, data.size());
  PutOctal(header, 483, 12, real_size);
  header.replace(148, 8, "        ");
  unsigned sum = 0;
  for (unsigned char c : header) sum += c;
  PutOctal(header, 148, 7, sum);
  header[155] = ' ';
  out_ += header;
  AppendData(data);
  return *this;
}

TarForge& TarForge::PaxSparse(const std::string& name, uint64_t real_size, uint64_t data_offset,
                              const std::string& data) {
  PaxHeader({{"GNU.sparse.major", "1"},
             {"GNU.sparse.minor", "0"},
             {"GNU.sparse.name", name},
             {"GNU.sparse.realsize", std::to_string(real_size)}});
  std::string map = "1\n" + std::to_string(data_offset) + "\n" + std::to_string(data.size()) + "\n";
  PadToBlock(map);
  out_ += Header("GNUSparseFile.0/sparse", '0', map.size() + data.size());
  out_ += map;
  AppendData(data);
  return *this;
}

TarForge& TarForge::PaxHeader(const std::vector<std::pair<std::string, std::string>>& records) {
  std::string body;
  for (const auto& [key, value] : records) body += PaxRecord(key, value);
  out_ += Header("PaxHeaders/entry", 'x', body.size());
  AppendData(body);
  return *this;
}

TarForge& TarForge::Raw(const std::string& bytes) {
  out_ += bytes;
  return *this;
}

std::string TarForge::Build() const { return out_ + std::string(2 * kBlock, '\0'); }

std::string Gzip(const std::string& data) {
  std::string out;
  archive* writer = archive_write_new();
  archive_write_set_format_raw(writer);
  archive_write_add_filter_gzip(writer);
  archive_write_set_bytes_in_last_block(writer, 1);
  archive_write_open(
      writer, &out, nullptr,
      [](archive*, void* client, const void* buffer, size_t length) -> la_ssize_t {
        static_cast<std::string*>(client)->append(static_cast<const char*>(buffer), length);
        return static_cast<la_ssize_t>(length);
      },
      nullptr);
  archive_entry* entry = archive_entry_new();
  archive_entry_set_filetype(entry, AE_IFREG);
  archive_entry_set_pathname(entry, "data");
  archive_write_header(writer, entry);
  archive_write_data(writer, data.data(), data.size());
  archive_entry_free(entry);
  archive_write_close(writer);
  archive_write_free(writer);
  return out;
}

}  // namespace hipforge::testing
