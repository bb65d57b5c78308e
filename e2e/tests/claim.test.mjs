// A draw claimed by the player under the FIDE Laws (9.2): the game is made with
// the "create a game" form under fide-standard, where threefold repetition is
// claimed rather than automatic. The claim button appears only once the
// position has occurred three times, then ends the game for both players.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, myColor, newPage, noProblems, playLine, register, resultText, waitForPlies } from '../lib/helpers.mjs';

const CLAIM = '[data-action="claim-threefold_repetition"]';
const KNIGHTS = [['g1', 'f3'], ['g8', 'f6'], ['f3', 'g1'], ['f6', 'g8']];

/** The game's state as the server sends it on the game socket. */
function serverState(page, id) {
  return page.evaluate((gameId) => new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://${location.host}/api/socket/game/${encodeURIComponent(gameId)}`);
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.t === 'full') {
        ws.close();
        resolve(msg.state);
      }
    };
    ws.onerror = () => reject(new Error('socket error'));
  }), id);
}

test('threefold repetition claimed with the claim button (fide-standard)', { timeout: 120_000 }, async (t) => {
  const browser = await launch();
  try {
    const a = await newPage(browser);
    const b = await newPage(browser);
    await register(a);
    const bName = await register(b);
    await a.goto(`${BASE}/`);
    await a.fill('#cg-time', '10');
    await a.fill('#cg-increment', '0');
    await a.selectOption('#cg-ruleset', 'fide-standard');
    await a.fill('#cg-opponent', bName);
    await a.click('[data-testid="create-form"] button[type="submit"]');
    const accept = b.locator('.notification button:has-text("Accept")');
    await accept.waitFor();
    await accept.click();
    await a.waitForURL(/\/game\/\w+/);
    await b.waitForURL(/\/game\/\w+/);
    const id = new URL(a.url()).pathname.split('/').pop();
    await a.waitForSelector('.player-bar.bottom .color-dot');
    await b.waitForSelector('.player-bar.bottom .color-dot');
    const white = (await myColor(a)) === 'white' ? a : b;
    const black = white === a ? b : a;
    assert.match(await white.locator('.game-info').innerText(), /FIDE standard/);

    // Nf3 Nf6 Ng1 Ng8: the start position for the second time; no claim yet.
    await playLine(white, black, KNIGHTS);
    await waitForPlies(white, 4);
    assert.deepEqual((await serverState(white, id)).claims, []);
    assert.equal(await white.locator(CLAIM).count(), 0, 'no claim button while there is nothing to claim');
    // Nf3 Nf6 Ng1: still nothing to claim, for either side.
    await playLine(white, black, KNIGHTS.slice(0, 3), 4);
    for (const p of [white, black]) assert.equal(await p.locator(CLAIM).count(), 0);
    // Ng8: the start position a third time, White to move: White may claim.
    await playLine(white, black, KNIGHTS.slice(3), 7);
    await waitForPlies(white, 8);
    assert.deepEqual((await serverState(white, id)).claims, ['threefold_repetition']);
    await white.waitForSelector(`${CLAIM}:enabled`);
    assert.equal(await black.locator(CLAIM).count(), 0, 'only the side to move can claim');
    await white.click(CLAIM);
    for (const p of [white, black]) assert.match(await resultText(p), /1\/2-1\/2 Draw by threefold repetition/);
    assert.deepEqual(noProblems(t, a, b), []);
  } finally {
    await browser.close();
  }
});
