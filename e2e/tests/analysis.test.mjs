// The analysis board: PGN import, stepping, moves by dragging, FEN setup
// (with its error in words) and PGN export.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { BASE, drag, launch, newPage, noProblems, screenshot } from '../lib/helpers.mjs';

const PGN = `[Event "Test"]
[White "Anderssen"]
[Black "Kieseritzky"]
[Result "*"]

1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 4. Kf1 *`;

test('analysis: import, step, play, set up, export', { timeout: 60_000 }, async (t) => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await page.goto(`${BASE}/analysis`);
    await page.fill('#pgn-input', PGN);
    await page.click('form:has(#pgn-input) button[type="submit"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="move-list"] button.move').length === 7);
    const current = () => page.locator('[data-testid="move-list"] .move.current').innerText();
    assert.equal(await current(), 'Kf1');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await current(), 'Qh4+');
    await page.keyboard.press('ArrowRight');
    // Black to move after Kf1: play a move by dragging; it extends the line.
    await drag(page, 'b7', 'b5');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="move-list"] button.move').length === 8);
    assert.equal(await current(), 'b5');
    await screenshot(page, 'analysis');

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-action="export-pgn"]')]);
    const text = readFileSync(await download.path(), 'utf8');
    assert.match(text, /\[White "Anderssen"\]/);
    assert.match(text, /1\. e4 e5 2\. f4 exf4 3\. Bc4 Qh4\+ 4\. Kf1 b5/);

    // A bad FEN is refused in words; a good one is set up.
    await page.click('summary:has-text("Set up a position")');
    await page.fill('#fen-input', 'not a fen');
    await page.click('form:has(#fen-input) button[type="submit"]');
    await page.waitForSelector('#fen-error:has-text("This FEN is not valid")');
    await page.fill('#fen-input', '8/8/8/4k3/8/8/4P3/4K3 w - - 0 1');
    await page.click('form:has(#fen-input) button[type="submit"]');
    await page.waitForFunction(() => document.querySelector('#fen-output')?.value.startsWith('8/8/8/4k3/8/8/4P3/4K3 w'));
    assert.match(await page.locator('[data-square="e2"]').getAttribute('aria-label'), /white pawn/);
    assert.deepEqual(noProblems(t, page), []);
  } finally {
    await browser.close();
  }
});
