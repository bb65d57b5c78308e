// A rated game to scholar's mate, shown on TV while it goes on; then the
// player's profile (rating chart, games) and the finished game as a replay.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, newPage, noProblems, pairByPool, playLine, register, resultText, screenshot } from '../lib/helpers.mjs';

test('TV, profile and replay of a finished game', { timeout: 120_000 }, async (t) => {
  const browser = await launch();
  try {
    const a = await newPage(browser);
    const b = await newPage(browser);
    const viewer = await newPage(browser);
    const aName = await register(a);
    const bName = await register(b);
    const { white, black, path } = await pairByPool(a, b, '15+10');
    await playLine(white, black, [['e2', 'e4'], ['e7', 'e5'], ['f1', 'c4'], ['b8', 'c6']]);

    // TV shows a live game (the one with the most moves).
    await viewer.goto(`${BASE}/tv`);
    await viewer.waitForSelector('.tv-game [data-testid="move-list"] button.move');
    assert.ok(await viewer.locator('.tv-game .cb-board').count(), 'TV shows a board');
    await screenshot(viewer, 'tv');

    await playLine(white, black, [['d1', 'h5'], ['g8', 'f6'], ['h5', 'f7']], 4);
    for (const p of [white, black]) assert.match(await resultText(p), /1-0 White wins by checkmate/);
    // The rating change shows on the board as the game ends: up for the winner, down for the loser.
    await white.waitForSelector('[data-testid="rating-diff-white"]');
    assert.match(await white.locator('[data-testid="rating-diff-white"]').innerText(), /^\+\d+$/);
    assert.match(await white.locator('[data-testid="rating-diff-black"]').innerText(), /^-\d+$/);

    // The profile: rating history chart, ladder, and the game in the list.
    await a.goto(`${BASE}/@/${aName}`);
    await a.waitForSelector('[data-testid="rating-chart"] svg circle');
    assert.match(await a.locator('[data-testid="tally"]').innerText(), /^(1 wins, 0 losses|0 wins, 1 losses), 0 draws$/);
    assert.match(await a.locator('[data-testid="ladder"]').innerText(), /points/);
    // Each game in the list says how it moved the rating.
    assert.match(await a.locator('.games-table [data-testid="rating-diff"]').first().innerText(), /^[+-]\d+$/);
    // Filtered to draws, the list is empty; to rapid games, the game is back.
    await a.selectOption('[data-filter="result"]', 'draw');
    await a.waitForSelector('[data-testid="games-list"]:has-text("No games yet")');
    await a.selectOption('[data-filter="result"]', '');
    await a.selectOption('[data-filter="speed"]', 'rapid');
    await a.waitForSelector(`.games-table a[href="${path}"]`);
    // The opponent's name leads to the opponent; the date to the game.
    assert.equal(await a.locator(`.games-table a[href="/@/${bName}"]`).count(), 1);
    await screenshot(a, 'profile');

    // The game from the list opens as a replay that steps with the arrow keys.
    await a.click(`.games-table a[href="${path}"]`);
    await a.waitForURL(`${BASE}${path}`);
    await a.waitForSelector('.replay-head [data-testid="result"]:has-text("White wins by checkmate")');
    const current = () => a.locator('[data-testid="move-list"] .move.current').innerText();
    assert.equal(await current(), 'Qxf7#');
    await a.keyboard.press('ArrowLeft');
    await a.keyboard.press('ArrowLeft');
    assert.equal(await current(), 'Qh5');
    await a.keyboard.press('Home');
    assert.equal(await a.locator('[data-testid="move-list"] .move.current').count(), 0);
    await a.keyboard.press('End');
    assert.equal(await current(), 'Qxf7#');
    await screenshot(a, 'replay');
    assert.deepEqual(noProblems(t, a, b, viewer), []);
  } finally {
    await browser.close();
  }
});
