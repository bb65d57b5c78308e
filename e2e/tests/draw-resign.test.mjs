// A draw offer accepted; a resignation; a rematch after it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launch, newPage, noProblems, pairByPool, playLine, register, resultText } from '../lib/helpers.mjs';

const OPENING = [['e2', 'e4'], ['e7', 'e5'], ['g1', 'f3'], ['b8', 'c6']];

test('draw offer accepted', { timeout: 120_000 }, async (t) => {
  const browser = await launch();
  try {
    const a = await newPage(browser);
    const b = await newPage(browser);
    await register(a);
    await register(b);
    const { white, black } = await pairByPool(a, b, '10+0');
    await playLine(white, black, OPENING);
    await white.click('[data-action="draw"]');
    await white.waitForSelector('[data-action="draw"]:has-text("Draw offer sent")');
    const offer = black.locator('[data-testid="draw-offer"]');
    await offer.waitFor();
    assert.match(await offer.innerText(), /White offers a draw/);
    await offer.locator('button:has-text("Accept")').click();
    for (const p of [white, black]) assert.match(await resultText(p), /1\/2-1\/2 Draw by agreement/);
    assert.deepEqual(noProblems(t, a, b), []);
  } finally {
    await browser.close();
  }
});

test('resignation, then a rematch', { timeout: 120_000 }, async (t) => {
  const browser = await launch();
  try {
    const a = await newPage(browser);
    const b = await newPage(browser);
    await register(a);
    await register(b);
    const { white, black, path } = await pairByPool(a, b, '10+5');
    await playLine(white, black, OPENING);
    const resign = black.locator('[data-action="resign"]');
    await resign.click();
    await black.waitForSelector('[data-action="resign"]:has-text("Really resign?")');
    await resign.click();
    for (const p of [white, black]) assert.match(await resultText(p), /1-0 White wins — Black resigned/);

    // Rematch: one offers, the other accepts, both land in a new game.
    await white.click('[data-action="rematch"]');
    await white.waitForSelector('[data-action="rematch"]:has-text("Rematch offered")');
    const accept = black.locator('[data-testid="rematch-offer"] button:has-text("Accept"), .notification button:has-text("Accept")').first();
    await accept.waitFor();
    await accept.click();
    await white.waitForURL((url) => /\/game\/\w+/.test(url.pathname) && url.pathname !== path);
    await black.waitForURL((url) => /\/game\/\w+/.test(url.pathname) && url.pathname !== path);
    assert.equal(new URL(white.url()).pathname, new URL(black.url()).pathname);
    assert.deepEqual(noProblems(t, a, b), []);
  } finally {
    await browser.close();
  }
});
