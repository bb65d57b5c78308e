// A premove: made while the opponent is to move, shown on the board, and
// played by itself as soon as the opponent's move arrives.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drag, launch, newPage, noProblems, pairByPool, playLine, register, waitForPlies } from '../lib/helpers.mjs';

test('a premove is played as soon as the opponent moves', { timeout: 120_000 }, async (t) => {
  const browser = await launch();
  try {
    const a = await newPage(browser);
    const b = await newPage(browser);
    await register(a);
    await register(b);
    const { white, black } = await pairByPool(a, b, '3+0');
    await playLine(white, black, [['e2', 'e4']]);
    // Black to move; White queues Nf3.
    await white.waitForSelector('[data-testid="game-status"]:has-text("Waiting for your opponent")');
    await drag(white, 'g1', 'f3');
    await white.waitForSelector('[data-square="g1"].cb-premove');
    await white.waitForSelector('[data-square="f3"].cb-premove');
    assert.match(await white.locator('[data-square="f3"]').getAttribute('aria-label'), /premove/);
    assert.equal(await white.locator('[data-testid="move-list"] button.move').count(), 1, 'the premove is not sent yet');
    // Black answers; the premove goes at once, without White touching anything.
    await waitForPlies(black, 1);
    await black.waitForSelector('[data-testid="game-status"]:has-text("Your turn")');
    await drag(black, 'e7', 'e5');
    for (const p of [white, black]) await waitForPlies(p, 3, 5_000);
    for (const p of [white, black]) {
      assert.deepEqual(await p.locator('[data-testid="move-list"] button.move').allInnerTexts(), ['e4', 'e5', 'Nf3']);
    }
    assert.equal(await white.locator('.cb-premove').count(), 0, 'the premove marks are gone');
    assert.match(await white.locator('[data-square="f3"]').getAttribute('aria-label'), /white knight/);
    await black.waitForSelector('[data-testid="game-status"]:has-text("Your turn")');
    assert.deepEqual(noProblems(t, a, b), []);
  } finally {
    await browser.close();
  }
});
