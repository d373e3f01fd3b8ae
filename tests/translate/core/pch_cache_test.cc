// The PCH directory as a bounded cache (core/pch_cache.h): the cap holds, the least recently used entry goes
// first, an entry in use stays, an entry's markers go with it, and two evictors at once do no harm.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <random>
#include <thread>

#include "worker/translate/core/pch_cache.h"

namespace hipforge::translate {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

class FakeClock final : public Clock {
 public:
  std::chrono::system_clock::time_point Now() const override { return now; }
  std::chrono::system_clock::time_point now =
      std::chrono::system_clock::time_point() + std::chrono::hours(24 * 365 * 50);
};

constexpr char kPrelude[] = "0123456789abcdef01234567";
constexpr char kPreambleA[] = "preamble-aaaaaaaaaaaaaaaaaaaaaaaa";
constexpr char kPreambleB[] = "preamble-bbbbbbbbbbbbbbbbbbbbbbbb";
constexpr char kPreambleC[] = "preamble-cccccccccccccccccccccccc";

class PchCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = fs::temp_directory_path() / ("hipforge-pch-cache-" + std::to_string(std::random_device{}()));
    fs::create_directories(directory_);
  }
  void TearDown() override { fs::remove_all(directory_); }

  // A file of `bytes` bytes, written "at" the clock's time (its mtime).
  void Write(const std::string& name, size_t bytes) {
    std::ofstream(directory_ / name, std::ios::binary) << std::string(bytes, 'x');
    fs::last_write_time(directory_ / name, std::chrono::file_clock::from_sys(clock_.now));
  }
  // An entry as the translator leaves it: the PCH and its source.
  void WriteEntry(const std::string& entry, size_t bytes) {
    const bool prelude = entry.rfind("preamble-", 0) != 0;
    Write(entry + ".pch", bytes);
    Write(prelude ? "prelude-" + entry + ".cu" : entry + ".cu", 100);
  }
  bool Has(const std::string& name) const { return fs::exists(directory_ / name); }
  uint64_t Bytes() const {
    uint64_t total = 0;
    for (const auto& file : fs::directory_iterator(directory_)) total += file.file_size();
    return total;
  }

  fs::path directory_;
  FakeClock clock_;
};

TEST_F(PchCacheTest, EvictsTheLeastRecentlyUsedUntilTheCapHolds) {
  WriteEntry(kPrelude, 4000);
  clock_.now += 1min;
  WriteEntry(kPreambleA, 3000);
  clock_.now += 1min;
  WriteEntry(kPreambleB, 3000);
  clock_.now += 1min;
  WriteEntry(kPreambleC, 3000);
  PchCache cache(directory_, 11000, clock_);
  // Use, not build time, decides: A is used last, so B is now the least recently used preamble.
  clock_.now += 1min;
  cache.Pin({directory_ / (std::string(kPreambleA) + ".pch"), directory_ / (std::string(kPrelude) + ".pch")});

  const PchEviction eviction = cache.Enforce();
  EXPECT_EQ(eviction.entries_evicted, 1u);
  EXPECT_LE(eviction.bytes_after, 11000u);
  EXPECT_EQ(eviction.bytes_after, Bytes());
  EXPECT_FALSE(Has(std::string(kPreambleB) + ".pch"));
  EXPECT_FALSE(Has(std::string(kPreambleB) + ".cu")) << "the source goes with its PCH";
  EXPECT_TRUE(Has(std::string(kPreambleA) + ".pch"));
  EXPECT_TRUE(Has(std::string(kPreambleC) + ".pch"));
  EXPECT_TRUE(Has(std::string(kPrelude) + ".pch"));
  EXPECT_TRUE(Has(std::string(kPreambleA) + ".used")) << "use is a stamp beside the PCH";

  EXPECT_EQ(cache.Enforce().entries_evicted, 0u) << "under the cap: nothing more goes";
}

TEST_F(PchCacheTest, UseNeverTouchesThePchItself) {
  WriteEntry(kPrelude, 1000);
  const auto built = fs::last_write_time(directory_ / (std::string(kPrelude) + ".pch"));
  PchCache cache(directory_, 1 << 20, clock_);
  clock_.now += 1h;
  cache.Pin({directory_ / (std::string(kPrelude) + ".pch")});
  // A chained PCH records its prelude's mtime: a touched prelude would make them all out of date.
  EXPECT_EQ(fs::last_write_time(directory_ / (std::string(kPrelude) + ".pch")), built);
  EXPECT_EQ(fs::last_write_time(directory_ / (std::string(kPrelude) + ".used")),
            std::chrono::file_clock::from_sys(clock_.now));
}

TEST_F(PchCacheTest, AnEntryInUseStaysEvenPastTheCap) {
  WriteEntry(kPrelude, 5000);
  clock_.now += 1min;
  WriteEntry(kPreambleA, 5000);
  PchCache cache(directory_, 1000, clock_);
  {
    // A preamble just built on the prelude (the prelude is older: first in LRU order).
    const PchCache::Use prelude = cache.Pin({directory_ / (std::string(kPrelude) + ".pch")});
    clock_.now += 1min;
    const PchCache::Use preamble = cache.Pin({directory_ / (std::string(kPreambleA) + ".pch")});
    EXPECT_EQ(cache.Enforce().entries_evicted, 0u);
    EXPECT_TRUE(Has(std::string(kPrelude) + ".pch"));
    EXPECT_TRUE(Has(std::string(kPreambleA) + ".pch"));
  }
  // Released: both go, the preamble first (were they stamped at the same time, it would still go first).
  EXPECT_EQ(cache.Enforce().entries_evicted, 2u);
  EXPECT_EQ(Bytes(), 0u);
}

TEST_F(PchCacheTest, OnATieThePreambleGoesBeforeItsPrelude) {
  WriteEntry(kPrelude, 3000);
  WriteEntry(kPreambleA, 3000);
  PchCache cache(directory_, 4000, clock_);
  cache.Pin({directory_ / (std::string(kPrelude) + ".pch"), directory_ / (std::string(kPreambleA) + ".pch")});
  EXPECT_EQ(cache.Enforce().entries_evicted, 1u);
  EXPECT_TRUE(Has(std::string(kPrelude) + ".pch"));
  EXPECT_FALSE(Has(std::string(kPreambleA) + ".pch"));
}

TEST_F(PchCacheTest, MarkersBelongToTheirEntryAndForeignFilesAreLeftAlone) {
  WriteEntry(kPreambleA, 3000);
  Write(std::string(kPreambleA) + ".seen", 10);
  Write(std::string(kPreambleB) + ".none", 10);  // a preamble that did not build: marker only
  Write(std::string(kPreambleB) + ".cu", 100);
  clock_.now += 1min;
  Write("notes.txt", 5000);                               // not the translator's
  Write(std::string(kPreambleC) + ".pch.tmp4242", 5000);  // a build in progress
  WriteEntry(kPrelude, 3000);
  PchCache cache(directory_, 3150, clock_);
  const PchEviction eviction = cache.Enforce();
  EXPECT_EQ(eviction.entries_evicted, 2u) << "A and the marker-only B, both older than the prelude";
  EXPECT_FALSE(Has(std::string(kPreambleA) + ".seen"));
  EXPECT_FALSE(Has(std::string(kPreambleB) + ".none"));
  EXPECT_TRUE(Has(std::string(kPrelude) + ".pch"));
  EXPECT_TRUE(Has("notes.txt"));
  EXPECT_TRUE(Has(std::string(kPreambleC) + ".pch.tmp4242")) << "a live build's temporary";
  clock_.now += 2h;
  cache.Enforce();
  EXPECT_FALSE(Has(std::string(kPreambleC) + ".pch.tmp4242")) << "a dead build's temporary";
}

TEST_F(PchCacheTest, AnUnboundedCacheEvictsNothing) {
  WriteEntry(kPrelude, 5000);
  EXPECT_EQ(PchCache(directory_, 0, clock_).Enforce().entries_evicted, 0u);
  EXPECT_TRUE(Has(std::string(kPrelude) + ".pch"));
}

TEST_F(PchCacheTest, TwoEvictorsAtOnceAndFilesVanishingAreHarmless) {
  // Two processes' caches on one directory, while a third party deletes and recreates entries.
  std::vector<std::string> entries;
  for (int i = 0; i < 40; ++i) {
    char key[25];
    std::snprintf(key, sizeof key, "%024x", i);
    entries.push_back(i % 2 ? std::string("preamble-") + key : std::string(key));
    clock_.now += 1s;
    WriteEntry(entries.back(), 1000);
  }
  PchCache first(directory_, 10000, clock_), second(directory_, 10000, clock_);
  std::atomic<bool> stop{false};
  std::thread churn([&] {
    for (size_t i = 0; !stop; i = (i + 1) % entries.size()) {
      std::error_code ignored;
      fs::remove(directory_ / (entries[i] + ".pch"), ignored);
      std::ofstream(directory_ / (entries[i] + ".pch"), std::ios::binary) << std::string(1000, 'y');
    }
  });
  std::thread a([&] {
    for (int i = 0; i < 50; ++i) first.Enforce();
  });
  std::thread b([&] {
    for (int i = 0; i < 50; ++i) second.Enforce();
  });
  a.join();
  b.join();
  stop = true;
  churn.join();
  const PchEviction last = first.Enforce();
  EXPECT_LE(last.bytes_after, 10000u);
  EXPECT_LE(Bytes(), 10000u);
}

TEST(CacheLocationsTest, KeysNameTheCacheDirectoriesByRole) {
  const CacheLocations here{"/home/u/.cache/hipforge/pch", "/home/u/.cache/hipforge/shims"};
  const CacheLocations there{"/mnt/copy/pch", "/tmp/task-7/shim"};
  for (const CacheLocations* locations : {&here, &there}) {
    EXPECT_EQ(locations->KeyText("-isystem" + locations->shims.string()), "-isystem<hipforge-shims>");
    EXPECT_EQ(locations->KeyText((locations->pch / "0123.pch").string()), "<hipforge-pch>/0123.pch");
  }
  EXPECT_EQ(here.KeyText("-I/home/u/.cache/hipforge/pch2/x"), "-I/home/u/.cache/hipforge/pch2/x")
      << "a directory that merely starts the same is another directory";
  EXPECT_EQ(here.KeyText("-I/usr/include"), "-I/usr/include");
}

TEST(ParseByteSizeTest, UnitsAndMalformedSizes) {
  EXPECT_EQ(ParseByteSize("2G"), uint64_t{2} << 30);
  EXPECT_EQ(ParseByteSize("500m"), uint64_t{500} << 20);
  EXPECT_EQ(ParseByteSize("64KiB"), uint64_t{64} << 10);
  EXPECT_EQ(ParseByteSize("1048576"), uint64_t{1048576});
  EXPECT_EQ(ParseByteSize("0"), uint64_t{0});
  EXPECT_EQ(ParseByteSize(""), std::nullopt);
  EXPECT_EQ(ParseByteSize("G"), std::nullopt);
  EXPECT_EQ(ParseByteSize("2 G"), std::nullopt);
  EXPECT_EQ(ParseByteSize("2X"), std::nullopt);
  EXPECT_EQ(ParseByteSize("99999999999999999999"), std::nullopt);
  EXPECT_EQ(ParseByteSize("99999999999T"), std::nullopt);
}

}  // namespace
}  // namespace hipforge::translate
