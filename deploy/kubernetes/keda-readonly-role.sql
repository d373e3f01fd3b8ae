-- The role KEDA's PostgreSQL scaler connects as: it may read the queue columns of the task table and
-- nothing else. Run as the database owner:
--   psql -v role=hipforge_keda -v password="'...'" -v schema=public -f deploy/kubernetes/keda-readonly-role.sql
-- (tests/deploy/kubernetes_manifests_test.py runs it against a real PostgreSQL and queries as the role.)
CREATE ROLE :"role" LOGIN PASSWORD :password NOSUPERUSER NOCREATEDB NOCREATEROLE;
ALTER ROLE :"role" SET default_transaction_read_only = on;
GRANT USAGE ON SCHEMA :"schema" TO :"role";
GRANT SELECT (kind, state, required_toolchain) ON :"schema".tasks TO :"role";
