// A pawn promotes through the board's picker (to a knight, to be sure the choice counts).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { drag, launch, newPage, noProblems, pairByPool, playLine, register, waitForPlies } from '../lib/helpers.mjs';

test('promotion through the picker', { timeout: 120_000 }, async (t) => {
  const browser = await launch();
  try {
    const a = await newPage(browser);
    const b = await newPage(browser);
    await register(a);
    await register(b);
    const { white, black } = await pairByPool(a, b, '5+3');
    // 1. h4 g5 2. hxg5 h6 3. gxh6 Bg7 4. hxg7 Nf6 5. gxh8=N
    await playLine(white, black, [
      ['h2', 'h4'], ['g7', 'g5'], ['h4', 'g5'], ['h7', 'h6'], ['g5', 'h6'], ['f8', 'g7'], ['h6', 'g7'], ['g8', 'f6'],
    ]);
    await waitForPlies(white, 8);
    await white.waitForFunction(() => /Your turn/.test(document.querySelector('[data-testid="game-status"]')?.textContent || ''));
    await drag(white, 'g7', 'h8');
    const knight = white.locator('.cb-promo-choice[data-role="knight"]');
    await knight.waitFor();
    await knight.click();
    await waitForPlies(black, 9);
    const last = await black.locator('[data-testid="move-list"] button.move').last().innerText();
    assert.equal(last, 'gxh8=N');
    const label = await black.locator('[data-square="h8"]').getAttribute('aria-label');
    assert.match(label, /white knight/);
    assert.deepEqual(noProblems(t, a, b), []);
  } finally {
    await browser.close();
  }
});
