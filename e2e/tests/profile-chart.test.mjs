// The rating chart of a profile keeps every label inside the picture: the last
// date label (e.g. "Nov 3", at the right edge) used to be cut off.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, launch, newPage, noProblems, register, screenshot } from '../lib/helpers.mjs';

// Ten days up to Nov 3: day ticks, the last one on the right edge. Months are 0-based.
const HISTORY = [
  { name: 'Blitz', points: [[2026, 9, 24, 1500], [2026, 9, 27, 1532], [2026, 9, 30, 1511], [2026, 10, 3, 1547]] },
  { name: 'Rapid', points: [[2026, 9, 25, 1480], [2026, 10, 2, 1466]] },
  { name: 'Correspondence', points: [[2026, 9, 26, 1700], [2026, 10, 1, 1712]] },
  { name: 'Classical', points: [[2026, 9, 28, 1612]] },
  { name: 'Bullet', points: [[2026, 9, 29, 1390], [2026, 10, 3, 1402]] },
];

test('profile rating chart: the date labels stay inside the chart', { timeout: 60_000 }, async (t) => {
  const browser = await launch();
  try {
    for (const [lang, viewport] of [['en', { width: 1200, height: 900 }], ['zh-Hans', { width: 360, height: 740 }]]) {
      const page = await newPage(browser, { lang, viewport });
      const name = await register(page);
      await page.route(`**/api/user/${name}/rating-history`, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(HISTORY) }));
      await page.goto(`${BASE}/@/${name}`);
      const chart = page.locator('[data-testid="rating-chart"] svg');
      await chart.waitFor();
      const result = await chart.evaluate((svg) => {
        const [, , width, height] = svg.getAttribute('viewBox').split(' ').map(Number);
        return [...svg.querySelectorAll('text')].map((el) => {
          const b = el.getBBox();
          return { text: el.textContent, left: b.x, right: b.x + b.width, top: b.y, bottom: b.y + b.height, width, height };
        });
      });
      const dates = result.filter((r) => /3|Nov|11月/.test(r.text));
      assert.ok(dates.length, 'the Nov 3 label is drawn');
      for (const r of result) {
        assert.ok(r.left >= 0 && r.right <= r.width + 0.5 && r.top >= 0 && r.bottom <= r.height + 0.5, `"${r.text}" inside the chart (${JSON.stringify(r)})`);
      }
      // Every point lies within the plot (between the top grid line and the x axis).
      const outside = await chart.evaluate((svg) => {
        const axis = [...svg.querySelectorAll('line.chart-axis')].find((l) => l.getAttribute('y1') === l.getAttribute('y2'));
        const bottom = Number(axis.getAttribute('y1'));
        const top = Math.min(...[...svg.querySelectorAll('.chart-grid line:not(.chart-axis):not(.chart-vgrid)')].map((l) => Number(l.getAttribute('y1'))));
        return [...svg.querySelectorAll('circle')].map((c) => Number(c.getAttribute('cy'))).filter((y) => y < top - 0.5 || y > bottom + 0.5);
      });
      assert.deepEqual(outside, [], 'no point outside the plot');
      await chart.scrollIntoViewIfNeeded();
      await screenshot(page, `profile-chart-${lang}`);
      assert.deepEqual(noProblems(t, page), []);
      await page.context().close();
    }
  } finally {
    await browser.close();
  }
});
