#pragma once
// The translator's types in the report's terms (common/report/report.h): the one conversion every report writer
// of the translate side uses (repository pass, migrate-hipify, analyzer JSON).
#include "common/report/report.h"
#include "worker/translate/translation_types.h"

namespace hipforge::translate {

report::Finding ToReportFinding(const Finding& finding);

}  // namespace hipforge::translate
