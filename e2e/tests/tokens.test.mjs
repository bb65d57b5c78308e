// A signed-in user makes an API token on the settings page, a client uses it,
// and revoking it on the same page ends it at once.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, newPage, noProblems, register, screenshot } from '../lib/helpers.mjs';

async function accountStatus(token) {
  const response = await fetch(`${BASE}/api/account`, { headers: { Authorization: `Bearer ${token}` } });
  return response.status;
}

test('make, use and revoke an API token from the settings page', { timeout: 60_000 }, async (t) => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const name = await register(page);
    await page.goto(`${BASE}/settings`);
    await page.waitForSelector('#tokens-title:has-text("API access tokens")');
    await page.waitForSelector('.token-list li:has-text("No tokens yet")');
    // Only playing: the challenge boxes unticked.
    await page.fill('#token-description', 'my e-board');
    await page.locator('.token-form input[value="challenge:read"]').uncheck();
    await page.locator('.token-form input[value="challenge:write"]').uncheck();
    await page.click('.token-form button[type=submit]');
    const value = await page.locator('.token-value').inputValue({ timeout: 10_000 });
    assert.match(value, /^cai_[0-9a-f]{48}$/);
    await page.waitForSelector('.token:has-text("my e-board")');
    assert.match(await page.locator('.token .token-scopes').innerText(), /^board:play$/);
    await screenshot(page, 'settings-tokens');

    assert.equal(await accountStatus(value), 200);
    const me = await (await fetch(`${BASE}/api/account`, { headers: { Authorization: `Bearer ${value}` } })).json();
    assert.equal(me.username.toLowerCase(), name.toLowerCase());
    // The scope the page left out is refused, naming it.
    const challenge = await fetch(`${BASE}/api/challenge`, { headers: { Authorization: `Bearer ${value}` } });
    assert.equal(challenge.status, 403);
    assert.match((await challenge.json()).error, /challenge:read/);

    // Revoking asks once more, then the token is gone from the list and the API.
    const revoke = page.locator('.token:has-text("my e-board") button');
    await revoke.click();
    await revoke.click();
    await page.waitForSelector('.token-list li:has-text("No tokens yet")');
    assert.equal(await accountStatus(value), 401);
    assert.deepEqual(noProblems(t, page), []);
  } finally {
    await browser.close();
  }
});
