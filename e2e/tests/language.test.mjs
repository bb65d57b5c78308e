// Switching the language from the header, at any time, and keeping it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, newPage, noProblems, screenshot } from '../lib/helpers.mjs';

test('switch to Simplified and Traditional Chinese', { timeout: 60_000 }, async (t) => {
  const browser = await launch();
  try {
    const page = await newPage(browser);
    await page.goto(`${BASE}/`);
    await page.waitForSelector('#quick-title:has-text("Quick pairing")');
    await page.selectOption('#lang-select', 'zh-Hans');
    await page.waitForSelector('#quick-title:has-text("快速配对")');
    assert.equal(await page.locator('html').getAttribute('lang'), 'zh-Hans');
    assert.match(await page.locator('.main-nav').innerText(), /对弈[\s\S]*观战[\s\S]*分析/);
    assert.match(await page.locator('#create-title').innerText(), /创建对局/);
    await screenshot(page, 'lobby-zh-Hans');
    // Kept after a reload.
    await page.reload();
    await page.waitForSelector('#quick-title:has-text("快速配对")');
    await page.selectOption('#lang-select', 'zh-Hant');
    await page.waitForSelector('#quick-title:has-text("快速配對")');
    await page.goto(`${BASE}/settings`);
    await page.waitForSelector('h1:has-text("設定")');
    await page.selectOption('#lang-select', 'en');
    await page.waitForSelector('h1:has-text("Settings")');
    assert.deepEqual(noProblems(t, page), []);
  } finally {
    await browser.close();
  }
});
