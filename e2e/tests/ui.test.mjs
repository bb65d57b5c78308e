// The game page's own controls and reach: the mute toggle is kept, the app fits
// a 360 px phone, every button has a name for assistive technology, and moves
// are read out through the live region.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE, drag, launch, newPage, noProblems, pairByPool, playLine, register, screenshot, waitForPlies,
} from '../lib/helpers.mjs';

/** Starts a game against the computer as a guest, playing White. */
async function computerGame(page) {
  await page.goto(`${BASE}/`);
  await page.check('input[name="ai-color"][value="white"]');
  await page.click('[data-testid="play-ai"]');
  await page.waitForURL(/\/game\/\w+/);
  await page.waitForSelector('[data-testid="game-status"]:has-text("Your turn")');
}

const MUTE = '.game-controls button[aria-pressed]';

test('the mute toggle is kept across reloads and pages', { timeout: 90_000 }, async (t) => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await computerGame(page);
    const mute = page.locator(MUTE);
    assert.equal(await mute.getAttribute('aria-pressed'), 'false');
    assert.equal(await mute.getAttribute('aria-label'), 'Mute sounds');
    await mute.click();
    await page.waitForSelector(`${MUTE}[aria-pressed="true"][aria-label="Turn sounds on"]`);
    assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem('caissa.settings')).sound), false);

    // Kept after a reload, and the settings page agrees.
    await page.reload();
    await page.waitForSelector(`${MUTE}[aria-pressed="true"]`);
    await page.goto(`${BASE}/settings`);
    assert.equal(await page.locator('#set-sound').isChecked(), false);
    // Turned back on from the settings page, the game's button follows.
    await page.locator('#set-sound').check();
    await page.goBack();
    await page.waitForSelector(`${MUTE}[aria-pressed="false"][aria-label="Mute sounds"]`);
    assert.deepEqual(noProblems(t, page), []);
  } finally {
    await browser.close();
  }
});

/** Whether the page scrolls sideways, and how the board sits in the viewport. */
function fit(page) {
  return page.evaluate(() => {
    const board = document.querySelector('.cb-board')?.getBoundingClientRect();
    return {
      scrollWidth: document.scrollingElement.scrollWidth,
      innerWidth,
      board: board && { left: board.left, right: board.right, width: board.width },
      // Anything that sticks out on the right.
      overflow: [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > innerWidth + 0.5 && getComputedStyle(el).position !== 'fixed')
        .slice(0, 5)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
    };
  });
}

test('the app on a 360 px phone: the board fits, nothing scrolls sideways', { timeout: 120_000 }, async (t) => {
  const browser = await launch();
  try {
    const viewport = { width: 360, height: 740 };
    const a = await newPage(browser, { viewport });
    const b = await newPage(browser, { viewport });
    await register(a);
    await register(b);
    for (const path of ['/', '/watch', '/analysis', '/settings']) {
      await a.goto(`${BASE}${path}`);
      await a.waitForSelector('main h1, main h2');
      const f = await fit(a);
      assert.ok(f.scrollWidth <= 360, `${path} scrolls sideways (${f.scrollWidth} px): ${f.overflow.join(', ')}`);
    }
    const { white, black } = await pairByPool(a, b, '10+0');
    await playLine(white, black, [['e2', 'e4'], ['e7', 'e5']]);
    for (const p of [white, black]) {
      const f = await fit(p);
      assert.ok(f.scrollWidth <= 360, `the game scrolls sideways (${f.scrollWidth} px): ${f.overflow.join(', ')}`);
      assert.ok(f.board.left >= 0 && f.board.right <= 360, `the board fits: ${JSON.stringify(f.board)}`);
      assert.ok(f.board.width >= 300, `the board uses the width: ${f.board.width}`);
    }
    // Moves still work by dragging on the small board.
    await drag(white, 'g1', 'f3');
    await waitForPlies(black, 3);
    await screenshot(white, 'game-360');
    assert.deepEqual(noProblems(t, a, b), []);
  } finally {
    await browser.close();
  }
});

/** Buttons (by role) that the browser's accessibility tree gives no name. */
async function namelessButtons(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const buttons = nodes.filter((n) => !n.ignored && ['button', 'PopUpButton', 'DisclosureTriangle', 'combobox', 'link', 'checkbox', 'radio', 'textbox', 'spinbutton', 'gridcell', 'slider', 'switch'].includes(n.role?.value));
    return {
      count: buttons.length,
      nameless: buttons.filter((n) => !(n.name?.value || '').trim()).map((n) => `${n.role.value} #${n.backendDOMNodeId}`),
    };
  } finally {
    await cdp.detach();
  }
}

test('accessibility: every control is named; moves are announced', { timeout: 120_000 }, async (t) => {
  const browser = await launch();
  try {
    const a = await newPage(browser);
    const b = await newPage(browser);
    await register(a);
    await register(b);
    for (const path of ['/', '/watch', '/analysis', '/settings']) {
      await a.goto(`${BASE}${path}`);
      await a.waitForSelector('main h1, main h2');
      const { count, nameless } = await namelessButtons(a);
      assert.ok(count > 3, `${path} has controls`);
      assert.deepEqual(nameless, [], `controls without a name on ${path}`);
    }
    const { white, black } = await pairByPool(a, b, '10+0');
    await playLine(white, black, [['e2', 'e4']]);
    // The opponent's move is read out in words in the polite live region.
    const announcer = black.locator('#announcer');
    assert.equal(await announcer.getAttribute('aria-live'), 'polite');
    await black.waitForFunction(() => document.getElementById('announcer')?.textContent === 'White: pawn e4');
    await playLine(white, black, [['g8', 'f6']], 1);
    await white.waitForFunction(() => document.getElementById('announcer')?.textContent === 'Black: knight f6');
    for (const p of [white, black]) {
      const { count, nameless } = await namelessButtons(p);
      assert.ok(count > 10, 'the game page has controls');
      assert.deepEqual(nameless, [], 'controls without a name on the game page');
    }
    // Icons are inline SVG, never emoji that a machine's fonts may lack.
    await white.waitForSelector('[data-testid="watchers"] .icon-eye svg');
    const pictographs = await white.evaluate(() => (document.body.innerText.match(/\p{Extended_Pictographic}/gu) || [])
      .filter((ch) => !/[\u2654-\u265f]/.test(ch)));
    assert.deepEqual(pictographs, []);
    // Icon-only buttons carry their words in aria-label (the SVG is hidden).
    const iconButtons = await white.locator('button.icon').evaluateAll((els) => els.map((el) => [el.getAttribute('aria-label'), el.querySelector('svg') !== null]));
    assert.ok(iconButtons.length >= 6);
    for (const [label, svg] of iconButtons) assert.ok(label && svg, `icon button ${label}`);
    // Keyboard only: focus the move field with Tab from the step buttons, type a move, Enter.
    await white.locator('[aria-label="Flip the board"]').focus();
    for (let i = 0; i < 20 && !(await white.evaluate(() => document.activeElement?.id === 'san-input')); i++) {
      await white.keyboard.press('Tab');
    }
    assert.equal(await white.evaluate(() => document.activeElement?.id), 'san-input', 'the move field is reached with Tab');
    await white.keyboard.type('Nc3');
    await white.keyboard.press('Enter');
    await waitForPlies(black, 3);
    await black.waitForFunction(() => document.getElementById('announcer')?.textContent === 'White: knight c3');
    assert.deepEqual(noProblems(t, a, b), []);
  } finally {
    await browser.close();
  }
});

test('an anonymous visitor\'s page views log no failed request', { timeout: 60_000 }, async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const failed = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    for (const path of ['/', '/watch', '/analysis', '/tournaments']) {
      await page.goto(`${BASE}${path}`);
      await page.waitForLoadState('networkidle');
    }
    assert.deepEqual(failed, []);
  } finally {
    await browser.close();
  }
});

test('a dark-mode switch in the header, kept across reloads; a favicon and a web manifest', { timeout: 60_000 }, async (t) => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await page.goto(`${BASE}/`);
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await page.click('[data-action="scheme"]');
    await page.waitForFunction(() => document.documentElement.dataset.scheme === 'dark');
    assert.equal(await background(), 'rgb(22, 21, 18)');
    assert.equal(await page.getAttribute('[data-action="scheme"]', 'aria-label'), 'Light mode');
    await page.reload();
    await page.waitForSelector('[data-action="scheme"]');
    assert.equal(await background(), 'rgb(22, 21, 18)');
    await page.click('[data-action="scheme"]');
    await page.waitForFunction(() => document.documentElement.dataset.scheme === 'light');
    assert.equal(await background(), light);
    // The settings page offers the system's choice too.
    await page.goto(`${BASE}/settings`);
    await page.check('input[name="set-scheme"][value="system"]');
    await page.waitForFunction(() => !('scheme' in document.documentElement.dataset));
    const manifest = await page.request.get(`${BASE}/static/manifest.webmanifest`);
    assert.equal(manifest.status(), 200);
    assert.equal((await manifest.json()).name, 'Caissa');
    const icon = await page.request.get(await page.getAttribute('link[rel="icon"]', 'href').then((href) => new URL(href, BASE).href));
    assert.equal(icon.status(), 200);
    assert.match(icon.headers()['content-type'], /svg/);
    assert.deepEqual(noProblems(t, page), []);
  } finally {
    await browser.close();
  }
});
