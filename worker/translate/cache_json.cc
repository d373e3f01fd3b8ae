#include "worker/translate/cache_json.h"

namespace hipforge::translate {

using nlohmann::json;

json EditCacheJson(const TextEdit& edit) {
  return {{"offset", edit.offset}, {"length", edit.length}, {"replacement", edit.replacement}, {"origin", edit.origin}};
}

TextEdit EditFromCacheJson(const json& value) {
  return {value.at("offset").get<uint32_t>(), value.at("length").get<uint32_t>(),
          value.at("replacement").get<std::string>(), value.at("origin").get<std::string>()};
}

json FindingCacheJson(const Finding& finding) {
  json result = {{"rule_id", finding.rule_id},
                 {"severity", static_cast<int>(finding.severity)},
                 {"path", finding.location.path},
                 {"line", finding.location.line},
                 {"column", finding.location.column},
                 {"message", finding.message},
                 {"fix", finding.fix}};
  if (!finding.edits.empty()) {
    result["edits"] = json::array();
    for (const TextEdit& edit : finding.edits) result["edits"].push_back(EditCacheJson(edit));
  }
  if (finding.auto_fixed) result["auto_fixed"] = true;
  return result;
}

Finding FindingFromCacheJson(const json& value) {
  Finding finding;
  finding.rule_id = value.at("rule_id").get<std::string>();
  finding.severity = static_cast<Severity>(value.at("severity").get<int>());
  finding.location = {value.at("path").get<std::string>(), value.at("line").get<uint32_t>(),
                      value.at("column").get<uint32_t>()};
  finding.message = value.at("message").get<std::string>();
  finding.fix = value.at("fix").get<std::string>();
  if (const auto edits = value.find("edits"); edits != value.end()) {
    for (const auto& edit : *edits) finding.edits.push_back(EditFromCacheJson(edit));
  }
  finding.auto_fixed = value.value("auto_fixed", false);
  return finding;
}

}  // namespace hipforge::translate
