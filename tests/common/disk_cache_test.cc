// The one disk cache (common/disk_cache.h): keys, checked entries, writers in two processes at once, LRU eviction.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <random>
#include <set>
#include <thread>

#include "common/disk_cache.h"
#include "common/file_io.h"

namespace hipforge {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

class FakeClock final : public Clock {
 public:
  std::chrono::system_clock::time_point Now() const override { return now; }
  std::chrono::system_clock::time_point now = std::chrono::system_clock::now();
};

std::string KeyOf(int i) { return CacheKey("test-entry", 1).Add("i", std::to_string(i)).Hex(); }

class DiskCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    directory_ = fs::temp_directory_path() / ("hipforge-disk-cache-" + std::to_string(std::random_device{}()));
    fs::create_directories(directory_);
  }
  void TearDown() override { fs::remove_all(directory_); }

  uint64_t Bytes() const {
    uint64_t total = 0;
    for (const auto& file : fs::recursive_directory_iterator(directory_)) {
      if (file.is_regular_file()) total += file.file_size();
    }
    return total;
  }
  std::vector<std::string> Temporaries() const {
    std::vector<std::string> found;
    for (const auto& file : fs::recursive_directory_iterator(directory_)) {
      if (file.path().filename().string().find(".tmp") != std::string::npos) found.push_back(file.path().string());
    }
    return found;
  }
  void SetUsed(const fs::path& file, std::chrono::system_clock::time_point when) {
    fs::last_write_time(file, std::chrono::file_clock::from_sys(when));
  }

  fs::path directory_;
  FakeClock clock_;
};

TEST(CacheKeyTest, NamesVersionsAndBoundariesAllCount) {
  const std::string base = CacheKey("facts", 1).Add("path", "a.cu").Add("args", "-O2").Hex();
  EXPECT_EQ(base.size(), 64u);
  EXPECT_EQ(base, CacheKey("facts", 1).Add("path", "a.cu").Add("args", "-O2").Hex()) << "deterministic";
  EXPECT_NE(base, CacheKey("facts", 2).Add("path", "a.cu").Add("args", "-O2").Hex()) << "a new schema version";
  EXPECT_NE(base, CacheKey("parse", 1).Add("path", "a.cu").Add("args", "-O2").Hex()) << "another schema";
  EXPECT_NE(base, CacheKey("facts", 1).Add("file", "a.cu").Add("args", "-O2").Hex()) << "the input's name";
  EXPECT_NE(CacheKey("s", 1).Add("a", "bc").Hex(), CacheKey("s", 1).Add("ab", "c").Hex()) << "length-prefixed";
  EXPECT_NE(CacheKey("s", 1).Add("x", "1").Add("x", "2").Hex(), CacheKey("s", 1).Add("x", "12").Hex());
}

TEST_F(DiskCacheTest, WritesReadBackAndFanOutByKey) {
  DiskCache flat(directory_ / "flat", 0, {}, clock_);
  DiskCache fanned(directory_ / "fanned", 0, {.fan_out = true}, clock_);
  const std::string key = KeyOf(1);
  ASSERT_TRUE(flat.Write(key, ".out", std::string("raw\0bytes\xff", 10)).ok());
  ASSERT_TRUE(fanned.Write(key, ".json", "{}").ok());
  EXPECT_EQ(flat.Read(key, ".out"), std::string("raw\0bytes\xff", 10));
  EXPECT_EQ(fanned.Read(key, ".json"), "{}");
  EXPECT_TRUE(fs::exists(directory_ / "flat" / (key + ".out")));
  EXPECT_TRUE(fs::exists(directory_ / "fanned" / key.substr(0, 2) / (key + ".json")));
  EXPECT_EQ(flat.Read(key, ".json"), std::nullopt) << "another suffix is another file";
  EXPECT_EQ(flat.Read(KeyOf(2), ".out"), std::nullopt);
  EXPECT_TRUE(Temporaries().empty());

  const DiskCache disabled("", 0, {}, clock_);
  EXPECT_TRUE(disabled.Write(key, ".json", "{}").ok());
  EXPECT_EQ(disabled.Read(key, ".json"), std::nullopt);
}

TEST_F(DiskCacheTest, ADamagedEntryIsAMissAndIsRemoved) {
  DiskCache cache(directory_, 0, {}, clock_);
  const std::string payload(5000, 'p');
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(cache.Write(KeyOf(i), ".json", payload).ok());
  const std::string whole = *ReadFileBytes(cache.PathOf(KeyOf(0), ".json"));
  ASSERT_TRUE(WriteFileBytes(cache.PathOf(KeyOf(0), ".json"), whole.substr(0, whole.size() - 10)).ok());  // cut short
  std::string flipped = whole;
  flipped[whole.size() / 2] = 'q';
  ASSERT_TRUE(WriteFileBytes(cache.PathOf(KeyOf(1), ".json"), flipped).ok());  // a byte changed
  ASSERT_TRUE(WriteFileBytes(cache.PathOf(KeyOf(2), ".json"), payload).ok());  // no header (an older layout)
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(cache.Read(KeyOf(i), ".json"), std::nullopt) << i;
    EXPECT_FALSE(fs::exists(cache.PathOf(KeyOf(i), ".json"))) << i;
  }
  EXPECT_EQ(cache.Read(KeyOf(3), ".json"), payload) << "the undamaged entry still reads";
  ASSERT_TRUE(cache.Write(KeyOf(0), ".json", payload).ok());
  EXPECT_EQ(cache.Read(KeyOf(0), ".json"), payload) << "and a damaged one is simply written again";
}

TEST_F(DiskCacheTest, EvictsTheLeastRecentlyUsedEntryWithAllItsFiles) {
  DiskCache cache(directory_, 0, {.primary_suffix = ".json"}, clock_);
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(cache.Write(KeyOf(i), ".out", std::string(1000, 'o')).ok());
    ASSERT_TRUE(cache.Write(KeyOf(i), ".json", std::string(1000, 'j')).ok());
    for (const char* suffix : {".out", ".json"}) SetUsed(cache.PathOf(KeyOf(i), suffix), clock_.now + i * 1min);
  }
  ASSERT_TRUE(WriteFileBytes(directory_ / "README", std::string(3000, 'r')).ok());  // not the cache's
  clock_.now += 1h;
  ASSERT_TRUE(cache.Read(KeyOf(0), ".json")) << "a hit renews entry 0: entry 1 is now the oldest";
  const uint64_t entry_bytes =
      fs::file_size(cache.PathOf(KeyOf(1), ".json")) + fs::file_size(cache.PathOf(KeyOf(1), ".out"));
  const DiskCache capped(directory_, 3 * entry_bytes, {.primary_suffix = ".json"}, clock_);
  const CacheEviction eviction = capped.Enforce();
  EXPECT_EQ(eviction.entries_evicted, 1u);
  EXPECT_EQ(eviction.bytes_before, 4 * entry_bytes);
  EXPECT_EQ(eviction.bytes_after, 3 * entry_bytes);
  EXPECT_FALSE(fs::exists(cache.PathOf(KeyOf(1), ".json")));
  EXPECT_FALSE(fs::exists(cache.PathOf(KeyOf(1), ".out"))) << "an entry's files go together";
  for (int i : {0, 2, 3}) EXPECT_TRUE(capped.Read(KeyOf(i), ".out")) << i;
  EXPECT_TRUE(fs::exists(directory_ / "README"));

  const DiskCache tiny(directory_, entry_bytes, {.primary_suffix = ".json"}, clock_);
  EXPECT_EQ(tiny.Enforce([&](const std::string& entry) { return entry == KeyOf(2); }).entries_evicted, 2u);
  EXPECT_TRUE(tiny.Read(KeyOf(2), ".json")) << "a pinned entry stays";
}

TEST_F(DiskCacheTest, WritesKeepTheCapAndDeadWritersTemporariesGo) {
  const std::string payload(1000, 'x');
  const DiskCache cache(directory_, 10 * 1100, {.fan_out = true}, clock_);
  const fs::path dead = cache.PathOf(KeyOf(999), ".json").string() + ".tmp4242-1";
  ASSERT_TRUE(WriteFileBytes(dead, payload).ok());
  SetUsed(dead, clock_.now - 2h);
  for (int i = 0; i < 50; ++i) {
    clock_.now += 1s;
    ASSERT_TRUE(cache.Write(KeyOf(i), ".json", payload).ok());  // used at the cache's clock
    EXPECT_LE(Bytes(), 10 * 1100u + 1100u) << "at most one write past the cap, before it evicts";
  }
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_TRUE(cache.Read(KeyOf(49), ".json")) << "the newest stays";
  EXPECT_FALSE(cache.Read(KeyOf(0), ".json")) << "the oldest went";
}

// Two processes (two threads each) write the same and their own keys over and over, with a third reading: a
// reader never sees a partial entry, and no temporary is left behind.
TEST_F(DiskCacheTest, WritersInTwoProcessesAtOnceNeverShowAPartialEntry) {
  constexpr int kShared = 8, kRounds = 150;
  const auto payload = [](int writer, int round, int key) {
    return std::string(2000 + 97 * ((writer + round + key) % 50), static_cast<char>('a' + writer));
  };
  DiskCache cache(directory_, 0, {.fan_out = true}, clock_);
  for (int k = 0; k < kShared; ++k) ASSERT_TRUE(cache.Write(KeyOf(k), ".json", payload(0, 0, k)).ok());
  std::vector<pid_t> children;
  for (int process = 0; process < 2; ++process) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      bool ok = true;
      const auto write = [&](int writer) {
        const DiskCache mine(directory_, 0, {.fan_out = true}, DiskCache::DefaultClock());
        for (int round = 0; round < kRounds; ++round) {
          for (int k = 0; k < kShared; ++k) ok &= mine.Write(KeyOf(k), ".json", payload(writer, round, k)).ok();
          ok &= mine.Write(KeyOf(100 + writer), ".json", payload(writer, round, 0)).ok();
        }
      };
      std::thread first(write, 2 * process + 1), second(write, 2 * process + 2);
      first.join();
      second.join();
      _exit(ok ? 0 : 1);
    }
    children.push_back(pid);
  }
  int reads = 0;
  std::vector<int> statuses(children.size(), -1);
  for (bool running = true; running;) {
    running = false;
    for (size_t c = 0; c < children.size(); ++c) {
      if (statuses[c] == -1 && waitpid(children[c], &statuses[c], WNOHANG) == 0) {
        statuses[c] = -1;
        running = true;
      }
    }
    for (int k = 0; k < kShared; ++k, ++reads) {
      const std::optional<std::string> entry = cache.Read(KeyOf(k), ".json");
      ASSERT_TRUE(entry) << "key " << k << " read as damaged or missing during a write";
      ASSERT_GE(entry->size(), 2000u);
      ASSERT_EQ(entry->find_first_not_of(entry->front()), std::string::npos) << "one writer's bytes only";
    }
  }
  for (const int status : statuses) EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  for (int writer = 1; writer <= 4; ++writer) {
    EXPECT_EQ(cache.Read(KeyOf(100 + writer), ".json"), payload(writer, kRounds - 1, 0)) << writer;
  }
  EXPECT_TRUE(Temporaries().empty());
  EXPECT_GT(reads, kShared);
}

}  // namespace
}  // namespace hipforge
