// Playing on a phone (390×844): a one-row header whose menu opens the
// navigation, both clocks beside the board without scrolling, toasts clear of
// the action bar, only the controls that apply to each viewer, and icon
// buttons named for screen readers. The same game still fits a laptop screen.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, drag, launch, newPage, noProblems, pairByPool, playLine, register, screenshot, waitForPlies } from '../lib/helpers.mjs';

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 800 };

/** Whether two boxes ({x, y, width, height}) share any area. */
function overlap(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Where the header, the board and both clocks are, with the page scrolled to the top. */
function layout(page) {
  return page.evaluate(() => {
    scrollTo(0, 0);
    const box = (el) => {
      const r = el.getBoundingClientRect();
      return { top: Math.round(r.top), bottom: Math.round(r.bottom), left: Math.round(r.left), right: Math.round(r.right) };
    };
    const clock = (bar) => {
      const el = document.querySelector(`.player-bar.${bar}`);
      return { ...box(el.querySelector('.clock')), name: el.querySelector('.player-name')?.textContent };
    };
    return {
      header: box(document.getElementById('header')),
      board: box(document.querySelector('.cb-board')),
      top: clock('top'),
      bottom: clock('bottom'),
      innerHeight,
      scrollHeight: document.scrollingElement.scrollHeight,
    };
  });
}

test('a game on a 390×844 phone, and on a 1366×800 laptop', { timeout: 150_000 }, async (t) => {
  const browser = await launch();
  try {
    const a = await newPage(browser, { viewport: PHONE });
    const b = await newPage(browser, { viewport: PHONE });
    await register(a);
    await register(b);

    // The header is one row; the menu button opens the navigation and Escape closes it.
    const menu = a.locator('.menu-toggle');
    assert.equal(await a.locator('.main-nav').isVisible(), false);
    assert.equal(await menu.getAttribute('aria-label'), 'Menu');
    await menu.click();
    assert.equal(await menu.getAttribute('aria-expanded'), 'true');
    await a.locator('.main-nav a[href="/watch"]').waitFor();
    await a.keyboard.press('Escape');
    assert.equal(await a.locator('.main-nav').isVisible(), false);
    assert.equal(await menu.getAttribute('aria-expanded'), 'false');

    const { white, black, path } = await pairByPool(a, b, '10+0');
    await playLine(white, black, [['e2', 'e4'], ['e7', 'e5']]);
    const view = await layout(white);
    t.diagnostic(`phone: ${JSON.stringify(view)}`);
    assert.ok(view.header.bottom - view.header.top < 64, `the header is one row: ${JSON.stringify(view.header)}`);
    // Each clock beside its player's name: one just above the board, one just below, both on screen.
    assert.ok(view.top.name && view.bottom.name);
    assert.ok(view.top.bottom <= view.board.top + 1 && view.board.top - view.top.bottom < 20, `top clock by the board: ${JSON.stringify(view)}`);
    assert.ok(view.bottom.top >= view.board.bottom - 1 && view.bottom.top - view.board.bottom < 20, `bottom clock by the board: ${JSON.stringify(view)}`);
    for (const c of [view.top, view.bottom]) assert.ok(c.top >= 0 && c.bottom <= PHONE.height, `a clock off screen: ${JSON.stringify(c)}`);

    // Only the player to move gets the move field; the other may only premove.
    assert.equal(await white.locator('#san-input').isVisible(), true);
    assert.equal(await black.locator('#san-input').isVisible(), false);
    assert.equal(await white.locator('.board-host').getAttribute('data-input'), 'move');
    assert.equal(await black.locator('.board-host').getAttribute('data-input'), 'premove');

    // Icon buttons carry their words as the accessible name and the tooltip.
    for (const name of ['Resign', 'Offer a draw', 'Propose a takeback', 'Flip the board', 'Mute sounds']) {
      const button = white.getByRole('button', { name, exact: true });
      assert.equal(await button.count(), 1, name);
      assert.equal(await button.getAttribute('title'), name);
      assert.equal(await button.locator('svg').count(), 1, `${name} has its icon`);
    }
    // No claim where none applies (an online game with nothing to claim).
    assert.equal(await white.locator('[data-action^="claim-"]').count(), 0);

    // A declined draw offer shows a toast that covers none of the header's or the action bar's controls, and can be closed.
    await white.click('[data-action="draw"]');
    const offer = black.locator('[data-testid="draw-offer"]');
    await offer.waitFor();
    await offer.locator('button:has-text("Decline")').click();
    const toast = white.locator('.toast:has-text("Your draw offer was declined")');
    await toast.waitFor();
    const toastBox = await toast.boundingBox();
    const buttons = white.locator('.action-bar button, .action-bar a');
    const count = await buttons.count();
    assert.ok(count >= 8, `the action bar has its buttons (${count})`);
    for (let i = 0; i < count; i++) {
      const box = await buttons.nth(i).boundingBox();
      assert.ok(box && box.y + box.height <= PHONE.height, `action button ${i} on screen: ${JSON.stringify(box)}`);
      assert.ok(!overlap(toastBox, box), `the toast ${JSON.stringify(toastBox)} covers action button ${i} ${JSON.stringify(box)}`);
    }
    const header = white.locator('.site-header button:visible, .site-header a:visible, .site-header select:visible');
    assert.ok(await header.count() >= 3, 'the header has its controls');
    for (let i = 0; i < await header.count(); i++) {
      const box = await header.nth(i).boundingBox();
      assert.ok(!overlap(toastBox, box), `the toast ${JSON.stringify(toastBox)} covers header control ${i} ${JSON.stringify(box)}`);
    }
    await screenshot(white, 'phone-game-toast');
    await toast.locator('.toast-close').click();
    await toast.waitFor({ state: 'detached' });

    // A spectator: no move field, no player's buttons, and the board takes no move.
    const spectator = await newPage(browser, { viewport: PHONE });
    await spectator.goto(`${BASE}${path}`);
    await waitForPlies(spectator, 2);
    assert.equal(await spectator.locator('.board-host').getAttribute('data-input'), 'none');
    assert.equal(await spectator.locator('#san-input').isVisible(), false);
    for (const action of ['resign', 'draw', 'takeback', 'abort']) {
      assert.equal(await spectator.locator(`[data-action="${action}"]`).count(), 0, `a spectator sees no ${action}`);
    }
    await drag(spectator, 'g1', 'f3');
    await spectator.waitForTimeout(500);
    assert.match(await spectator.locator('[data-square="g1"]').getAttribute('aria-label'), /white knight/);
    assert.equal(await white.locator('[data-testid="move-list"] button.move').count(), 2);

    // The same game on a laptop fits the screen without scrolling.
    await white.setViewportSize(LAPTOP);
    await white.waitForTimeout(200);
    const wide = await layout(white);
    t.diagnostic(`laptop: ${JSON.stringify(wide)}`);
    assert.ok(wide.scrollHeight <= LAPTOP.height, `the laptop page scrolls (${wide.scrollHeight} px)`);
    await screenshot(white, 'laptop-game');
    assert.deepEqual(noProblems(t, a, b, spectator), []);
  } finally {
    await browser.close();
  }
});
