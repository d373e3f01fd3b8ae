#pragma once
// A scratch repository tree for the translator's parse tests: base_/tree (canonical, written file by file) with the
// frontend's shim and PCH directories beside it, all removed after the test.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "worker/translate/core/source_translator.h"

namespace hipforge::translate {

class TempTreeTest : public ::testing::Test {
 protected:
  void MakeTree(const std::string& name) {
    base_ = std::filesystem::temp_directory_path() / ("hipforge-" + name + "-" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(base_ / "tree");
    root_ = std::filesystem::canonical(base_ / "tree");
  }
  void TearDown() override {
    if (!base_.empty()) std::filesystem::remove_all(base_);
  }
  void Write(const std::string& relative, const std::string& text) {
    std::filesystem::create_directories((root_ / relative).parent_path());
    std::ofstream(root_ / relative, std::ios::binary) << text;
  }
  // Two parse threads, the shims and PCHs under base_.
  TranslateOptions TreeOptions() const {
    TranslateOptions options;
    options.jobs = 2;
    options.frontend.shim_directory = base_ / "shims";
    options.pch_directory = base_ / "pch";
    return options;
  }

  std::filesystem::path base_, root_;
};

}  // namespace hipforge::translate
