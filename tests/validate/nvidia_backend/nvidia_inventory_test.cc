#include "worker/validate/nvidia_backend/nvidia_inventory.h"

#include <gtest/gtest.h>

namespace hipforge::validate {
namespace {

TEST(NvidiaInventoryTest, ParsesNvidiaSmiQuery) {
  // Shape of `nvidia-smi --query-gpu=... --format=csv,noheader,nounits` on a two-GPU H200 host.
  auto gpus = ParseNvidiaSmiQuery(
      "0, 00000000:1B:00.0, NVIDIA H200, 143771, 0, 31, 9.0\n"
      "1, 00000000:43:00.0, NVIDIA H200, 143771, 87, 45, 9.0\n");
  ASSERT_EQ(gpus.size(), 2u);
  EXPECT_EQ(gpus[0].hip_index, 0);
  EXPECT_EQ(gpus[0].key, "0000:1b:00.0");
  EXPECT_EQ(gpus[0].arch, "sm_90");
  EXPECT_EQ(gpus[0].memory_bytes, int64_t{143771} << 20);
  EXPECT_EQ(gpus[1].busy_percent, 87);
  EXPECT_EQ(gpus[1].temperature_c, 45);
  EXPECT_TRUE(ParseNvidiaSmiQuery("garbage\n").empty());
}

}  // namespace
}  // namespace hipforge::validate
