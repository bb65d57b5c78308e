// A flag falls. The game is made through the "create a game" form as a direct
// challenge with the seed's fast mode (a 3-second limit per move), so the flag
// falls within seconds rather than after a full minute.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, myColor, newPage, noProblems, playLine, register, resultText } from '../lib/helpers.mjs';

test('flag fall', { timeout: 120_000 }, async (t) => {
  const browser = await launch();
  try {
    const a = await newPage(browser);
    const b = await newPage(browser);
    await register(a);
    const bName = await register(b);
    await a.goto(`${BASE}/`);
    await a.selectOption('#cg-mode', 'fast');
    await a.fill('#cg-time', '1');
    await a.fill('#cg-increment', '0');
    await a.fill('#cg-perMove', '3');
    await a.fill('#cg-opponent', bName);
    await a.click('[data-testid="create-form"] button[type="submit"]');
    const accept = b.locator('.notification button:has-text("Accept")');
    await accept.waitFor();
    await accept.click();
    await a.waitForURL(/\/game\/\w+/);
    await b.waitForURL(/\/game\/\w+/);
    await a.waitForSelector('.player-bar.bottom .color-dot');
    await b.waitForSelector('.player-bar.bottom .color-dot');
    const white = (await myColor(a)) === 'white' ? a : b;
    const black = white === a ? b : a;
    await playLine(white, black, [['e2', 'e4'], ['e7', 'e5']]);
    // White's clock runs with its per-move limit shown; White does not move.
    await white.waitForSelector('.clock-white.running');
    const text = await resultText(black, 30_000);
    assert.match(text, /0-1 Black wins — White's flag fell/);
    assert.match(await resultText(white), /White's flag fell/);
    assert.deepEqual(noProblems(t, a, b), []);
  } finally {
    await browser.close();
  }
});
