// A bot account as people meet it: its owner makes a bot:play token on the
// settings page and upgrades the account; a person sees BOT on its profile,
// challenges it from there, and plays it with BOT on the board.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, newPage, noProblems, register, screenshot } from '../lib/helpers.mjs';

async function asBot(token, path, method = 'GET') {
  const response = await fetch(`${BASE}${path}`, { method, headers: { Authorization: `Bearer ${token}` } });
  return { status: response.status, body: await response.json() };
}

test('a bot shows BOT on its profile and the board, and is challenged from its profile', { timeout: 90_000 }, async (t) => {
  const browser = await launch();
  try {
    // The bot's owner: a token that may play as a bot, then the upgrade.
    const owner = await newPage(browser);
    const botName = await register(owner, `bot${Date.now().toString(36).slice(-6)}`);
    await owner.goto(`${BASE}/settings`);
    await owner.fill('#token-description', 'my engine');
    await owner.locator('.token-form input[value="bot:play"]').check();
    await owner.click('.token-form button[type=submit]');
    const token = await owner.locator('.token-value').inputValue({ timeout: 10_000 });
    const upgraded = await asBot(token, '/api/bot/account/upgrade', 'POST');
    assert.equal(upgraded.status, 200, JSON.stringify(upgraded.body));

    // A person finds it: BOT before its name, and a Challenge button.
    const person = await newPage(browser);
    await register(person);
    await person.goto(`${BASE}/@/${botName}`);
    assert.equal(await person.locator('[data-testid="user-title"]').innerText(), 'BOT');
    await screenshot(person, 'bot-profile');
    await person.click('a[data-action="challenge"]');
    await person.waitForSelector('[data-testid="create-form"]');
    assert.equal(await person.locator('#cg-opponent').inputValue(), botName);
    await person.click('[data-testid="create-form"] button[type="submit"]');

    // The bot accepts (as bot programs do, over the API); the person's page
    // goes to the game, where the bot's name carries BOT.
    let challengeId = null;
    for (let i = 0; i < 50 && !challengeId; i++) {
      const listed = await asBot(token, '/api/challenge');
      challengeId = listed.body.in?.[0]?.id || null;
      if (!challengeId) await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(challengeId, 'the challenge reached the bot');
    const accepted = await asBot(token, `/api/challenge/${challengeId}/accept`, 'POST');
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    await person.waitForURL(`${BASE}/game/${challengeId}`);
    const titles = person.locator('.user-title');
    await titles.first().waitFor();
    assert.deepEqual(await titles.allInnerTexts(), ['BOT'], 'only the bot is titled');
    await screenshot(person, 'bot-game');
    assert.deepEqual(noProblems(t, owner, person), []);
  } finally {
    await browser.close();
  }
});
