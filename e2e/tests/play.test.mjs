// Two players pair through quick pairing and play fool's mate by dragging
// pieces; a third browser watches the game live and sees every move and the result.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE, drag, launch, myColor, newPage, noProblems, register, screenshot, waitForPlies,
} from '../lib/helpers.mjs';

const moveCount = (page) => page.locator('[data-testid="move-list"] button.move').count();

test('pair by quick pairing, play fool\'s mate by dragging, watched live', { timeout: 120_000 }, async (t) => {
  const browser = await launch();
  try {
    const a = await newPage(browser);
    const b = await newPage(browser);
    const watcher = await newPage(browser);
    await register(a);
    await register(b);
    await screenshot(a, 'lobby');

    await a.click('[data-pool="3+2"]');
    await a.waitForSelector('[data-testid="seeking"]');
    await b.click('[data-pool="3+2"]');
    await a.waitForURL(/\/game\/\w+/);
    await b.waitForURL(/\/game\/\w+/);
    assert.equal(new URL(a.url()).pathname, new URL(b.url()).pathname, 'both players are in the same game');
    const gamePath = new URL(a.url()).pathname;

    // The spectator finds the game in the list of live games.
    await watcher.goto(`${BASE}/watch`);
    const card = watcher.locator(`a.live-card[href="${gamePath}"]`);
    await card.waitFor();
    await screenshot(watcher, 'watch');
    await card.click();
    await watcher.waitForURL(`${BASE}${gamePath}`);
    await watcher.waitForSelector('[data-testid="move-list"]');

    const white = (await myColor(a)) === 'white' ? a : b;
    const black = white === a ? b : a;
    assert.equal(await myColor(black), 'black');
    await white.waitForSelector('[data-square="f2"]');

    const moves = [[white, 'f2', 'f3'], [black, 'e7', 'e5'], [white, 'g2', 'g4'], [black, 'd8', 'h4']];
    for (let i = 0; i < moves.length; i++) {
      const [page, from, to] = moves[i];
      await waitForPlies(page, i);
      await page.waitForFunction(() => /Your turn/.test(document.querySelector('[data-testid="game-status"]')?.textContent || ''));
      await drag(page, from, to);
      for (const p of [white, black, watcher]) await waitForPlies(p, i + 1);
      assert.equal(await moveCount(watcher), i + 1, `the spectator sees move ${i + 1}`);
    }
    for (const p of [white, black, watcher]) {
      const result = p.locator('[data-testid="result"]');
      await result.waitFor();
      assert.match(await result.innerText(), /Black wins by checkmate/);
    }
    const sans = await watcher.locator('[data-testid="move-list"] button.move').allInnerTexts();
    assert.deepEqual(sans, ['f3', 'e5', 'g4', 'Qh4#']);
    // The opening is named by the last named position the game reached.
    await watcher.waitForSelector('[data-testid="opening"]:has-text("A00 · Barnes Opening")');
    await screenshot(white, 'game');
    assert.deepEqual(noProblems(t, a, b, watcher), []);
  } finally {
    await browser.close();
  }
});
