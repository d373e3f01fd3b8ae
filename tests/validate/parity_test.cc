#include "worker/validate/parity.h"

#include <cmath>

#include <gtest/gtest.h>

#include "common/process.h"
#include "tests/validate/test_support.h"

namespace hipforge::validate {
namespace {

namespace fs = std::filesystem;

// A real program writes the outputs the parity checker reads: raw float32/float16/int32 files, an
// .npy (v1 header, float64, shape (2, 3)) and a text log, in a "reference" and an "actual" flavour.
constexpr const char* kWriter = R"(
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
int main(int argc, char** argv) {
  const bool actual = std::string(argv[1]) == "actual";
  const int mode = argc > 2 ? std::atoi(argv[2]) : 0;  // 1: one element off, 2: NaN moved
  float f[1000];
  for (int i = 0; i < 1000; ++i) f[i] = std::sin(i * 0.01f) * 100.0f;
  f[10] = std::numeric_limits<float>::quiet_NaN();
  f[20] = std::numeric_limits<float>::infinity();
  if (actual) {
    for (int i = 0; i < 1000; ++i) if (i != 10 && i != 20) f[i] = std::nextafter(f[i], 1e9f);  // 1 ulp
    if (mode == 1) f[500] += 0.5f;
    if (mode == 2) { f[10] = 1.0f; f[11] = std::numeric_limits<float>::quiet_NaN(); }
  }
  FILE* out = std::fopen("f32.bin", "wb"); std::fwrite(f, 4, 1000, out); std::fclose(out);
  uint16_t h[4] = {0x3c00, 0xc000, 0x7bff, static_cast<uint16_t>(actual ? 0x3c01 : 0x3c00)};  // 1, -2, 65504, 1(+1ulp)
  out = std::fopen("f16.bin", "wb"); std::fwrite(h, 2, 4, out); std::fclose(out);
  int32_t n[3] = {1, -7, actual && mode == 1 ? 43 : 42};
  out = std::fopen("i32.bin", "wb"); std::fwrite(n, 4, 3, out); std::fclose(out);
  double d[6] = {0.5, 1.5, 2.5, 3.5, 4.5, actual ? 5.5 + 1e-9 : 5.5};
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }";
  while ((10 + header.size() + 1) % 64) header += ' ';
  header += '\n';
  out = std::fopen("d.npy", "wb");
  std::fwrite("\x93NUMPY\x01\x00", 1, 8, out);
  uint16_t len = header.size(); std::fwrite(&len, 2, 1, out);
  std::fwrite(header.data(), 1, header.size(), out); std::fwrite(d, 8, 6, out); std::fclose(out);
  out = std::fopen("log.txt", "w");
  std::fprintf(out, "kernel time: %d us\nresult: %.6f %.6f\nresult: %.6f nan\n", actual ? 917 : 233, 1.25, 2.5,
               actual ? 3.0000001 : 3.0);
  std::fclose(out);
  return 0;
}
)";

class ParityFilesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::ScratchDir("parity");
    testing::WriteFile(dir_->path() / "writer.cc", kWriter);
    BoostProcessLauncher launcher;
    auto built = launcher.Run({.argv = {"c++", "-O1", "writer.cc", "-o", "writer"}, .working_directory = dir_->path()});
    ASSERT_TRUE(built.ok() && built->exit_code == 0) << (built.ok() ? built->standard_error : "");
    for (auto [flavour, mode] : {std::pair{"reference", "0"}, {"actual", "0"}, {"actual", "1"}, {"actual", "2"}}) {
      const fs::path out = dir_->path() / (std::string(flavour) + mode);
      fs::create_directories(out);
      auto run = launcher.Run({.argv = {(dir_->path() / "writer").string(), flavour, mode}, .working_directory = out});
      ASSERT_TRUE(run.ok() && run->exit_code == 0);
    }
  }
  static void TearDownTestSuite() { delete dir_; }
  static fs::path File(const std::string& flavour, const std::string& name) { return dir_->path() / flavour / name; }

  ParityResult Compare(const std::string& actual_dir, const std::string& file, OutputFormat format,
                       std::optional<DType> dtype, std::optional<Tolerance> tolerance = {}, TextSelection text = {}) {
    auto expected = LoadArray(File("reference0", file), format, dtype, text);
    auto actual = LoadArray(File(actual_dir, file), format, dtype, text);
    EXPECT_TRUE(expected.ok()) << expected.status();
    EXPECT_TRUE(actual.ok()) << actual.status();
    return CompareArrays(file, *actual, *expected, tolerance.value_or(DefaultTolerance(expected->dtype)));
  }
  static testing::ScratchDir* dir_;
};
testing::ScratchDir* ParityFilesTest::dir_ = nullptr;

TEST_F(ParityFilesTest, Float32WithinDefaultToleranceAndNanInfMatchPositionally) {
  auto result = Compare("actual0", "f32.bin", OutputFormat::kRaw, DType::kFloat32);
  EXPECT_EQ(result.verdict, ParityVerdict::kMatch) << result.detail;
  EXPECT_EQ(result.elements, 1000);
  EXPECT_EQ(result.mismatches, 0);
  EXPECT_GT(result.max_abs_error, 0.0);  // one ulp moved every finite value
  EXPECT_LT(result.max_rel_error, 1.3e-6);
}

TEST_F(ParityFilesTest, OneElementOffIsAMismatchWithItsPosition) {
  auto result = Compare("actual1", "f32.bin", OutputFormat::kRaw, DType::kFloat32);
  EXPECT_EQ(result.verdict, ParityVerdict::kMismatch);
  EXPECT_EQ(result.mismatches, 1);
  EXPECT_NEAR(result.max_abs_error, 0.5, 1e-4);
  EXPECT_NE(result.detail.find("element 500"), std::string::npos) << result.detail;
  // A manifest tolerance can accept it.
  auto loose = Compare("actual1", "f32.bin", OutputFormat::kRaw, DType::kFloat32, Tolerance{0, 0.6});
  EXPECT_EQ(loose.verdict, ParityVerdict::kMatch);
}

TEST_F(ParityFilesTest, MovedNanIsAMismatch) {
  auto result = Compare("actual2", "f32.bin", OutputFormat::kRaw, DType::kFloat32);
  EXPECT_EQ(result.verdict, ParityVerdict::kMismatch);
  EXPECT_EQ(result.mismatches, 2);  // element 10 lost its NaN, element 11 gained one
  EXPECT_TRUE(std::isinf(result.max_abs_error));
}

TEST_F(ParityFilesTest, Float16UsesItsOwnTolerance) {
  auto result = Compare("actual0", "f16.bin", OutputFormat::kRaw, DType::kFloat16);
  // 1 vs 1+2^-10: relative 9.8e-4 is inside float16's rtol 1e-3.
  EXPECT_EQ(result.verdict, ParityVerdict::kMatch) << result.detail;
  EXPECT_NEAR(result.max_abs_error, 1.0 / 1024, 1e-9);
  auto strict = Compare("actual0", "f16.bin", OutputFormat::kRaw, DType::kFloat16, DefaultTolerance(DType::kFloat32));
  EXPECT_EQ(strict.verdict, ParityVerdict::kMismatch);
}

TEST_F(ParityFilesTest, IntegersAreExact) {
  EXPECT_EQ(Compare("actual0", "i32.bin", OutputFormat::kRaw, DType::kInt32).verdict, ParityVerdict::kMatch);
  auto off = Compare("actual1", "i32.bin", OutputFormat::kRaw, DType::kInt32);
  EXPECT_EQ(off.verdict, ParityVerdict::kMismatch);
  EXPECT_EQ(off.max_abs_error, 1.0);
}

TEST_F(ParityFilesTest, NpyCarriesDtypeAndShape) {
  auto array = LoadArray(File("reference0", "d.npy"), OutputFormat::kNpy, std::nullopt);
  ASSERT_TRUE(array.ok()) << array.status();
  EXPECT_EQ(array->dtype, DType::kFloat64);
  EXPECT_EQ(array->shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(array->values[5], 5.5);
  auto result = Compare("actual0", "d.npy", OutputFormat::kNpy, std::nullopt);
  EXPECT_EQ(result.verdict, ParityVerdict::kMatch) << result.detail;  // 1e-9 abs is under float64's atol 1e-7
  auto wrong = LoadArray(File("reference0", "d.npy"), OutputFormat::kNpy, DType::kFloat32);
  EXPECT_FALSE(wrong.ok());  // the manifest's dtype must agree with the file's
}

TEST_F(ParityFilesTest, TextColumnsSkipTimingLines) {
  TextSelection selection{.exclude_lines_matching = "time"};
  auto result = Compare("actual0", "log.txt", OutputFormat::kText, DType::kFloat32, std::nullopt, selection);
  EXPECT_EQ(result.elements, 4);  // 1.25 2.5 3.0 nan
  EXPECT_EQ(result.verdict, ParityVerdict::kMatch) << result.detail;
  auto with_timing = Compare("actual0", "log.txt", OutputFormat::kText, DType::kFloat32);
  EXPECT_EQ(with_timing.verdict, ParityVerdict::kMismatch);
}

TEST(ParityTest, HalfAndBfloat16Decoding) {
  EXPECT_EQ(HalfToDouble(0x3c00), 1.0);
  EXPECT_EQ(HalfToDouble(0xc000), -2.0);
  EXPECT_EQ(HalfToDouble(0x7bff), 65504.0);
  EXPECT_EQ(HalfToDouble(0x0001), std::ldexp(1.0, -24));
  EXPECT_TRUE(std::isinf(HalfToDouble(0x7c00)));
  EXPECT_TRUE(std::isnan(HalfToDouble(0x7e00)));
  EXPECT_EQ(BFloat16ToDouble(0x3f80), 1.0);
  EXPECT_EQ(BFloat16ToDouble(0xc0a0), -5.0);
}

TEST(ParityTest, DefaultTolerancesAreTorchAssertClose) {
  EXPECT_EQ(DefaultTolerance(DType::kFloat32).rtol, 1.3e-6);
  EXPECT_EQ(DefaultTolerance(DType::kFloat32).atol, 1e-5);
  EXPECT_EQ(DefaultTolerance(DType::kFloat64).rtol, 1e-7);
  EXPECT_EQ(DefaultTolerance(DType::kFloat16).rtol, 1e-3);
  EXPECT_EQ(DefaultTolerance(DType::kBFloat16).rtol, 1.6e-2);
  EXPECT_EQ(DefaultTolerance(DType::kInt64).atol, 0);
  EXPECT_EQ(*ParseDType("half"), DType::kFloat16);
  EXPECT_FALSE(ParseDType("float128").ok());
}

TEST(ParityTest, SizeDifferenceIsAMismatch) {
  ArrayData a{.dtype = DType::kFloat32, .values = {1, 2, 3}};
  ArrayData b{.dtype = DType::kFloat32, .values = {1, 2}};
  auto result = CompareArrays("sizes", a, b, DefaultTolerance(DType::kFloat32));
  EXPECT_EQ(result.verdict, ParityVerdict::kMismatch);
  EXPECT_NE(result.detail.find("element count"), std::string::npos);
}

}  // namespace
}  // namespace hipforge::validate
