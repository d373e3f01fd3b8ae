#include "worker/validate/gpu_lease.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <time.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "spdlog/spdlog.h"

namespace hipforge::validate {
namespace fs = std::filesystem;

namespace {

std::string LockFileName(const std::string& key, int slot) {
  std::string name = key;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  }
  return slot == 0 ? name + ".lock" : absl::StrCat(name, ".slot", slot, ".lock");
}

std::string HeldKey(const std::string& key, int slot) { return absl::StrCat(key, "#", slot); }

// Cross-process half: a lock file per GPU, flock()ed for the lease's lifetime. Returns the fd or -1
// when another process holds it.
int TryLockFile(const fs::path& path, const std::string& job_id) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return -1;
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return -1;
  }
  // Who holds it, for people looking at the lock dir; the lock itself is the flock.
  const std::string owner = absl::StrCat("pid ", ::getpid(), " job ", job_id, "\n");
  if (::ftruncate(fd, 0) == 0) {
    [[maybe_unused]] ssize_t written = ::pwrite(fd, owner.data(), owner.size(), 0);
  }
  return fd;
}

// Waiters in arrival order, across processes: a ticket file per waiter in <lock_dir>/queue, named by its arrival
// time, held with flock for as long as the waiter waits (so a ticket whose waiter died is seen as stale, in any pid
// namespace). Only the oldest live tickets, as many as there are GPUs, try the lock files: the job that has waited
// longest gets the next free GPU. (Without the queue, the H200 pool's wave64 kernel set waited 7 minutes while
// later jobs took the GPU in turn.)
class Ticket {
 public:
  explicit Ticket(const fs::path& lock_dir) : dir_(lock_dir / "queue") {
    std::error_code ec;
    fs::create_directories(dir_, ec);
    static std::atomic<unsigned long long> sequence = 0;
    timespec now{};
    ::clock_gettime(CLOCK_REALTIME, &now);
    char name[64];
    std::snprintf(
        name, sizeof(name), "%020llu-%010d-%010llu",
        static_cast<unsigned long long>(now.tv_sec) * 1000000000ull + static_cast<unsigned long long>(now.tv_nsec),
        static_cast<int>(::getpid()), sequence.fetch_add(1));
    name_ = name;
    // Locked under a temporary name, then renamed: a ticket is never visible unlocked.
    const fs::path temporary = dir_ / ("." + name_);
    fd_ = ::open(temporary.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd_ >= 0 && (::flock(fd_, LOCK_EX) != 0 || ::rename(temporary.c_str(), (dir_ / name_).c_str()) != 0)) {
      ::close(fd_);
      ::unlink(temporary.c_str());
      fd_ = -1;
    }
  }
  ~Ticket() {
    if (fd_ < 0) return;
    ::unlink((dir_ / name_).c_str());
    ::close(fd_);
  }
  Ticket(const Ticket&) = delete;
  Ticket& operator=(const Ticket&) = delete;

  // Live tickets older than this one; tickets whose waiter is gone are removed. Without a ticket (the queue
  // directory is not writable) a waiter does not queue.
  size_t Position() const {
    if (fd_ < 0) return 0;
    size_t older = 0;
    std::error_code ec;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir_, ec)) {
      const std::string other = entry.path().filename().string();
      if (other.empty() || other[0] == '.' || other >= name_) continue;
      const int fd = ::open(entry.path().c_str(), O_RDWR | O_CLOEXEC);
      if (fd < 0) continue;  // its waiter just left
      if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
        ::unlink(entry.path().c_str());  // stale: nobody holds it
      } else {
        ++older;
      }
      ::close(fd);
    }
    return older;
  }

 private:
  fs::path dir_;
  std::string name_;
  int fd_ = -1;
};

}  // namespace

struct FileLockLeaseManager::State {
  std::vector<GpuDevice> devices;
  fs::path lock_dir;
  std::mutex mutex;
  std::condition_variable released;
  int slots = 1;
  std::map<std::string, int> held;  // HeldKey(key, slot) -> lock fd (in-process half)
};

FileLockLeaseManager::FileLockLeaseManager(std::vector<GpuDevice> devices, fs::path lock_dir, int slots_per_gpu)
    : state_(std::make_unique<State>()) {
  state_->devices = std::move(devices);
  state_->slots = std::max(1, slots_per_gpu);
  state_->lock_dir = std::move(lock_dir);
  std::error_code ec;
  fs::create_directories(state_->lock_dir, ec);
}

FileLockLeaseManager::~FileLockLeaseManager() {
  for (auto& [key, fd] : state_->held) ::close(fd);
}

absl::StatusOr<std::unique_ptr<GpuLease>> FileLockLeaseManager::Acquire(
    const std::string& job_id, const std::vector<std::string>& acceptable_archs, std::chrono::milliseconds wait) {
  auto acceptable = [&](const GpuDevice& d) {
    return acceptable_archs.empty() ||
           std::find(acceptable_archs.begin(), acceptable_archs.end(), d.arch) != acceptable_archs.end();
  };
  if (std::none_of(state_->devices.begin(), state_->devices.end(), acceptable)) {
    return absl::NotFoundError(absl::StrCat("no GPU on this worker has arch ", absl::StrJoin(acceptable_archs, "/")));
  }
  const auto deadline = std::chrono::steady_clock::now() + wait;
  const Ticket ticket(state_->lock_dir);
  std::unique_lock lock(state_->mutex);
  while (true) {
    const bool my_turn = ticket.Position() < state_->devices.size() * static_cast<size_t>(state_->slots);
    // Slot by slot, so that with several slots the jobs spread over the GPUs before they share one.
    for (int slot = 0; my_turn && slot < state_->slots; ++slot) {
      for (const GpuDevice& device : state_->devices) {
        if (!acceptable(device) || state_->held.count(HeldKey(device.key, slot))) continue;
        const int fd = TryLockFile(state_->lock_dir / LockFileName(device.key, slot), job_id);
        if (fd < 0) continue;  // another worker process has it
        state_->held[HeldKey(device.key, slot)] = fd;
        spdlog::info("GPU {} ({}) leased to job {}{}", device.key, device.arch, job_id,
                     state_->slots > 1 ? absl::StrCat(" (slot ", slot + 1, " of ", state_->slots, ")") : "");
        return std::make_unique<GpuLease>(*this, device, slot);
      }
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      return absl::DeadlineExceededError(absl::StrCat("no GPU became free within ", wait.count(), " ms"));
    }
    // Releases inside this process notify; releases by other processes are seen by polling.
    state_->released.wait_until(lock,
                                std::min(deadline, std::chrono::steady_clock::now() + std::chrono::milliseconds(100)));
  }
}

void FileLockLeaseManager::Release(const GpuDevice& device, int slot) {
  {
    std::lock_guard lock(state_->mutex);
    auto it = state_->held.find(HeldKey(device.key, slot));
    if (it == state_->held.end()) return;
    ::close(it->second);  // drops the flock
    state_->held.erase(it);
  }
  state_->released.notify_all();
}

}  // namespace hipforge::validate
