#pragma once
// Helpers for the analyzer tests: reading golden directories and applying edits.
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "worker/translate/analyze/analyzer.h"

namespace hipforge::translate::testing {

std::filesystem::path SourceDir();  // the repository root
std::filesystem::path RuleDir(const std::string& rule_id);
std::string ReadText(const std::filesystem::path& path);
// Inputs of a golden directory: every file except expected.txt, fixed.*, compile.skip.
std::vector<std::filesystem::path> GoldenInputs(const std::filesystem::path& dir);
// "path:line:col ID" entries of expected.txt (lines "line:col ID" mean input.cu).
std::set<std::string> ExpectedFindings(const std::filesystem::path& dir);
std::set<std::string> FindingKeys(const std::vector<Finding>& findings);
// `text` with `edits` applied (edits on the original bytes, non-overlapping).
std::string ApplyEdits(std::string text, std::vector<TextEdit> edits);
AnalysisResult AnalyzeDir(const std::filesystem::path& dir, AnalyzeOptions options = {});

}  // namespace hipforge::translate::testing
