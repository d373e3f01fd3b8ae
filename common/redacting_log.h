#pragma once
// Makes spdlog's default logger strip secrets (common/redact.h) from every message before it is
// written, so a token or database password that reaches a log line by any path is not printed.
namespace hipforge {

void InstallRedactingDefaultLogger();

}  // namespace hipforge
