// The analysis board's move tree: a PGN with nested variations, comments and
// NAGs read in and exported unchanged; a different move starts a variation
// (the game is never cut); promote and delete; annotate a move; pick one game
// of a PGN of several.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { BASE, drag, launch, newPage, noProblems, screenshot, squareCentre } from '../lib/helpers.mjs';

const ANNOTATED = `[Event "Annotated"]
[White "Morphy"]
[Black "Duke"]
[Result "1-0"]

{A study} 1. e4 e5 2. Nf3 $1 (2. Bc4 {Bishop's opening} Nf6 (2... Bc5 3. Qh5 $2) 3. d3) 2... d6 3. d4 Bg4 {[%cal Gd4e5]} (3... exd4 $14 4. Nxd4) 4. dxe5 1-0

[Event "Second"]
[White "Anna"]
[Black "Bea"]
[Result "*"]

1. d4 d5 2. c4 *

[Event "Broken"]
[White "X"]
[Black "Y"]

1. e4 e5 2. Ke3 *
`;

/** Draws with the right button from one square to another (the same square: a circle). */
async function draw(page, from, to, modifier) {
  const a = await squareCentre(page, from);
  const b = await squareCentre(page, to);
  if (modifier) await page.keyboard.down(modifier);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down({ button: 'right' });
  await page.mouse.move(b.x, b.y, { steps: 5 });
  await page.mouse.up({ button: 'right' });
  if (modifier) await page.keyboard.up(modifier);
}

const moves = (page) => page.locator('[data-testid="move-list"] button.move').allInnerTexts();
const current = (page) => page.locator('[data-testid="move-list"] .move.current').innerText();

async function exported(page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-action="export-pgn"]')]);
  return readFileSync(await download.path(), 'utf8');
}

test('analysis tree: variations, comments and NAGs round-trip; moves branch, promote, delete', { timeout: 90_000 }, async (t) => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await page.goto(`${BASE}/analysis`);
    await page.fill('#pgn-input', ANNOTATED);
    await page.click('form:has(#pgn-input) button[type="submit"]');
    await page.waitForSelector('[data-testid="move-list"] .variations');
    // 8 mainline moves and 6 in variations, with their comments and glyphs.
    assert.equal((await moves(page)).length, 14);
    const text = await page.locator('[data-testid="move-list"]').innerText();
    for (const part of ["Bishop's opening", 'A study', 'Nf3!', 'Qh5?', 'exd4+/=']) {
      assert.ok(text.replace(/\s+/g, ' ').includes(part) || text.replace(/\s/g, '').includes(part.replace(/\s/g, '')), `${part} in ${text}`);
    }
    // The game picker lists three games, the broken one disabled with why.
    const options = await page.locator('[data-testid="pgn-game"] option').allInnerTexts();
    assert.equal(options.length, 3);
    assert.match(options[2], /Ke3/);
    assert.equal(await page.locator('[data-testid="pgn-game"] option').nth(2).isDisabled(), true);

    // Exported unchanged: every variation, comment, NAG and arrow.
    const pgn = await exported(page);
    for (const part of ['{A study}', '2. Nf3 $1', "(2. Bc4 {Bishop's opening} 2... Nf6 (2... Bc5 3. Qh5 $2) 3. d3)", '{[%cal Gd4e5]}', '(3... exd4 $14 4. Nxd4)', '4. dxe5 1-0']) {
      assert.ok(pgn.replace(/\s+/g, ' ').includes(part), `${part} in\n${pgn}`);
    }

    // A different move at move 2 starts a variation: the game keeps all its moves.
    await page.click('[data-testid="move-list"] button.move[data-san="e5"]');
    assert.equal(await current(page), 'e5');
    await drag(page, 'b1', 'c3');
    await page.waitForFunction(() => document.querySelector('[data-testid="move-list"] .move.current')?.dataset.san === 'Nc3');
    assert.equal((await moves(page)).length, 15);
    await screenshot(page, 'analysis-tree');
    // Promoted, it becomes the mainline; the old mainline stays as a variation.
    await page.click('[data-action="mainline"]');
    await page.waitForFunction(() => !document.querySelector('[data-action="mainline"]'));
    const mainlineText = await page.evaluate(() => [...document.querySelectorAll('.move-tree > .move, .move-tree > button.move')].map((b) => b.dataset.san));
    assert.deepEqual(mainlineText, ['e4', 'e5', 'Nc3']);
    assert.equal((await moves(page)).length, 15);
    // Annotated, then deleted again.
    await page.click('button[data-nag="3"]');
    await page.fill('[data-testid="node-comment"]', 'A quiet try');
    await page.locator('[data-testid="node-comment"]').blur();
    await page.waitForSelector('[data-testid="move-list"] .comment:has-text("A quiet try")');
    // An arrow (green) and a circle (red, with Shift), kept with the move.
    await draw(page, 'd2', 'd4');
    await draw(page, 'e5', 'e5', 'Shift');
    await page.waitForFunction(() => document.querySelectorAll('.cb-shapes [data-shape]:not([data-shape^="engine"])').length === 2);
    assert.ok((await exported(page)).replace(/\s+/g, ' ').includes('2. Nc3 $3 {A quiet try [%csl Re5] [%cal Gd2d4]}'));
    // Drawn again, the arrow goes.
    await draw(page, 'd2', 'd4');
    await page.waitForFunction(() => document.querySelectorAll('.cb-shapes [data-shape]:not([data-shape^="engine"])').length === 1);
    await page.click('[data-action="delete"]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="move-list"] button.move').length === 14);
    assert.equal(await current(page), 'e5');
    assert.ok((await exported(page)).replace(/\s+/g, ' ').includes('2. Nf3 $1 (2. Bc4'));

    // The second game of the file.
    await page.selectOption('[data-testid="pgn-game"]', '1');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="move-list"] button.move').length === 3);
    assert.deepEqual(await moves(page), ['d4', 'd5', 'c4']);
    // The opening is named by the position, and goes into the exported PGN.
    await page.waitForSelector('[data-testid="opening"]:has-text("D06 Queen\'s Gambit")');
    const second = (await exported(page)).replace(/\s+/g, ' ');
    assert.ok(second.includes('[ECO "D06"]') && second.includes('[Opening "Queen\'s Gambit"]'), second);
    assert.deepEqual(noProblems(t, page), []);
  } finally {
    await browser.close();
  }
});

test('board editor: place pieces, choose the side and castling, load; a position without a king is refused in words', { timeout: 60_000 }, async (t) => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await page.goto(`${BASE}/analysis`);
    await page.click('summary:has-text("Set up a position")');
    await page.waitForSelector('[data-testid="board-editor"] .cb-board');
    assert.equal(await page.inputValue('#fen-input'), 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1');
    await page.click('[data-action="editor-clear"]');
    const place = async (tool, square) => {
      await page.click(`[data-tool="${tool}"]`);
      await page.click(`[data-testid="board-editor"] [data-square="${square}"]`);
    };
    await place('white-king', 'e1');
    await place('white-rook', 'h1');
    await place('black-pawn', 'd4');
    await place('eraser', 'd4');
    await page.check('input[name="editor-turn"][value="black"]');
    await page.check('[data-castling="K"]');
    // No black king yet: the rules refuse the position, saying why.
    await page.click('form:has(#fen-input) button[type="submit"]');
    await page.waitForSelector('#fen-error:has-text("This FEN is not valid")');
    await place('black-king', 'e8');
    assert.equal(await page.inputValue('#fen-input'), '4k3/8/8/8/8/8/8/4K2R b K - 0 1');
    await page.click('form:has(#fen-input) button[type="submit"]');
    await page.waitForFunction(() => document.querySelector('#fen-output')?.value === '4k3/8/8/8/8/8/8/4K2R b K - 0 1');
    assert.match(await page.locator('.board-wrap [data-square="h1"]').getAttribute('aria-label'), /white rook/);
    assert.deepEqual(noProblems(t, page), []);
  } finally {
    await browser.close();
  }
});
