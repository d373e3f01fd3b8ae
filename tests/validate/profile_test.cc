#include "worker/validate/profile.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace hipforge::validate {
namespace {

// rocprofv3 --kernel-trace --stats writes <prefix>_kernel_stats.csv with these columns.
constexpr const char* kRocprofV3Stats =
    "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\",\"MinNs\",\"MaxNs\",\"StdDev\"\n"
    "\"void gemm_kernel<float, 64>(float const*, float const*, float*, int, int, int)\",100,5120000,51200,"
    "80.0,50000,53000,800.5\n"
    "\"saxpy(int, float, float const*, float*)\",200,1280000,6400,20.0,6000,7000,100.0\n";

// rocprof (v1) --stats writes results.stats.csv.
constexpr const char* kRocprofStats =
    "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\"\n"
    "\"saxpy(int, float, float const*, float*) [clone .kd]\",3,30000,10000,75.0\n"
    "\"block_sum(float const*, float*, int) [clone .kd]\",1,10000,10000,25.0\n";

// nsys stats --report cuda_gpu_kern_sum --format csv on the CUDA side.
constexpr const char* kNsysKernelSum =
    "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
    "85.1,4000000,100,40000.0,40000.0,39000,41000,300.0,\"void gemm_kernel<float, 64>(const float *, const float *, "
    "float *, int, int, int)\"\n"
    "14.9,700000,200,3500.0,3500.0,3400,3600,20.0,\"saxpy(int, float, const float *, float *)\"\n";

TEST(ProfileTest, ParsesRocprofV3KernelStats) {
  auto profile = ParseKernelStatsCsv(kRocprofV3Stats);
  ASSERT_TRUE(profile.ok()) << profile.status();
  ASSERT_EQ(profile->size(), 2u);
  EXPECT_EQ((*profile)[0].kernel, "void gemm_kernel<float, 64>(float const*, float const*, float*, int, int, int)");
  EXPECT_EQ((*profile)[0].calls, 100);
  EXPECT_EQ((*profile)[0].total_ns, 5120000);
  EXPECT_EQ((*profile)[1].calls, 200);
}

TEST(ProfileTest, ParsesRocprofV1StatsAndDropsCloneSuffix) {
  auto profile = ParseKernelStatsCsv(kRocprofStats);
  ASSERT_TRUE(profile.ok());
  ASSERT_EQ(profile->size(), 2u);
  EXPECT_EQ((*profile)[0].total_ns, 30000);
  EXPECT_EQ(KernelMatchKey((*profile)[0].kernel), "saxpy");
}

TEST(ProfileTest, AttachesCudaBaselineByKernelName) {
  auto hip = ParseKernelStatsCsv(kRocprofV3Stats);
  auto cuda = ParseKernelStatsCsv(kNsysKernelSum);
  ASSERT_TRUE(hip.ok() && cuda.ok()) << cuda.status();
  AttachBaseline(*hip, *cuda);
  ASSERT_TRUE((*hip)[0].cuda_baseline_ns.has_value());
  EXPECT_EQ(*(*hip)[0].cuda_baseline_ns, 4000000);
  EXPECT_EQ(*(*hip)[1].cuda_baseline_ns, 700000);
}

TEST(ProfileTest, OwnBaselineFormatAndBadHeader) {
  auto own = ParseKernelStatsCsv("kernel,calls,total_ns\nsaxpy,2,1500\n");
  ASSERT_TRUE(own.ok());
  EXPECT_EQ((*own)[0].total_ns, 1500);
  EXPECT_FALSE(ParseKernelStatsCsv("a,b\n1,2\n").ok());
  EXPECT_EQ(SplitCsvRecord(R"("a, ""b""",2,)"), (std::vector<std::string>{"a, \"b\"", "2", ""}));
}

TEST(ProfileTest, ProfilerCommandLines) {
  Profiler v3{ProfilerKind::kRocprofV3, "/opt/rocm/bin/rocprofv3"};
  auto argv = ProfilerCommand(v3, "/w/prof", {"./app", "1"});
  EXPECT_EQ(argv[1], "--kernel-trace");
  EXPECT_EQ(argv[2], "--stats");
  EXPECT_EQ(argv.back(), "1");
  Profiler v1{ProfilerKind::kRocprof, "/usr/bin/rocprof"};
  argv = ProfilerCommand(v1, "/w/prof", {"./app"});
  EXPECT_EQ(argv, (std::vector<std::string>{"/usr/bin/rocprof", "--stats", "-o", "/w/prof/results.csv", "./app"}));
}

// ncu --csv --page raw --print-units base --metrics gpu__time_duration.sum: a row per launch, a units row first; its
// log starts with ncu's own lines.
constexpr const char* kNcuRaw =
    "==PROF== Connected to process 4242 (/work/cuda-sm_90/src/main)\n"
    "==PROF== Profiling \"scale\" - 0: 0%....50%....100% - 1 pass\n"
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
    "\"Grid Size\",\"Device\",\"CC\",\"gpu__time_duration.sum\"\n"
    "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"nsecond\"\n"
    "\"0\",\"4242\",\"main\",\"127.0.0.1\",\"void scale<float>(float *, float, int)\",\"1\",\"7\",\"(256, 1, 1)\","
    "\"(4096, 1, 1)\",\"0\",\"9.0\",\"5216\"\n"
    "\"1\",\"4242\",\"main\",\"127.0.0.1\",\"void scale<float>(float *, float, int)\",\"1\",\"7\",\"(256, 1, 1)\","
    "\"(4096, 1, 1)\",\"0\",\"9.0\",\"4800\"\n"
    "\"2\",\"4242\",\"main\",\"127.0.0.1\",\"reduce(const float *, float *)\",\"1\",\"7\",\"(512, 1, 1)\","
    "\"(1, 1, 1)\",\"0\",\"9.0\",\"1,200\"\n"
    // A launch that faulted (an illegal memory access): no time.
    "\"3\",\"4242\",\"main\",\"127.0.0.1\",\"reduce(const float *, float *)\",\"1\",\"7\",\"(512, 1, 1)\","
    "\"(1, 1, 1)\",\"0\",\"9.0\",\"nan\"\n";

// The details page: a row per metric and launch, with its unit.
constexpr const char* kNcuDetails =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
    "\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
    "\"0\",\"9\",\"main\",\"127.0.0.1\",\"scale\",\"1\",\"7\",\"(256, 1, 1)\",\"(16, 1, 1)\",\"0\",\"9.0\","
    "\"Command line profiler metrics\",\"gpu__time_duration.sum\",\"usecond\",\"5.5\"\n"
    "\"0\",\"9\",\"main\",\"127.0.0.1\",\"scale\",\"1\",\"7\",\"(256, 1, 1)\",\"(16, 1, 1)\",\"0\",\"9.0\","
    "\"Command line profiler metrics\",\"dram__bytes.sum\",\"byte\",\"4096\"\n";

TEST(ProfileTest, ParsesNcuRawPagePerLaunchIntoPerKernelTotals) {
  auto profile = ParseKernelStatsCsv(kNcuRaw);
  ASSERT_TRUE(profile.ok()) << profile.status();
  ASSERT_EQ(profile->size(), 2u);
  EXPECT_EQ((*profile)[0].kernel, "void scale<float>(float *, float, int)");
  EXPECT_EQ((*profile)[0].calls, 2);
  EXPECT_EQ((*profile)[0].total_ns, 10016);
  EXPECT_EQ((*profile)[1].total_ns, 1200) << "thousands separators; the faulted launch left out";
  EXPECT_EQ((*profile)[1].calls, 1);
}

TEST(ProfileTest, ParsesNcuDetailsPageInItsUnitAndIgnoresOtherMetrics) {
  auto profile = ParseKernelStatsCsv(kNcuDetails);
  ASSERT_TRUE(profile.ok()) << profile.status();
  ASSERT_EQ(profile->size(), 1u);
  EXPECT_EQ((*profile)[0].calls, 1);
  EXPECT_EQ((*profile)[0].total_ns, 5500);
}

TEST(ProfileTest, TheCudaRunsCallsComeWithItsBaselineAndTheRatioIsPerLaunch) {
  std::vector<KernelProfile> hip = {{.kernel = "void scale<float>(float *, float, int)", .calls = 4, .total_ns = 8000}};
  AttachBaseline(hip, {{.kernel = "void scale<float>(float*, float, int)", .calls = 2, .total_ns = 2000}});
  ASSERT_TRUE(hip[0].cuda_baseline_ns.has_value());
  EXPECT_EQ(*hip[0].cuda_baseline_ns, 2000);
  EXPECT_EQ(*hip[0].cuda_calls, 2);
  // 2000 ns per HIP launch against 1000 per CUDA launch.
  EXPECT_DOUBLE_EQ(*report::HipCudaRatio(hip[0]), 2.0);
}

TEST(ProfileTest, NcuCommandLine) {
  const Profiler ncu{ProfilerKind::kNcu, "/usr/local/cuda/bin/ncu"};
  auto argv = ProfilerCommand(ncu, "/w/profile-hip", {"sh", "-c", "./main"});
  EXPECT_EQ(argv.front(), "/usr/local/cuda/bin/ncu");
  EXPECT_NE(std::find(argv.begin(), argv.end(), "gpu__time_duration.sum"), argv.end());
  EXPECT_NE(std::find(argv.begin(), argv.end(), "/w/profile-hip/ncu.csv"), argv.end());
  EXPECT_EQ(argv.back(), "./main");
}

}  // namespace
}  // namespace hipforge::validate
