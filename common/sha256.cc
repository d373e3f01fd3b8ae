#include "common/sha256.h"

#include <openssl/evp.h>

#include <array>
#include <fstream>
#include <memory>

namespace hipforge {
namespace {

struct DigestContext {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx{EVP_MD_CTX_new(), &EVP_MD_CTX_free};
  DigestContext() { EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr); }
  void Update(const void* data, size_t size) { EVP_DigestUpdate(ctx.get(), data, size); }
  std::string HexDigest() {
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int length = 0;
    EVP_DigestFinal_ex(ctx.get(), digest.data(), &length);
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    hex.reserve(length * 2);
    for (unsigned int i = 0; i < length; ++i) {
      hex.push_back(kHex[digest[i] >> 4]);
      hex.push_back(kHex[digest[i] & 0xf]);
    }
    return hex;
  }
};

}  // namespace

struct Sha256Hasher::State {
  DigestContext digest;
};
Sha256Hasher::Sha256Hasher() : state_(std::make_unique<State>()) {}
Sha256Hasher::~Sha256Hasher() = default;
void Sha256Hasher::Update(std::string_view data) { state_->digest.Update(data.data(), data.size()); }
std::string Sha256Hasher::HexDigest() { return state_->digest.HexDigest(); }

std::string Sha256Hex(std::string_view data) {
  DigestContext digest;
  digest.Update(data.data(), data.size());
  return digest.HexDigest();
}

absl::StatusOr<std::string> Sha256HexOfFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError("cannot open " + path.string());
  DigestContext digest;
  std::array<char, 1 << 16> buffer{};
  while (in.read(buffer.data(), buffer.size()) || in.gcount() > 0) {
    digest.Update(buffer.data(), static_cast<size_t>(in.gcount()));
  }
  if (in.bad()) return absl::DataLossError("read failed: " + path.string());
  return digest.HexDigest();
}

}  // namespace hipforge
