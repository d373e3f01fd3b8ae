// The Submit handler's path without the store: the message sequence (SubmitStream), the spec as
// FromProto and CheckJobSpec see it, and the upload through SafeExtract and the CUDA check. Input:
// records of [2-byte little-endian length][serialized SubmitRequest].
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "common/archive.h"
#include "common/source_files.h"
#include "fuzz/fuzz_support.h"
#include "server/job_service.h"
#include "server/job_spec_checks.h"
#include "server/proto_convert.h"
#include "server/submit_stream.h"

namespace fs = std::filesystem;
using namespace hipforge;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const fs::path sandbox = fuzz::MakeSandbox("submit");
  std::vector<v1::SubmitRequest> messages;
  for (size_t offset = 0; offset + 2 <= size;) {
    const size_t length = data[offset] | (size_t{data[offset + 1]} << 8);
    offset += 2;
    if (offset + length > size) break;
    v1::SubmitRequest message;
    if (message.ParseFromArray(data + offset, static_cast<int>(length))) messages.push_back(std::move(message));
    offset += length;
  }
  size_t next = 0;
  server::SubmitStream stream(
      [&](v1::SubmitRequest* out) {
        if (next >= messages.size()) return false;
        *out = messages[next++];
        return true;
      },
      [] { return false; });
  server::ServiceLimits limits;
  limits.upload.max_compressed_bytes = 1 << 20;
  limits.upload.max_uncompressed_bytes = 8 << 20;
  limits.upload.max_files = 1000;
  absl::StatusOr<v1::SubmitHeader> header = stream.ReadHeader(limits.upload.max_compressed_bytes);
  if (!header.ok()) return 0;
  absl::StatusOr<server::JobSpec> spec = server::FromProto(header->spec());
  if (!spec.ok()) return 0;
  if (!server::CheckJobSpec(*spec, limits.spec).ok()) return 0;
  // What passes must be storable: bounded and free of NUL.
  if (spec->name.size() > limits.spec.max_name_bytes || spec->team.find('\0') != std::string::npos) abort();
  const fs::path tree = sandbox / "tree";
  absl::StatusOr<ExtractResult> extracted = SafeExtract(stream.Chunks(), tree, limits.upload);
  if (extracted.ok()) {
    hipforge::TreeUsesCuda(tree);
  } else if (fs::exists(tree)) {
    abort();  // a refused upload left its tree behind
  }
  fuzz::ExpectOnlyChild(sandbox, "tree", true);
  fuzz::Clear(tree);
  return 0;
}
