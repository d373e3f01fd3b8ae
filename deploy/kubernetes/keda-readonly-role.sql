-- The role KEDA's PostgreSQL scaler connects as: it may read the queue columns of the task table and
-- nothing else; its search_path is the server's schema (--database-schema, default hipforge), so the
-- ScaledObjects' queries name the table as `tasks`. Run as the database owner:
--   psql -v role=hipforge_keda -v password="'...'" -v schema=hipforge -f deploy/kubernetes/keda-readonly-role.sql
-- (tests/deploy/kubernetes_manifests_test.py runs it against a real PostgreSQL and queries as the role.)
CREATE ROLE :"role" LOGIN PASSWORD :password NOSUPERUSER NOCREATEDB NOCREATEROLE;
ALTER ROLE :"role" SET default_transaction_read_only = on;
ALTER ROLE :"role" SET search_path = :"schema";
GRANT USAGE ON SCHEMA :"schema" TO :"role";
GRANT SELECT (kind, state, required_toolchain) ON :"schema".tasks TO :"role";
