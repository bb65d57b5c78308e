// A flag falls. First through the "create a game" form as a direct challenge
// with the seed's fast mode (a 3-second limit per move), so the flag falls within
// seconds; then in a real 1+0 bullet game from quick pairing, where White lets
// the whole minute run out.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE, launch, myColor, newPage, noProblems, pairByPool, playLine, register, resultText, screenshot,
} from '../lib/helpers.mjs';

test('flag fall', { timeout: 120_000 }, async (t) => {
  const browser = await launch();
  try {
    const a = await newPage(browser);
    const b = await newPage(browser);
    await register(a);
    const bName = await register(b);
    await a.goto(`${BASE}/`);
    await a.selectOption('#cg-mode', 'fast');
    await a.fill('#cg-time', '1');
    await a.fill('#cg-increment', '0');
    await a.fill('#cg-perMove', '3');
    await a.fill('#cg-opponent', bName);
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
    await playLine(white, black, [['e2', 'e4'], ['e7', 'e5']]);
    // White's clock runs with its per-move limit shown; White does not move.
    await white.waitForSelector('.clock-white.running');
    const text = await resultText(black, 30_000);
    assert.match(text, /0-1 Black wins — White's flag fell/);
    assert.match(await resultText(white), /White's flag fell/);
    assert.deepEqual(noProblems(t, a, b), []);
  } finally {
    await browser.close();
  }
});

/** White's clock as the page shows it: its text and whether it runs, is low, and is red. */
function whiteClock(page) {
  return page.evaluate(() => {
    const el = document.querySelector('.clock-white');
    const time = el.querySelector('.clock-time');
    const red = (color) => {
      const [r, g, b] = (color.match(/\d+/g) || []).map(Number);
      return r > 150 && g < 110 && b < 110;
    };
    return {
      text: time.textContent,
      running: el.classList.contains('running'),
      low: el.classList.contains('low'),
      red: red(getComputedStyle(el).backgroundColor) || red(getComputedStyle(time).color),
      over: !!document.querySelector('[data-testid="result"]'),
    };
  });
}

test('flag fall in a 1+0 game', { timeout: 150_000 }, async (t) => {
  const browser = await launch();
  try {
    const a = await newPage(browser);
    const b = await newPage(browser);
    await register(a);
    await register(b);
    const { white, black } = await pairByPool(a, b, '1+0');
    assert.match(await white.locator('.game-info').innerText(), /1\+0 · Bullet/);
    // Online rules: no clock runs until both sides have made their first move.
    await playLine(white, black, [['e2', 'e4']]);
    assert.equal(await white.locator('.clock.running').count(), 0, 'no clock runs after the first move');
    await playLine(white, black, [['e7', 'e5']], 1);
    // Now White's minute runs, and White does not move.
    for (const p of [white, black]) await p.waitForSelector('.clock-white.running');
    const start = await whiteClock(black);
    assert.match(start.text, /^(1:00|0:5\d)$/);
    assert.equal(start.low, false);
    assert.equal(await black.locator('.clock-black .clock-time').innerText(), '1:00');

    // Ten seconds before the end the clock turns red, on both pages, while the game goes on.
    for (const p of [white, black]) {
      await p.waitForFunction(() => {
        const el = document.querySelector('.clock-white.running.low');
        return el && !document.querySelector('[data-testid="result"]');
      }, null, { timeout: 65_000 });
      const low = await whiteClock(p);
      assert.equal(low.over, false);
      assert.ok(low.red, 'the low clock is red');
      assert.match(low.text, /^0:0\d\.\d$/, 'tenths of a second are shown in the last ten seconds');
    }
    await screenshot(white, 'flag-low-time');

    // The server calls the flag: both pages say so, and the clock reads zero.
    const text = await resultText(black, 20_000);
    assert.match(text, /0-1 Black wins — White's flag fell/);
    assert.match(await resultText(white, 5_000), /0-1 Black wins — White's flag fell/);
    for (const p of [white, black]) {
      await p.waitForFunction(() => /^0:00/.test(document.querySelector('.clock-white .clock-time')?.textContent || ''));
      const end = await whiteClock(p);
      assert.match(end.text, /^0:00(\.0)?$/);
      assert.equal(end.running, false);
      assert.ok(end.low && end.red, 'the fallen flag stays red');
      assert.equal(await p.locator('.clock.running').count(), 0, 'no clock runs after the game');
    }
    await screenshot(white, 'flag');
    assert.deepEqual(noProblems(t, a, b), []);
  } finally {
    await browser.close();
  }
});
