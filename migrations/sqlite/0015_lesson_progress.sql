-- What a learner has done in the lessons: the most stars earned in each
-- exercise (guests keep theirs in the browser).
CREATE TABLE IF NOT EXISTS lesson_progress (
    user_id    INTEGER NOT NULL REFERENCES users(id),
    lesson_id  TEXT NOT NULL,
    exercise   INTEGER NOT NULL,
    stars      INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, lesson_id, exercise)
);
