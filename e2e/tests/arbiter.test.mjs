// The arbiter's seat in the browser: a challenge with several periods
// (timeControl) and a named arbiter; the arbiter warns, adds time, pauses and
// restarts the clocks, adjourns the game, the player to move seals a move, the
// envelope is opened, and the arbiter scores the game 0-0. The players see every
// decision with its reason as it happens.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, myColor, newPage, noProblems, playLine, register, screenshot } from '../lib/helpers.mjs';

async function arbiterCard(page) {
  const card = page.locator('.arbiter-game').first();
  await card.waitFor();
  return card;
}

/** Types the reason and presses an action's button on the console. */
async function arbitrate(page, action, reason, label) {
  const card = await arbiterCard(page);
  await card.locator('[data-testid="arbiter-reason"]').fill(reason);
  const button = label ? card.locator(`button[data-action="${action}"]:has-text("${label}")`) : card.locator(`button[data-action="${action}"]`);
  await button.first().click();
  await page.waitForSelector('.toast:has-text("Done and recorded.")');
}

test('the arbiter console', { timeout: 150_000 }, async (t) => {
  const browser = await launch();
  try {
    const a = await newPage(browser);
    const b = await newPage(browser);
    const r = await newPage(browser);
    await register(a);
    const bName = await register(b);
    const rName = await register(r);
    await a.goto(`${BASE}/`);
    await a.selectOption('#cg-mode', 'periods');
    await a.fill('#cg-timeControl', '40/600:300');
    await a.selectOption('#cg-ruleset', 'fide-standard');
    await a.fill('#cg-opponent', bName);
    await a.fill('#cg-arbiters', rName);
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
    // Several periods: 40 moves to the first control under each clock.
    await white.waitForSelector('[data-testid="control-white"]:has-text("40 moves")');
    await playLine(white, black, [['e2', 'e4'], ['e7', 'e5']]);

    await r.goto(`${BASE}/arbiter`);
    const card = await arbiterCard(r);
    assert.match(await card.innerText(), /fide-standard · 40\/600:300/);
    await card.locator('[data-testid="arbiter-color"]').selectOption('black');
    await arbitrate(r, 'warn', 'talking during play');
    await white.waitForSelector(`[data-testid="arbiter-notes"] li:has-text("${rName}: warned Black — talking during play")`);
    await black.waitForSelector('[data-testid="arbiter-notes"] li:has-text("warned Black")');

    await arbitrate(r, 'pause', 'clock fault');
    for (const p of [white, black]) await p.waitForSelector('[data-testid="seat-paused"]');
    await arbitrate(r, 'resume', 'clock replaced');
    await white.waitForSelector('[data-testid="arbiter-notes"] li:has-text("restarted the clocks — clock replaced")');

    // Adjourned: White (to move) seals a move instead of playing it.
    await arbitrate(r, 'adjourn', 'end of the session');
    const sealed = white.locator('[data-testid="sealed-move"]');
    await sealed.waitFor();
    await sealed.fill('Nf3');
    await white.click('button[data-action="seal"]');
    for (const p of [white, black]) await p.waitForSelector('[data-testid="seat-adjourned"]:has-text("White has sealed a move")');
    assert.doesNotMatch(await black.locator('[data-testid="move-list"]').innerText(), /Nf3/);
    await screenshot(r, 'arbiter-console');
    await arbitrate(r, 'resume-adjourned', 'next session', 'Open the envelope now');
    await black.waitForSelector('[data-testid="move-list"]:has-text("Nf3")');

    // Both lose: a score PGN cannot write, shown as such.
    await (await arbiterCard(r)).locator('[data-testid="arbiter-result"]').selectOption('0-0');
    await arbitrate(r, 'result', 'both used phones');
    for (const p of [white, black]) await p.waitForSelector('[data-testid="result"]:has-text("0-0")');
    assert.deepEqual(noProblems(t, a, b, r), []);
  } finally {
    await browser.close();
  }
});
