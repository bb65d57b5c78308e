// The evaluation on the analysis page: the score of the position shown, its best
// line in SAN and the graph over the whole game, filled one position after
// another. /api/cloud-eval is answered by the test (lichess's shape) so this runs
// without an engine; a last test uses the server's own engine when it has one.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, newPage, noProblems, screenshot } from '../lib/helpers.mjs';
import { readFileSync } from 'node:fs';
import { loadRules, play, position } from '../../web/js/rules.js';

await loadRules(readFileSync(new URL('../../web/wasm/caissa.wasm', import.meta.url)));

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const PGN = '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6';
const PLIES = 8;

/** A made-up but well-formed answer: cp by move number, a 3-move legal line. */
function fakeEval(fen) {
  let at = fen;
  const moves = [];
  for (let i = 0; i < 3; i++) {
    const dests = Object.entries(position(at).dests);
    if (!dests.length) break;
    const [from, tos] = dests[dests.length - 1];
    let played;
    try {
      played = play(at, from + tos[tos.length - 1]);
    } catch {
      played = play(at, `${from}${tos[tos.length - 1]}q`);
    }
    moves.push(played.uci);
    at = played.fen;
  }
  const p = position(fen);
  const pv = p.fullmoves === 3 && p.turn === 'black' ? { moves: moves.join(' '), mate: -3 } : { moves: moves.join(' '), cp: 23 + p.fullmoves };
  return { fen, knodes: 1234, depth: 18, pvs: [pv] };
}

/** Answers /api/cloud-eval with `answer(fen)` after `delay` ms; counts requests. */
async function mockEval(page, { delay = 40, answer = (fen) => ({ status: 200, json: fakeEval(fen) }) } = {}) {
  const stats = { requests: 0, inFlight: 0, maxInFlight: 0, fens: [], multiPv: [] };
  await page.route('**/api/cloud-eval?*', async (route) => {
    const url = new URL(route.request().url());
    const fen = url.searchParams.get('fen');
    stats.requests++;
    stats.fens.push(fen);
    stats.multiPv.push(url.searchParams.get('multiPv'));
    stats.inFlight++;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    await new Promise((r) => setTimeout(r, delay));
    stats.inFlight--;
    const { status, json, body } = answer(fen);
    await route.fulfill({ status, contentType: json ? 'application/json' : 'text/plain', body: json ? JSON.stringify(json) : body || '' }).catch(() => {});
  });
  // The deepening search of the position shown is the server's: none here.
  stats.deepened = [];
  await page.route('**/api/analysis/stream?*', async (route) => {
    stats.deepened.push(new URL(route.request().url()).searchParams.get('fen'));
    await route.fulfill({ status: 200, contentType: 'application/x-ndjson', body: '' }).catch(() => {});
  });
  return stats;
}

const evaluated = (page) => page.evaluate(() => {
  const svg = document.querySelector('[data-testid="eval-graph"] svg');
  return svg ? [Number(svg.dataset.evaluated), Number(svg.dataset.total)] : null;
});

test('evaluation: score, best line in SAN, graph filled position by position, cache', { timeout: 60_000 }, async (t) => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const stats = await mockEval(page);
    await page.goto(`${BASE}/analysis?pgn=${encodeURIComponent(PGN)}`);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="move-list"] button.move').length === n, PLIES);
    // The position shown (after 4... Nf6, White to move at move 5) is evaluated.
    await page.waitForSelector('[data-testid="eval-score"]:has-text("+0.28")');
    assert.match(await page.locator('[data-testid="best-line"]').innerText(), /^5\. \S+ \S+ 6\. \S+$/);
    assert.match(await page.locator('.eval-depth').innerText(), /depth 18/);
    // The best move is drawn on the board as an arrow.
    const best = fakeEval(await page.inputValue('#fen-output')).pvs[0].moves.split(' ')[0];
    await page.waitForSelector(`.cb-shapes [data-shape="engine:${best.slice(0, 4)}"]`, { state: 'attached' });
    // The graph fills in, one position at a time, over the whole game.
    const seen = new Set();
    await page.waitForFunction(() => {
      const svg = document.querySelector('[data-testid="eval-graph"] svg');
      return svg && svg.dataset.evaluated === svg.dataset.total;
    }, null, { timeout: 20_000 }).then(() => {});
    const [done, total] = await evaluated(page);
    assert.equal(total, PLIES + 1);
    assert.equal(done, PLIES + 1);
    seen.add(done);
    assert.equal(stats.maxInFlight, 1, 'one position after another');
    assert.equal(stats.requests, PLIES + 1, 'each position once');
    assert.ok(stats.multiPv.every((m) => m === '1'));
    assert.ok(stats.fens.includes(START));
    // The review: the made-up answers turn at move 3 (a mate for Black, then
    // even again): 3. Bb5 and 3... a6 are blunders, each with the better move.
    const judged = await page.locator('[data-testid="review-moves"] li').allInnerTexts();
    assert.equal(judged.length, 2, judged.join('\n'));
    assert.match(judged[0], /^3\. Bb5\?\? Blunder · best was \S+$/);
    assert.match(judged[1], /^3\.\.\. a6\?\? Blunder · best was \S+$/);
    assert.match(await page.locator('[data-testid="accuracy-white"]').innerText(), /\d+% accuracy · 0 inaccuracies, 0 mistakes, 1 blunders/);
    assert.equal(await page.locator('[data-testid="eval-graph"] [data-mark="blunder"]').count(), 2);
    assert.equal(await page.locator('[data-testid="review-progress"]').count(), 0);
    await screenshot(page, 'analysis-eval');

    // Black to move at move 3 is a mate for Black in the made-up answers.
    await page.click('[data-testid="move-list"] button.move[data-ply="5"]');
    await page.waitForSelector('[data-testid="eval-score"]:has-text("#-3")');
    assert.match(await page.locator('[data-testid="best-line"]').innerText(), /^3\.\.\. \S+ 4\. \S+ \S+$/);
    await page.keyboard.press('ArrowUp');
    await page.waitForSelector('[data-testid="eval-score"]:has-text("+0.24")');
    // Clicking the graph goes to that position.
    await page.locator('[data-testid="eval-graph"] svg').scrollIntoViewIfNeeded();
    const box = await page.locator('[data-testid="eval-graph"] svg').boundingBox();
    await page.mouse.click(box.x + box.width - 2, box.y + box.height / 2);
    await page.waitForSelector('[data-testid="move-list"] .move.current[data-ply="8"]');

    // A move played on the board: only the new position is asked for; importing
    // the same game again asks nothing (cache per FEN).
    const before = stats.requests;
    await page.click('summary:has-text("Import PGN")');
    await page.fill('#pgn-input', PGN);
    await page.click('form:has(#pgn-input) button[type="submit"]');
    await page.waitForFunction(() => {
      const svg = document.querySelector('[data-testid="eval-graph"] svg');
      return svg && svg.dataset.evaluated === svg.dataset.total;
    });
    assert.equal(stats.requests, before, 'the cache answers');
    assert.deepEqual(noProblems(t, page), []);
  } finally {
    await browser.close();
  }
});

test('evaluation stops when the user leaves the page', { timeout: 60_000 }, async (t) => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const stats = await mockEval(page, { delay: 400 });
    const aborted = [];
    page.on('requestfailed', (r) => { if (r.url().includes('/api/cloud-eval')) aborted.push(r.failure()?.errorText); });
    await page.goto(`${BASE}/analysis?pgn=${encodeURIComponent(PGN)}`);
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="eval-graph"] svg')?.dataset.evaluated) >= 2);
    await page.click('a.nav-link[href="/watch"]');
    await page.waitForURL(`${BASE}/watch`);
    const atLeave = stats.requests;
    await page.waitForTimeout(1500);
    assert.ok(stats.requests <= atLeave, `no request after leaving (${stats.requests} > ${atLeave})`);
    assert.ok(stats.requests < PLIES + 1, 'the game was not evaluated to its end');
    assert.deepEqual(noProblems(t, page), []);
  } finally {
    await browser.close();
  }
});

for (const [name, answer] of [
  ['404 with an error', () => ({ status: 404, json: { error: 'no engine on this server' } })],
  ['no such endpoint', () => ({ status: 404, body: '' })],
]) {
  test(`evaluation: no graph and a small note when the endpoint answers ${name}`, { timeout: 60_000 }, async (t) => {
    const browser = await launch();
    try {
      const page = await newPage(browser);
      const stats = await mockEval(page, { answer });
      await page.goto(`${BASE}/analysis?pgn=${encodeURIComponent(PGN)}`);
      await page.waitForSelector('[data-testid="eval-note"]');
      assert.match(await page.locator('[data-testid="eval-note"]').innerText(), /No evaluation/);
      assert.equal(await page.locator('[data-testid="eval-graph"]').isHidden(), true);
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowUp');
      await page.waitForTimeout(300);
      assert.ok(stats.requests <= 2, `gave up quickly (${stats.requests} requests)`);
      assert.equal(await page.locator('[data-testid="eval-graph"]').isHidden(), true);
      await page.waitForSelector('[data-testid="eval-note"]');
      assert.deepEqual(noProblems(t, page), []);
    } finally {
      await browser.close();
    }
  });
}

test('evaluation from the server\'s engine', { timeout: 120_000 }, async (t) => {
  const probe = await fetch(`${BASE}/api/cloud-eval?fen=${encodeURIComponent(START)}`).catch(() => null);
  if (!probe || probe.status !== 200) {
    t.skip(`the server has no engine yet (/api/cloud-eval answered ${probe ? probe.status : 'nothing'})`);
    return;
  }
  const body = await probe.json();
  assert.ok(Array.isArray(body.pvs) && body.pvs.length, 'lichess shape: pvs');
  assert.ok(typeof body.pvs[0].moves === 'string' && ('cp' in body.pvs[0] || 'mate' in body.pvs[0]));
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await page.goto(`${BASE}/analysis?pgn=${encodeURIComponent(PGN)}`);
    await page.waitForFunction(() => {
      const svg = document.querySelector('[data-testid="eval-graph"] svg');
      return svg && svg.dataset.evaluated === svg.dataset.total;
    }, null, { timeout: 90_000 });
    assert.match(await page.locator('[data-testid="eval-score"]').innerText(), /^([+-]\d+\.\d\d|0\.00|#-?\d+)$/);
    assert.match(await page.locator('[data-testid="best-line"]').innerText(), /^5\. [KQRBNa-h]/);
    // Then the position shown is searched deeper, its depth rising on the page.
    const depth = async () => Number((await page.locator('.eval-depth').innerText()).match(/\d+/)[0]);
    const quick = await depth();
    await page.waitForFunction((d) => {
      const shown = document.querySelector('.eval-depth');
      return shown && Number(shown.textContent.match(/\d+/)?.[0]) > d + 1;
    }, quick, { timeout: 30_000 });
    // Another position: its own search, the last one stopped.
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(() => document.querySelector('[data-testid="eval-score"]') && !document.querySelector('.eval-score.pending'));
    assert.match(await page.locator('[data-testid="best-line"]').innerText(), /^4\.\.\. [KQRBNa-h]/);
    await screenshot(page, 'analysis-engine');
    assert.deepEqual(noProblems(t, page), []);
  } finally {
    await browser.close();
  }
});
