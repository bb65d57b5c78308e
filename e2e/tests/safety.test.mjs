// Accounts and safety, in the browser: blocking from a profile (the account
// page lists the block, the blocked player's challenge is refused, their chat
// lines are hidden), muting the chat, reporting a chat line and a player,
// changing the password, and closing the account for good.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { BASE, launch, newPage, noProblems, pairByPool, playLine, register, resultText, screenshot } from '../lib/helpers.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const PASSWORD = 'correct-horse-battery';
const NEW_PASSWORD = 'battery-staple-horse';

/** The serious and critical accessibility violations on the page as it is now. */
async function audit(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) }));
  });
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id} at ${v.nodes.join(', ')}`);
}

/** Opens the account page the way a player finds it: Settings, then its link. */
async function openAccount(page) {
  await page.goto(`${BASE}/settings`);
  await page.click('[data-testid="account-link"]');
  await page.waitForSelector('[data-testid="password-card"]');
}

async function say(page, text) {
  await page.fill('#chat-input', text);
  await page.click('.chat-form button[type=submit]');
}

async function login(page, name, password) {
  await page.goto(`${BASE}/login`);
  await page.fill('#auth-username', name);
  await page.fill('#auth-password', password);
  await page.click('.auth-form button[type="submit"]');
}

test('blocking, muting, reporting, a new password and closing the account', { timeout: 240_000 }, async (t) => {
  const browser = await launch();
  try {
    const a = await newPage(browser, { bypassCSP: true });
    const b = await newPage(browser);
    const nameA = await register(a);
    const nameB = await register(b);
    // A game between them, begun before the block.
    const { white, black, path } = await pairByPool(a, b, '5+3');
    await playLine(white, black, [['e2', 'e4'], ['e7', 'e5']]);

    // A blocks B from B's profile: the button turns to Unblock.
    await a.goto(`${BASE}/@/${nameB}`);
    const block = a.locator('[data-action="block"]');
    assert.equal(await block.innerText(), 'Block');
    await block.click();
    await a.waitForSelector('[data-action="block"][aria-pressed="true"]:has-text("Unblock")');
    // After a reload too: the profile says whether the viewer blocks.
    await a.reload();
    await a.waitForSelector('[data-action="block"]:has-text("Unblock")');
    // The account page lists the block.
    await openAccount(a);
    await a.waitForSelector(`.blocked-user:has-text("${nameB}")`);
    const found = (await audit(a)).map((v) => `account: ${v}`);
    await screenshot(a, 'account-page');

    // B's challenge is refused, in the server's words.
    await b.goto(`${BASE}/@/${nameA}`);
    assert.equal(await b.locator('[data-action="block"]').innerText(), 'Block');
    await b.click('a[data-action="challenge"]');
    await b.waitForSelector('[data-testid="create-form"]');
    assert.equal(await b.locator('#cg-opponent').inputValue(), nameA);
    await b.click('[data-testid="create-form"] button[type="submit"]');
    await b.waitForSelector('.toast-error:has-text("does not accept challenges from you")');

    // In their game, A no longer reads B, while B still reads both.
    await a.goto(`${BASE}${path}`);
    await b.goto(`${BASE}${path}`);
    await a.waitForSelector('#chat-input');
    await b.waitForSelector('#chat-input');
    await say(b, 'psst from b');
    await b.waitForSelector('.chat-line:has-text("psst from b")');
    await say(a, 'hello from a');
    await a.waitForSelector('.chat-line:has-text("hello from a")');
    await b.waitForSelector('.chat-line:has-text("hello from a")');
    assert.deepEqual(await a.locator('.chat-text').allInnerTexts(), ['hello from a']);
    assert.deepEqual(await b.locator('.chat-text').allInnerTexts(), ['psst from b', 'hello from a']);
    // Nor from the room's history.
    await a.reload();
    await a.waitForSelector('.chat-line:has-text("hello from a")');
    assert.deepEqual(await a.locator('.chat-text').allInnerTexts(), ['hello from a']);
    // One's own line has no report action; the other's has.
    assert.equal(await a.locator('.chat-line [data-action="report-line"]').count(), 0);
    assert.equal(await b.locator('.chat-line:has-text("psst from b") [data-action="report-line"]').count(), 0);

    // Muting hides the lines and the input, on every game, until unmuted.
    await a.check('#chat-muted');
    await a.waitForSelector('[data-testid="chat-muted"]');
    assert.equal(await a.locator('.chat-line').count(), 0);
    assert.equal(await a.locator('#chat-input').count(), 0);
    await a.reload();
    await a.waitForSelector('[data-testid="chat-muted"]');
    assert.equal(await a.locator('#chat-muted').isChecked(), true);
    await a.uncheck('#chat-muted');
    await a.waitForSelector('.chat-line:has-text("hello from a")');
    assert.equal(await a.locator('#chat-input').count(), 1);

    // B reports A's line: confirmed, and the line stays marked.
    const report = b.locator('.chat-line:has-text("hello from a") [data-action="report-line"]');
    assert.equal(await report.getAttribute('aria-label'), `Report ${nameA}'s line`);
    await report.click();
    await b.waitForSelector(`[data-testid="chat-note"]:has-text("${nameA}'s line was reported")`);
    await b.waitForSelector('.chat-line:has-text("hello from a") [data-action="report-line"][aria-label="Reported"]:disabled');
    await screenshot(b, 'chat-reported');

    // A reports B from the profile: an empty text is refused beside the form,
    // then the report is sent.
    await a.goto(`${BASE}/@/${nameB}`);
    await a.click('[data-action="report"]');
    await a.waitForSelector('#report-form');
    await a.selectOption('#report-reason', 'stall');
    await a.fill('#report-text', '   ');
    await a.click('#report-form button[type="submit"]');
    await a.waitForSelector('[data-testid="report-error"]:has-text("characters")');
    for (const v of await audit(a)) found.push(`profile with the report form: ${v}`);
    await screenshot(a, 'profile-report');
    await a.fill('#report-text', 'Lets the clock run down in lost positions.');
    await a.click('#report-form button[type="submit"]');
    await a.waitForSelector('[data-testid="report-done"]:has-text("Thank you")');
    assert.equal(await a.locator('#report-form').count(), 0);

    // A unblocks B from the account page.
    await openAccount(a);
    await a.click(`.blocked-user:has-text("${nameB}") [data-action="unblock"]`);
    await a.waitForSelector('[data-testid="blocking"]:has-text("You block nobody")');
    await a.goto(`${BASE}/@/${nameB}`);
    await a.waitForSelector('[data-action="block"][aria-pressed="false"]:has-text("Block")');

    // B changes the password: a wrong current one is refused beside the form.
    await openAccount(b);
    await b.fill('#pw-current', 'not-my-password');
    await b.fill('#pw-new', NEW_PASSWORD);
    await b.fill('#pw-repeat', 'something-else');
    await b.click('[data-testid="password-card"] button[type="submit"]');
    await b.waitForSelector('[data-testid="password-error"]:has-text("differ")');
    await b.fill('#pw-repeat', NEW_PASSWORD);
    await b.click('[data-testid="password-card"] button[type="submit"]');
    await b.waitForSelector('[data-testid="password-error"]:has-text("not the account\'s password")');
    assert.equal(await b.locator('#pw-current').getAttribute('aria-invalid'), 'true');
    await b.fill('#pw-current', PASSWORD);
    await b.click('[data-testid="password-card"] button[type="submit"]');
    await b.waitForSelector('[data-testid="password-done"]:has-text("Password changed")');
    assert.equal(await b.locator('[data-testid="password-error"]').innerText(), '');
    // Out, and in again with the new password.
    await b.click('button:has-text("Log out")');
    await b.waitForSelector('a[href="/login"]');
    await login(b, nameB, NEW_PASSWORD);
    await b.waitForSelector(`[data-testid="user-link"]:has-text("${nameB}")`);

    // B closes the account: a warning, then a confirmation that can be declined.
    await openAccount(b);
    assert.match(await b.locator('[data-testid="close-card"]').innerText(), /never log in/);
    await b.fill('#close-password', NEW_PASSWORD);
    await b.click('[data-action="close-account"]');
    await b.waitForSelector('[data-testid="close-confirm"]:has-text("cannot be undone")');
    await b.click('[data-action="close-cancel"]');
    await b.waitForSelector('[data-testid="close-confirm"]', { state: 'hidden' });
    await b.click('[data-action="close-account"]');
    await b.click('[data-action="close-confirm"]');
    await b.waitForSelector('.toast:has-text("Your account is closed")');
    await b.waitForURL(`${BASE}/`);
    await b.waitForSelector('a[href="/login"]');
    // No way back in.
    await login(b, nameB, NEW_PASSWORD);
    await b.waitForSelector('#auth-error:has-text("closed")');

    // The game B was playing is resigned; the profile says the account is closed.
    await a.goto(`${BASE}${path}`);
    assert.match(await resultText(a), /wins/);
    await a.goto(`${BASE}/@/${nameB}`);
    await a.waitForSelector('[data-testid="account-closed"]:has-text("This account is closed")');
    await screenshot(a, 'profile-closed');
    for (const action of ['challenge', 'block', 'report']) {
      assert.equal(await a.locator(`[data-action="${action}"]`).count(), 0, `no ${action} button`);
    }
    assert.deepEqual(found, []);
    assert.deepEqual(noProblems(t, a, b), []);
  } finally {
    await browser.close();
  }
});
