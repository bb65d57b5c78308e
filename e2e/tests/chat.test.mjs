// The players talk beside the board; a spectator reads and writes in the
// spectators' room and never sees the players' lines; after the game the
// players can still say "good game".

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, newPage, noProblems, pairByPool, register, resultText, screenshot } from '../lib/helpers.mjs';

async function say(page, text) {
  await page.fill('#chat-input', text);
  await page.click('.chat-form button[type=submit]');
}

async function linesOf(page) {
  return page.locator('.chat-line').allInnerTexts();
}

test('players and spectators chat in their own rooms', { timeout: 120_000 }, async (t) => {
  const browser = await launch();
  try {
    const a = await newPage(browser);
    const b = await newPage(browser);
    const c = await newPage(browser);
    const nameA = await register(a);
    const nameB = await register(b);
    const nameC = await register(c);
    const { white, black, path } = await pairByPool(a, b, '5+3');
    const [whiteName, blackName] = white === a ? [nameA, nameB] : [nameB, nameA];
    await c.goto(`${BASE}${path}`);
    await c.waitForSelector('.chat-title:has-text("Spectators")');
    await white.waitForSelector('.chat-title:has-text("opponent")');
    // The players see the spectator arrive, without a move being played.
    await white.waitForSelector('[data-testid="watchers"]:has-text("1")');

    await say(white, 'good luck!');
    await black.waitForSelector('.chat-line:has-text("good luck!")');
    await say(c, 'exciting game');
    await c.waitForSelector('.chat-line:has-text("exciting game")');
    await say(black, 'you too');
    await white.waitForSelector('.chat-line:has-text("you too")');
    assert.deepEqual(await linesOf(white), [`${whiteName} good luck!`, `${blackName} you too`]);
    assert.deepEqual(await linesOf(c), [`${nameC} exciting game`]);
    await screenshot(white, 'game-chat');

    // A reload reads the room again from the server.
    await black.reload();
    await black.waitForSelector('.chat-line:has-text("you too")');
    assert.deepEqual(await linesOf(black), [`${whiteName} good luck!`, `${blackName} you too`]);

    // After the game, a last word is still said and kept.
    const resign = black.locator('[data-action="resign"]');
    await resign.click();
    await resign.click();
    assert.match(await resultText(white), /White wins/);
    await say(white, 'gg');
    await white.waitForSelector('.chat-line:has-text("gg")');
    // The opponent's page hears it too, with the socket closed.
    await black.waitForSelector('.chat-line:has-text("gg")', { timeout: 15_000 });
    assert.deepEqual(noProblems(t, a, b, c), []);
  } finally {
    await browser.close();
  }
});
