#pragma once
// GPU leases: by default exclusive (two jobs never hold the same GPU); a pool may give each GPU several slots, so
// that that many jobs' tests share it (correctness runs on a large GPU; kernel profiles need it alone). Thread-safe
// inside the process and cross-process through flock()ed lock files named after the GPU's stable key and slot.
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "worker/validate/gpu_inventory.h"

namespace hipforge::validate {

class GpuLease;

class GpuLeaseManager {
 public:
  virtual ~GpuLeaseManager() = default;
  // Blocks up to `wait` for a free GPU whose arch is in `acceptable_archs` (any when empty).
  // Error kDeadlineExceeded when none freed up in time, kNotFound when no GPU qualifies at all.
  virtual absl::StatusOr<std::unique_ptr<GpuLease>> Acquire(const std::string& job_id,
                                                            const std::vector<std::string>& acceptable_archs,
                                                            std::chrono::milliseconds wait) = 0;
  virtual void Release(const GpuDevice& device, int slot) = 0;
};

// RAII lease; releasing happens in the destructor.
class GpuLease {
 public:
  GpuLease(GpuLeaseManager& manager, GpuDevice device, int slot = 0)
      : manager_(manager), device_(std::move(device)), slot_(slot) {}
  ~GpuLease() { manager_.Release(device_, slot_); }
  GpuLease(const GpuLease&) = delete;
  GpuLease& operator=(const GpuLease&) = delete;
  const GpuDevice& device() const { return device_; }
  int slot() const { return slot_; }

 private:
  GpuLeaseManager& manager_;
  GpuDevice device_;
  int slot_;
};

// In-process mutex + condition variable, and per GPU and slot a lock file <lock_dir>/<key>.lock (slot 0) or
// <key>.slot<N>.lock held with flock(LOCK_EX|LOCK_NB) for the lease's lifetime, so separate worker processes on one
// host exclude each other too (the kernel drops the lock if a worker dies). Every process of a pool on one host must
// use the same number of slots.
class FileLockLeaseManager final : public GpuLeaseManager {
 public:
  FileLockLeaseManager(std::vector<GpuDevice> devices, std::filesystem::path lock_dir, int slots_per_gpu = 1);
  ~FileLockLeaseManager() override;
  absl::StatusOr<std::unique_ptr<GpuLease>> Acquire(const std::string& job_id,
                                                    const std::vector<std::string>& acceptable_archs,
                                                    std::chrono::milliseconds wait) override;
  void Release(const GpuDevice& device, int slot) override;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace hipforge::validate
