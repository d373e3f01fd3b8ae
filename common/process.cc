#include "common/process.h"

#include <sched.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <boost/process.hpp>
#include <boost/process/extend.hpp>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

namespace hipforge {
namespace bp = boost::process;
namespace {

// Keeps at most `cap` bytes of a stream. A longer one keeps its head and its tail, not the head alone: a long
// build's errors and make's summary come last (ggml's 16 MiB of nvcc warnings hid its failing units).
std::string ReadCapped(const std::filesystem::path& path, size_t cap, bool& truncated) {
  std::ifstream in(path, std::ios::binary);
  // Size the buffer by the file, not the cap: zero-filling a 256 MiB cap per stream cost more than the rest of an
  // unchanged repository re-run (the patch's diff).
  std::error_code size_error;
  const uintmax_t size = std::filesystem::file_size(path, size_error);
  if (size_error || size <= cap) {
    std::string data(size_error ? cap : static_cast<size_t>(size), '\0');
    in.read(data.data(), static_cast<std::streamsize>(data.size()));
    data.resize(static_cast<size_t>(in.gcount()));
    if (in.peek() != std::char_traits<char>::eof()) truncated = true;
    return data;
  }
  truncated = true;
  std::string marker;
  if (cap >= 4096) marker = "\n[hipforge: " + std::to_string(size - cap) + " bytes of output dropped here]\n";
  const size_t head = (cap - marker.size()) / 2;
  const size_t tail = cap - marker.size() - head;
  std::string data(cap, '\0');
  in.read(data.data(), static_cast<std::streamsize>(head));
  data.replace(head, marker.size(), marker);
  in.seekg(static_cast<std::streamoff>(size - tail));
  in.read(data.data() + head + marker.size(), static_cast<std::streamsize>(tail));
  data.resize(head + marker.size() + static_cast<size_t>(in.gcount()));
  return data;
}

std::filesystem::path TempName(const char* tag) {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  std::ostringstream name;
  name << "hipforge-proc-" << ::getpid() << "-" << std::hex << rng() << "." << tag;
  return std::filesystem::temp_directory_path() / name.str();
}

enum class WaitOutcome { kExited, kTimedOut, kCancelled };

// Boost 1.74's child::wait_for waits on sigtimedwait(SIGCHLD) without blocking the signal, so a child that exits
// before the wait starts (or whose SIGCHLD lands on another thread) is only noticed when the whole timeout has
// passed. Polling waitpid(WNOHANG) with a short, growing sleep has no such race, and lets us watch a cancel flag.
WaitOutcome WaitWithDeadline(bp::child& child, std::chrono::steady_clock::time_point deadline,
                             const std::atomic<bool>* cancelled) {
  auto pause = std::chrono::microseconds(200);
  std::error_code ignored;
  while (child.running(ignored)) {
    if (cancelled != nullptr && cancelled->load()) return WaitOutcome::kCancelled;
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return WaitOutcome::kTimedOut;
    std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(pause, deadline - now));
    pause = std::min(pause * 2, std::chrono::microseconds(20000));
  }
  return WaitOutcome::kExited;
}

}  // namespace

unsigned UsableCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  return std::max(1u, std::thread::hardware_concurrency());
}

std::filesystem::path FindProgram(const std::string& name) {
  if (name.find('/') != std::string::npos) return std::filesystem::path(name);
  auto found = bp::search_path(name);
  return found.empty() ? std::filesystem::path() : std::filesystem::path(found.string());
}

absl::StatusOr<ProcessResult> BoostProcessLauncher::Run(const ProcessSpec& spec) {
  if (spec.argv.empty()) return absl::InvalidArgumentError("empty argv");
  std::filesystem::path program = FindProgram(spec.argv[0]);
  if (program.empty() || !std::filesystem::exists(program)) {
    return absl::NotFoundError("program not found: " + spec.argv[0]);
  }

  bp::environment env =
      spec.replace_environment ? bp::environment() : bp::environment(boost::this_process::environment());
  for (const auto& [key, value] : spec.environment) env[key] = value;

  const auto out_path = TempName("out");
  const auto err_path = TempName("err");
  const auto in_path = TempName("in");
  {
    std::ofstream in(in_path, std::ios::binary);
    if (spec.standard_input) in << *spec.standard_input;
  }
  struct Cleanup {
    std::vector<std::filesystem::path> paths;
    ~Cleanup() {
      std::error_code ignored;
      for (const auto& p : paths) std::filesystem::remove(p, ignored);
    }
  } cleanup{{out_path, err_path, in_path}};

  std::vector<std::string> args(spec.argv.begin() + 1, spec.argv.end());
  const auto start = std::chrono::steady_clock::now();
  std::error_code launch_error;
  bp::child child;
  const std::string cwd =
      spec.working_directory.empty() ? std::filesystem::current_path().string() : spec.working_directory.string();
  // Each child leads its own process group, so a timeout kills grandchildren too.
  child = bp::child(
      bp::exe = program.string(), bp::args = args, bp::env = env, bp::start_dir = cwd, bp::std_out > out_path.string(),
      bp::std_err > err_path.string(), bp::std_in < in_path.string(), launch_error,
      bp::extend::on_exec_setup = [](auto&) { ::setpgid(0, 0); });
  if (launch_error) return absl::InternalError("cannot start " + program.string() + ": " + launch_error.message());

  ProcessResult result;
  const WaitOutcome outcome = WaitWithDeadline(child, start + spec.timeout, spec.cancelled);
  if (outcome != WaitOutcome::kExited) {
    ::kill(-child.id(), SIGKILL);
    child.wait(launch_error);
    result.timed_out = outcome == WaitOutcome::kTimedOut;
    result.cancelled = outcome == WaitOutcome::kCancelled;
  }
  result.wall_time = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  const int native = child.native_exit_code();
  result.exit_code = (outcome == WaitOutcome::kExited && WIFEXITED(native)) ? WEXITSTATUS(native) : -1;
  result.standard_output = ReadCapped(out_path, spec.max_output_bytes, result.output_truncated);
  result.standard_error = ReadCapped(err_path, spec.max_output_bytes, result.output_truncated);
  return result;
}

}  // namespace hipforge
