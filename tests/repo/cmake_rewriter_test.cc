#include "worker/translate/repo/cmake_rewriter.h"

#include <gtest/gtest.h>

#include "worker/translate/repo/cmake_tokenizer.h"

namespace hipforge::translate {
namespace {

class CMakeRewriterTest : public ::testing::Test {
 protected:
  std::string Rewrite(const std::string& text, bool has_cuda_sources = true) {
    context_.options = &options_;
    context_.has_cuda_sources = has_cuda_sources;
    last_ = CMakeRewriter().Rewrite("CMakeLists.txt", text, context_);
    return last_.output;
  }
  // The HIP module the last rewrite generated (empty when none).
  std::string Module() const {
    auto it = last_.generated_files.find(kHipMigrationModule);
    return it == last_.generated_files.end() ? "" : it->second;
  }
  bool HasManualNote(const std::string& fragment) const {
    for (const auto& note : last_.notes) {
      if (note.left_for_person && note.message.find(fragment) != std::string::npos) return true;
    }
    return false;
  }
  MigrationOptions options_;
  RewriteContext context_;
  RewriteResult last_;
};

TEST(CMakeTokenizerTest, CommandsArgumentsCommentsAndBrackets) {
  const std::string text =
      "# comment with project(CUDA)\n"
      "project(demo LANGUAGES CXX CUDA) # trailing\n"
      "set(X \"a b\" [[raw ${x}]] c\\ d)\n"
      "#[[ block\ncomment ]]\n"
      "if((A AND B) OR C)\nendif()\n";
  const CMakeFile file = TokenizeCMake(text);
  ASSERT_EQ(file.commands.size(), 4u);
  EXPECT_EQ(file.commands[0].lower_name, "project");
  EXPECT_EQ(file.commands[0].line, 2u);
  ASSERT_EQ(file.commands[0].arguments.size(), 4u);
  EXPECT_EQ(file.commands[0].arguments[3].text, "CUDA");
  const auto& set = file.commands[1];
  ASSERT_EQ(set.arguments.size(), 4u);
  EXPECT_EQ(set.arguments[1].kind, CMakeArgumentKind::kQuoted);
  EXPECT_EQ(set.arguments[1].text, "a b");
  EXPECT_EQ(set.arguments[2].kind, CMakeArgumentKind::kBracket);
  EXPECT_EQ(set.arguments[2].text, "raw ${x}");
  EXPECT_EQ(text.substr(set.arguments[3].offset, set.arguments[3].length), "c\\ d");
  EXPECT_EQ(file.commands[2].lower_name, "if");
  EXPECT_EQ(file.commands[2].line, 6u);
  EXPECT_TRUE(file.complete);
}

TEST_F(CMakeRewriterTest, ProjectLanguageBecomesHipBlock) {
  const std::string out = Rewrite("project(demo LANGUAGES CXX CUDA)\n");
  // One include line in the project's file; the generated CMake lives in the module.
  EXPECT_EQ(out,
            "project(demo LANGUAGES CXX)\n"
            "include(\"${CMAKE_CURRENT_LIST_DIR}/cmake/hipforge/HipMigration.cmake\")  # hipforge HB502: CUDA language "
            "-> HIP\n");
  const std::string module = Module();
  EXPECT_EQ(module.rfind("include_guard(GLOBAL)\n", 0), 0u) << module;
  EXPECT_NE(module.find("check_language(HIP)"), std::string::npos);
  EXPECT_NE(module.find("set(CMAKE_HIP_ARCHITECTURES gfx90a gfx942 CACHE STRING"), std::string::npos);
  EXPECT_NE(module.find("link_libraries(hip::device)"), std::string::npos);
  EXPECT_TRUE(last_.changed_by.count("HB502"));
  EXPECT_EQ(Rewrite(out), out) << "second run must not change the file";
}

TEST_F(CMakeRewriterTest, CudaOnlyProjectGetsCxx) {
  EXPECT_EQ(Rewrite("project(k CUDA)\n", false), "project(k CXX)\nfind_package(hip REQUIRED)\n");
}

TEST_F(CMakeRewriterTest, EnableLanguageReplacedOnceAndIndented) {
  const std::string out = Rewrite("if(USE_GPU)\n  enable_language(CUDA)\n  enable_language(CUDA)\nendif()\n");
  EXPECT_NE(out.find("\n  include(\"${CMAKE_CURRENT_LIST_DIR}/cmake/hipforge/HipMigration.cmake\")"), std::string::npos)
      << out;
  EXPECT_NE(Module().find("\nif(NOT DEFINED HIP_SOURCE_LANGUAGE)"), std::string::npos) << Module();
  EXPECT_NE(out.find("# hipforge HB502: HIP is enabled above"), std::string::npos);
  EXPECT_EQ(out.find("enable_language(CUDA)"), std::string::npos);
}

TEST_F(CMakeRewriterTest, ToolkitTargetsAndPackages) {
  context_.cmake_cuda_libraries = {"cublas", "cufft"};
  const std::string out = Rewrite(
      "find_package(CUDAToolkit REQUIRED)\n"
      "target_link_libraries(app PRIVATE CUDA::cudart CUDA::cublas CUDA::cublasLt CUDA::curand CUDA::cufft "
      "CUDA::cusparse CUDA::cusolver)\n",
      false);
  EXPECT_NE(out.find("find_package(hip REQUIRED)\nfind_package(hipblas REQUIRED)\nfind_package(hipfft REQUIRED)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("PRIVATE hip::host roc::hipblas roc::hipblaslt hip::hiprand hip::hipfft roc::hipsparse "
                     "roc::hipsolver)"),
            std::string::npos)
      << out;
}

TEST_F(CMakeRewriterTest, UnknownToolkitTargetIsLeftForAPerson) {
  const std::string out = Rewrite("target_link_libraries(app CUDA::nppc)\n", false);
  EXPECT_EQ(out, "target_link_libraries(app CUDA::nppc)\n");
  EXPECT_TRUE(HasManualNote("CUDA::nppc"));
}

TEST_F(CMakeRewriterTest, ArchitecturesFlagsAndGeneratorExpressions) {
  const std::string out = Rewrite(
      "set(CMAKE_CUDA_ARCHITECTURES 70 80)\n"
      "set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} --use_fast_math -Xptxas -v -rdc=true\")\n"
      "target_compile_options(k PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo;--expt-extended-lambda>)\n"
      "set_target_properties(k PROPERTIES CUDA_ARCHITECTURES \"70;80\" CUDA_STANDARD 17)\n",
      false);
  EXPECT_NE(out.find("set(CMAKE_HIP_ARCHITECTURES gfx90a gfx942 CACHE STRING \"AMD GPU architectures\")"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("set(CMAKE_HIP_FLAGS \"${CMAKE_HIP_FLAGS} -fgpu-flush-denormals-to-zero "
                     "-fno-hip-fp32-correctly-rounded-divide-sqrt -fcuda-approx-transcendentals -fgpu-rdc\")"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("$<$<COMPILE_LANGUAGE:${HIP_SOURCE_LANGUAGE}>:-gline-tables-only>"), std::string::npos) << out;
  EXPECT_NE(out.find("HIP_ARCHITECTURES \"${CMAKE_HIP_ARCHITECTURES}\" HIP_STANDARD 17"), std::string::npos) << out;
  EXPECT_TRUE(last_.changed_by.count("HB501"));
  EXPECT_EQ(Rewrite(out, false), out);
}

// CMake splits `$<$<COMPILE_LANGUAGE:CUDA>:a b>` into unquoted arguments (the examples/cuda-vector-stats demo).
TEST_F(CMakeRewriterTest, LanguageGenexSpanningSeveralArguments) {
  const std::string out = Rewrite(
      "target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math -lineinfo> -Wall)\n"
      "target_compile_options(u PRIVATE -O2 $<$<COMPILE_LANGUAGE:CUDA>:-Xptxas -v --expt-relaxed-constexpr>)\n"
      "target_compile_options(v PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-DA=1 -DB=2>)\n");
  EXPECT_EQ(
      out,
      "target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:${HIP_SOURCE_LANGUAGE}>:-fgpu-flush-denormals-to-zero "
      "-fno-hip-fp32-correctly-rounded-divide-sqrt -fcuda-approx-transcendentals "
      "-gline-tables-only> -Wall)\n"
      "target_compile_options(u PRIVATE -O2)\n"
      "target_compile_options(v PRIVATE $<$<COMPILE_LANGUAGE:${HIP_SOURCE_LANGUAGE}>:-DA=1 -DB=2>)\n");
  EXPECT_EQ(Rewrite(out), out);
}

// A list variable expanded inside a CUDA-language genex holds nvcc flags (ggml's CUDA_FLAGS); another
// variable with the same words is not touched.
TEST_F(CMakeRewriterTest, FlagsVariableExpandedInCudaGenex) {
  const std::string out = Rewrite(
      "set(CUDA_FLAGS -use_fast_math -extended-lambda)\n"
      "list(APPEND CUDA_FLAGS -lineinfo)\n"
      "set(OTHER -extended-lambda)\n"
      "target_compile_options(k PRIVATE \"$<$<COMPILE_LANGUAGE:CUDA>:${CUDA_FLAGS}>\")\n");
  EXPECT_NE(out.find("set(CUDA_FLAGS -fgpu-flush-denormals-to-zero -fno-hip-fp32-correctly-rounded-divide-sqrt "
                     "-fcuda-approx-transcendentals)\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("list(APPEND CUDA_FLAGS -gline-tables-only)\n"), std::string::npos) << out;
  EXPECT_NE(out.find("set(OTHER -extended-lambda)\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\"$<$<COMPILE_LANGUAGE:${HIP_SOURCE_LANGUAGE}>:${CUDA_FLAGS}>\""), std::string::npos) << out;
  EXPECT_TRUE(last_.changed_by.count("HB501"));
  EXPECT_EQ(Rewrite(out), out);
}

TEST_F(CMakeRewriterTest, SourcesOfTargetsAreMarkedHip) {
  const std::string out = Rewrite(
      "set(SRCS a.cu b.cpp)\n"
      "add_library(k STATIC ${SRCS} c.cu)\n"
      "add_executable(app main.cpp)\n");
  EXPECT_NE(out.find("add_library(k STATIC ${SRCS} c.cu)\nset_source_files_properties(${SRCS} c.cu PROPERTIES "
                     "LANGUAGE ${HIP_SOURCE_LANGUAGE})\nadd_executable(app main.cpp)"),
            std::string::npos)
      << out;
  EXPECT_EQ(Rewrite(out), out);
}

TEST_F(CMakeRewriterTest, SourceLanguageProperty) {
  const std::string out = Rewrite(
      "add_library(k a.cu)\nset_source_files_properties(a.cu PROPERTIES LANGUAGE CUDA)\n"
      "set_property(SOURCE b.cpp PROPERTY LANGUAGE CUDA)\n");
  EXPECT_EQ(out,
            "add_library(k a.cu)\nset_source_files_properties(a.cu PROPERTIES LANGUAGE ${HIP_SOURCE_LANGUAGE} "
            "HIP_SOURCE ON)\n"
            "set_property(SOURCE b.cpp PROPERTY LANGUAGE ${HIP_SOURCE_LANGUAGE})\n"
            "set_property(SOURCE b.cpp PROPERTY HIP_SOURCE ON)\n");
  EXPECT_EQ(Rewrite(out), out);
}

TEST_F(CMakeRewriterTest, FindCudaModuleCommands) {
  context_.cmake_cuda_libraries = {"cublas"};
  const std::string out = Rewrite(
      "cmake_minimum_required(VERSION 3.10)\n"
      "find_package(CUDA REQUIRED)\n"
      "list(APPEND CUDA_NVCC_FLAGS -arch=sm_70 -Xcompiler -fPIC)\n"
      "cuda_add_library(s STATIC s.cu OPTIONS -lineinfo)\n"
      "cuda_add_cublas_to_target(s)\n"
      "target_link_libraries(s ${CUDA_LIBRARIES} ${CUDA_curand_LIBRARY})\n"
      "if(CUDA_FOUND)\nendif()\n");
  EXPECT_NE(out.find("cmake_minimum_required(VERSION 3.21)"), std::string::npos) << out;
  EXPECT_NE(out.find("find_package(hipblas REQUIRED)"), std::string::npos) << out;
  EXPECT_NE(out.find("string(APPEND CMAKE_HIP_FLAGS \" --offload-arch=gfx90a --offload-arch=gfx942 -fPIC\")"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("add_library(s STATIC s.cu)\ntarget_compile_options(s PRIVATE -gline-tables-only)\n"
                     "set_source_files_properties(s.cu PROPERTIES LANGUAGE ${HIP_SOURCE_LANGUAGE})"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("target_link_libraries(s roc::hipblas)"), std::string::npos);
  EXPECT_NE(out.find("target_link_libraries(s hip::host hip::hiprand)"), std::string::npos) << out;
  EXPECT_NE(out.find("if(hip_FOUND)"), std::string::npos);
  EXPECT_EQ(Rewrite(out), out);
}

TEST_F(CMakeRewriterTest, SeparableCompilationBecomesGpuRdc) {
  const std::string out =
      Rewrite("set_target_properties(k PROPERTIES CUDA_SEPARABLE_COMPILATION ON POSITION_INDEPENDENT_CODE ON)\n");
  EXPECT_EQ(out,
            "set_target_properties(k PROPERTIES POSITION_INDEPENDENT_CODE ON)\n"
            "target_compile_options(k PRIVATE -fgpu-rdc)\ntarget_link_options(k PUBLIC -fgpu-rdc)\n");
}

TEST_F(CMakeRewriterTest, SeparableCompilationDroppedWhenNoDeviceCodeCrossesFiles) {
  context_.relocatable_device_code_needed = false;
  const std::string out = Rewrite(
      "set_target_properties(k PROPERTIES CUDA_SEPARABLE_COMPILATION ON POSITION_INDEPENDENT_CODE ON)\n"
      "set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} -rdc=true -O2\")\n");
  EXPECT_EQ(out,
            "set_target_properties(k PROPERTIES POSITION_INDEPENDENT_CODE ON)\n"
            "set(CMAKE_HIP_FLAGS \"${CMAKE_HIP_FLAGS} -O2\")\n");
  int rdc_notes = 0;
  for (const auto& note : last_.notes)
    rdc_notes += note.message.find("relocatable device code is not needed") != std::string::npos;
  EXPECT_EQ(rdc_notes, 2);
  EXPECT_EQ(Rewrite(out), out);
}

// BabelStream's register_link_library("nvidia-ml"): project macros and find_library name libraries, not targets.
TEST_F(CMakeRewriterTest, LibraryNamesInProjectLibraryCommands) {
  const std::string out = Rewrite(
      "register_link_library(\"nvidia-ml\")\nfind_library(BLAS_LIB NAMES cublas)\nadd_link_lib(-lcufft m)\n"
      "register_model(cuda CUDA a.cpp)\nset(BACKEND cublas)\n");
  EXPECT_EQ(out,
            "register_link_library(\"rocm_smi64\")\nfind_library(BLAS_LIB NAMES hipblas)\nadd_link_lib(-lhipfft m)\n"
            "register_model(cuda CUDA a.cpp)\nset(BACKEND cublas)\n");
  EXPECT_TRUE(HasManualNote("NVML -> ROCm SMI"));
  EXPECT_EQ(Rewrite(out), out);
}

// The hipcc fallback takes CMAKE_HIP_FLAGS[_<CONFIG>] per directory when configuring ends (not through
// CMAKE_CXX_FLAGS of the block's directory), defines the per-configuration variables, and links -fgpu-rdc
// targets with the lld of hipcc's clang.
TEST_F(CMakeRewriterTest, FallbackBlockCarriesFlagsOfEveryDirectory) {
  Rewrite("project(demo LANGUAGES CXX CUDA)\n");
  const std::string out = Module();
  EXPECT_NE(out.find("set(CMAKE_HIP_FLAGS_${config} \"${CMAKE_CXX_FLAGS_${config}}\")"), std::string::npos) << out;
  EXPECT_NE(out.find("DEFINITION CMAKE_HIP_FLAGS_${config}"), std::string::npos);
  EXPECT_NE(out.find("list(APPEND HIP_RDC_LINK_OPTIONS \"-B/usr/lib/llvm-${hip_clang_major}/bin\")"),
            std::string::npos);
  EXPECT_NE(out.find("CALL hip_finish_directory \"${CMAKE_SOURCE_DIR}\")"), std::string::npos);
  EXPECT_EQ(out.find("string(APPEND CMAKE_CXX_FLAGS"), std::string::npos);
}

TEST_F(CMakeRewriterTest, SubdirectoryIncludesTheModuleFromTheRepositoryRoot) {
  context_.options = &options_;
  context_.has_cuda_sources = true;
  last_ = CMakeRewriter().Rewrite("src/gpu/CMakeLists.txt", "enable_language(CUDA)\n", context_);
  EXPECT_EQ(last_.output,
            "include(\"${CMAKE_CURRENT_LIST_DIR}/../../cmake/hipforge/HipMigration.cmake\")  # hipforge HB502: CUDA "
            "language -> HIP\n");
  EXPECT_FALSE(Module().empty());
}

TEST_F(CMakeRewriterTest, RenameToHip) {
  options_.rename_to_hip = true;
  const std::string out = Rewrite("add_library(k a.cu b.cpp)\nfile(GLOB K kernels/*.cu)\n");
  EXPECT_EQ(out,
            "add_library(k a.hip b.cpp)\nset_source_files_properties(a.hip PROPERTIES LANGUAGE "
            "${HIP_SOURCE_LANGUAGE})\nfile(GLOB K kernels/*.hip)\n");
}

TEST_F(CMakeRewriterTest, CudaCompilerInConditions) {
  const std::string out = Rewrite("include(CheckLanguage)\ncheck_language(CUDA)\nif(CMAKE_CUDA_COMPILER)\nendif()\n");
  EXPECT_NE(out.find("if(HIP_SOURCE_LANGUAGE)"), std::string::npos) << out;
  EXPECT_EQ(out.find("check_language(CUDA)"), std::string::npos);
}

// Outside conditions the project runs the compiler (ggml: its host compiler's version through nvcc's -Xcompiler):
// the compiler of the HIP sources, which the block records, answers instead of an empty variable.
TEST_F(CMakeRewriterTest, CudaCompilerRunByTheProjectIsTheHipCompiler) {
  const std::string out = Rewrite(
      "enable_language(CUDA)\nexecute_process(COMMAND ${CMAKE_CUDA_COMPILER} .c -Xcompiler --version\n"
      "  OUTPUT_VARIABLE V)\nmessage(STATUS \"${CMAKE_CUDA_COMPILER_VERSION}\")\n");
  EXPECT_NE(out.find("COMMAND ${HIP_SOURCE_COMPILER} .c -Xcompiler --version"), std::string::npos) << out;
  EXPECT_NE(out.find("${CMAKE_CUDA_COMPILER_VERSION}"), std::string::npos) << out;  // a longer name: not this one
  EXPECT_EQ(out.find("${CMAKE_CUDA_COMPILER}"), std::string::npos) << out;
  EXPECT_FALSE(HasManualNote("CUDA compiler"));
  // Its host compiler (ggml appends `-ccbin ${CMAKE_CUDA_HOST_COMPILER}` unless it is empty): the block's empty one.
  const std::string host = Rewrite(
      "enable_language(CUDA)\nif(NOT CMAKE_CUDA_HOST_COMPILER STREQUAL \"\")\n"
      "  list(APPEND C -ccbin ${CMAKE_CUDA_HOST_COMPILER})\nendif()\n");
  EXPECT_NE(host.find("if(NOT HIP_SOURCE_HOST_COMPILER STREQUAL \"\")"), std::string::npos) << host;
  EXPECT_NE(host.find("-ccbin ${HIP_SOURCE_HOST_COMPILER}"), std::string::npos) << host;
  EXPECT_NE(Module().find("set(HIP_SOURCE_HOST_COMPILER \"\" CACHE INTERNAL"), std::string::npos);
}

TEST_F(CMakeRewriterTest, UnrelatedFileUnchanged) {
  const std::string text = "project(x CXX)\nadd_library(a a.cpp)\ntarget_compile_options(a PRIVATE -O2 -Wall)\n";
  EXPECT_EQ(Rewrite(text), text);
  EXPECT_TRUE(last_.changed_by.empty());
}

TEST(CMakeLibrariesTest, FindsLibrariesAcrossSpellings) {
  const auto libs = CudaLibrariesInCMake(
      "target_link_libraries(a CUDA::cublas ${CUDA_cufft_LIBRARY} ${CUDA_CUSPARSE_LIBRARIES} curand)\n");
  EXPECT_EQ(libs, (std::set<std::string>{"cublas", "cufft", "curand", "cusparse"}));
}

}  // namespace
}  // namespace hipforge::translate
