// The report on the wire (proto/hipforge/v1/report.proto): the one conversion round-trips every section, refuses
// what the JSON parser refuses, and the proto message is field for field docs/report-schema.json.
#include "common/report/report_proto.h"

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/report/report_json.h"
#include "google/protobuf/descriptor.h"
#include "tests/common/report_fixture.h"

namespace hipforge::report {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using nlohmann::json;
using testing::FullReport;

Gate SomeGate() {
  return Gate{.status = "failed",
              .blocking = {"builds"},
              .definition_source = "team",
              .required = {"builds"},
              .conditions = {{.name = "builds", .required = true, .status = "failed", .detail = "0 ok, 1 failed"}}};
}

TEST(ReportProtoTest, EverySectionRoundTripsThroughTheWire) {
  const Report full = FullReport();
  const v1::ReportDocument proto = ToProto(full, SomeGate());
  v1::ReportDocument received;
  ASSERT_TRUE(received.ParseFromString(proto.SerializeAsString()));
  absl::StatusOr<ReportDocument> document = FromProto(received);
  ASSERT_TRUE(document.ok()) << document.status();
  EXPECT_EQ(ToJson(document->report), ToJson(full));
  EXPECT_TRUE(std::isinf(document->report.parity->at(0).max_abs_error));
  EXPECT_FALSE(document->report.profile->at(1).cuda_baseline_ns.has_value());
  EXPECT_EQ(document->report.profile->at(0).cuda_baseline_ns, 900);
  EXPECT_FALSE(document->report.tests->at(0).cuda.has_value());
  ASSERT_TRUE(document->gate.has_value());
  EXPECT_EQ(GateSentence(*document->gate), GateSentence(SomeGate()));
  ASSERT_EQ(document->gate->conditions.size(), 1u);
  EXPECT_EQ(document->gate->conditions[0].detail, "0 ok, 1 failed");
  // The JSON `--format json` prints: the one serializer's, with the gate as the server writes it.
  EXPECT_EQ(document->json, DocumentJson(full, SomeGate()));
  EXPECT_EQ(document->json["gate"]["definition"]["requires"], json::array({"builds"}));
}

// A worker older than File.translated_as_cuda leaves it unset: the file's source kind says it, as in the JSON.
TEST(ReportProtoTest, AFileWithoutTheCudaFlagReadsItFromItsKind) {
  v1::ReportDocument proto = ToProto(FullReport(), SomeGate());
  v1::File* header = proto.mutable_translation()->mutable_files(1);
  ASSERT_TRUE(header->has_translated_as_cuda());
  header->clear_translated_as_cuda();
  v1::File* cmake = proto.mutable_translation()->mutable_files(3);
  cmake->clear_translated_as_cuda();
  absl::StatusOr<ReportDocument> document = FromProto(proto);
  ASSERT_TRUE(document.ok()) << document.status();
  EXPECT_TRUE(document->report.translation->files[1].translated_as_cuda) << "a header";
  EXPECT_FALSE(document->report.translation->files[3].translated_as_cuda) << "a CMakeLists.txt";
  EXPECT_EQ(ToJson(document->report), ToJson(FullReport()));
}

TEST(ReportProtoTest, AbsentAndEmptySectionsStayApart) {
  Report report;
  report.findings.emplace();  // produced, nothing in it
  report.builds.emplace();
  absl::StatusOr<ReportDocument> document = FromProto(ToProto(report));
  ASSERT_TRUE(document.ok()) << document.status();
  EXPECT_TRUE(document->report.findings.has_value());
  EXPECT_TRUE(document->report.builds.has_value());
  EXPECT_FALSE(document->report.tests.has_value());
  EXPECT_FALSE(document->report.translation.has_value());
  EXPECT_FALSE(document->gate.has_value());
  EXPECT_EQ(ToJson(document->report), ToJson(report));
}

TEST(ReportProtoTest, AnUnknownEnumValueIsRefusedWithItsPath) {
  v1::ReportDocument proto = ToProto(FullReport());
  proto.mutable_tests()->mutable_items(1)->mutable_cuda()->set_status(static_cast<v1::TestStatus>(9));
  absl::StatusOr<ReportDocument> document = FromProto(proto);
  ASSERT_FALSE(document.ok());
  EXPECT_EQ(document.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(document.status().message(), "$.tests[1].cuda.status")) << document.status();
  proto = ToProto(FullReport());
  proto.mutable_findings()->mutable_items(0)->set_severity(v1::SEVERITY_UNSPECIFIED);  // as absent in JSON
  document = FromProto(proto);
  ASSERT_TRUE(document.ok()) << document.status();
  EXPECT_EQ(document->report.findings->at(0).severity, Severity::kWarning);
}

TEST(ReportProtoTest, TextThatIsNotUtf8IsReplacedAsTheJsonWasWritten) {
  Report report;
  report.findings = std::vector<Finding>{{.rule_id = "HB1", .message = "bad \xff byte", .source_line = "ok"}};
  const v1::ReportDocument proto = ToProto(report);
  EXPECT_EQ(proto.findings().items(0).message(), "bad \xef\xbf\xbd byte");
  v1::ReportDocument received;
  EXPECT_TRUE(received.ParseFromString(proto.SerializeAsString()));
}

// ---- the proto message and docs/report-schema.json agree, field for field -----------------------------------

class SchemaAgreement {
 public:
  explicit SchemaAgreement(json schema) : schema_(std::move(schema)) {}

  std::vector<std::string> problems;

  void Object(const json& node, const Descriptor& message, const std::string& at) {
    const json& object = Resolve(node);
    // By the name the JSON uses: the field's own, or the json_name it sets (GateDefinition.requires).
    std::map<std::string, const FieldDescriptor*> fields;
    for (int i = 0; i < message.field_count(); ++i) {
      const FieldDescriptor* field = message.field(i);
      fields[field->has_json_name() ? field->json_name() : field->name()] = field;
    }
    const json properties = object.value("properties", json::object());
    for (const auto& [name, property] : properties.items()) {
      const auto it = fields.find(name);
      const FieldDescriptor* field = it == fields.end() ? nullptr : it->second;
      if (field == nullptr) {
        problems.push_back(absl::StrCat(at, ".", name, ": in the schema, not in ", message.full_name()));
        continue;
      }
      fields.erase(name);
      Field(property, *field, absl::StrCat(at, ".", name));
    }
    // Field for field both ways: a field the JSON may carry must be spelt out in the schema, not let through.
    if (object.value("additionalProperties", json(true)) != json(false)) {
      Problem(at,
              absl::StrCat("open in the schema (additionalProperties is not false), closed in ", message.full_name()));
    }
    for (const auto& [name, field] : fields) {
      problems.push_back(absl::StrCat(at, ".", name, ": in ", message.full_name(), ", not in the schema"));
    }
  }

 private:
  const json& Resolve(const json& node) const {
    if (!node.contains("$ref")) return node;
    const std::string ref = node["$ref"];  // "#/$defs/NAME"
    return schema_["$defs"][ref.substr(ref.rfind('/') + 1)];
  }

  static std::set<std::string> Types(const json& node) {
    if (!node.contains("type")) return {};
    if (node["type"].is_string()) return {node["type"].get<std::string>()};
    return {node["type"].begin(), node["type"].end()};
  }

  void Field(const json& property, const FieldDescriptor& field, const std::string& at) {
    const json& node = Resolve(property);
    const std::set<std::string> types = Types(node);
    if (types.contains("array")) {
      if (field.is_repeated() && !field.is_map()) return Element(node["items"], field, at);
      // An optional array section: a list message whose one field is the repeated items.
      const Descriptor* list = field.message_type();
      if (list == nullptr || list->field_count() != 1 || list->field(0)->name() != "items") {
        return Problem(at, "an array in the schema, neither repeated nor a list message");
      }
      return Element(node["items"], *list->field(0), at);
    }
    if (field.is_repeated() && !field.is_map()) return Problem(at, "repeated, not an array in the schema");
    if (types.contains("object") && !node.contains("properties")) {
      if (field.is_map()) {
        const FieldDescriptor* value = field.message_type()->map_value();
        if (!IsInteger(*value)) Problem(at, "a map of non-integers; the schema counts");
        return;
      }
      if (field.type() != FieldDescriptor::TYPE_MESSAGE) return Problem(at, "an object in the schema, not a message");
      return Problem(at, absl::StrCat("an object without properties in the schema, typed in the proto (",
                                      field.message_type()->full_name(), "): spell its fields out"));
    }
    Element(property, field, at);
  }

  // One value (an array's element or a scalar field).
  void Element(const json& property, const FieldDescriptor& field, const std::string& at) {
    const json& node = Resolve(property);
    const std::set<std::string> types = Types(node);
    if (node.contains("enum")) return Enum(node["enum"], field, at);
    if (types.contains("object")) {
      if (field.type() != FieldDescriptor::TYPE_MESSAGE) return Problem(at, "an object in the schema, not a message");
      return Object(node, *field.message_type(), at);
    }
    const bool nullable = types.contains("null");
    if (nullable && types.contains("integer") && !field.has_presence()) {
      Problem(at, "null in the schema (absent), but the proto field has no presence");
    }
    if (types.contains("string") && field.type() != FieldDescriptor::TYPE_STRING) Problem(at, "not a string");
    if (types.contains("boolean") && field.type() != FieldDescriptor::TYPE_BOOL) Problem(at, "not a bool");
    if (types.contains("integer") && !IsInteger(field)) Problem(at, "not an integer");
    if (types.contains("number") && field.cpp_type() != FieldDescriptor::CPPTYPE_DOUBLE) Problem(at, "not a double");
    if (types.empty()) Problem(at, "the schema gives no type");
  }

  // A schema enum is a proto enum of the same values (FILE_STATUS_TRANSLATED is "translated"; UNSPECIFIED is
  // absent) or, for names the C++ report keeps as text (a file's kind, the gate's status), a string.
  void Enum(const json& values, const FieldDescriptor& field, const std::string& at) {
    if (field.type() == FieldDescriptor::TYPE_STRING) return;
    if (field.type() != FieldDescriptor::TYPE_ENUM) return Problem(at, "an enum in the schema, not in the proto");
    std::set<std::string> schema_values(values.begin(), values.end());
    std::set<std::string> proto_values;
    const auto* type = field.enum_type();
    // FileStatus -> FILE_STATUS_
    std::string prefix;
    for (char c : type->name()) {
      if (absl::ascii_isupper(c) && !prefix.empty()) prefix += '_';
      prefix += absl::ascii_toupper(c);
    }
    prefix += '_';
    for (int i = 0; i < type->value_count(); ++i) {
      const std::string& name = type->value(i)->name();
      if (!absl::StartsWith(name, prefix)) {
        Problem(at, absl::StrCat(name, " does not start with ", prefix));
        continue;
      }
      if (type->value(i)->number() == 0) continue;  // UNSPECIFIED
      proto_values.insert(absl::AsciiStrToLower(name.substr(prefix.size())));
    }
    if (schema_values != proto_values) {
      Problem(at, absl::StrCat("enum values differ: schema ", json(schema_values).dump(), ", proto ",
                               json(proto_values).dump()));
    }
  }

  static bool IsInteger(const FieldDescriptor& field) {
    return field.cpp_type() == FieldDescriptor::CPPTYPE_INT32 || field.cpp_type() == FieldDescriptor::CPPTYPE_INT64;
  }
  void Problem(const std::string& at, const std::string& what) { problems.push_back(absl::StrCat(at, ": ", what)); }

  json schema_;
};

TEST(ReportProtoTest, TheProtoMessageIsTheSchemaFieldForField) {
  std::ifstream in(HIPFORGE_REPORT_SCHEMA);
  const json schema = json::parse(in);
  SchemaAgreement agreement(schema);
  agreement.Object(schema, *v1::ReportDocument::descriptor(), "$");
  std::string problems;
  for (const std::string& problem : agreement.problems) problems += problem + "\n";
  EXPECT_TRUE(agreement.problems.empty()) << problems;
}

TEST(ReportProtoTest, TheAgreementCheckFindsADifference) {
  json schema = json::parse(std::ifstream(HIPFORGE_REPORT_SCHEMA));
  schema["$defs"]["finding"]["properties"]["blame"] = {{"type", "string"}};
  schema["$defs"]["severity"]["enum"].push_back("fatal");
  schema["$defs"]["gpu"]["properties"].erase("note");
  // Loosened back to what the gate was before it was typed: objects any message passed.
  schema["$defs"]["gate"]["properties"]["definition"] = {{"type", "object"}};
  schema["$defs"]["gate"]["properties"]["conditions"]["items"] = {{"type", "object"}};
  schema["$defs"]["verdict"].erase("additionalProperties");
  SchemaAgreement agreement(schema);
  agreement.Object(schema, *v1::ReportDocument::descriptor(), "$");
  std::string problems;
  for (const std::string& problem : agreement.problems) problems += problem + "\n";
  EXPECT_TRUE(absl::StrContains(problems, "$.findings.blame: in the schema, not in hipforge.v1.Finding")) << problems;
  EXPECT_TRUE(absl::StrContains(problems, "$.findings.severity: enum values differ")) << problems;
  EXPECT_TRUE(absl::StrContains(problems, "$.gpu.note: in hipforge.v1.Gpu, not in the schema")) << problems;
  EXPECT_TRUE(absl::StrContains(problems,
                                "$.gate.definition: an object without properties in the schema, typed in "
                                "the proto (hipforge.v1.GateDefinition)"))
      << problems;
  EXPECT_TRUE(absl::StrContains(problems, "$.gate.conditions.name: in hipforge.v1.GateCondition, not in the schema"))
      << problems;
  EXPECT_TRUE(absl::StrContains(problems, "$.gate.conditions: open in the schema")) << problems;
  EXPECT_TRUE(absl::StrContains(problems, "$.verdict: open in the schema")) << problems;
}

}  // namespace
}  // namespace hipforge::report
