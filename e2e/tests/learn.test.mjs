// "Learn chess" in the browser: the map of lessons in each language, a piece
// lesson solved by clicking squares, a mate in one missed then found, a quiz
// answered wrong then right, a promotion, stars kept after a reload for a guest
// and across browsers for an account, and the pages on a phone.
//
// Answers are never written here: the rules module gives the legal moves, and
// the server (the same one the page asks) says which of them solve.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BASE, launch, newPage, noProblems, register, screenshot } from '../lib/helpers.mjs';
import { loadRules, play, position } from '../../web/js/rules.js';

const WEB = new URL('../../web/', import.meta.url);
const dict = (code) => JSON.parse(readFileSync(new URL(`i18n/${code}.json`, WEB), 'utf8'));
const LANGS = ['en', 'zh-Hans', 'zh-Hant'];
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

await loadRules(readFileSync(new URL('wasm/caissa.wasm', WEB)));
const { lessons } = await (await fetch(`${BASE}/api/learn`)).json();
const lessonOf = (id) => lessons.find((l) => l.id === id);

async function judge(lesson, exercise, body) {
  const response = await fetch(`${BASE}/api/learn/${lesson}/${exercise}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  assert.equal(response.status, 200, `judging ${JSON.stringify(body)}`);
  return response.json();
}

/** Every legal move of `fen` as UCI (a pawn reaching the last rank becomes a queen). */
function legalMoves(fen) {
  return Object.entries(position(fen).dests).flatMap(([from, tos]) => tos.map((to) => {
    try {
      play(fen, from + to);
      return from + to;
    } catch {
      return `${from}${to}q`;
    }
  }));
}

/** The shortest line that solves a board exercise, searched through the server's verdicts. */
async function solveLine(lessonId, index) {
  const ex = lessonOf(lessonId).exercises[index];
  let frontier = [{ moves: [], fen: ex.fen }];
  for (let depth = 0; depth < ex.max_moves; depth++) {
    const next = [];
    for (const { moves, fen } of frontier) {
      for (const uci of legalMoves(fen)) {
        const res = await judge(lessonId, index, { moves: [...moves, uci].join(' ') });
        if (res.state === 'solved') return [...moves, uci];
        if (res.state === 'going') next.push({ moves: [...moves, uci], fen: res.fen });
      }
    }
    frontier = next;
  }
  throw new Error(`no solution found for ${lessonId} ${index}`);
}

/** A move the server calls wrong, and one that solves, for a one-move exercise. */
async function wrongAndRight(lessonId, index) {
  const out = {};
  for (const uci of legalMoves(lessonOf(lessonId).exercises[index].fen)) {
    const res = await judge(lessonId, index, { moves: uci });
    if (res.state === 'wrong' && !out.wrong) out.wrong = { uci, why: res.why };
    if (res.state === 'solved' && !out.right) out.right = uci;
    if (out.wrong && out.right) return out;
  }
  throw new Error(`no wrong and right moves in ${lessonId} ${index}`);
}

/** A quiz's wrong and right choices, from the server. */
async function quizChoices(lessonId, index) {
  const out = {};
  const n = lessonOf(lessonId).exercises[index].goal.choices.length;
  for (let i = 0; i < n; i++) {
    const res = await judge(lessonId, index, { choice: i });
    if (res.state === 'solved') out.right = i;
    else if (out.wrong === undefined) out.wrong = i;
  }
  return out;
}

/** Opens the map from the lobby through the header's link. */
async function openLearn(page) {
  await page.goto(`${BASE}/`);
  await page.waitForSelector('.main-nav a[href="/learn"]', { state: 'attached' });
  // A click in script: on a phone the link sits in the closed menu.
  await page.evaluate(() => document.querySelector('.main-nav a[href="/learn"]').click());
  await page.waitForSelector('.learn-lesson');
}

async function openLesson(page, id) {
  await openLearn(page);
  await page.click(`a[data-lesson="${id}"]`);
  await page.waitForSelector('[data-testid="learn-instruction"]');
}

/** Plays `uci` by clicking its squares, and waits for the server's verdict. */
async function clickMove(page, uci) {
  const before = await page.locator('[data-testid="learn-feedback"]').innerHTML();
  await page.click(`.learn-board [data-square="${uci.slice(0, 2)}"]`);
  await page.click(`.learn-board [data-square="${uci.slice(2, 4)}"]`);
  if (uci.length > 4) await page.click('.cb-promo-choice[data-role="queen"]');
  await page.waitForFunction((html) => document.querySelector('[data-testid="learn-feedback"]').innerHTML !== html, before);
}

/** The serious and critical axe-core violations on the page as it is now. */
async function audit(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] }))
    .violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) })));
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

async function setLanguage(page, code) {
  await page.selectOption('#lang-select', code);
  await page.waitForFunction((c) => document.documentElement.lang === c, code);
}

const rookLine = await solveLine('rook', 1);
const mate = await wrongAndRight('checkmate-in-one', 0);
const promotion = await wrongAndRight('promotion', 1);
const quizLesson = lessons.find((l) => l.exercises[0].goal.kind === 'quiz').id;
const quiz = await quizChoices(quizLesson, 0);
/** For each kind of goal, a lesson's exercise of that kind and how to solve it. */
const KINDS = {
  reach: ['the-board', 0], capture_all: ['rook', 3], mate_in_one: ['checkmate-in-one', 0],
  escape_check: ['check', 0], promote: ['promotion', 0], castle: ['castling', 0],
  en_passant: ['en-passant', 0], stalemate: ['stalemate', 0], safe_move: ['king', 3],
  quiz: ['draws', 0], checkmate: ['basic-mates', 0],
};
const kindSolutions = {};
for (const [kind, [id, index]] of Object.entries(KINDS)) {
  assert.equal(lessonOf(id).exercises[index].goal.kind, kind, `${id} ${index}`);
  if (kind === 'quiz') kindSolutions[kind] = { choice: (await quizChoices(id, index)).right };
  else if (kind !== 'checkmate') kindSolutions[kind] = { moves: await solveLine(id, index) };
}
/** A first move of the first basic mate the server answers with the computer's move. */
const basicMate = await (async () => {
  for (const move of legalMoves(lessonOf('basic-mates').exercises[0].fen)) {
    const res = await judge('basic-mates', 0, { moves: move });
    if (res.state === 'going' && res.reply) return { move, res };
  }
  throw new Error('no move of basic-mates 0 was answered');
})();

for (const code of LANGS) {
  test(`learn in ${code}: map, a piece lesson, a mate in one, a quiz, a promotion`, { timeout: 120_000 }, async (t) => {
    const d = dict(code);
    const browser = await launch();
    try {
      const page = await newPage(browser, { lang: code });
      await page.goto(`${BASE}/`);
      await setLanguage(page, code);
      await openLearn(page);
      assert.equal(await page.locator('h1').innerText(), d['learn.title']);
      assert.equal(await page.locator('.learn-category h2').first().innerText(), d[`learn.category.${lessons[0].category}`]);
      assert.equal(await page.locator('.learn-lesson').count(), lessons.length);
      const rookCard = await page.locator('a[data-lesson="rook"]').innerText();
      assert.ok(rookCard.includes(lessonOf('rook').title[code]), rookCard);
      assert.match(rookCard, /0 \/ 15/);

      // The rook: exercise 1 then 2, the second landing on two targets.
      await page.click('a[data-lesson="rook"]');
      await page.waitForSelector('[data-testid="learn-instruction"]');
      assert.equal(await page.locator('[data-testid="learn-step"]').innerText(), d['learn.exercise'].replace('{n}', '1').replace('{total}', '5'));
      const first = await solveLine('rook', 0);
      for (const uci of first) await clickMove(page, uci);
      await page.waitForSelector('.learn-solved');
      await page.click('[data-testid="learn-next"]');
      await page.waitForSelector(`[data-testid="learn-step"]:has-text("${d['learn.exercise'].replace('{n}', '2').replace('{total}', '5')}")`);
      for (const [i, uci] of rookLine.entries()) {
        await clickMove(page, uci);
        if (i + 1 < rookLine.length) await page.waitForSelector('.learn-going');
      }
      await page.waitForSelector('.learn-solved');
      const stars = await page.locator('.learn-feedback .learn-stars').getAttribute('aria-label');
      assert.match(stars, /3/);
      await screenshot(page, `learn-rook-${code}`);

      // The stars are on the map, loaded from its own address, after a reload
      // (a guest: this browser keeps them).
      await page.goto(`${BASE}/learn`);
      await page.reload();
      await page.waitForSelector('.learn-lesson');
      assert.match(await page.locator('a[data-lesson="rook"] [data-testid="lesson-stars"]').innerText(), /^\s*6 \/ 15/);

      // A mate in one: a wrong move, its words, Retry, then the mate.
      await page.click('a[data-lesson="checkmate-in-one"]');
      await page.waitForSelector('[data-testid="learn-instruction"]');
      await clickMove(page, mate.wrong.uci);
      await page.waitForSelector(`.learn-wrong:has-text("${d[`learn.mistake.${mate.wrong.why.mistake}`]}")`);
      await page.click('[data-testid="learn-retry"]');
      await page.waitForFunction(() => !document.querySelector('.learn-wrong'));
      await clickMove(page, mate.right);
      await page.waitForSelector(`.learn-solved:has-text("${d['learn.solved']}")`);

      // A quiz: a wrong choice, then the right one.
      await openLesson(page, quizLesson);
      await page.click(`.learn-choice[data-choice="${quiz.wrong}"]`);
      await page.waitForSelector(`.learn-wrong:has-text("${d['learn.mistake.wrong_choice']}")`);
      assert.equal(await page.locator(`.learn-choice[data-choice="${quiz.wrong}"]`).isDisabled(), true);
      await page.click(`.learn-choice[data-choice="${quiz.right}"]`);
      await page.waitForSelector('.learn-solved');

      // A promotion: exercise 2 of the lesson, through the picker.
      await openLesson(page, 'promotion');
      await page.waitForSelector('.learn-board [data-square="a1"]');
      await clickMove(page, (await solveLine('promotion', 0))[0]);
      await page.waitForSelector('.learn-solved');
      await page.click('[data-testid="learn-next"]');
      await page.waitForSelector(`[data-testid="learn-step"]:has-text("${d['learn.exercise'].replace('{n}', '2').replace('{total}', '6')}")`);
      // Its hint, on request.
      await page.click('[data-testid="learn-hint"]');
      assert.equal(await page.locator('.learn-hint').innerText(), lessonOf('promotion').exercises[1].hint[code]);
      await clickMove(page, promotion.right);
      await page.waitForSelector('.learn-solved');

      // A basic mate against the computer: a first move, and the computer's
      // answer comes with it, already on the board.
      await openLesson(page, 'basic-mates');
      await page.waitForSelector('.learn-board [data-square="a1"]');
      await clickMove(page, basicMate.move);
      const going = d['learn.goingMate'].replace('{left}', basicMate.res.movesLeft);
      await page.waitForSelector(`.learn-going:has-text("${going}")`);
      assert.deepEqual(noProblems(t, page), []);
    } finally {
      await browser.close();
    }
  });
}

for (const code of LANGS) {
  test(`one exercise of every kind of goal in ${code}, opened by its own address`, { timeout: 180_000 }, async (t) => {
    const d = dict(code);
    const browser = await launch();
    try {
      const page = await newPage(browser, { lang: code });
      await page.goto(`${BASE}/`);
      await setLanguage(page, code);
      for (const [kind, [id, index]] of Object.entries(KINDS)) {
        await page.goto(`${BASE}/learn/${id}?exercise=${index + 1}`);
        await page.waitForSelector('[data-testid="learn-instruction"]');
        const total = lessonOf(id).exercises.length;
        const step = d['learn.exercise'].replace('{n}', String(index + 1)).replace('{total}', String(total));
        assert.equal(await page.locator('[data-testid="learn-step"]').innerText(), step, kind);
        const ex = lessonOf(id).exercises[index];
        const words = (ex.prompt || ex.instruction)[code];
        assert.equal(await page.locator('[data-testid="learn-instruction"]').innerText(), words, kind);
        if (kind === 'quiz') {
          await page.click(`.learn-choice[data-choice="${kindSolutions.quiz.choice}"]`);
        } else if (kind === 'checkmate') {
          await page.waitForSelector('.learn-board [data-square="a1"]');
          await clickMove(page, basicMate.move);
          await page.waitForSelector(`.learn-going:has-text("${d['learn.goingMate'].replace('{left}', basicMate.res.movesLeft)}")`);
          continue;
        } else {
          await page.waitForSelector('.learn-board [data-square="a1"]');
          for (const uci of kindSolutions[kind].moves) await clickMove(page, uci);
        }
        await page.waitForSelector(`.learn-solved:has-text("${d['learn.solved']}")`);
      }
      assert.deepEqual(noProblems(t, page), []);
    } finally {
      await browser.close();
    }
  });
}

test('an account keeps its stars: solved in one browser, shown in another', { timeout: 90_000 }, async (t) => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const name = await register(page);
    await openLesson(page, 'checkmate-in-one');
    await clickMove(page, mate.right);
    await page.waitForSelector('.learn-solved');

    const other = await newPage(browser);
    await other.goto(`${BASE}/login`);
    await other.fill('#auth-username', name);
    await other.fill('#auth-password', 'correct-horse-battery');
    await other.click('.auth-form button[type="submit"]');
    await other.waitForSelector(`[data-testid="user-link"]:has-text("${name}")`);
    await openLearn(other);
    assert.match(await other.locator('a[data-lesson="checkmate-in-one"] [data-testid="lesson-stars"]').innerText(), /^\s*3 \/ 18/);
    assert.deepEqual(noProblems(t, page, other), []);
  } finally {
    await browser.close();
  }
});

test('learn on a phone: no sideways scrolling, an accessibility audit, the last exercise and the summary', { timeout: 90_000 }, async (t) => {
  const browser = await launch();
  try {
    const page = await newPage(browser, { viewport: { width: 390, height: 844 }, bypassCSP: true });
    await openLearn(page);
    assert.ok(await page.evaluate(() => document.scrollingElement.scrollWidth <= innerWidth), 'the map fits');
    assert.deepEqual(await audit(page), []);
    await openLesson(page, quizLesson);
    assert.ok(await page.evaluate(() => document.scrollingElement.scrollWidth <= innerWidth), 'a quiz fits');
    await page.click(`.learn-choice[data-choice="${quiz.wrong}"]`);
    await page.waitForSelector('.learn-wrong');
    assert.deepEqual(await audit(page), []);
    const unnamed = await page.evaluate(() => [...document.querySelectorAll('#main button')]
      .filter((b) => !(b.getAttribute('aria-label') || b.textContent).trim()).length);
    assert.equal(unnamed, 0);
    assert.equal(await page.locator('[data-testid="learn-feedback"]').getAttribute('aria-live'), 'polite');

    // The piece lesson's last exercise leads to the summary with the next lesson.
    await openLesson(page, 'rook');
    assert.ok(await page.evaluate(() => document.scrollingElement.scrollWidth <= innerWidth), 'a board exercise fits');
    assert.deepEqual(await audit(page), []);
    const rook = lessonOf('rook');
    for (let i = 0; i < rook.exercises.length; i++) {
      if (i > 0) {
        await page.click('[data-testid="learn-next"]');
        await page.waitForSelector(`[data-testid="learn-step"]:has-text("${i + 1}")`);
      }
      for (const uci of await solveLine('rook', i)) await clickMove(page, uci);
      await page.waitForSelector('.learn-solved');
    }
    await page.click('[data-testid="learn-next"]');
    await page.waitForSelector('[data-testid="learn-summary"]');
    const next = lessons[lessons.findIndex((l) => l.id === 'rook') + 1];
    assert.equal(await page.locator('[data-testid="learn-next-lesson"]').getAttribute('href'), `/learn/${next.id}`);
    await screenshot(page, 'learn-summary-phone');
    // The computer at level 1, a game away.
    await page.click(`.learn-summary button:has-text("${dict('en')['learn.playComputer']}")`);
    await page.waitForURL(/\/game\/[\w-]+/);
    assert.deepEqual(noProblems(t, page), []);
  } finally {
    await browser.close();
  }
});
