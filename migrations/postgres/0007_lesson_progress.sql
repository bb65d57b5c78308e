-- What a learner has done in the lessons: the most stars earned in each
-- exercise (guests keep theirs in the browser).
CREATE TABLE lesson_progress (
    user_id    BIGINT NOT NULL REFERENCES users(id),
    lesson_id  TEXT NOT NULL,
    exercise   BIGINT NOT NULL,
    stars      BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, lesson_id, exercise)
);
