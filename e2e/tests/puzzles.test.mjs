// Puzzles in the browser: a guest solves a puzzle by clicking its solution's
// squares; a wrong move is shown, taken back with Retry, and the solution is
// viewed; a signed-in player's result is sent, moves their rating and shows
// in the puzzle history of their profile; a streak goes on after a solved
// puzzle and ends at a wrong move; the puzzle of the day; the page in Chinese
// and on a phone.
//
// The moves come from the server's puzzles (their `solution`), and a wrong
// move is one the rules module says is legal but not the solution's.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BASE, launch, newPage, noProblems, register, screenshot } from '../lib/helpers.mjs';
import { loadRules, position } from '../../web/js/rules.js';
import { judgeMove } from '../../web/js/puzzles/logic.js';

const WEB = new URL('../../web/', import.meta.url);
const dict = (code) => JSON.parse(readFileSync(new URL(`i18n/${code}.json`, WEB), 'utf8'));
const en = dict('en');
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

await loadRules(readFileSync(new URL('wasm/caissa.wasm', WEB)));

async function getJson(path) {
  const response = await fetch(`${BASE}${path}`);
  assert.equal(response.status, 200, path);
  return response.json();
}

/** A puzzle of `angle` from /api/puzzle/next: {game, puzzle}. */
const nextPuzzle = (angle = 'mix') => getJson(`/api/puzzle/next?angle=${angle}`);
const puzzleById = async (id) => (await getJson(`/api/puzzle/${id}`)).puzzle;

// A puzzle with two moves to find (a mate in two) and one with a single move.
const longOne = (await nextPuzzle('mateIn2')).puzzle;
const shortOne = (await nextPuzzle('oneMove')).puzzle;
assert.ok(longOne.solution.length >= 3, 'a mate in two has an answer to play');
assert.equal(shortOne.solution.length, 1);

/** A legal move in `fen` that is not `expected` and does not mate. */
function wrongMove(fen, expected) {
  for (const [from, tos] of Object.entries(position(fen).dests)) {
    for (const to of tos) {
      const { verdict } = judgeMove(fen, from + to, expected);
      if (verdict === 'wrong') return from + to;
    }
  }
  throw new Error(`no wrong move in ${fen}`);
}

const state = (page) => page.locator('.page-puzzles').getAttribute('data-state');

/** Waits until the solver may move, `ply` moves into the solution. */
async function waitForTurn(page, ply) {
  await page.waitForSelector(`.page-puzzles[data-state="play"][data-ply="${ply}"]`);
}

/** Plays `uci` by clicking its two squares (and the queen for a promotion). */
async function clickMove(page, uci) {
  await page.click(`.puzzle-board [data-square="${uci.slice(0, 2)}"]`);
  await page.click(`.puzzle-board [data-square="${uci.slice(2, 4)}"]`);
  if (uci.length > 4) await page.click(`.cb-promo-choice[data-role="${{ q: 'queen', r: 'rook', b: 'bishop', n: 'knight' }[uci[4]]}"]`);
}

/** Plays the solver's moves of `puzzle` from `start`, each once the opponent has answered. */
async function solve(page, puzzle, start = 0) {
  for (let ply = start; ply < puzzle.solution.length; ply += 2) {
    await waitForTurn(page, ply);
    await clickMove(page, puzzle.solution[ply]);
  }
  await page.waitForSelector('.page-puzzles[data-state="over"]');
}

/** The serious and critical axe-core violations on the page as it is now. */
async function audit(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => (await window.axe.run(document, { resultTypes: ['violations'] }))
    .violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) })));
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

test('a guest solves a puzzle by clicking its moves', { timeout: 60_000 }, async (t) => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    // Through the header's link, then to the puzzle's own address.
    await page.goto(`${BASE}/`);
    await page.waitForSelector('.main-nav a[href="/training"]', { state: 'attached' });
    assert.equal((await page.locator('.main-nav a[href="/training"]').innerText()).trim(), en['nav.puzzles']);
    await page.goto(`${BASE}/training/${longOne.id}`);
    await waitForTurn(page, 0);
    assert.equal(await page.locator('h1').innerText(), en['puzzle.number'].replace('{id}', longOne.id));
    const color = longOne.fen.split(' ')[1] === 'w' ? 'white' : 'black';
    assert.match(await page.locator('[data-testid="puzzle-feedback"]').innerText(), new RegExp(en[`puzzle.findBest.${color}`]));
    // The opponent's last move is marked on the board, seen from the solver's side.
    const [from, to] = [longOne.lastMove.slice(0, 2), longOne.lastMove.slice(2, 4)];
    assert.match(await page.locator(`.puzzle-board [data-square="${to}"]`).getAttribute('aria-label'), /last move/);
    assert.match(await page.locator(`.puzzle-board [data-square="${from}"]`).getAttribute('aria-label'), /last move/);
    const files = await page.locator('.puzzle-board [data-square]').evaluateAll((cells) => cells.slice(0, 1).map((c) => c.dataset.square));
    assert.equal(files[0], color === 'white' ? 'a8' : 'h1');
    // The rating is hidden until the end.
    assert.equal(await page.locator('[data-testid="puzzle-rating"]').count(), 0);

    await waitForTurn(page, 0);
    await clickMove(page, longOne.solution[0]);
    // The opponent answers by itself; then it is the solver's turn again.
    await page.waitForSelector(`.puzzle-headline:has-text("${en['puzzle.bestMove']}")`);
    await solve(page, longOne, 2);
    await page.waitForSelector(`.puzzle-solved:has-text("${en['puzzle.solved']}")`);
    assert.equal(await page.locator('.page-puzzles').getAttribute('data-failed'), 'false');
    assert.match(await page.locator('[data-testid="puzzle-rating"]').innerText(), new RegExp(String(longOne.rating)));
    const themes = await page.locator('[data-testid="puzzle-themes"] a').allInnerTexts();
    assert.ok(themes.includes(en['puzzle.theme.mateIn2']), themes.join(', '));
    assert.match(await page.locator('[data-testid="guest-solved"]').innerText(), /1/);
    await screenshot(page, 'puzzle-solved');

    // The analysis board opens with the puzzle's line.
    const href = await page.locator('[data-action="analysis"]').getAttribute('href');
    assert.match(href, /^\/analysis\?pgn=/);
    await page.click('[data-action="analysis"]');
    await page.waitForURL(/\/analysis\?pgn=/);
    await page.waitForSelector('.board-wrap');
    // Next: back to a puzzle to play.
    await page.goBack();
    await page.waitForSelector('[data-action="next"], .page-puzzles[data-state="play"]');
    assert.deepEqual(noProblems(t, page), []);
  } finally {
    await browser.close();
  }
});

test('a wrong move is shown, Retry takes it back, the hint circles the piece, the solution plays out', { timeout: 60_000 }, async (t) => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await page.goto(`${BASE}/training/${longOne.id}`);
    await waitForTurn(page, 0);
    const wrong = wrongMove(longOne.fen, longOne.solution[0]);
    await clickMove(page, wrong);
    await page.waitForSelector(`.puzzle-wrong:has-text("${en['puzzle.notTheMove']}")`);
    assert.equal(await state(page), 'wrong');
    assert.equal(await page.locator(`.puzzle-board [data-shape="red:${wrong.slice(2, 4)}"]`).count(), 1);
    assert.match(await page.locator(`.puzzle-board [data-square="${wrong.slice(2, 4)}"]`).getAttribute('aria-label'), /last move/);
    await page.click('[data-action="retry"]');
    await waitForTurn(page, 0);
    assert.equal(await page.locator('.page-puzzles').getAttribute('data-failed'), 'true');
    assert.match(await page.locator(`.puzzle-board [data-square="${wrong.slice(0, 2)}"]`).getAttribute('aria-label'), /white|black/);
    assert.equal(await page.locator('.puzzle-board [data-shape^="red:"]').count(), 0);
    // The hint circles the piece to move.
    await page.click('[data-action="hint"]');
    await page.waitForSelector(`.puzzle-board [data-shape="green:${longOne.solution[0].slice(0, 2)}"]`);
    assert.equal(await page.locator('[data-action="hint"]').isDisabled(), true);
    await page.click('[data-action="solution"]');
    await page.waitForSelector('.page-puzzles[data-state="over"]', { timeout: 10_000 });
    assert.equal(await page.locator('.page-puzzles').getAttribute('data-ply'), String(longOne.solution.length));
    assert.match(await page.locator('[data-testid="puzzle-feedback"]').innerText(), new RegExp(en['puzzle.complete']));
    await page.waitForSelector('[data-action="next"]');
    await page.click('[data-action="next"]');
    await page.waitForURL(`${BASE}/training`);
    await page.waitForSelector('.page-puzzles[data-state="play"]');
    assert.deepEqual(noProblems(t, page), []);
  } finally {
    await browser.close();
  }
});

test('a signed-in player\'s result is sent, moves their rating, and shows in their puzzle history', { timeout: 60_000 }, async (t) => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const name = await register(page);
    await page.goto(`${BASE}/training/${shortOne.id}`);
    await page.waitForSelector('[data-testid="my-puzzle-rating"]');
    await waitForTurn(page, 0);
    const posted = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/api/puzzle/batch/'));
    await clickMove(page, shortOne.solution[0]);
    const response = await posted;
    assert.equal(response.status(), 200);
    assert.deepEqual(JSON.parse(response.request().postData()), { solutions: [{ id: shortOne.id, win: true, rated: true }] });
    const body = await response.json();
    await page.waitForSelector('[data-testid="rating-diff"]');
    const diff = Math.round(body.rounds[0].ratingDiff);
    assert.ok(diff > 0, `a win raises the rating (${diff})`);
    assert.equal(await page.locator('[data-testid="rating-diff"]').innerText(), `+${diff}`);
    assert.match(await page.locator('[data-testid="my-puzzle-rating"]').innerText(), new RegExp(String(Math.round(body.glicko.rating))));
    await screenshot(page, 'puzzle-rated');

    // The profile's puzzle history lists the round.
    await page.goto(`${BASE}/@/${name}`);
    const row = page.locator(`[data-testid="puzzle-history"] tr[data-puzzle="${shortOne.id}"]`);
    await row.waitFor();
    assert.match(await row.innerText(), new RegExp(en['puzzle.won']));
    assert.equal(await row.locator('a').getAttribute('href'), `/training/${shortOne.id}`);
    assert.match(await page.locator('[data-testid="puzzle-dashboard"]').innerText(), /1/);

    // Played again: not rated this time.
    await page.goto(`${BASE}/training/${shortOne.id}`);
    await waitForTurn(page, 0);
    const again = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().includes('/api/puzzle/batch/'));
    await clickMove(page, shortOne.solution[0]);
    assert.equal(JSON.parse((await again).request().postData()).solutions[0].rated, false);
    await page.waitForSelector('[data-testid="not-rated"]');
    assert.deepEqual(noProblems(t, page), []);
  } finally {
    await browser.close();
  }
});

test('a streak: a solved puzzle counts, a wrong move ends it, the best is kept', { timeout: 60_000 }, async (t) => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await page.goto(`${BASE}/training/streak`);
    await page.waitForSelector('.page-puzzles[data-state="play"]');
    assert.equal(await page.locator('h1').innerText(), en['puzzle.streak']);
    assert.equal(await page.locator('[data-testid="streak-current"]').innerText(), en['puzzle.streakCurrent'].replace('{n}', '0'));
    const first = await puzzleById(await page.locator('.page-puzzles').getAttribute('data-puzzle'));
    await solve(page, first);
    await page.waitForSelector(`[data-testid="streak-current"]:has-text("${en['puzzle.streakCurrent'].replace('{n}', '1')}")`);
    assert.equal(await page.locator('[data-testid="streak-best"]').innerText(), en['puzzle.streakBest'].replace('{n}', '1'));
    await page.click('[data-action="next"]');
    await page.waitForFunction((id) => {
      const root = document.querySelector('.page-puzzles');
      return root.dataset.state === 'play' && root.dataset.puzzle && root.dataset.puzzle !== id;
    }, first.id);
    const second = await puzzleById(await page.locator('.page-puzzles').getAttribute('data-puzzle'));
    await clickMove(page, wrongMove(second.fen, second.solution[0]));
    await page.waitForSelector(`.puzzle-sub:has-text("${en['puzzle.streakOver'].replace('{n}', '1')}")`);
    assert.equal(await page.locator('[data-action="retry"]').count(), 0);
    await page.waitForSelector('[data-action="new-streak"]');
    await screenshot(page, 'puzzle-streak-over');
    // A new streak starts from nothing; the best stays, after a reload too.
    await page.reload();
    await page.waitForSelector('.page-puzzles[data-state="play"]');
    assert.equal(await page.locator('[data-testid="streak-current"]').innerText(), en['puzzle.streakCurrent'].replace('{n}', '0'));
    assert.equal(await page.locator('[data-testid="streak-best"]').innerText(), en['puzzle.streakBest'].replace('{n}', '1'));
    assert.deepEqual(noProblems(t, page), []);
  } finally {
    await browser.close();
  }
});

test('the puzzle of the day', { timeout: 60_000 }, async (t) => {
  const daily = (await getJson('/api/puzzle/daily')).puzzle;
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await page.goto(`${BASE}/training/daily`);
    await page.waitForSelector('.page-puzzles[data-state="play"]');
    assert.equal(await page.locator('h1').innerText(), en['puzzle.daily']);
    assert.equal(await page.locator('.page-puzzles').getAttribute('data-puzzle'), daily.id);
    assert.equal(await page.locator('.puzzle-mode[aria-current="page"]').innerText(), en['puzzle.daily']);
    await solve(page, daily);
    await page.waitForSelector('.puzzle-solved');
    assert.deepEqual(noProblems(t, page), []);
  } finally {
    await browser.close();
  }
});

for (const code of ['zh-Hans', 'zh-Hant']) {
  test(`the puzzle page in ${code}`, { timeout: 60_000 }, async (t) => {
    const d = dict(code);
    const browser = await launch();
    try {
      const page = await newPage(browser, { lang: code });
      await page.goto(`${BASE}/settings`);
      await page.selectOption('#lang-select', code);
      await page.waitForFunction((c) => document.documentElement.lang === c, code);
      await page.goto(`${BASE}/training/${longOne.id}`);
      await waitForTurn(page, 0);
      assert.equal(await page.locator('h1').innerText(), d['puzzle.number'].replace('{id}', longOne.id));
      assert.equal((await page.locator('.main-nav a[href="/training"]').innerText()).trim(), d['nav.puzzles']);
      assert.match(await page.locator('.puzzle-headline').innerText(), new RegExp(d['puzzle.yourTurn']));
      assert.equal(await page.locator('label[for="puzzle-difficulty"]').innerText(), d['puzzle.difficulty']);
      await solve(page, longOne);
      await page.waitForSelector(`.puzzle-solved:has-text("${d['puzzle.solved']}")`);
      const themes = await page.locator('[data-testid="puzzle-themes"] a').allInnerTexts();
      assert.ok(themes.includes(d['puzzle.theme.mateIn2']), themes.join(', '));
      assert.equal(await page.locator('[data-action="next"]').innerText(), d['puzzle.next']);
      // Changing the language keeps the puzzle where it is.
      await page.selectOption('#lang-select', 'en');
      await page.waitForSelector(`.puzzle-solved:has-text("${en['puzzle.solved']}")`);
      await page.selectOption('#lang-select', code);
      await page.waitForFunction((c) => document.documentElement.lang === c, code);
      assert.deepEqual(noProblems(t, page), []);
    } finally {
      await browser.close();
    }
  });
}

test('puzzles on a phone: no sideways scrolling, an accessibility audit, a theme chosen, a puzzle solved', { timeout: 90_000 }, async (t) => {
  const browser = await launch();
  try {
    const page = await newPage(browser, { viewport: { width: 390, height: 844 }, bypassCSP: true });
    await page.goto(`${BASE}/training`);
    await page.waitForSelector('.page-puzzles[data-state="play"]');
    assert.ok(await page.evaluate(() => document.scrollingElement.scrollWidth <= innerWidth), 'the page fits');
    const board = await page.locator('.puzzle-board').boundingBox();
    assert.ok(board.width >= 340, `the board fills the width (${board.width})`);
    assert.deepEqual(await audit(page), []);
    const unnamed = await page.evaluate(() => [...document.querySelectorAll('#main button')]
      .filter((b) => !(b.getAttribute('aria-label') || b.textContent).trim()).length);
    assert.equal(unnamed, 0);
    // A theme from the list: its own address, its puzzles.
    await page.waitForSelector('#puzzle-theme option[value="mateIn2"]', { state: 'attached' });
    await page.selectOption('#puzzle-theme', 'mateIn2');
    await page.waitForURL(`${BASE}/training/theme/mateIn2`);
    await page.waitForSelector('.page-puzzles[data-state="play"]');
    assert.equal(await page.locator('h1').innerText(), en['puzzle.titleTheme'].replace('{theme}', en['puzzle.theme.mateIn2']));
    const puzzle = await puzzleById(await page.locator('.page-puzzles').getAttribute('data-puzzle'));
    assert.ok(puzzle.themes.includes('mateIn2'), puzzle.themes.join(' '));
    await solve(page, puzzle);
    await page.waitForSelector('.puzzle-solved');
    assert.ok(await page.evaluate(() => document.scrollingElement.scrollWidth <= innerWidth), 'the solved page fits');
    assert.deepEqual(await audit(page), []);
    await screenshot(page, 'puzzle-phone');
    // Next: another mate in two.
    await page.click('[data-action="next"]');
    await page.waitForFunction((id) => {
      const root = document.querySelector('.page-puzzles');
      return root.dataset.state === 'play' && root.dataset.puzzle !== id;
    }, puzzle.id);
    assert.deepEqual(noProblems(t, page), []);
  } finally {
    await browser.close();
  }
});
