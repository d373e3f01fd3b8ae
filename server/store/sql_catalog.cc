#include "server/store/sql_catalog.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "absl/status/status.h"
#include "common/sha256.h"

namespace hipforge::server::sql {
namespace {

constexpr std::string_view kMarker = "-- name:";

std::string Trim(std::string_view text) {
  size_t begin = 0, end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return std::string(text.substr(begin, end - begin));
}

// True when the query has something besides comments and blanks.
bool HasStatement(std::string_view sql) {
  size_t pos = 0;
  while (pos < sql.size()) {
    size_t eol = sql.find('\n', pos);
    if (eol == std::string_view::npos) eol = sql.size();
    std::string line = Trim(sql.substr(pos, eol - pos));
    if (!line.empty() && line.rfind("--", 0) != 0) return true;
    pos = eol + 1;
  }
  return false;
}

}  // namespace

absl::StatusOr<std::vector<Migration>> Migrations() {
  std::vector<Migration> migrations;
  std::set<int> versions;
  for (const auto& file : EmbeddedMigrationFiles()) {
    const std::string_view name = file.name;
    size_t digits = 0;
    while (digits < name.size() && std::isdigit(static_cast<unsigned char>(name[digits]))) ++digits;
    if (digits == 0 || digits >= name.size() || name[digits] != '_') {
      return absl::InternalError("migration file name must start with NNNN_: " + std::string(name));
    }
    Migration migration;
    migration.version = std::stoi(std::string(name.substr(0, digits)));
    migration.name = std::string(name);
    migration.sql = std::string(file.text);
    if (!versions.insert(migration.version).second) {
      return absl::InternalError("duplicate migration version in " + std::string(name));
    }
    migrations.push_back(std::move(migration));
  }
  std::sort(migrations.begin(), migrations.end(),
            [](const Migration& a, const Migration& b) { return a.version < b.version; });
  return migrations;
}

std::vector<Repeatable> Repeatables() {
  std::vector<Repeatable> repeatables;
  for (const auto& file : EmbeddedRepeatableFiles()) {
    repeatables.push_back({std::string(file.name), std::string(file.text), Sha256Hex(file.text)});
  }
  std::sort(repeatables.begin(), repeatables.end(),
            [](const Repeatable& a, const Repeatable& b) { return a.name < b.name; });
  return repeatables;
}

absl::StatusOr<std::map<std::string, std::string>> ParseNamedQueries(std::string_view file_name,
                                                                     std::string_view text) {
  std::map<std::string, std::string> queries;
  std::string current_name;
  std::string current_sql;
  auto flush = [&]() -> absl::Status {
    if (current_name.empty()) return absl::OkStatus();
    if (!HasStatement(current_sql)) {
      return absl::InternalError(std::string(file_name) + ": query '" + current_name + "' is empty");
    }
    if (!queries.emplace(current_name, Trim(current_sql)).second) {
      return absl::InternalError(std::string(file_name) + ": duplicate query name '" + current_name + "'");
    }
    return absl::OkStatus();
  };
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    const std::string_view line = text.substr(pos, eol - pos);
    if (line.rfind(kMarker, 0) == 0) {
      if (auto status = flush(); !status.ok()) return status;
      current_name = Trim(line.substr(kMarker.size()));
      current_sql.clear();
      if (current_name.empty()) return absl::InternalError(std::string(file_name) + ": marker without a name");
    } else if (!current_name.empty()) {
      current_sql.append(line);
      current_sql.push_back('\n');
    }
    pos = eol + 1;
  }
  if (auto status = flush(); !status.ok()) return status;
  return queries;
}

absl::StatusOr<std::map<std::string, std::string>> NamedQueries() {
  std::map<std::string, std::string> all;
  for (const auto& file : EmbeddedQueryFiles()) {
    auto parsed = ParseNamedQueries(file.name, file.text);
    if (!parsed.ok()) return parsed.status();
    for (auto& [name, sql] : *parsed) {
      if (!all.emplace(name, std::move(sql)).second) {
        return absl::InternalError("query '" + name + "' defined twice (second in " + std::string(file.name) + ")");
      }
    }
  }
  return all;
}

}  // namespace hipforge::server::sql
