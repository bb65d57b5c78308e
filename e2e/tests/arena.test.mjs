// An arena from the browser: an organiser creates one with berserk allowed,
// two players join and are taken to their game, White goes berserk (both
// boards show it, the clock halves), a spectator follows the arena's top board
// on its TV, Black pauses and resigns, and the spectator's arena page shows the
// winner's sheet and points, and Black paused, without reloading.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, myColor, newPage, noProblems, playLine, register, resultText, screenshot } from '../lib/helpers.mjs';

test('create an arena, join, go berserk, watch the top board, see the sheet', { timeout: 150_000 }, async (t) => {
  const browser = await launch();
  try {
    const a = await newPage(browser);
    const b = await newPage(browser);
    const watcher = await newPage(browser);
    const nameA = await register(a);
    const nameB = await register(b);

    // The form shows an arena's fields (its length, berserk) and names a wrong one.
    await a.goto(`${BASE}/tournaments`);
    await a.fill('#tc-name', 'Browser Arena');
    await a.selectOption('#tc-system', 'arena');
    assert.equal(await a.locator('[data-field="duration"]').isVisible(), true);
    assert.equal(await a.locator('[data-field="rounds"]').isVisible(), false);
    await a.fill('#tc-duration', '0');
    await a.click('[data-action="create-tournament"]');
    await a.waitForSelector('.tournament-create .field-error:has-text("Length")');
    await a.fill('#tc-duration', '20');
    await a.fill('#tc-minutes', '3');
    await a.fill('#tc-increment', '2');
    await a.fill('#tc-startsIn', '0');
    await a.click('[data-action="create-tournament"]');
    await a.waitForURL(/\/tournament\/\w+/);
    const path = new URL(a.url()).pathname;
    await a.waitForSelector('h1:has-text("Browser Arena")');
    await a.waitForSelector('[data-testid="status"]:has-text("Playing")');
    assert.match(await a.locator('.tournament-facts').innerText(), /Arena.*20 min.*Berserk allowed/);

    // Both join the arena being played, and are paired and taken to the game.
    await a.click('[data-action="join"]');
    await a.waitForSelector(`[data-testid="standings"] [data-player="${nameA}"]`);
    await b.goto(`${BASE}${path}`);
    await b.click('[data-action="join"]');
    await a.waitForURL(/\/game\/\w+/);
    await b.waitForURL(/\/game\/\w+/);
    assert.equal(new URL(a.url()).pathname, new URL(b.url()).pathname);
    await a.waitForSelector('.player-bar.bottom .color-dot');
    await b.waitForSelector('.player-bar.bottom .color-dot');
    const white = (await myColor(a)) === 'white' ? a : b;
    const black = white === a ? b : a;
    const winner = white === a ? nameA : nameB;

    // White goes berserk: 3 min becomes 1:30, and both boards show the bolt.
    await white.click('[data-action="berserk"]');
    await white.waitForSelector('.player-bar.bottom [data-testid="berserk-white"]');
    await black.waitForSelector('.player-bar.top [data-testid="berserk-white"]');
    assert.equal(await white.locator('[data-action="berserk"]').count(), 0);
    assert.match(await white.locator('.player-bar.bottom .clock-time').innerText(), /^1:(30|29|28)/);

    // The spectator opens the arena's TV from its page: it shows this game.
    await watcher.goto(`${BASE}${path}`);
    await watcher.click('[data-action="top-board"]');
    await watcher.waitForURL(/\/tv$/);
    await watcher.waitForSelector('[data-testid="tv-tournament"]');
    await watcher.waitForSelector(`.player-name:has-text("${winner}")`);

    await playLine(white, black, [['e2', 'e4'], ['e7', 'e5']]);
    // Black pauses (as the arena page's button does) so that the two are not
    // paired again at once, then resigns.
    const paused = await black.evaluate(async (p) => {
      const { api } = await import('/static/js/api.js');
      return api(`/api${p}/withdraw`, { method: 'POST' }).then((r) => r.ok);
    }, path);
    assert.equal(paused, true);
    const resign = black.locator('[data-action="resign"]');
    await resign.click();
    await black.waitForSelector('[data-action="resign"]:has-text("Really resign?")');
    await resign.click();
    assert.match(await resultText(white), /1-0/);

    // Back on the arena's page (never reloaded after): a win is 2 points; a
    // berserk win of fewer than 7 moves earns nothing more.
    await watcher.click('[data-testid="tv-tournament"]');
    await watcher.waitForFunction((p) => location.pathname === p, path);
    const top = watcher.locator('[data-testid="standings"] tbody tr').first();
    await watcher.waitForFunction((name) => document.querySelector('[data-testid="standings"] tbody tr')?.dataset.player === name, winner, { timeout: 20_000 });
    assert.equal(await top.locator('td.points').innerText(), '2');
    assert.equal(await top.locator('td.sheet').innerText(), '2');
    const loser = white === a ? nameB : nameA;
    assert.match(await watcher.locator(`[data-testid="standings"] [data-player="${loser}"]`).innerText(), /paused/);
    await screenshot(watcher, 'arena-standings');
    assert.deepEqual(noProblems(t, a, b, watcher), []);
  } finally {
    await browser.close();
  }
});
