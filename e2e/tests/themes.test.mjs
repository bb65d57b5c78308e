// The board themes and piece sets added for low vision and variety, picked in
// Settings, reach the boards; and the sampled sounds are fetched (a WAV served
// as audio/wav) when a move is played with sound on, and never with it off.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, drag, launch, newPage, noProblems, screenshot, waitForPlies } from '../lib/helpers.mjs';

// Square colours of the new themes, as web/css/board.css sets them.
const THEMES = {
  marble: { light: 'rgb(239, 237, 232)', dark: 'rgb(135, 147, 155)' },
  ink: { light: 'rgb(235, 229, 243)', dark: 'rgb(138, 111, 179)' },
  contrast: { light: 'rgb(252, 239, 160)', dark: 'rgb(59, 118, 184)' },
};
const SETS = ['minimal', 'chinese'];

/** The square colours and piece images of the first board on the page. */
function boardLook(page) {
  return page.evaluate(() => {
    const board = document.querySelector('.cb-board');
    const colour = (sel) => getComputedStyle(board.querySelector(sel)).backgroundColor;
    const imgs = [...board.querySelectorAll('img.cb-piece')];
    return {
      className: board.className,
      light: colour('.cb-sq.cb-light'),
      dark: colour('.cb-sq.cb-dark'),
      srcs: imgs.map((img) => new URL(img.src).pathname),
      loaded: imgs.every((img) => img.complete && img.naturalWidth > 0),
    };
  });
}

async function waitForLoadedPieces(page) {
  await page.waitForFunction(() => {
    const imgs = [...document.querySelectorAll('.cb-board img.cb-piece')];
    return imgs.length > 0 && imgs.every((img) => img.complete && img.naturalWidth > 0);
  });
}

test('each new theme and piece set, picked in Settings, is what the boards show', { timeout: 90_000 }, async (t) => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await page.goto(`${BASE}/settings`);
    await page.waitForSelector('.preview .cb-board');
    for (const [theme, colours] of Object.entries(THEMES)) {
      await page.check(`input[name="set-theme"][value="${theme}"]`);
      await page.waitForSelector(`.preview .cb-board.cb-theme-${theme}`);
      const look = await boardLook(page);
      assert.equal(look.light, colours.light, `${theme} light squares`);
      assert.equal(look.dark, colours.dark, `${theme} dark squares`);
    }
    for (const set of SETS) {
      await page.check(`input[name="set-pieceSet"][value="${set}"]`);
      await page.waitForSelector(`.preview .cb-board.cb-set-${set}`);
      await waitForLoadedPieces(page);
      const look = await boardLook(page);
      assert.equal(look.srcs.length, 32);
      assert.ok(look.srcs.every((src) => src.startsWith(`/static/pieces/${set}/`)), `${set}: ${look.srcs[0]}`);
      assert.ok(look.loaded, `${set} pieces load`);
      await screenshot(page, `themes-settings-${set}`);
    }
    const labels = await page.locator('[data-setting="theme"] label, [data-setting="pieceSet"] label').allInnerTexts();
    for (const name of ['Marble', 'Ink', 'High contrast', 'Minimal', 'Chinese characters']) assert.ok(labels.includes(name), name);

    // Kept, and used by another page's board.
    await page.goto(`${BASE}/analysis`);
    await page.waitForSelector('.cb-board.cb-theme-contrast.cb-set-chinese');
    await waitForLoadedPieces(page);
    const look = await boardLook(page);
    assert.equal(look.light, THEMES.contrast.light);
    assert.ok(look.srcs.every((src) => src.startsWith('/static/pieces/chinese/')));
    assert.deepEqual(noProblems(t, page), []);
  } finally {
    await browser.close();
  }
});

test('the new choices have Chinese names', { timeout: 60_000 }, async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser, { lang: 'zh-Hans' });
    await page.goto(`${BASE}/settings`);
    await page.waitForSelector('.preview .cb-board');
    const labels = await page.locator('[data-setting="theme"] label, [data-setting="pieceSet"] label').allInnerTexts();
    for (const name of ['大理石', '紫墨', '高对比度', '极简', '汉字']) assert.ok(labels.includes(name), name);
  } finally {
    await browser.close();
  }
});

/** Starts a game against the computer as White, with the given stored settings. */
async function computerGame(browser, stored) {
  const page = await newPage(browser);
  await page.addInitScript((s) => localStorage.setItem('caissa.settings', JSON.stringify(s)), stored);
  page.sounds = [];
  page.on('response', (res) => {
    if (new URL(res.url()).pathname.startsWith('/static/sounds/')) {
      page.sounds.push({ path: new URL(res.url()).pathname, status: res.status(), type: res.headers()['content-type'] });
    }
  });
  await page.goto(`${BASE}/`);
  await page.check('input[name="ai-color"][value="white"]');
  await page.click('[data-testid="play-ai"]');
  await page.waitForURL(/\/game\/\w+/);
  await page.waitForSelector('[data-testid="game-status"]:has-text("Your turn")');
  return page;
}

test('a move plays the move sample with sound on, and fetches nothing with it off', { timeout: 90_000 }, async (t) => {
  const browser = await launch();
  try {
    const on = await computerGame(browser, { sound: true, theme: 'contrast' });
    const heard = on.waitForResponse((res) => new URL(res.url()).pathname === '/static/sounds/move.wav');
    await drag(on, 'e2', 'e4');
    const res = await heard;
    assert.equal(res.status(), 200);
    assert.equal(res.headers()['content-type'], 'audio/wav');
    assert.equal((await res.body()).subarray(0, 4).toString(), 'RIFF');
    await waitForPlies(on, 2);
    // Each sample is fetched once however often it plays.
    const moves = on.sounds.filter((s) => s.path === '/static/sounds/move.wav');
    assert.equal(moves.length, 1, JSON.stringify(on.sounds));
    assert.ok(on.sounds.every((s) => s.status === 200 && s.type === 'audio/wav'), JSON.stringify(on.sounds));
    // Every sample decodes in the browser.
    const durations = await on.evaluate(async () => {
      const ac = new AudioContext();
      const names = ['move', 'capture', 'check', 'lowtime', 'start', 'end', 'notify'];
      return Promise.all(names.map(async (name) => {
        const bytes = await (await fetch(`/static/sounds/${name}.wav`)).arrayBuffer();
        return (await ac.decodeAudioData(bytes)).duration;
      }));
    });
    assert.ok(durations.every((d) => d > 0.05 && d <= 0.5), durations.join(', '));
    // The high-contrast theme rings the last move as well as tinting it.
    const ring = await on.evaluate(() => getComputedStyle(document.querySelector('.cb-sq.cb-last'), '::before').boxShadow);
    assert.match(ring, /inset/);
    await screenshot(on, 'themes-contrast-game');

    const off = await computerGame(browser, { sound: false });
    await drag(off, 'd2', 'd4');
    await waitForPlies(off, 2);
    await off.waitForTimeout(300);
    assert.deepEqual(off.sounds, []);
    assert.deepEqual(noProblems(t, on, off), []);
  } finally {
    await browser.close();
  }
});
