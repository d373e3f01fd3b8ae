#include "common/redacting_log.h"

#include <memory>
#include <mutex>

#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "common/redact.h"

namespace hipforge {
namespace {

class RedactingSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  explicit RedactingSink(std::shared_ptr<spdlog::sinks::sink> inner) : inner_(std::move(inner)) {}

 protected:
  void sink_it_(const spdlog::details::log_msg& message) override {
    const std::string redacted = RedactSecrets(std::string_view(message.payload.data(), message.payload.size()));
    spdlog::details::log_msg copy = message;
    copy.payload = redacted;
    inner_->log(copy);
  }
  void flush_() override { inner_->flush(); }
  void set_pattern_(const std::string& pattern) override { inner_->set_pattern(pattern); }
  void set_formatter_(std::unique_ptr<spdlog::formatter> formatter) override {
    inner_->set_formatter(std::move(formatter));
  }

 private:
  std::shared_ptr<spdlog::sinks::sink> inner_;
};

}  // namespace

void InstallRedactingDefaultLogger(bool to_stderr) {
  std::shared_ptr<spdlog::sinks::sink> stream;
  if (to_stderr) {
    stream = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
  } else {
    stream = std::make_shared<spdlog::sinks::stdout_color_sink_mt>();
  }
  auto sink = std::make_shared<RedactingSink>(std::move(stream));
  auto logger = std::make_shared<spdlog::logger>("", sink);
  logger->set_level(spdlog::default_logger()->level());
  spdlog::set_default_logger(logger);
}

}  // namespace hipforge
