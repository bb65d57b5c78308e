// The open seeks list (one creates a seek, the other accepts it from the
// list) and a takeback accepted.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, myColor, newPage, noProblems, playLine, register, waitForPlies } from '../lib/helpers.mjs';

test('a seek created with the form, accepted from the list; a takeback', { timeout: 120_000 }, async (t) => {
  const browser = await launch();
  try {
    const a = await newPage(browser);
    const b = await newPage(browser);
    const aName = await register(a);
    await register(b);
    await a.goto(`${BASE}/`);
    await a.fill('#cg-time', '7');
    await a.fill('#cg-increment', '2');
    await a.click('[data-testid="create-form"] button[type="submit"]');
    await a.waitForSelector('[data-testid="seeking"]');
    await b.goto(`${BASE}/`);
    const row = b.locator(`.seeks-table tr:has-text("${aName}") button[data-accept-seek]`);
    await row.waitFor({ timeout: 10_000 });
    await row.click();
    await a.waitForURL(/\/game\/\w+/);
    await b.waitForURL(/\/game\/\w+/);
    assert.equal(new URL(a.url()).pathname, new URL(b.url()).pathname);
    await a.waitForSelector('.player-bar.bottom .color-dot');
    await b.waitForSelector('.player-bar.bottom .color-dot');
    const white = (await myColor(a)) === 'white' ? a : b;
    const black = white === a ? b : a;

    await playLine(white, black, [['e2', 'e4'], ['e7', 'e5'], ['g1', 'f3']]);
    await white.click('[data-action="takeback"]');
    await white.waitForSelector('[data-action="takeback"]:has-text("Takeback proposed")');
    const offer = black.locator('[data-testid="takeback-offer"]');
    await offer.waitFor();
    await offer.locator('button:has-text("Accept")').click();
    await white.waitForFunction(() => document.querySelectorAll('[data-testid="move-list"] button.move').length === 2);
    await waitForPlies(black, 2);
    assert.deepEqual(noProblems(t, a, b), []);
  } finally {
    await browser.close();
  }
});

test('the lobby, the watch list and TV hear of seeks and games as they come, without asking again', { timeout: 120_000 }, async (t) => {
  const browser = await launch();
  try {
    const a = await newPage(browser);
    const b = await newPage(browser);
    const tv = await newPage(browser);
    const watcher = await newPage(browser);
    const aName = await register(a);
    await register(b);
    // B's lobby, the watch list and TV are open before anything happens.
    const asked = [];
    for (const page of [b, watcher, tv]) {
      page.on('request', (request) => {
        if (request.method() === 'GET' && /\/api\/(lobby\/seeks|games\/live|pools|tv)\b/.test(request.url())) asked.push(request.url());
      });
    }
    await b.goto(`${BASE}/`);
    await watcher.goto(`${BASE}/watch`);
    await tv.goto(`${BASE}/tv`);
    // With nothing live TV says so (earlier tests may have left a game going).
    await tv.waitForSelector('[data-testid="tv-empty"], .tv-game .cb-board');
    const tvWasEmpty = await tv.locator('[data-testid="tv-empty"]').count() === 1;
    await b.waitForSelector('.seek-list');
    const askedAtFirst = asked.length;
    // A's seek shows up in B's list, pushed.
    await a.goto(`${BASE}/`);
    await a.fill('#cg-time', '7');
    await a.fill('#cg-increment', '2');
    await a.click('[data-testid="create-form"] button[type="submit"]');
    const row = b.locator(`.seeks-table tr:has-text("${aName}") button[data-accept-seek]`);
    await row.waitFor({ timeout: 10_000 });
    await row.click();
    await a.waitForURL(/\/game\/\w+/);
    const path = new URL(a.url()).pathname;
    // The new game reaches the watch list, and TV moves to it.
    await watcher.waitForSelector(`a.live-card[href="${path}"]`, { timeout: 10_000 });
    if (tvWasEmpty) await tv.waitForSelector('.tv-game .cb-board', { timeout: 10_000 });
    // Only TV asked once more, for the game to follow; nothing polled.
    const since = asked.slice(askedAtFirst);
    assert.ok(since.every((url) => /\/api\/tv\b/.test(url)) && since.length <= 2, since.join('\n'));
    assert.deepEqual(noProblems(t, a, b, tv, watcher), []);
  } finally {
    await browser.close();
  }
});
