// SVG charts drawn by hand: the rating history (one line per speed, date axis)
// and the evaluation graph of a game (ply axis, clickable).

const NS = 'http://www.w3.org/2000/svg';

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  }
  for (const c of children) if (c) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

/** Round tick values covering [min, max], about `count` of them. */
export function niceTicks(min, max, count = 5) {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (min === max) {
    min -= 1;
    max += 1;
  }
  const span = max - min;
  const raw = span / Math.max(1, count);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
  const ticks = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) {
    ticks.push(Number(v.toFixed(10)));
  }
  return ticks;
}

const DAY = 86_400_000;

/** Tick times (ms) for a date axis from `min` to `max`: days, months or years. */
export function dateTicks(min, max, count = 5) {
  const span = Math.max(max - min, DAY);
  const ticks = [];
  if (span <= DAY * count * 2) {
    const step = Math.max(1, Math.round(span / DAY / count)) * DAY;
    const first = new Date(min);
    first.setUTCHours(0, 0, 0, 0);
    for (let v = first.getTime(); v <= max; v += step) if (v >= min) ticks.push(v);
    if (!ticks.length) ticks.push(first.getTime());
    return ticks;
  }
  const months = span / (DAY * 30.4);
  const stepMonths = months <= count ? 1 : months <= count * 3 ? 3 : months <= count * 6 ? 6 : 12 * Math.ceil(months / 12 / count);
  const d = new Date(min);
  let y = d.getUTCFullYear();
  let m = d.getUTCMonth();
  m = Math.ceil(m / stepMonths) * stepMonths;
  for (;;) {
    const v = Date.UTC(y + Math.floor(m / 12), m % 12, 1);
    if (v > max) break;
    if (v >= min) ticks.push(v);
    m += stepMonths;
  }
  return ticks;
}

function formatDate(ms, withDay, locale) {
  const options = withDay
    ? { month: 'short', day: 'numeric', timeZone: 'UTC' }
    : { year: 'numeric', month: 'short', timeZone: 'UTC' };
  try {
    return new Intl.DateTimeFormat(locale, options).format(new Date(ms));
  } catch {
    return new Date(ms).toISOString().slice(0, 10);
  }
}

/** About how wide a chart label of 12 px is (wide characters count double). */
export function labelWidth(text) {
  let units = 0;
  for (const ch of String(text)) units += ch.charCodeAt(0) > 0x2e7f ? 2 : 1;
  return units * 7;
}

/**
 * How to anchor a label centred at `x` so that it stays inside 0..`width`:
 * 'middle' when it fits, else 'start' at the left edge or 'end' at the right.
 */
export function labelAnchor(x, textWidth, width, margin = 2) {
  if (x + textWidth / 2 > width - margin) return 'end';
  if (x - textWidth / 2 < margin) return 'start';
  return 'middle';
}

/** The colours of the speeds (contrasting on light and dark backgrounds). */
export const SPEED_COLORS = {
  bullet: '#c2410c',
  blitz: '#1d4ed8',
  rapid: '#15803d',
  classical: '#7e22ce',
  correspondence: '#a16207',
};

/**
 * A line chart of rating history. `series`: [{name, label, points:[[y, m, d, rating]]}].
 * Returns an <svg> (or null without points).
 */
export function ratingChart(series, { locale = 'en', title = '', width = 640, height = 280 } = {}) {
  const lines = series
    .map((s) => ({
      ...s,
      pts: (s.points || []).map(([y, m, d, r]) => [Date.UTC(y, m, d), r]).sort((a, b) => a[0] - b[0]),
    }))
    .filter((s) => s.pts.length);
  if (!lines.length) return null;
  const all = lines.flatMap((s) => s.pts);
  let x0 = Math.min(...all.map((p) => p[0]));
  let x1 = Math.max(...all.map((p) => p[0]));
  if (x0 === x1) {
    x0 -= DAY;
    x1 += DAY;
  }
  const lo = Math.min(...all.map((p) => p[1])) - 20;
  const hi = Math.max(...all.map((p) => p[1])) + 20;
  const yTicks = niceTicks(lo, hi, 5);
  // The ticks start and end beyond every point, so no line leaves the plot.
  const yStep = yTicks.length > 1 ? yTicks[1] - yTicks[0] : 1;
  while (yTicks[0] > lo) yTicks.unshift(Number((yTicks[0] - yStep).toFixed(10)));
  while (yTicks[yTicks.length - 1] < hi) yTicks.push(Number((yTicks[yTicks.length - 1] + yStep).toFixed(10)));
  const y0 = yTicks[0];
  const y1 = yTicks[yTicks.length - 1];
  const pad = { l: 48, r: 16, t: 12, b: 44 };
  const w = width - pad.l - pad.r;
  const hgt = height - pad.t - pad.b;
  const sx = (x) => pad.l + ((x - x0) / (x1 - x0)) * w;
  const sy = (y) => pad.t + hgt - ((y - y0) / (y1 - y0 || 1)) * hgt;
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'chart rating-chart', role: 'img', 'aria-label': title });
  if (title) root.append(svg('title', {}, title));
  const grid = svg('g', { class: 'chart-grid' });
  for (const v of yTicks) {
    grid.append(svg('line', { x1: pad.l, x2: width - pad.r, y1: sy(v), y2: sy(v) }));
    grid.append(svg('text', { x: pad.l - 6, y: sy(v) + 4, 'text-anchor': 'end', class: 'chart-label' }, String(v)));
  }
  const xTicks = dateTicks(x0, x1, 5);
  const withDay = x1 - x0 <= DAY * 60;
  for (const v of xTicks) {
    const x = sx(v);
    const text = formatDate(v, withDay, locale);
    grid.append(svg('line', { x1: x, x2: x, y1: pad.t, y2: pad.t + hgt, class: 'chart-vgrid' }));
    grid.append(svg('text', { x, y: height - pad.b + 18, 'text-anchor': labelAnchor(x, labelWidth(text), width), class: 'chart-label' }, text));
  }
  grid.append(svg('line', { x1: pad.l, x2: pad.l, y1: pad.t, y2: pad.t + hgt, class: 'chart-axis' }));
  grid.append(svg('line', { x1: pad.l, x2: width - pad.r, y1: pad.t + hgt, y2: pad.t + hgt, class: 'chart-axis' }));
  root.append(grid);
  // The legend: one entry per speed, wrapping onto more rows (the picture grows).
  const legend = [];
  let legendX = pad.l;
  let legendRow = 0;
  for (const s of lines) {
    const label = `${s.label || s.name} ${s.pts[s.pts.length - 1][1]}`;
    const itemWidth = 16 + labelWidth(label);
    if (legendX > pad.l && legendX + itemWidth > width - 4) {
      legendX = pad.l;
      legendRow++;
    }
    legend.push({ label, x: legendX, row: legendRow });
    legendX += itemWidth + 16;
  }
  const totalHeight = height + legendRow * 18;
  root.setAttribute('viewBox', `0 0 ${width} ${totalHeight}`);
  lines.forEach((s, index) => {
    const color = SPEED_COLORS[s.name] || '#444';
    const d = s.pts.map((p, i) => `${i ? 'L' : 'M'}${sx(p[0]).toFixed(1)},${sy(p[1]).toFixed(1)}`).join(' ');
    const g = svg('g', { class: 'chart-series', 'data-speed': s.name });
    g.append(svg('path', { d, fill: 'none', stroke: color, 'stroke-width': 2.5, 'stroke-linejoin': 'round' }));
    for (const p of s.pts) {
      const dot = svg('circle', { cx: sx(p[0]), cy: sy(p[1]), r: 3.5, fill: color });
      dot.append(svg('title', {}, `${s.label || s.name}: ${p[1]} (${formatDate(p[0], true, locale)})`));
      g.append(dot);
    }
    root.append(g);
    const { label, x, row } = legend[index];
    const y = height - 16 + row * 18;
    root.append(svg('rect', { x, y, width: 12, height: 12, fill: color }));
    root.append(svg('text', { x: x + 16, y: y + 10, class: 'chart-legend' }, label));
  });
  return root;
}

/** Centipawns (or mate) as a bounded score in pawns, for the graph. */
export function evalToPawns(ev) {
  if (!ev) return null;
  if (typeof ev.mate === 'number') {
    if (ev.mate === 0) return ev.mated === 'white' ? -10 : ev.mated === 'black' ? 10 : null;
    return ev.mate > 0 ? 10 : -10;
  }
  if (typeof ev.cp === 'number') return Math.max(-10, Math.min(10, ev.cp / 100));
  return null;
}

/**
 * The evaluation graph (with `marks`: [{index, kind}] dots for judged moves):
 * `evals[i]` is the evaluation after ply i (index 0 = the
 * starting position) as {cp} or {mate}, null (none) or undefined (not yet).
 * `total` is the number of positions of the game (the x axis), so the graph fills
 * in as evaluations arrive. `onPick(ply)` on click. Null while nothing is known.
 */
export function evalChart(evals, { current = 0, onPick, title = '', total = evals.length, width = 600, height = 120, marks = [] } = {}) {
  const count = Math.max(total, evals.length);
  const values = Array.from({ length: count }, (_, i) => evalToPawns(evals[i]));
  const known = values.map((v, i) => [i, v]).filter(([, v]) => v !== null);
  if (!known.length) return null;
  const n = Math.max(1, count - 1);
  const sx = (i) => (i / n) * width;
  const sy = (v) => height / 2 - (v / 10) * (height / 2 - 4);
  const root = svg('svg', {
    viewBox: `0 0 ${width} ${height}`, class: 'chart eval-chart', role: 'img', 'aria-label': title, preserveAspectRatio: 'none',
    'data-evaluated': known.length, 'data-total': count,
  });
  if (title) root.append(svg('title', {}, title));
  root.append(svg('rect', { x: 0, y: 0, width, height: height / 2, class: 'eval-white-zone' }));
  root.append(svg('rect', { x: 0, y: height / 2, width, height: height / 2, class: 'eval-black-zone' }));
  const first = known[0][0];
  const last = known[known.length - 1][0];
  let d = `M${sx(first).toFixed(1)},${height / 2}`;
  for (const [i, v] of known) d += ` L${sx(i).toFixed(1)},${sy(v).toFixed(1)}`;
  d += ` L${sx(last).toFixed(1)},${height / 2} Z`;
  root.append(svg('path', { d, class: 'eval-area' }));
  root.append(svg('line', { x1: 0, x2: width, y1: height / 2, y2: height / 2, class: 'eval-zero' }));
  root.append(svg('line', { x1: sx(current), x2: sx(current), y1: 0, y2: height, class: 'eval-cursor', 'vector-effect': 'non-scaling-stroke' }));
  // Judged moves (inaccuracy, mistake, blunder) as dots on the curve.
  for (const { index, kind } of marks) {
    const v = values[index];
    if (v === null || v === undefined) continue;
    root.append(svg('ellipse', {
      cx: sx(index).toFixed(1), cy: sy(v).toFixed(1), rx: 4, ry: 4, class: `eval-mark mark-${kind}`, 'data-mark': kind,
    }));
  }
  if (onPick) {
    root.addEventListener('click', (e) => {
      const box = root.getBoundingClientRect();
      const ply = Math.round(((e.clientX - box.left) / box.width) * n);
      onPick(Math.max(0, Math.min(count - 1, ply)));
    });
  }
  return root;
}
