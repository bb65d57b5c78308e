// Open challenge links: A creates a link in the lobby, B opens it and accepts,
// both land on the same game with the colours A chose; a guest accepts another
// link after "play as a guest"; a taken or withdrawn link says so in words.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, myColor, newPage, noProblems, register, screenshot } from '../lib/helpers.mjs';

/** In the lobby: picks the colour and creates a link; answers the challenge's URL. */
async function createLink(page, color) {
  await page.goto(`${BASE}/`);
  await page.check(`input[name="cg-color"][value="${color}"]`);
  await page.click('[data-action="create-link"]');
  await page.waitForURL(/\/challenge\/[\w-]+$/);
  const url = await page.locator('[data-testid="challenge-url"]').inputValue();
  assert.equal(url, page.url(), 'the link shown is the page of the challenge');
  await page.waitForSelector('[data-testid="challenge-waiting"]:has-text("Waiting for an opponent")');
  return url;
}

test('open challenge link: create, share, accept (also as a guest), taken and withdrawn', { timeout: 150_000 }, async (t) => {
  const browser = await launch();
  try {
    const a = await newPage(browser);
    const b = await newPage(browser);
    await a.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
    const nameA = await register(a);
    await register(b);

    // A wants Black.
    const url = await createLink(a, 'black');
    const id = new URL(url).pathname.split('/').pop();
    await a.click('[data-action="copy-link"]');
    await a.waitForSelector('.toast:has-text("Link copied")');
    assert.equal(await a.evaluate(() => navigator.clipboard.readText()), url);
    await screenshot(a, 'challenge-link-mine');

    // B sees who challenges with what terms.
    await b.goto(url);
    const offer = b.locator('[data-testid="challenge-offer"]');
    await offer.waitFor();
    assert.match(await offer.locator('h1').innerText(), new RegExp(`${nameA} challenges you`));
    assert.match(await b.locator('[data-testid="challenge-tc"]').innerText(), /^5\+3 Blitz$/);
    assert.equal(await b.locator('[data-testid="challenge-mode"]').innerText(), 'Casual');
    assert.equal(await b.locator('[data-testid="challenge-color"]').innerText(), 'White');
    await screenshot(b, 'challenge-link-offer');

    await b.click('[data-action="accept-challenge"]');
    await b.waitForURL(`${BASE}/game/${id}`);
    await a.waitForURL(`${BASE}/game/${id}`);
    await a.waitForSelector('.player-bar.bottom .color-dot');
    await b.waitForSelector('.player-bar.bottom .color-dot');
    assert.equal(await myColor(a), 'black', 'A plays the colour chosen');
    assert.equal(await myColor(b), 'white');
    await b.waitForFunction(() => /Your turn/.test(document.querySelector('[data-testid="game-status"]')?.textContent || ''));

    // A guest takes a second link (A wants White this time).
    const guest = await newPage(browser);
    const url2 = await createLink(a, 'white');
    const id2 = new URL(url2).pathname.split('/').pop();
    await guest.goto(url2);
    await guest.waitForSelector('[data-testid="challenge-offer"]');
    assert.equal(await guest.locator('[data-action="accept-challenge"]').count(), 0, 'no Accept before logging in');
    await guest.click('[data-action="play-as-guest"]');
    await guest.click('[data-action="accept-challenge"]');
    await guest.waitForURL(`${BASE}/game/${id2}`);
    await a.waitForURL(`${BASE}/game/${id2}`);
    await a.waitForSelector('.player-bar.bottom .color-dot');
    await guest.waitForSelector('.player-bar.bottom .color-dot');
    assert.equal(await myColor(a), 'white');
    assert.equal(await myColor(guest), 'black');

    // The first link is taken: B's view of it now says so (and leads to the game for players).
    const c = await newPage(browser);
    await c.goto(url);
    await c.waitForSelector('[data-testid="challenge-gone"]');
    assert.match(await c.locator('[data-testid="challenge-error"]').innerText(), /not found/);
    assert.equal(await c.locator(`a[href="/game/${id}"]`).count(), 1, 'a link to the game that was started');

    // A withdraws a third link; the page of the one who opened it says it is gone.
    const url3 = await createLink(a, 'random');
    await b.goto(url3);
    await b.waitForSelector('[data-testid="challenge-offer"]');
    assert.equal(await b.locator('[data-testid="challenge-color"]').innerText(), 'Random');
    await a.click('[data-action="cancel-challenge"]');
    await a.waitForURL(`${BASE}/`);
    await a.waitForSelector('.toast:has-text("Challenge cancelled")');
    await b.waitForSelector('[data-testid="challenge-gone"]', { timeout: 10_000 });
    assert.match(await b.locator('[data-testid="challenge-error"]').innerText(), /withdrawn|not found/);
    await screenshot(b, 'challenge-link-gone');
    // Accepting a withdrawn link by address: the page shows the same words.
    await b.reload();
    await b.waitForSelector('[data-testid="challenge-gone"]');

    assert.deepEqual(noProblems(t, a, b, guest, c), []);
  } finally {
    await browser.close();
  }
});

test('the lobby offers the link button in every language', { timeout: 60_000 }, async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await page.goto(`${BASE}/`);
    const expected = { en: 'Create a link to share', 'zh-Hans': '创建分享链接', 'zh-Hant': '建立分享連結' };
    for (const [code, text] of Object.entries(expected)) {
      await page.selectOption('#lang-select', code);
      await page.waitForFunction(([sel, want]) => document.querySelector(sel)?.textContent === want, ['[data-action="create-link"]', text]);
    }
  } finally {
    await browser.close();
  }
});

/** Whether the page scrolls sideways; the controls the accessibility tree leaves nameless. */
async function layoutAndNames(page) {
  const scrollWidth = await page.evaluate(() => document.scrollingElement.scrollWidth);
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const controls = nodes.filter((n) => !n.ignored && ['button', 'link', 'textbox'].includes(n.role?.value));
    return { scrollWidth, nameless: controls.filter((n) => !(n.name?.value || '').trim()).map((n) => n.role.value) };
  } finally {
    await cdp.detach();
  }
}

test('challenge pages on a 360 px phone: no sideways scrolling, every control named', { timeout: 60_000 }, async (t) => {
  const browser = await launch();
  try {
    const viewport = { width: 360, height: 740 };
    const a = await newPage(browser, { viewport });
    const b = await newPage(browser, { viewport });
    await register(a);
    const url = await createLink(a, 'white');
    await b.goto(url);
    await b.waitForSelector('[data-action="play-as-guest"]');
    for (const page of [a, b]) {
      const { scrollWidth, nameless } = await layoutAndNames(page);
      assert.ok(scrollWidth <= 360, `scrolls sideways: ${scrollWidth}`);
      assert.deepEqual(nameless, []);
    }
    await screenshot(b, 'challenge-link-360');
    await a.click('[data-action="cancel-challenge"]');
    await a.waitForURL(`${BASE}/`);
    assert.deepEqual(noProblems(t, a, b), []);
  } finally {
    await browser.close();
  }
});

test('a game from a set-up position by link, and Chess960 only by challenge', { timeout: 90_000 }, async (t) => {
  const browser = await launch();
  try {
    const a = await newPage(browser);
    const b = await newPage(browser);
    await register(a);
    await register(b);
    await a.goto(`${BASE}/`);
    // A seek cannot be Chess960: the form says to challenge instead.
    await a.selectOption('#cg-variant', 'chess960');
    await a.click('[data-testid="create-form"] button[type="submit"]');
    await a.waitForSelector('.toast:has-text("played by challenge")');
    // A position set up, shared as a link.
    const fen = '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1';
    await a.selectOption('#cg-variant', 'fromPosition');
    await a.fill('#cg-fen', fen);
    await a.check('input[name="cg-color"][value="white"]');
    await a.click('[data-action="create-link"]');
    await a.waitForURL(/\/challenge\/[\w-]+$/);
    const url = a.url();
    await b.goto(url);
    await b.click('[data-action="accept-challenge"]');
    await b.waitForURL(/\/game\/\w+/);
    await b.waitForFunction(() => document.querySelectorAll('.cb-board .cb-piece').length === 3);
    assert.match(await b.locator('[data-square="e2"]').getAttribute('aria-label'), /white pawn/);
    assert.deepEqual(noProblems(t, a, b), []);
  } finally {
    await browser.close();
  }
});
