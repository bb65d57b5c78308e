// A player's page: ratings per speed with their history (SVG chart), the ladder,
// results and the list of games; for another signed-in player, blocking them and
// reporting them to the operators. A closed account's page says so.

import { api, isMe, parseNdjson, session } from '../api.js';
import { lang, t } from '../i18n.js';
import { ratingChart } from '../chart.js';
import { colorName, resultScore, resultText, speedName } from '../format.js';
import { h, replace, setTitle, showError } from '../ui.js';
import { ratingDiffView } from '../components.js';
import { puzzleHistoryCard } from '../puzzles/history.js';

const SPEEDS = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence'];

/** The reasons a report may give, as the server knows them. */
export const REPORT_REASONS = ['cheat', 'stall', 'boost', 'comm', 'other'];

/** Points still needed for the next level: levels start at 100, 200 ... points. */
export function nextLevelIn(points) {
  const next = (Math.floor(Math.max(0, points) / 100) + 1) * 100;
  return next - points;
}

/** Wins, losses and draws of `name` over a list of games (export JSON). */
export function tally(games, name) {
  const out = { wins: 0, losses: 0, draws: 0, total: 0 };
  const me = String(name).toLowerCase();
  for (const g of games) {
    if (!g.status || g.status === 'started' || g.status === 'created' || g.status === 'aborted') continue;
    const white = (g.players?.white?.user?.name || '').toLowerCase();
    const color = white === me ? 'white' : 'black';
    out.total++;
    if (!g.winner) out.draws++;
    else if (g.winner === color) out.wins++;
    else out.losses++;
  }
  return out;
}

export async function mount(container, params) {
  const page = new Profile(container, params.name);
  await page.load();
  return page;
}

/** Games shown per page of the profile's list. */
const PAGE = 20;

/** The address of a page of `name`'s games with `filter`, before `until` (ms) if given. */
export function gamesPath(name, filter, until) {
  const q = new URLSearchParams({ max: String(PAGE) });
  if (filter.speed) q.set('perfType', filter.speed);
  if (filter.result) q.set('result', filter.result);
  if (filter.rated) q.set('rated', filter.rated);
  if (filter.vs) q.set('vs', filter.vs);
  if (until) q.set('until', String(until));
  return `/api/games/user/${encodeURIComponent(name)}?${q}`;
}

class Profile {
  constructor(container, name) {
    this.container = container;
    this.name = name;
    this.filter = { speed: '', result: '', rated: '', vs: '' };
    this.list = [];
    this.more = false;
  }

  destroy() {}

  onLang() {
    this.render();
  }

  async load() {
    setTitle(this.name);
    replace(this.container, h('p', { class: 'muted' }, t('common.loading')));
    const base = `/api/user/${encodeURIComponent(this.name)}`;
    const [user, history, games] = await Promise.allSettled([
      api(base),
      api(`${base}/rating-history`),
      api(`/api/games/user/${encodeURIComponent(this.name)}?max=50`, { accept: 'application/x-ndjson' }),
    ]);
    if (user.status === 'rejected') {
      replace(this.container, h('h1', {}, this.name), h('p', { class: 'error-text', role: 'alert' }, user.reason.message));
      showError(user.reason);
      return;
    }
    this.user = user.value;
    this.history = history.status === 'fulfilled' && Array.isArray(history.value) ? history.value : [];
    if (history.status === 'rejected') showError(history.reason);
    this.games = games.status === 'fulfilled'
      ? (typeof games.value === 'string' ? parseNdjson(games.value) : Array.isArray(games.value) ? games.value : [])
      : [];
    if (games.status === 'rejected') showError(games.reason);
    this.render();
    await this.loadGames(false);
  }

  /** The first page of games that pass the filter, or (`more`) the next one. */
  async loadGames(more) {
    const last = more ? this.list[this.list.length - 1] : null;
    let page;
    try {
      const answer = await api(gamesPath(this.name, this.filter, last ? last.createdAt - 1 : null), { accept: 'application/x-ndjson' });
      page = typeof answer === 'string' ? parseNdjson(answer) : Array.isArray(answer) ? answer : [];
      this.listError = '';
    } catch (err) {
      page = [];
      this.listError = err.message;
    }
    this.list = more ? [...this.list, ...page] : page;
    this.more = page.length === PAGE;
    this.renderGames();
  }

  render() {
    const u = this.user;
    if (!u) return;
    setTitle(u.username);
    const perfs = u.perfs || {};
    const ratingCards = SPEEDS.filter((s) => perfs[s]?.games > 0).map((s) => {
      const p = perfs[s];
      return h('div', { class: 'perf', 'data-speed': s },
        h('span', { class: 'perf-name' }, speedName(s)),
        h('strong', { class: 'perf-rating' }, `${Math.round(p.rating)}${p.prov ? '?' : ''}`),
        h('span', { class: 'muted' }, t('profile.games', { n: p.games ?? 0 })),
        p.rd ? h('span', { class: 'muted', title: t('profile.rdLong') }, t('profile.rd', { n: Math.round(p.rd) })) : null);
    });
    const ladder = u.ladder || {};
    const level = ladder.level === 'unrated' || ladder.level === undefined ? t('profile.unrated') : t('profile.level', { n: ladder.level });
    const series = this.history.map((s) => ({ name: String(s.name).toLowerCase(), label: speedName(String(s.name).toLowerCase()), points: s.points }));
    const chart = ratingChart(series, { locale: lang(), title: t('profile.ratingHistory') });
    const score = tally(this.games, u.username);
    this.actionsEl = h('div', { class: 'profile-actions' });
    this.reportEl = h('div', { class: 'report-box' });
    this.reporting = false;
    replace(this.container,
      h('div', { class: 'profile-head' },
        h('h1', {}, u.title ? h('span', { class: 'user-title', 'data-testid': 'user-title', title: t(u.title === 'BOT' ? 'profile.botLong' : 'profile.title') }, u.title) : null,
          u.title ? ' ' : null, u.username),
        u.createdAt ? h('p', { class: 'muted' }, t('profile.memberSince', { date: new Date(u.createdAt).toLocaleDateString(lang()) })) : null,
        this.actionsEl),
      this.reportEl,
      h('section', { class: 'card', 'aria-labelledby': 'ratings-title' },
        h('h2', { id: 'ratings-title' }, t('profile.ratings')),
        ratingCards.length ? h('div', { class: 'perfs' }, ratingCards) : h('p', { class: 'muted' }, t('profile.noRatings'))),
      h('section', { class: 'card', 'aria-labelledby': 'ladder-title' },
        h('h2', { id: 'ladder-title' }, t('profile.ladder')),
        h('p', { 'data-testid': 'ladder' }, h('strong', {}, level), ' · ',
          t('profile.points', { n: ladder.points ?? 0 }), ' · ', t('profile.games', { n: ladder.games ?? 0 }),
          typeof ladder.level === 'number' && ladder.level > 1
            ? [' · ', t('profile.toNextLevel', { n: nextLevelIn(ladder.points ?? 0), level: ladder.level - 1 })]
            : null),
        h('p', { class: 'muted' }, t('profile.ladderHow'))),
      h('section', { class: 'card', 'aria-labelledby': 'history-title' },
        h('h2', { id: 'history-title' }, t('profile.ratingHistory')),
        chart ? h('div', { class: 'chart-box', 'data-testid': 'rating-chart' }, chart) : h('p', { class: 'muted' }, t('profile.noHistory'))),
      isMe(u.username) && !session.user?.guest ? puzzleHistoryCard() : null,
      h('section', { class: 'card', 'aria-labelledby': 'games-title' },
        h('h2', { id: 'games-title' }, t('profile.recentGames')),
        h('p', { 'data-testid': 'tally' }, t('profile.tally', { wins: score.wins, losses: score.losses, draws: score.draws })),
        this.filterForm(),
        this.gamesEl));
    this.renderActions();
    this.renderGames();
  }

  /**
   * The buttons beside the name: one's own settings; another's challenge, block
   * and report; none for a closed account.
   */
  renderActions() {
    const u = this.user;
    if (u.disabled) {
      replace(this.actionsEl, h('p', { class: 'error-text', 'data-testid': 'account-closed' }, t('profile.closed')));
      return;
    }
    if (isMe(u.username)) {
      replace(this.actionsEl,
        h('a', { class: 'button', href: '/settings' }, t('nav.settings')),
        h('a', { class: 'button', href: '/account' }, t('account.title')));
      return;
    }
    const signedIn = !!session.user;
    replace(this.actionsEl,
      h('a', { class: 'button primary', 'data-action': 'challenge', href: `/?opponent=${encodeURIComponent(u.username)}` },
        t('profile.challenge', { name: u.username })),
      signedIn ? h('button', {
        type: 'button', class: 'button', 'data-action': 'block', 'aria-pressed': String(!!u.blocking),
        title: t(u.blocking ? 'profile.unblockHint' : 'profile.blockHint', { name: u.username }),
        onclick: (e) => this.toggleBlock(e.currentTarget),
      }, t(u.blocking ? 'profile.unblock' : 'profile.block')) : null,
      signedIn ? h('button', {
        type: 'button', class: 'button', 'data-action': 'report', 'aria-expanded': String(!!this.reporting), 'aria-controls': this.reporting ? 'report-form' : null,
        onclick: () => this.openReport(!this.reporting),
      }, t('profile.report')) : null,
      h('p', { class: 'field-error', role: 'alert', 'data-testid': 'block-error' }, this.blockError || ''));
  }

  async toggleBlock(button) {
    const u = this.user;
    button.disabled = true;
    try {
      await api(`/api/rel/${u.blocking ? 'unblock' : 'block'}/${encodeURIComponent(u.username)}`, { method: 'POST' });
      u.blocking = !u.blocking;
      this.blockError = '';
    } catch (err) {
      this.blockError = err.message;
    }
    this.renderActions();
    this.actionsEl.querySelector('[data-action="block"]')?.focus();
  }

  /** Opens (or closes) the report form under the name. */
  openReport(open) {
    this.reporting = open;
    this.renderActions();
    if (!open) {
      replace(this.reportEl);
      return;
    }
    const reason = h('select', { id: 'report-reason' },
      REPORT_REASONS.map((r) => h('option', { value: r }, t(`report.reason.${r}`))));
    const text = h('textarea', { id: 'report-text', required: true, maxlength: 2000, rows: 4, 'aria-describedby': 'report-text-hint' });
    const error = h('p', { class: 'field-error', role: 'alert', 'data-testid': 'report-error' });
    const submit = h('button', { type: 'submit', class: 'button primary' }, t('report.send'));
    replace(this.reportEl, h('form', {
      class: 'card report-form',
      id: 'report-form',
      'aria-labelledby': 'report-title',
      onsubmit: async (e) => {
        e.preventDefault();
        error.textContent = '';
        submit.disabled = true;
        try {
          await api('/api/report', { json: { username: this.user.username, reason: reason.value, text: text.value.trim() } });
          this.reporting = false;
          this.renderActions();
          replace(this.reportEl, h('p', { class: 'ok-text', role: 'status', 'data-testid': 'report-done' }, t('report.thanks')));
        } catch (err) {
          error.textContent = err.message;
          submit.disabled = false;
        }
      },
    },
    h('h2', { id: 'report-title' }, t('report.title', { name: this.user.username })),
    h('div', { class: 'field' }, h('label', { for: 'report-reason' }, t('report.reason')), reason),
    h('div', { class: 'field' }, h('label', { for: 'report-text' }, t('report.text')), text,
      h('p', { class: 'hint', id: 'report-text-hint' }, t('report.textHint'))),
    error,
    h('div', { class: 'button-row' }, submit,
      h('button', { type: 'button', class: 'button', onclick: () => this.openReport(false) }, t('common.cancel')))));
    reason.focus();
  }

  /** Speed, result, rated and opponent: the list follows each change. */
  filterForm() {
    const f = this.filter;
    const choose = (key, label, options) => h('label', { class: 'filter' }, h('span', {}, label),
      h('select', {
        'data-filter': key,
        onchange: (e) => {
          f[key] = e.target.value;
          this.loadGames(false);
        },
      }, options.map(([value, text]) => h('option', { value, selected: f[key] === value }, text))));
    this.gamesEl = h('div', { class: 'games-list', 'data-testid': 'games-list', 'aria-live': 'polite' });
    return h('div', { class: 'game-filters', role: 'group', 'aria-label': t('profile.filters') },
      choose('speed', t('profile.speed'), [['', t('profile.any')], ...SPEEDS.map((sp) => [sp, speedName(sp)])]),
      choose('result', t('profile.result'), [['', t('profile.any')], ['win', t('profile.outcome.win')], ['loss', t('profile.outcome.loss')], ['draw', t('profile.outcome.draw')]]),
      choose('rated', t('create.rated'), [['', t('profile.any')], ['true', t('seek.rated')], ['false', t('seek.casual')]]),
      h('label', { class: 'filter' }, h('span', {}, t('profile.opponent')),
        h('input', {
          type: 'search', 'data-filter': 'vs', value: f.vs, autocomplete: 'off',
          onchange: (e) => {
            f.vs = e.target.value.trim();
            this.loadGames(false);
          },
        })));
  }

  renderGames() {
    if (!this.gamesEl) return;
    replace(this.gamesEl,
      this.listError ? h('p', { class: 'error-text', role: 'alert' }, this.listError) : this.gameList(),
      this.more ? h('button', { type: 'button', class: 'button', 'data-action': 'more-games', onclick: () => this.loadGames(true) }, t('profile.older')) : null);
  }

  gameList() {
    if (!this.list.length) return h('p', { class: 'muted' }, t('profile.noGames'));
    const me = this.user.username.toLowerCase();
    return h('table', { class: 'table games-table' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, t('profile.opponent')),
        h('th', { scope: 'col' }, t('profile.colorCol')),
        h('th', { scope: 'col' }, t('profile.result')),
        h('th', { scope: 'col' }, t('profile.speed')),
        h('th', { scope: 'col' }, t('profile.date')))),
      h('tbody', {}, this.list.map((g) => {
        const white = g.players?.white?.user?.name || '?';
        const black = g.players?.black?.user?.name || '?';
        const color = white.toLowerCase() === me ? 'white' : 'black';
        const opponent = color === 'white' ? black : white;
        const outcome = g.status === 'started' ? 'playing' : !g.winner ? 'draw' : g.winner === color ? 'win' : 'loss';
        return h('tr', { class: `outcome-${outcome}` },
          h('td', {}, h('a', { href: `/@/${encodeURIComponent(opponent)}` }, opponent)),
          h('td', {}, colorName(color)),
          h('td', { title: resultText(g) || '' }, `${resultScore(g)} ${t(`profile.outcome.${outcome}`)}`,
            typeof g.players?.[color]?.ratingDiff === 'number' ? ratingDiffView(g.players[color].ratingDiff) : null),
          h('td', {}, speedName(g.speed)),
          h('td', {}, h('a', { href: `/game/${encodeURIComponent(g.id)}`, 'data-testid': 'game-link', title: t('profile.gameLink') },
            g.createdAt ? new Date(g.createdAt).toLocaleDateString(lang()) : t('profile.gameLink'))));
      })));
  }
}
