-- An enrollment token's uses are rows, one per enrollment, each taking one of the token's max_uses numbered slots:
-- the primary key admits at most max_uses of them, and enrollments with one token take different slots, so they
-- never wait on each other (a counter on the token row made a whole fleet enrolling with one token queue on that
-- row's lock until each commit).
CREATE TABLE enrollment_token_uses (
    token_id  uuid        NOT NULL REFERENCES enrollment_tokens (id) ON DELETE CASCADE,
    slot      integer     NOT NULL CHECK (slot > 0),
    cluster   text        NOT NULL,
    used_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (token_id, slot)
);

INSERT INTO enrollment_token_uses (token_id, slot, cluster, used_at)
SELECT t.id, s, '', t.created_at FROM enrollment_tokens t, generate_series(1, t.uses) s;

ALTER TABLE enrollment_tokens DROP COLUMN uses;
