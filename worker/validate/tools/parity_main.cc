// hipforge-parity: compare one HIP output with its CUDA reference from the command line, with the
// same loaders and tolerances the validate role uses; prints the report's parity entry as JSON.
//   hipforge-parity ACTUAL EXPECTED [--format raw|npy|text] [--dtype float32] [--rtol R] [--atol A]
//                   [--lines REGEX] [--exclude REGEX] [--columns 0,2] [--name CASE]
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "worker/validate/parity.h"
#include "worker/validate/report.h"

using namespace hipforge::validate;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: hipforge-parity ACTUAL EXPECTED [--format F] [--dtype T] [--rtol R] [--atol A] "
                 "[--lines REGEX] [--exclude REGEX] [--columns 0,2] [--name CASE]\n";
    return 2;
  }
  const std::filesystem::path actual_path = argv[1], expected_path = argv[2];
  std::optional<OutputFormat> format;
  std::optional<DType> dtype;
  std::optional<double> rtol, atol;
  TextSelection text;
  std::string name = expected_path.filename().string();
  for (int i = 3; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--format") {
      auto parsed = ParseOutputFormat(value);
      if (!parsed.ok()) return std::cerr << parsed.status() << "\n", 2;
      format = *parsed;
    } else if (flag == "--dtype") {
      auto parsed = ParseDType(value);
      if (!parsed.ok()) return std::cerr << parsed.status() << "\n", 2;
      dtype = *parsed;
    } else if (flag == "--rtol") {
      rtol = std::stod(value);
    } else if (flag == "--atol") {
      atol = std::stod(value);
    } else if (flag == "--lines") {
      text.lines_matching = value;
    } else if (flag == "--exclude") {
      text.exclude_lines_matching = value;
    } else if (flag == "--columns") {
      for (size_t start = 0; start < value.size();) {
        const size_t comma = value.find(',', start);
        text.columns.push_back(std::stoi(value.substr(start, comma - start)));
        start = comma == std::string::npos ? value.size() : comma + 1;
      }
    } else if (flag == "--name") {
      name = value;
    } else {
      std::cerr << "unknown option " << flag << "\n";
      return 2;
    }
  }
  const OutputFormat chosen = format.value_or(GuessOutputFormat(expected_path));
  auto expected = LoadArray(expected_path, chosen, dtype, text);
  auto actual = LoadArray(actual_path, chosen, dtype, text);
  ValidationReport report;
  if (!expected.ok() || !actual.ok()) {
    report.parity.push_back(
        {.case_name = name,
         .verdict = ParityVerdict::kMissing,
         .detail = std::string(!expected.ok() ? expected.status().message() : actual.status().message())});
  } else {
    Tolerance tolerance = DefaultTolerance(expected->dtype);
    if (rtol) tolerance.rtol = *rtol;
    if (atol) tolerance.atol = *atol;
    report.parity.push_back(CompareArrays(name, *actual, *expected, tolerance));
  }
  std::cout << ToJson(report)["parity"][0].dump() << "\n";
  return report.parity[0].verdict == ParityVerdict::kMatch ? 0 : 1;
}
