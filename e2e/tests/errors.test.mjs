// Server errors reach the user in words: on the forms and as alerts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, newPage, register } from '../lib/helpers.mjs';

test('errors are shown in words', { timeout: 60_000 }, async () => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    const name = await register(page);
    await page.click('button:has-text("Log out")');
    await page.waitForSelector('a[href="/login"]');

    // The name is taken: the server's words on the form and in an alert.
    await page.goto(`${BASE}/register`);
    await page.fill('#auth-username', name);
    await page.fill('#auth-password', 'another-password');
    await page.click('.auth-form button[type="submit"]');
    await page.waitForSelector(`#auth-error:has-text("taken")`);
    assert.match(await page.locator('.toast-error').first().innerText(), /taken/);

    // A wrong password.
    await page.goto(`${BASE}/login`);
    await page.fill('#auth-username', name);
    await page.fill('#auth-password', 'wrong-password');
    await page.click('.auth-form button[type="submit"]');
    await page.waitForSelector('#auth-error:has-text("Wrong username or password")');

    // A game that does not exist.
    await page.goto(`${BASE}/game/nosuchgame`);
    await page.waitForSelector('.error-text:has-text("not found")');
    // A player who does not exist.
    await page.goto(`${BASE}/@/nosuchplayer`);
    await page.waitForSelector('.error-text:has-text("nosuchplayer")');
  } finally {
    await browser.close();
  }
});
