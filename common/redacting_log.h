#pragma once
// Makes spdlog's default logger strip secrets (common/redact.h) from every message before it is
// written, so a token or database password that reaches a log line by any path is not printed.
namespace hipforge {

// `to_stderr`: log lines go to standard error (migrate-cli, whose standard output is data: job ids, reports, JSON
// that scripts read); otherwise to standard output as the servers always have.
void InstallRedactingDefaultLogger(bool to_stderr = false);

}  // namespace hipforge
