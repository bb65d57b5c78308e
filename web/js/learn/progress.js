// The learner's stars and the lessons' words, kept apart from the page so that
// they can be tested without a browser: picking a lesson text in the current
// language, counting stars, merging a guest's record with the server's, and
// naming the i18n key for a wrong move's mistake.

const STORAGE_KEY = 'caissa.learn';

/** A lesson text ({en, zh-Hans, zh-Hant}) in `lang`, falling back to English. */
export function localText(text, lang) {
  if (!text) return '';
  if (typeof text === 'string') return text;
  return text[lang] || text.en || '';
}

/** The most stars a lesson can give: three per exercise. */
export function maxStars(lesson) {
  return lesson.exercises.length * 3;
}

/** Stars earned in a lesson ({exercise: stars} in `record[lesson.id]`). */
export function lessonStars(record, lesson) {
  const got = record[lesson.id] || {};
  let sum = 0;
  for (let i = 0; i < lesson.exercises.length; i++) sum += Number(got[i]) || 0;
  return sum;
}

/** Whether every exercise of a lesson has at least one star. */
export function lessonDone(record, lesson) {
  const got = record[lesson.id] || {};
  return lesson.exercises.every((_, i) => Number(got[i]) > 0);
}

/** The lessons grouped by category, in the order they come: [[category, lessons]]. */
export function byCategory(lessons) {
  const groups = new Map();
  for (const lesson of lessons) {
    if (!groups.has(lesson.category)) groups.set(lesson.category, []);
    groups.get(lesson.category).push(lesson);
  }
  return [...groups];
}

/** Two records merged, keeping the most stars of each exercise. */
export function mergeProgress(a, b) {
  const out = {};
  for (const record of [a || {}, b || {}]) {
    for (const [lesson, exercises] of Object.entries(record)) {
      const into = (out[lesson] ||= {});
      for (const [i, stars] of Object.entries(exercises || {})) {
        const n = Number(stars) || 0;
        if (n > (into[i] || 0)) into[i] = n;
      }
    }
  }
  return out;
}

/** `record` with an exercise's stars raised to `stars` (never lowered). */
export function withStars(record, lesson, exercise, stars) {
  return mergeProgress(record, { [lesson]: { [exercise]: stars } });
}

/** The guest's record kept in this browser ({} when none or unreadable). */
export function readLocal(storage = globalThis.localStorage) {
  try {
    const record = JSON.parse(storage.getItem(STORAGE_KEY) || '{}');
    return record && typeof record === 'object' ? record : {};
  } catch {
    return {};
  }
}

/** Keeps `record` in this browser. */
export function writeLocal(record, storage = globalThis.localStorage) {
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify(record));
  } catch {
    // Storage full or off: the stars last as long as the page.
  }
}

/** The i18n key that explains a wrong answer's `why` ({mistake, wanted?}). */
export function mistakeKey(why) {
  const mistake = (why && why.mistake) || 'other';
  const known = [
    'not_mate', 'stalemates', 'mates', 'not_stalemate', 'other_way_out_of_check', 'not_promotion',
    'other_promotion', 'promotion_not_mate', 'not_castling', 'not_en_passant', 'other_piece',
    'gives_check', 'out_of_moves', 'wrong_choice', 'not_a_quiz',
  ];
  return `learn.mistake.${known.includes(mistake) ? mistake : 'other'}`;
}

/** The next lesson after `id` in the list, or null after the last one. */
export function nextLesson(lessons, id) {
  const i = lessons.findIndex((l) => l.id === id);
  return i >= 0 && i + 1 < lessons.length ? lessons[i + 1] : null;
}
