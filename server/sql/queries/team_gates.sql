-- Team gate definitions (server/store/team_gate_store.h). Conditions travel as a JSON array of names, already
-- checked by the caller; the table's CHECK is the last word.

-- name: set_team_gate
INSERT INTO team_gates (team, conditions, updated_by, updated_at)
VALUES ($1, ARRAY(SELECT jsonb_array_elements_text($2::jsonb)), $3, ts($4))
ON CONFLICT (team) DO UPDATE SET conditions = EXCLUDED.conditions, updated_by = EXCLUDED.updated_by,
                                 updated_at = EXCLUDED.updated_at

-- name: get_team_gate
SELECT team, array_to_json(conditions)::text, updated_by, micros(updated_at) FROM team_gates WHERE team = $1

-- name: list_team_gates
SELECT team, array_to_json(conditions)::text, updated_by, micros(updated_at) FROM team_gates ORDER BY team

-- name: delete_team_gate
DELETE FROM team_gates WHERE team = $1 RETURNING team
