#pragma once
// Code that real CUDA programs use and older HIP releases lack, written into the translated file (never into a
// separate header, so one translated file stays self-contained). Each use is reported as a TR013 note.
#include <optional>
#include <string>
#include <string_view>

#include "worker/translate/tables/api_mapping.h"

namespace hipforge::translate {

// Releases before this one lack thread_block_tile::meta_group_rank()/meta_group_size() (checked: HIP 5.2 lacks
// them; the hip_cooperative_groups.h of HIP 5.7.1 and 6.4.3 have them).
inline constexpr ApiVersion kHipTileMetaGroupSince{6, 0};

// Whether the target HIP release lacks what `record` maps (null: no table has it): the record says HIP has no
// equivalent, or names a later release as introducing it. Decides the shims below (cooperative_groups::reduce,
// __syncwarp) from the tables.
bool TargetHipLacks(const ApiMapping* record, ApiVersion target_hip_version);

// Replacement for a `__syncwarp(...)` call where HIP lacks it: a wavefront-scope release fence, the wave barrier
// and an acquire fence (what the warp barrier guarantees: lanes' shared/global writes before it are seen after
// it). The mask is dropped: a wavefront's lanes are not scheduled independently.
std::string SyncWarpReplacement();

// Replacement for `#include <cooperative_groups/reduce.h>`: the HIP cooperative-groups header plus a guarded,
// warp-tile implementation of cooperative_groups::reduce and its operators (butterfly over shfl_xor).
std::string CooperativeGroupsReduceShim();

// Replacement for `#include <cuda/pipeline>`, <cuda_pipeline.h> or <cuda_pipeline_primitives.h> (HIP has no
// libcu++ and no asynchronous global-to-shared copies): cuda::pipeline, cuda::make_pipeline, cuda::memcpy_async,
// cuda::pipeline_consumer_wait_prior, cuda::aligned_size_t and the __pipeline_* primitives, done synchronously.
// A group copy is a block barrier, the copy by the group's threads, and a barrier again, so the data is in place
// (and the previous stage released by every thread) whatever the program waits on; correct, but no overlap.
// Producer/consumer-partitioned pipelines (make_pipeline with a role) do not compile: they need a person.
bool IsPipelineHeader(std::string_view include_name);
std::string PipelineFallbackShim();

// `tile.meta_group_rank()` / `tile.meta_group_size()` (access `.` or `->`) for a tile partitioned from the thread
// block, the form real code uses; empty when `member` is neither.
std::optional<std::string> MetaGroupRewrite(std::string_view object, std::string_view access, std::string_view member);

}  // namespace hipforge::translate
