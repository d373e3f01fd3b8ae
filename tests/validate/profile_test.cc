#include "worker/validate/profile.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace hipforge::validate
