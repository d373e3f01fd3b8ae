#pragma once
// Exclusive GPU leases: two jobs never hold the same GPU. Thread-safe inside the process and
// cross-process through flock()ed lock files named after the GPU's stable key in a lock dir.
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
  virtual void Release(const GpuDevice& device) = 0;
};

// RAII lease; releasing happens in the destructor.
class GpuLease {
 public:
  GpuLease(GpuLeaseManager& manager, GpuDevice device) : manager_(manager), device_(std::move(device)) {}
  ~GpuLease() { manager_.Release(device_); }
  GpuLease(const GpuLease&) = delete;
  GpuLease& operator=(const GpuLease&) = delete;
  const GpuDevice& device() const { return device_; }

 private:
  GpuLeaseManager& manager_;
  GpuDevice device_;
};

// In-process mutex + condition variable, and per GPU a lock file <lock_dir>/<key>.lock held with
// flock(LOCK_EX|LOCK_NB) for the lease's lifetime, so separate worker processes on one host exclude
// each other too (the kernel drops the lock if a worker dies).
class FileLockLeaseManager final : public GpuLeaseManager {
 public:
  FileLockLeaseManager(std::vector<GpuDevice> devices, std::filesystem::path lock_dir);
  ~FileLockLeaseManager() override;
  absl::StatusOr<std::unique_ptr<GpuLease>> Acquire(const std::string& job_id,
                                                    const std::vector<std::string>& acceptable_archs,
                                                    std::chrono::milliseconds wait) override;
  void Release(const GpuDevice& device) override;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace hipforge::validate
