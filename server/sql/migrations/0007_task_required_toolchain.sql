-- Validate tasks name the toolchain they need: {"targets": ["gfx90a", "gfx942"], "hip_release": "6.4"}
-- (processor names; hip_release empty when the job names none). The lease query gives such a task to a
-- worker one of whose toolchains has every target (and that release); a toolchain that reaches a target
-- only through a labelled stand-in (gfx940 for gfx942) gets it once the task has waited for the grace
-- period. NULL: any worker of the kind (translate tasks, and tasks queued before this migration).
ALTER TABLE tasks ADD COLUMN required_toolchain jsonb;
ALTER TABLE tasks ADD CONSTRAINT tasks_required_toolchain_shape
  CHECK (required_toolchain IS NULL
         OR (jsonb_typeof(required_toolchain->'targets') = 'array'
             AND jsonb_typeof(required_toolchain->'hip_release') = 'string'));
