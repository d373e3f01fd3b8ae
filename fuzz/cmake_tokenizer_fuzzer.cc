// The CMake tokenizer over arbitrary text: offsets and lengths stay inside the input, commands
// come in order, nothing crashes.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "worker/translate/repo/cmake_tokenizer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string content(reinterpret_cast<const char*>(data), size);
  hipforge::translate::CMakeFile file = hipforge::translate::TokenizeCMake(content);
  uint32_t previous_end = 0;
  for (const auto& command : file.commands) {
    if (command.offset < previous_end || command.end > content.size() || command.offset >= command.end) abort();
    if (content.compare(command.offset, command.name.size(), command.name) != 0) abort();
    for (const auto& argument : command.arguments) {
      if (argument.offset < command.offset || argument.offset + argument.length > command.end) abort();
    }
    previous_end = command.end;
  }
  return 0;
}
