-- The client's id of one submission (SubmitHeader.request_id, issue 27): a Submit sent again after its answer was
-- lost (its server died between committing the job and answering) finds the job the first try made instead of
-- making a second. NULL for jobs submitted without one (and before this migration). Unique per team: one team's
-- ids say nothing about another's jobs.
ALTER TABLE jobs ADD COLUMN submit_request_id text CHECK (submit_request_id ~ '^[A-Za-z0-9._:-]{1,128}$');
CREATE UNIQUE INDEX jobs_team_submit_request ON jobs (team, submit_request_id) WHERE submit_request_id IS NOT NULL;
