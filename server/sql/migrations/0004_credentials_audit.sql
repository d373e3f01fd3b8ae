-- Credentials and the audit trail (docs/security.md).
--
-- A credential is a team API token (kind 'team': a team and scopes) or a worker credential (kind
-- 'worker': a pool and the task roles and toolchains it may run). The secret is never stored: only
-- the SHA-256 of the secret part; `id` is the visible part printed in `token list` and in logs.
CREATE TABLE credentials (
  id           text PRIMARY KEY CHECK (id ~ '^hf[tw]_[0-9a-f]{12}$'),
  kind         text NOT NULL CHECK (kind IN ('team', 'worker')),
  team         text NOT NULL DEFAULT '',
  pool         text NOT NULL DEFAULT '',
  scopes       text[] NOT NULL DEFAULT '{}'
                 CHECK (scopes <@ ARRAY['submit', 'read', 'cancel', 'admin']::text[]),
  roles        text[] NOT NULL DEFAULT '{}' CHECK (roles <@ ARRAY['translate', 'validate']::text[]),
  toolchains   text[] NOT NULL DEFAULT '{}',  -- empty: any toolchain
  secret_sha256 text NOT NULL CHECK (secret_sha256 ~ '^[0-9a-f]{64}$'),
  description  text NOT NULL DEFAULT '',
  created_by   text NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL,
  expires_at   timestamptz,                   -- NULL: never
  revoked_at   timestamptz,
  last_used_at timestamptz,
  CHECK (kind <> 'team' OR (team <> '' AND cardinality(scopes) > 0 AND pool = '' AND cardinality(roles) = 0)),
  CHECK (kind <> 'worker' OR (pool <> '' AND cardinality(roles) > 0 AND team = '' AND cardinality(scopes) = 0)),
  CHECK (substr(id, 3, 1) = CASE kind WHEN 'team' THEN 't' ELSE 'w' END),
  CHECK (expires_at IS NULL OR expires_at > created_at)
);
CREATE INDEX credentials_team ON credentials (team) WHERE kind = 'team';

-- Who did what: submissions, reads, cancels, token creation and revocation, refused requests.
CREATE TABLE audit_events (
  seq           bigserial PRIMARY KEY,
  at            timestamptz NOT NULL,
  actor         text NOT NULL,               -- credential id, or 'admin-cli:<user>' for migrate-server token
  team          text NOT NULL DEFAULT '',
  action        text NOT NULL CHECK (action IN
                  ('submit', 'read', 'cancel', 'token_create', 'token_revoke', 'denied')),
  target        text NOT NULL DEFAULT '',    -- job id, credential id or RPC name
  outcome       text NOT NULL CHECK (outcome IN ('ok', 'refused')),
  detail        text NOT NULL DEFAULT '',
  peer          text NOT NULL DEFAULT ''
);
CREATE INDEX audit_events_team_seq ON audit_events (team, seq DESC);
