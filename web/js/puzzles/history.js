// The "Puzzle history" block of one's own profile: the last rounds played
// (GET /api/puzzle/activity, NDJSON, newest first) and the last 30 days in
// numbers (GET /api/puzzle/dashboard/30).

import { api, parseNdjson } from '../api.js';
import { lang, t } from '../i18n.js';
import { h, replace } from '../ui.js';

/** How many rounds the block lists, and over how many days it counts. */
export const HISTORY_ROUNDS = 20;
export const HISTORY_DAYS = 30;

/** The activity's lines as rows: {date (ms), id, rating, win}. */
export function historyRows(lines) {
  return (lines || []).filter((line) => line && line.puzzle && line.puzzle.id).map((line) => ({
    date: Number(line.date) || 0,
    id: String(line.puzzle.id),
    rating: Math.round(Number(line.puzzle.rating) || 0),
    win: !!line.win,
  }));
}

/** The card, filled once its data arrive. */
export function puzzleHistoryCard() {
  const body = h('div', { class: 'puzzle-history-body', 'data-testid': 'puzzle-history', 'aria-live': 'polite' },
    h('p', { class: 'muted' }, t('common.loading')));
  const card = h('section', { class: 'card puzzle-history', 'aria-labelledby': 'puzzle-history-title' },
    h('h2', { id: 'puzzle-history-title' }, t('puzzle.history')), body);
  fill(body);
  return card;
}

async function fill(body) {
  const [activity, dashboard] = await Promise.allSettled([
    api(`/api/puzzle/activity?max=${HISTORY_ROUNDS}`, { accept: 'application/x-ndjson' }),
    api(`/api/puzzle/dashboard/${HISTORY_DAYS}`),
  ]);
  if (activity.status === 'rejected') {
    replace(body, h('p', { class: 'error-text', role: 'alert' }, activity.reason.message));
    return;
  }
  const value = activity.value;
  const rows = historyRows(typeof value === 'string' ? parseNdjson(value) : Array.isArray(value) ? value : [value]);
  const global = dashboard.status === 'fulfilled' && dashboard.value ? dashboard.value.global : null;
  const lg = lang();
  replace(body,
    global ? summary(global) : null,
    rows.length
      ? h('table', { class: 'table puzzle-history-table' },
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col' }, t('puzzle.historyDate')),
          h('th', { scope: 'col' }, t('puzzle.historyPuzzle')),
          h('th', { scope: 'col' }, t('puzzle.historyRating')),
          h('th', { scope: 'col' }, t('puzzle.historyResult')))),
        h('tbody', {}, rows.map((row) => h('tr', { class: row.win ? 'puzzle-won' : 'puzzle-lost', 'data-puzzle': row.id },
          h('td', {}, row.date ? new Date(row.date).toLocaleDateString(lg) : ''),
          h('td', {}, h('a', { href: `/training/${encodeURIComponent(row.id)}` }, row.id)),
          h('td', {}, String(row.rating)),
          h('td', { class: row.win ? 'ok-text' : 'error-text' }, t(row.win ? 'puzzle.won' : 'puzzle.lost'))))))
      : h('p', { class: 'muted' }, t('puzzle.historyEmpty')),
    h('p', {}, h('a', { href: '/training' }, t('puzzle.play'))));
}

function summary(global) {
  const nb = Number(global.nb) || 0;
  if (!nb) return h('p', { class: 'muted', 'data-testid': 'puzzle-dashboard' }, t('puzzle.dashboardNone', { days: HISTORY_DAYS }));
  return h('p', { 'data-testid': 'puzzle-dashboard' }, t('puzzle.dashboard', {
    days: HISTORY_DAYS,
    nb,
    firstWins: Number(global.firstWins) || 0,
    replayWins: Number(global.replayWins) || 0,
    performance: Number(global.performance) || 0,
  }));
}
