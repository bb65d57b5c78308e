// A tournament from the browser: an organiser creates a one-round Swiss, two
// players join, the round starts and takes both to their game, one resigns, and
// a spectator's page (in Simplified Chinese) sees the standings move without
// reloading.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, myColor, newPage, noProblems, playLine, register, resultText, screenshot } from '../lib/helpers.mjs';

test('create a Swiss, join, play its round, see the standings move', { timeout: 150_000 }, async (t) => {
  const browser = await launch();
  try {
    const a = await newPage(browser);
    const b = await newPage(browser);
    const watcher = await newPage(browser, { lang: 'zh-Hans' });
    const nameA = await register(a);
    const nameB = await register(b);

    // The organiser's form; a wrong field is named before anything is sent.
    await a.goto(`${BASE}/tournaments`);
    await a.fill('#tc-name', 'Browser Swiss');
    await a.fill('#tc-rounds', '0');
    await a.click('[data-action="create-tournament"]');
    await a.waitForSelector('.tournament-create .field-error:has-text("Rounds")');
    await a.fill('#tc-rounds', '1');
    await a.fill('#tc-minutes', '5');
    await a.fill('#tc-increment', '0');
    await a.fill('#tc-startsIn', '60');
    await a.click('[data-action="create-tournament"]');
    await a.waitForURL(/\/tournament\/\w+/);
    const path = new URL(a.url()).pathname;
    await a.waitForSelector('h1:has-text("Browser Swiss")');
    assert.match(await a.locator('[data-testid="status"]').innerText(), /Not started/);
    assert.match(await a.locator('[data-testid="countdown"]').innerText(), /^in (59:\d\d|1:00:00)$/);

    // Both join; the organiser's list shows the tournament as upcoming.
    await a.click('[data-action="join"]');
    await a.waitForSelector(`[data-testid="standings"] [data-player="${nameA}"]`);
    await b.goto(`${BASE}${path}`);
    await b.click('[data-action="join"]');
    await b.waitForSelector(`[data-testid="standings"] [data-player="${nameB}"]`);
    await watcher.goto(`${BASE}${path}`);
    await watcher.waitForSelector('h2:has-text("排名")');
    await watcher.waitForSelector(`[data-testid="standings"] [data-player="${nameB}"]`);
    await b.goto(`${BASE}/tournaments`);
    await b.waitForSelector('[data-status="created"] a:has-text("Browser Swiss")');
    await b.click('[data-status="created"] a:has-text("Browser Swiss")');
    await b.waitForFunction((p) => location.pathname === p, path);
    await b.waitForSelector(`[data-testid="standings"] [data-player="${nameA}"]`);

    // The organiser starts it: the round is paired and both are taken to the game.
    await a.click('[data-action="start-now"]');
    await a.waitForURL(/\/game\/\w+/);
    await b.waitForURL(/\/game\/\w+/);
    assert.equal(new URL(a.url()).pathname, new URL(b.url()).pathname);
    await watcher.waitForSelector('[data-testid="status"]:has-text("进行中")');
    await a.waitForSelector('.player-bar.bottom .color-dot');
    await b.waitForSelector('.player-bar.bottom .color-dot');
    const white = (await myColor(a)) === 'white' ? a : b;
    const black = white === a ? b : a;
    const winner = white === a ? nameA : nameB;
    await playLine(white, black, [['e2', 'e4'], ['e7', 'e5']]);
    const resign = black.locator('[data-action="resign"]');
    await resign.click();
    await black.waitForSelector('[data-action="resign"]:has-text("Really resign?")');
    await resign.click();
    assert.match(await resultText(white), /1-0/);

    // The spectator's page, never reloaded, shows the result and the final standings.
    await watcher.waitForSelector('[data-testid="status"]:has-text("已结束")', { timeout: 20_000 });
    const top = watcher.locator('[data-testid="standings"] tbody tr').first();
    assert.equal(await top.getAttribute('data-player'), winner);
    assert.equal(await top.locator('td.points').innerText(), '1');
    assert.match(await watcher.locator('.pairings-table').innerText(), /1-0/);
    assert.match(await watcher.locator('[data-testid="crosstable"]').innerText(), /\dw1/);
    await screenshot(watcher, 'tournament-finished-zh-Hans');
    assert.deepEqual(noProblems(t, a, b, watcher), []);
  } finally {
    await browser.close();
  }
});
