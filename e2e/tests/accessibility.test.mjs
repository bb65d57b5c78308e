// An accessibility audit of every page with axe-core: no serious or critical
// violation, in English and in Chinese, on a laptop and on a phone. Each page
// is also photographed at both sizes, in both languages (e2e/artifacts/).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { BASE, launch, newPage, noProblems, pairByPool, register, screenshot } from '../lib/helpers.mjs';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const SIZES = { laptop: { width: 1366, height: 800 }, phone: { width: 390, height: 844 } };

/** The serious and critical violations on the page as it is now. */
async function audit(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) }));
  });
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

test('every page passes an accessibility audit, and is photographed at 1366×800 and 390×844 in English and Chinese', { timeout: 300_000 }, async (t) => {
  const browser = await launch();
  try {
    const a = await newPage(browser, { bypassCSP: true });
    const b = await newPage(browser);
    const name = await register(a);
    await register(b);
    const { path } = await pairByPool(a, b, '15+10');
    const pages = {
      lobby: '/',
      watch: '/watch',
      tv: '/tv',
      analysis: '/analysis?pgn=' + encodeURIComponent('1. e4 e5 (1... c5 2. Nf3) 2. Nf3 $1 {A comment} Nc6 *'),
      tournaments: '/tournaments',
      leaderboard: '/leaderboard',
      settings: '/settings',
      account: '/account',
      learn: '/learn',
      lesson: '/learn/castling',
      puzzles: '/training',
      profile: `/@/${name}`,
      game: path,
      arbiter: '/arbiter',
    };
    // Pages for a visitor who is not logged in.
    const visitor = await newPage(browser, { bypassCSP: true });
    const found = [];
    for (const [page, url] of Object.entries({ login: '/login', register: '/register' })) {
      await visitor.goto(`${BASE}${url}`);
      await visitor.waitForSelector('main h1');
      for (const v of await audit(visitor)) found.push(`visitor ${page}: ${v.impact} ${v.id} at ${v.nodes.join(', ')}`);
    }
    for (const [lang, label] of [['en', 'English'], ['zh-Hans', '简体中文']]) {
      await a.goto(`${BASE}/settings`);
      await a.selectOption('#lang-select', lang);
      await a.waitForFunction((l) => document.documentElement.lang === l, lang);
      for (const [size, viewport] of Object.entries(SIZES)) {
        await a.setViewportSize(viewport);
        for (const [page, url] of Object.entries(pages)) {
          await a.goto(`${BASE}${url}`);
          // Streams stay open: wait for the page's heading and a moment for its data.
          await a.waitForSelector('main h1, main .board-wrap');
          await a.waitForTimeout(400);
          for (const v of await audit(a)) found.push(`${label} ${size} ${page}: ${v.impact} ${v.id} at ${v.nodes.join(', ')}`);
          await screenshot(a, `page-${page}-${size}-${lang}`);
        }
      }
    }
    assert.deepEqual(found, []);
    assert.deepEqual(noProblems(t, a, b), []);
  } finally {
    await browser.close();
  }
});
