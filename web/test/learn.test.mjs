// The "Learn" page's pure parts: lesson texts by language, stars per lesson,
// merging a guest's record with the server's, mistakes named by key, the
// routes, and that every lesson of the server's data has its category named.
// Run with `node --test web/test/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  byCategory, lessonDone, lessonStars, localText, maxStars, mergeProgress, mistakeKey, nextLesson, readLocal,
  withStars, writeLocal,
} from '../js/learn/progress.js';
import { matchRoute } from '../js/routes.js';

const read = (path) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));
const en = read('../i18n/en.json');
const lesson = (id, n, category = 'pieces') => ({ id, category, exercises: Array.from({ length: n }, () => ({})) });

test('a lesson text in the current language, English when missing', () => {
  const text = { en: 'Rook', 'zh-Hans': '车', 'zh-Hant': '車' };
  assert.equal(localText(text, 'zh-Hans'), '车');
  assert.equal(localText(text, 'zh-Hant'), '車');
  assert.equal(localText({ en: 'Rook' }, 'zh-Hant'), 'Rook');
  assert.equal(localText(undefined, 'en'), '');
});

test('stars per lesson, done when every exercise has one', () => {
  const rook = lesson('rook', 5);
  const record = { rook: { 0: 3, 1: 2, 4: 1 } };
  assert.equal(maxStars(rook), 15);
  assert.equal(lessonStars(record, rook), 6);
  assert.equal(lessonStars({}, rook), 0);
  assert.equal(lessonDone(record, rook), false);
  assert.equal(lessonDone({ rook: { 0: 1, 1: 1, 2: 1, 3: 1, 4: 1 } }, rook), true);
});

test('merging keeps the most stars of each exercise; stars never go down', () => {
  const merged = mergeProgress({ rook: { 0: 1, 1: 3 } }, { rook: { 0: 2 }, king: { 2: 1 } });
  assert.deepEqual(merged, { rook: { 0: 2, 1: 3 }, king: { 2: 1 } });
  assert.deepEqual(withStars(merged, 'rook', 1, 1), merged);
  assert.deepEqual(withStars(merged, 'rook', 2, 3).rook, { 0: 2, 1: 3, 2: 3 });
  assert.deepEqual(mergeProgress(null, undefined), {});
});

test('the guest record round-trips through storage, and bad data reads as empty', () => {
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  assert.deepEqual(readLocal(storage), {});
  writeLocal({ rook: { 0: 3 } }, storage);
  assert.deepEqual(readLocal(storage), { rook: { 0: 3 } });
  assert.ok(store.has('caissa.learn'));
  store.set('caissa.learn', '{not json');
  assert.deepEqual(readLocal(storage), {});
});

test('every mistake the server names has words', () => {
  for (const mistake of ['not_mate', 'stalemates', 'mates', 'not_stalemate', 'other_way_out_of_check', 'not_promotion',
    'other_promotion', 'promotion_not_mate', 'not_castling', 'not_en_passant', 'other_piece', 'gives_check',
    'out_of_moves', 'wrong_choice', 'not_a_quiz']) {
    assert.ok(mistakeKey({ mistake }) in en, mistake);
  }
  assert.equal(mistakeKey({ mistake: 'something_new' }), 'learn.mistake.other');
  assert.ok('learn.mistake.other' in en);
});

test('lessons grouped by category in order; the next lesson', () => {
  const lessons = [lesson('a', 1, 'basics'), lesson('b', 1, 'pieces'), lesson('c', 1, 'basics')];
  assert.deepEqual(byCategory(lessons).map(([c, l]) => [c, l.map((x) => x.id)]), [['basics', ['a', 'c']], ['pieces', ['b']]]);
  assert.equal(nextLesson(lessons, 'a').id, 'b');
  assert.equal(nextLesson(lessons, 'c'), null);
});

test('every category of the lessons has a name', () => {
  const data = read('../../crates/learn/data/lessons.json');
  const lessons = Array.isArray(data) ? data : data.lessons;
  for (const [category] of byCategory(lessons)) assert.ok(`learn.category.${category}` in en, category);
});

test('the learn routes', () => {
  assert.deepEqual(matchRoute('/learn'), { page: 'learn', params: {} });
  assert.deepEqual(matchRoute('/learn/'), { page: 'learn', params: {} });
  assert.deepEqual(matchRoute('/learn/checkmate-in-one'), { page: 'learn', params: { id: 'checkmate-in-one' } });
});
