#include "worker/translate/repo/file_classifier.h"

#include <gtest/gtest.h>

namespace hipforge::translate {
namespace {

TEST(DeviceCodeAcrossFilesTest, DeclarationsWithoutBodies) {
  EXPECT_TRUE(DeclaresDeviceCodeDefinedElsewhere("extern __device__ float twice(float x);\n"));
  EXPECT_TRUE(DeclaresDeviceCodeDefinedElsewhere("__host__ __device__\nfloat twice(float x,\n  int y);\n"));
  EXPECT_TRUE(DeclaresDeviceCodeDefinedElsewhere("extern __constant__ float coefficients[16];\n"));
  EXPECT_TRUE(DeclaresDeviceCodeDefinedElsewhere("extern \"C\" __device__ int counter;\n"));
  EXPECT_TRUE(DeclaresDeviceCodeDefinedElsewhere("template <class T> __device__ T reduce(T v);\n"));
}

TEST(DeviceCodeAcrossFilesTest, DefinitionsLambdasAndSharedMemoryDoNotCount) {
  EXPECT_FALSE(DeclaresDeviceCodeDefinedElsewhere("__device__ float twice(float x) { return 2 * x; }\n"));
  EXPECT_FALSE(DeclaresDeviceCodeDefinedElsewhere("__device__ int counter = 0;\n__constant__ float c[4];\n"));
  EXPECT_FALSE(DeclaresDeviceCodeDefinedElsewhere("extern __shared__ float tile[];\n"));
  EXPECT_FALSE(DeclaresDeviceCodeDefinedElsewhere("auto f = [=] __device__ (int i) { return i; };\n"));
  EXPECT_FALSE(
      DeclaresDeviceCodeDefinedElsewhere("// extern __device__ float twice(float);\n"
                                         "/* __device__ int g(int); */\n"));
  EXPECT_FALSE(DeclaresDeviceCodeDefinedElsewhere("#if defined(__device__)\n#endif\n__global__ void k(int*);\n"));
  EXPECT_FALSE(DeclaresDeviceCodeDefinedElsewhere("int host_only(int);\n"));
}

}  // namespace
}  // namespace hipforge::translate
