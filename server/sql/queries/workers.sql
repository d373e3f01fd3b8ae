-- name: upsert_worker
INSERT INTO workers (id, roles, capabilities, registered_at, last_seen)
VALUES ($1, ARRAY(SELECT jsonb_array_elements_text($2::jsonb)), $3::jsonb, ts($4), ts($4))
ON CONFLICT (id) DO UPDATE
SET roles = EXCLUDED.roles, capabilities = EXCLUDED.capabilities, last_seen = EXCLUDED.last_seen

-- name: touch_worker
UPDATE workers SET last_seen = ts($2) WHERE id = $1

-- name: list_workers
SELECT id, array_to_json(roles)::text, capabilities::text, micros(last_seen) FROM workers ORDER BY id
