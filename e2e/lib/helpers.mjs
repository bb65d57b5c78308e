// Shared helpers of the browser tests: the browser, users, dragging pieces,
// waiting for the game to show things, and screenshots.

import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const BASE = process.env.CAISSA_URL || 'http://127.0.0.1:8080';
const HERE = dirname(fileURLToPath(import.meta.url));
export const ARTIFACTS = join(HERE, '..', 'artifacts');

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--autoplay-policy=no-user-gesture-required'],
  });
}

let counter = 0;
/** A fresh, valid username. */
export function uniqueName(prefix = 'u') {
  counter++;
  return `${prefix}${Date.now().toString(36).slice(-5)}${counter}${Math.floor(Math.random() * 100)}`.slice(0, 20);
}

/**
 * A new browser context with one page; page errors and failed API calls are
 * recorded in `page.problems`. `bypassCSP` lets a test inject a script (the
 * accessibility audit).
 */
export async function newPage(browser, { lang = 'en', viewport = { width: 1200, height: 900 }, bypassCSP = false } = {}) {
  const context = await browser.newContext({ viewport, locale: lang === 'en' ? 'en-US' : lang, bypassCSP });
  const page = await context.newPage();
  page.problems = [];
  page.on('pageerror', (err) => page.problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/Failed to load resource|WebSocket/.test(msg.text())) page.problems.push(`console: ${msg.text()}`);
  });
  page.setDefaultTimeout(15000);
  return page;
}

/** Registers through the form; answers the username. */
export async function register(page, name = uniqueName()) {
  await page.goto(`${BASE}/register`);
  await page.fill('#auth-username', name);
  await page.fill('#auth-password', 'correct-horse-battery');
  await page.click('.auth-form button[type="submit"]');
  await page.waitForSelector(`[data-testid="user-link"]:has-text("${name}")`);
  await page.waitForURL(`${BASE}/`);
  return name;
}

/** The centre of a square on the page. */
export async function squareCentre(page, square) {
  const box = await page.locator(`[data-square="${square}"]`).first().boundingBox();
  if (!box) throw new Error(`square ${square} not on the page`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Drags a piece from one square to another with the mouse. */
export async function drag(page, from, to) {
  const a = await squareCentre(page, from);
  const b = await squareCentre(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(a.x + (b.x - a.x) / 3, a.y + (b.y - a.y) / 3, { steps: 4 });
  await page.mouse.move(b.x, b.y, { steps: 6 });
  await page.mouse.up();
}

/** Waits until the move list shows `plies` moves. */
export async function waitForPlies(page, plies, timeout = 15000) {
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="move-list"] button.move').length >= n, plies, { timeout });
}

/** Waits until the board lets this page move (it is its turn). */
export async function waitForTurn(page, timeout = 15000) {
  await page.waitForFunction(() => {
    const status = document.querySelector('[data-testid="game-status"]');
    return status && /turn-/.test(status.innerHTML) && document.querySelector('.game-status .turn') !== null;
  }, null, { timeout });
}

/** The colour this page plays, from the board's orientation (bottom player). */
export async function myColor(page) {
  return page.evaluate(() => {
    const bar = document.querySelector('.player-bar.bottom .color-dot');
    return bar && bar.classList.contains('black') ? 'black' : 'white';
  });
}

/** Plays `uci` by dragging, once it is this page's turn at ply `ply`. */
export async function playMove(page, uci, ply) {
  await waitForPlies(page, ply);
  await page.waitForFunction(() => /Your turn|轮到你|輪到你/.test(document.querySelector('[data-testid="game-status"]')?.textContent || ''));
  await drag(page, uci.slice(0, 2), uci.slice(2, 4));
  await waitForPlies(page, ply + 1);
}

export async function screenshot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  // Not in the middle of a piece's move animation.
  await page.waitForFunction(() => !document.querySelector('.cb-anim'), null, { timeout: 2000 }).catch(() => {});
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: false });
}

/** Fails with the page's recorded problems, if any. */
export function noProblems(t, ...pages) {
  const all = pages.flatMap((p) => p.problems || []);
  if (all.length) t.diagnostic(all.join('\n'));
  return all;
}

/**
 * Pairs two logged-in pages through a quick-pairing pool (both click it).
 * Answers {white, black, path}.
 */
export async function pairByPool(a, b, pool) {
  await a.goto(`${BASE}/`);
  await b.goto(`${BASE}/`);
  await a.click(`[data-pool="${pool}"]`);
  await a.waitForSelector('[data-testid="seeking"]');
  await b.click(`[data-pool="${pool}"]`);
  await a.waitForURL(/\/game\/\w+/);
  await b.waitForURL(/\/game\/\w+/);
  const path = new URL(a.url()).pathname;
  if (path !== new URL(b.url()).pathname) throw new Error('the players are not in the same game');
  await a.waitForSelector('.player-bar.bottom .color-dot');
  await b.waitForSelector('.player-bar.bottom .color-dot');
  const white = (await myColor(a)) === 'white' ? a : b;
  const black = white === a ? b : a;
  return { white, black, path };
}

/** Plays a list of [from, to] drags alternately, starting with `first`. */
export async function playLine(white, black, line, startPly = 0) {
  for (let i = 0; i < line.length; i++) {
    const page = (startPly + i) % 2 === 0 ? white : black;
    const [from, to] = line[i];
    await waitForPlies(page, startPly + i);
    await page.waitForFunction(() => /Your turn/.test(document.querySelector('[data-testid="game-status"]')?.textContent || ''));
    await drag(page, from, to);
    await waitForPlies(white, startPly + i + 1);
    await waitForPlies(black, startPly + i + 1);
  }
}

/** The result line of a finished game. */
export async function resultText(page, timeout = 15000) {
  const result = page.locator('[data-testid="result"]');
  await result.waitFor({ timeout });
  return result.innerText();
}
