// Page weight and speed, for the record: the first load of the lobby and of a
// game page in a fresh browser (scripts, styles and the rules module as sent,
// gzipped when the server gzips them) and the time until the board can be
// played. Run against a server: CAISSA_URL=http://127.0.0.1:8080 node e2e/weight.mjs
import { launch, newPage, register } from './lib/helpers.mjs';

const BASE = process.env.CAISSA_URL;

async function load(page, path, ready) {
  const sent = { script: 0, stylesheet: 0, wasm: 0, other: 0 };
  const onResponse = async (response) => {
    const url = response.url();
    const kind = url.endsWith('.wasm') ? 'wasm' : response.request().resourceType();
    const bytes = Number(response.headers()['content-length'] || (await response.body().catch(() => Buffer.alloc(0))).length);
    sent[kind in sent ? kind : 'other'] += bytes;
  };
  page.on('response', onResponse);
  const started = Date.now();
  await page.goto(`${BASE}${path}`);
  await page.waitForSelector(ready);
  const ms = Date.now() - started;
  await page.waitForTimeout(1000);
  page.off('response', onResponse);
  return { path, ms, kilobytes: Object.fromEntries(Object.entries(sent).map(([k, v]) => [k, Math.round(v / 102.4) / 10])) };
}

const browser = await launch();
const a = await newPage(browser);
const b = await newPage(browser);
await register(a);
await register(b);
const fresh = await newPage(browser);
const lobby = await load(fresh, '/', '[data-testid="play-ai"]');
await a.goto(`${BASE}/`);
await a.check('input[name="ai-color"][value="white"]');
await a.click('[data-testid="play-ai"]');
await a.waitForURL(/\/game\/\w+/);
const gamePath = new URL(a.url()).pathname;
const fresh2 = await newPage(browser);
const game = await load(fresh2, gamePath, '.cb-board .cb-piece');
console.log(JSON.stringify({ lobby, game }, null, 1));
await browser.close();
