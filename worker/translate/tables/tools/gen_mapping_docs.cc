// gen_mapping_docs DIR: writes the Markdown pages for every mapping table into DIR (normally docs/mappings).
#include <filesystem>
#include <fstream>
#include <iostream>

#include "worker/translate/tables/tools/mapping_docs.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: gen_mapping_docs OUTPUT_DIR\n";
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) {
    std::cerr << "cannot create " << dir << ": " << error.message() << "\n";
    return 1;
  }
  const hipforge::translate::MappingIndex index;
  for (const auto& [name, content] : hipforge::translate::RenderMappingDocs(index)) {
    std::ofstream file(dir / name, std::ios::binary | std::ios::trunc);
    file << content;
    if (!file) {
      std::cerr << "cannot write " << (dir / name) << "\n";
      return 1;
    }
  }
  std::cout << "wrote " << index.Tables().size() + 1 << " files to " << dir << "\n";
  return 0;
}
