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
