-- Credentials (team API tokens, worker credentials) and the audit trail. Secrets never reach SQL:
-- only their SHA-256.

-- name: insert_credential
INSERT INTO credentials (id, kind, team, pool, scopes, roles, toolchains, secret_sha256, description, created_by,
                         created_at, expires_at)
VALUES ($1, $2, $3, $4, ARRAY(SELECT jsonb_array_elements_text($5::jsonb)),
        ARRAY(SELECT jsonb_array_elements_text($6::jsonb)), ARRAY(SELECT jsonb_array_elements_text($7::jsonb)),
        $8, $9, $10, ts($11), ts($12::bigint))

-- name: find_credential
SELECT id, kind, team, pool, array_to_json(scopes)::text, array_to_json(roles)::text,
       array_to_json(toolchains)::text, secret_sha256, description, created_by, micros(created_at),
       micros(expires_at), micros(revoked_at), micros(last_used_at)
FROM credentials WHERE id = $1

-- name: list_credentials
-- NULL team: every credential (the admin command); otherwise one team's tokens.
SELECT id, kind, team, pool, array_to_json(scopes)::text, array_to_json(roles)::text,
       array_to_json(toolchains)::text, secret_sha256, description, created_by, micros(created_at),
       micros(expires_at), micros(revoked_at), micros(last_used_at)
FROM credentials WHERE ($1::text IS NULL OR team = $1::text)
ORDER BY created_at, id

-- name: revoke_credential
-- Revoking twice keeps the first revocation time.
UPDATE credentials SET revoked_at = COALESCE(revoked_at, ts($2)) WHERE id = $1 RETURNING id

-- name: touch_credential
-- At most one write per credential per minute, however many calls it makes.
UPDATE credentials SET last_used_at = ts($2)
WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < ts($2) - interval '1 minute')

-- name: append_audit
INSERT INTO audit_events (at, actor, team, action, target, outcome, detail, peer)
VALUES (ts($1), $2, $3, $4, $5, $6, $7, $8)

-- name: list_audit
-- Newest first; NULL team: all teams.
SELECT seq, micros(at), actor, team, action, target, outcome, detail, peer
FROM audit_events
WHERE ($1::text IS NULL OR team = $1::text) AND ($2::bigint IS NULL OR seq < $2::bigint)
ORDER BY seq DESC
LIMIT $3::integer
