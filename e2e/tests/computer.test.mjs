// A game against the computer (level 1), as a guest.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, drag, launch, newPage, noProblems, screenshot, waitForPlies } from '../lib/helpers.mjs';

test('play the computer at level 1, typing a move in SAN', { timeout: 90_000 }, async (t) => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await page.goto(`${BASE}/`);
    // Each level says how strong it plays, weakest first (once the page is drawn).
    await page.waitForSelector('input[name="ai-level"]');
    const labels = await page.$$eval('input[name="ai-level"]', (inputs) => inputs.map((i) => i.getAttribute('aria-label')));
    assert.equal(labels.length, 8);
    const elos = labels.map((label, i) => {
      const m = /^Level (\d), about (\d+) Elo$/.exec(label);
      assert.ok(m && Number(m[1]) === i + 1, label);
      return Number(m[2]);
    });
    assert.ok(elos.every((elo, i) => i === 0 || elo > elos[i - 1]), elos.join(' '));
    await page.check('input[name="ai-color"][value="white"]');
    await page.click('[data-testid="play-ai"]');
    await page.waitForURL(/\/game\/\w+/);
    await page.waitForSelector('[data-testid="game-status"]:has-text("Your turn")');
    assert.match(await page.locator('.player-bar.top .player-name').innerText(), /Caissa-AI/);
    // Its level and strength are on the board, not a rating: the strength the lobby gave it.
    assert.equal(await page.locator('[data-testid="ai-level-black"]').innerText(), `Level 1 · about ${elos[0]}`);
    await drag(page, 'e2', 'e4');
    await waitForPlies(page, 2, 20_000);
    await page.waitForSelector('[data-testid="game-status"]:has-text("Your turn")');
    // The second move is typed in SAN (the accessible way to move); a bad one is refused in words.
    await page.fill('#san-input', 'Ke5');
    await page.press('#san-input', 'Enter');
    await page.waitForSelector('#san-error:has-text("Cannot play")');
    await page.fill('#san-input', 'd4');
    await page.press('#san-input', 'Enter');
    await waitForPlies(page, 4, 20_000);
    await page.waitForFunction(() => /^(White|Black): /.test(document.getElementById('announcer')?.textContent || ''));
    const sans = await page.locator('[data-testid="move-list"] button.move').allInnerTexts();
    assert.equal(sans[0], 'e4');
    assert.equal(sans[2], 'd4');
    await screenshot(page, 'game-computer');
    // At level 1 the computer grants a takeback: our move and its reply go back.
    await page.waitForSelector('[data-testid="game-status"]:has-text("Your turn")');
    await page.click('[data-action="takeback"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="move-list"] button.move').length === 2);
    await page.goto(`${BASE}/`);
    await page.waitForSelector('.my-games a');
    assert.match(await page.locator('.my-games').innerText(), /Caissa-AI/);
    assert.deepEqual(noProblems(t, page), []);
  } finally {
    await browser.close();
  }
});
