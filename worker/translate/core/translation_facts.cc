#include "worker/translate/core/translation_facts.h"

#include "worker/translate/cache_json.h"

namespace hipforge::translate {
namespace {

using nlohmann::json;

json RangeJson(const ByteRange& range) { return json::array({range.begin, range.end}); }
ByteRange RangeFrom(const json& value) { return {value.at(0).get<uint32_t>(), value.at(1).get<uint32_t>()}; }

json FileJson(const FileFacts& facts) {
  json file;
  file["skipped"] = json::array();
  for (const auto& range : facts.skipped) file["skipped"].push_back(RangeJson(range));
  file["launches"] = json::array();
  for (const auto& launch : facts.launches) {
    json site = {{"whole", RangeJson(launch.whole)},
                 {"callee", RangeJson(launch.callee)},
                 {"template", launch.template_callee},
                 {"config", json::array()}};
    for (const auto& range : launch.config) site["config"].push_back(RangeJson(range));
    if (launch.args) site["args"] = RangeJson(*launch.args);
    if (launch.open_chevrons) site["open"] = RangeJson(*launch.open_chevrons);
    if (launch.close_chevrons) site["close"] = RangeJson(*launch.close_chevrons);
    file["launches"].push_back(std::move(site));
  }
  file["warp_calls"] = json::array();
  for (const auto& call : facts.warp_calls) {
    file["warp_calls"].push_back({{"callee", RangeJson(call.callee)},
                                  {"name", call.name},
                                  {"mask", RangeJson(call.mask)},
                                  {"next_arg", call.next_arg},
                                  {"full_mask", call.full_mask}});
  }
  file["edits"] = json::array();
  for (const auto& edit : facts.edits) file["edits"].push_back(EditCacheJson(edit.edit));
  file["findings"] = json::array();
  for (const auto& finding : facts.findings) file["findings"].push_back(FindingCacheJson(finding));
  file["macros"] = facts.macros;
  file["own_names"] = facts.own_names;
  file["blas_v2"] = facts.blas_v2;
  return file;
}

FileFacts FileFrom(const json& file) {
  FileFacts facts;
  for (const auto& range : file.at("skipped")) facts.skipped.push_back(RangeFrom(range));
  for (const auto& site : file.at("launches")) {
    LaunchSite launch;
    launch.whole = RangeFrom(site.at("whole"));
    launch.callee = RangeFrom(site.at("callee"));
    launch.template_callee = site.at("template").get<bool>();
    for (const auto& range : site.at("config")) launch.config.push_back(RangeFrom(range));
    if (site.contains("args")) launch.args = RangeFrom(site.at("args"));
    if (site.contains("open")) launch.open_chevrons = RangeFrom(site.at("open"));
    if (site.contains("close")) launch.close_chevrons = RangeFrom(site.at("close"));
    facts.launches.push_back(std::move(launch));
  }
  for (const auto& site : file.at("warp_calls")) {
    facts.warp_calls.push_back({RangeFrom(site.at("callee")), site.at("name").get<std::string>(),
                                RangeFrom(site.at("mask")), site.at("next_arg").get<uint32_t>(),
                                site.at("full_mask").get<bool>()});
  }
  for (const auto& edit : file.at("edits")) facts.edits.push_back({EditFromCacheJson(edit)});
  for (const auto& finding : file.at("findings")) facts.findings.push_back(FindingFromCacheJson(finding));
  facts.macros = file.at("macros").get<std::vector<std::string>>();
  if (file.contains("own_names")) facts.own_names = file.at("own_names").get<std::vector<std::string>>();
  facts.blas_v2 = file.at("blas_v2").get<bool>();
  return facts;
}

}  // namespace

nlohmann::json ToJson(const UnitFacts& facts) {
  json result = {{"parsed", facts.parsed},
                 {"fallback_reason", facts.fallback_reason},
                 {"dependencies", facts.dependencies},
                 {"files", json::object()}};
  if (!facts.companion.is_null()) result["companion"] = facts.companion;
  for (const auto& [path, file] : facts.files) result["files"][path] = FileJson(file);
  return result;
}

UnitFacts UnitFactsFromJson(const nlohmann::json& json) {
  UnitFacts facts;
  facts.parsed = json.at("parsed").get<bool>();
  facts.fallback_reason = json.at("fallback_reason").get<std::string>();
  facts.dependencies = json.at("dependencies").get<std::map<std::string, std::string>>();
  for (const auto& [path, file] : json.at("files").items()) facts.files[path] = FileFrom(file);
  if (const auto companion = json.find("companion"); companion != json.end()) facts.companion = *companion;
  return facts;
}

}  // namespace hipforge::translate
