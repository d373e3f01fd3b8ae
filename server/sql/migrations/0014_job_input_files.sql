-- How many files the submitted archive holds, counted by the server as it checks the upload (issue 26: `status`
-- showed `input: 0 files` for a 3-file upload, since nothing stored the count). 0 for jobs submitted before this.
ALTER TABLE jobs ADD COLUMN input_files integer NOT NULL DEFAULT 0 CHECK (input_files >= 0);
