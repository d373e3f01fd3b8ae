#include "worker/translate/repo/rewrite_cache.h"

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "common/file_io.h"
#include "common/sha256.h"

namespace hipforge::translate {

std::string RewriteCache::Key(const std::string& rewriter_name, int rewriter_version, const std::string& fingerprint,
                              const std::string& relative_path, const std::string& content) {
  // Length-prefixed fields so no two different inputs concatenate to the same bytes.
  std::string material;
  for (const std::string& field :
       {rewriter_name, std::to_string(rewriter_version), fingerprint, relative_path, content}) {
    material += std::to_string(field.size()) + ":" + field;
  }
  return Sha256Hex(material);
}

std::optional<RewriteResult> RewriteCache::Lookup(const std::string& key) const {
  if (directory_.empty()) return std::nullopt;
  std::ifstream in(directory_ / (key + ".json"), std::ios::binary);
  if (!in) return std::nullopt;
  try {
    const nlohmann::json json = nlohmann::json::parse(in);
    RewriteResult result;
    // The output is stored raw next to the JSON: build files need not be UTF-8.
    std::ifstream output_file(directory_ / (key + ".out"), std::ios::binary);
    if (!output_file) return std::nullopt;
    std::ostringstream output;
    output << output_file.rdbuf();
    result.output = output.str();
    result.changed_by = json.at("changed_by").get<std::set<std::string>>();
    result.changed_lines = json.at("changed_lines").get<std::set<uint32_t>>();
    for (const auto& note : json.at("notes")) {
      result.notes.push_back({note.at("origin").get<std::string>(), note.at("line").get<uint32_t>(),
                              note.at("message").get<std::string>(), note.at("left_for_person").get<bool>()});
    }
    result.generated_files = json.value("generated_files", std::map<std::string, std::string>{});
    return result;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;  // a damaged entry is recomputed
  }
}

void RewriteCache::Store(const std::string& key, const RewriteResult& result) const {
  if (directory_.empty()) return;
  std::error_code error;
  std::filesystem::create_directories(directory_, error);
  nlohmann::json notes = nlohmann::json::array();
  for (const auto& note : result.notes) {
    notes.push_back({{"origin", note.origin}, {"line", note.line}, {"message", note.message},
                     {"left_for_person", note.left_for_person}});
  }
  const nlohmann::json json = {{"changed_by", result.changed_by},
                               {"changed_lines", result.changed_lines},
                               {"notes", notes},
                               {"generated_files", result.generated_files}};
  // The output first, then the entry that points at it: a concurrent reader (another process sharing the cache)
  // never sees half a file, nor an entry without its output.
  if (!WriteFileAtomically(directory_ / (key + ".out"), result.output).ok()) return;
  (void)WriteFileAtomically(directory_ / (key + ".json"),
                            json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

}  // namespace hipforge::translate
