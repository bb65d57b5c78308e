// The arbiter's console (/arbiter): the games one arbitrates, those waiting for a
// decision first, each with its clocks running live and every action of the
// arbiter's seat (Laws 12): clocks, warnings, penalties, claims, results,
// adjournment and setting the position back. Each action asks for the reason
// that goes into the game's record.

import { api, session } from '../api.js';
import { t } from '../i18n.js';
import { colorName } from '../format.js';
import { formatClock, h, replace, setTitle, showError, toast } from '../ui.js';
import { fromLocalInput, noteText } from './seat.js';

const POLL_MS = 2000;
const TICK_MS = 200;

export async function mount(container, params, ctx) {
  const page = new Console(container, ctx);
  await page.start();
  return page;
}

/**
 * A game's clocks now: its state's clocks were `age` ms old when the list was
 * loaded at `at` (performance.now()), and the running one has run since.
 */
export function clocksNow(state, at, now, age = 0) {
  const out = {};
  for (const color of ['white', 'black']) {
    const ms = color === 'white' ? state.wtime : state.btime;
    const running = state.running === color && !state.paused && !state.adjourned;
    out[color] = Math.max(0, ms - (running ? age + now - at : 0));
  }
  return out;
}

class Console {
  constructor(container, ctx) {
    this.container = container;
    this.navigate = ctx.navigate;
    // /arbiter?tournament=ID: only that tournament's games.
    this.tournament = new URLSearchParams(window.location.search).get('tournament');
    this.games = null;
    // What the arbiter typed or chose per game, kept across the list's redraws.
    this.forms = {};
  }

  async start() {
    this.render();
    await this.load();
    this.timer = setInterval(() => this.load(true), POLL_MS);
    this.ticker = setInterval(() => this.tick(), TICK_MS);
  }

  destroy() {
    clearInterval(this.timer);
    clearInterval(this.ticker);
  }

  onLang() {
    this.render();
    this.draw();
  }

  render() {
    setTitle(t('arbiter.title'));
    this.list = h('div', { class: 'arbiter-list', 'data-testid': 'arbiter-games' });
    const filter = this.tournament
      ? h('p', { 'data-testid': 'arbiter-tournament' }, t('arbiter.ofTournament'), ' ',
        h('a', { href: `/tournament/${encodeURIComponent(this.tournament)}` }, this.tournament), ' · ',
        h('a', { href: '/arbiter' }, t('arbiter.allGames')))
      : null;
    replace(this.container, h('div', { class: 'page-head' }, h('h1', {}, t('arbiter.title'))),
      h('p', { class: 'muted' }, t('arbiter.intro')), filter, this.list);
  }

  async load(quiet) {
    if (!session.user) {
      replace(this.list, h('p', {}, t('arbiter.signIn')));
      return;
    }
    try {
      const query = this.tournament ? `?tournament=${encodeURIComponent(this.tournament)}` : '';
      const answer = await api(`/api/arbiter/games${query}`);
      this.games = answer.games || [];
      this.loadedAt = performance.now();
    } catch (err) {
      if (!quiet) showError(err);
      return;
    }
    this.draw();
  }

  draw() {
    if (!this.games) {
      replace(this.list, h('p', { class: 'muted' }, t('common.loading')));
      return;
    }
    if (!this.games.length) {
      replace(this.list, h('p', { class: 'muted', 'data-testid': 'arbiter-none' }, t('arbiter.none')));
      return;
    }
    // Redraw only when something changed (the clocks tick by themselves); what
    // the arbiter typed is kept in this.forms.
    const signature = JSON.stringify(this.games.map(({ age, ...rest }) => rest));
    if (signature === this.signature) return;
    this.signature = signature;
    const focused = document.activeElement && document.activeElement.dataset.field;
    const focusedGame = focused && document.activeElement.closest('.arbiter-game')?.dataset.game;
    replace(this.list, this.games.map((g) => this.card(g)));
    if (focusedGame) {
      const el = this.list.querySelector(`.arbiter-game[data-game="${focusedGame}"] [data-field="${focused}"]`);
      if (el) el.focus();
    }
  }

  tick() {
    if (!this.games || !this.clockEls) return;
    const now = performance.now();
    for (const g of this.games) {
      const els = this.clockEls[g.id];
      if (!els || g.state.status !== 'started') continue;
      const clocks = clocksNow(g.state, this.loadedAt, now, g.age || 0);
      for (const color of ['white', 'black']) els[color].textContent = formatClock(clocks[color]);
    }
  }

  card(game) {
    this.clockEls = this.clockEls || {};
    const state = game.state;
    const live = state.status === 'started';
    const shown = clocksNow(state, this.loadedAt, performance.now(), game.age || 0);
    const clock = (color) => h('span', { class: `arbiter-clock${state.running === color ? ' running' : ''}`, 'data-testid': `arbiter-clock-${color}` },
      formatClock(shown[color]));
    const white = clock('white');
    const black = clock('black');
    this.clockEls[game.id] = { white, black };
    const flags = [];
    if (game.needsArbiter) flags.push(h('span', { class: 'badge warn', 'data-testid': 'needs-arbiter' }, t('arbiter.needsDecision')));
    if (state.paused) flags.push(h('span', { class: 'badge' }, t('seat.paused')));
    if (state.adjourned) flags.push(h('span', { class: 'badge' }, t('arbiter.adjourned')));
    if (!live) flags.push(h('span', { class: 'badge' }, state.score || state.result || state.status));
    const notes = Array.isArray(state.arbiter) ? state.arbiter : [];
    return h('article', { class: 'arbiter-game card', 'data-game': game.id },
      h('header', {},
        h('a', { href: `/game/${encodeURIComponent(game.id)}` }, `${game.white.name} – ${game.black.name}`),
        ' ', h('span', { class: 'muted' }, `${game.ruleset} · ${game.timeControl}`), ' ', flags),
      h('p', { class: 'arbiter-clocks' }, colorName('white'), ' ', white, ' · ', colorName('black'), ' ', black),
      notes.length ? h('ol', { class: 'seat-notes' }, notes.slice(-3).map((n) => h('li', {}, noteText(n)))) : null,
      this.controls(game, live));
  }

  /** The controls of one game; every one sends the reason typed above them. */
  controls(game, live) {
    const state = game.state;
    const form = this.forms[game.id] || (this.forms[game.id] = {
      reason: '', color: 'white', seconds: '60', result: '1-0', plies: '1', when: '',
    });
    // An input bound to this game's form values.
    const bound = (tag, key, attrs, ...children) => {
      const el = h(tag, { ...attrs, 'data-field': key, oninput: (e) => { form[key] = e.target.value; }, onchange: (e) => { form[key] = e.target.value; } }, ...children);
      el.value = form[key];
      return el;
    };
    const reason = bound('input', 'reason', { type: 'text', maxlength: 400, placeholder: t('arbiter.reason'), 'aria-label': t('arbiter.reason'), 'data-testid': 'arbiter-reason' });
    const color = bound('select', 'color', { 'aria-label': t('arbiter.player'), 'data-testid': 'arbiter-color' },
      h('option', { value: 'white' }, colorName('white')), h('option', { value: 'black' }, colorName('black')));
    const seconds = bound('input', 'seconds', { type: 'number', min: 0, step: 1, size: 5, 'aria-label': t('arbiter.seconds'), 'data-testid': 'arbiter-seconds' });
    const send = (action, fields = {}) => this.act(game.id, action, { reason: reason.value, ...fields });
    const button = (label, action, fields, extra = {}) => h('button', {
      type: 'button', class: 'button', 'data-action': action, onclick: () => send(action, typeof fields === 'function' ? fields() : fields), ...extra,
    }, label);
    const result = bound('select', 'result', { 'aria-label': t('arbiter.result'), 'data-testid': 'arbiter-result' },
      ['1-0', '0-1', '1/2-1/2', '0-0', '1/2-0', '0-1/2', 'void'].map((r) => h('option', { value: r }, r === 'void' ? t('arbiter.void') : r.replaceAll('1/2', '½'))));
    const rows = [h('div', { class: 'arbiter-row' }, reason)];
    if (!live) {
      rows.push(h('div', { class: 'arbiter-row' }, result, button(t('arbiter.correctResult'), 'correct-result', () => ({ result: result.value }))));
      return h('div', { class: 'arbiter-controls' }, rows);
    }
    const pending = state.pending || {};
    if (pending.noProgressClaim) {
      rows.push(h('div', { class: 'arbiter-row decision' },
        t('seat.noProgressClaimed', { color: colorName(pending.noProgressClaim) }), ' ',
        button(t('arbiter.uphold'), 'decide-claim', { accept: true }), button(t('arbiter.reject'), 'decide-claim', { accept: false })));
    }
    if (pending.incrementRequest) {
      rows.push(h('div', { class: 'arbiter-row decision' },
        t('seat.incrementRequested', { color: colorName(pending.incrementRequest) }), ' ',
        button(t('arbiter.grantIncrement'), 'grant-increment', {})));
    }
    rows.push(h('div', { class: 'arbiter-row' },
      state.paused ? button(t('arbiter.resume'), 'resume', {}) : button(t('arbiter.pause'), 'pause', {}, { disabled: !!state.adjourned })));
    const withColor = () => ({ color: color.value, seconds: seconds.value });
    rows.push(h('div', { class: 'arbiter-row' }, color, seconds,
      button(t('arbiter.addTime'), 'add-time', withColor),
      button(t('arbiter.removeTime'), 'remove-time', withColor),
      button(t('arbiter.setTime'), 'set-time', withColor)));
    rows.push(h('div', { class: 'arbiter-row' },
      button(t('arbiter.warn'), 'warn', () => ({ color: color.value })),
      button(t('arbiter.penaltyTime'), 'penalty', () => ({ color: color.value, penalty: 'time', seconds: seconds.value })),
      button(t('arbiter.penaltyLoss'), 'penalty', () => ({ color: color.value, penalty: 'loss' })),
      button(t('arbiter.forfeit'), 'forfeit', () => ({ color: color.value }))));
    rows.push(h('div', { class: 'arbiter-row' }, result, button(t('arbiter.declare'), 'result', () => ({ result: result.value }))));
    const plies = bound('input', 'plies', { type: 'number', min: 1, step: 1, size: 3, 'aria-label': t('arbiter.plies'), 'data-testid': 'arbiter-plies' });
    rows.push(h('div', { class: 'arbiter-row' }, plies, button(t('arbiter.setBack'), 'set-back', () => ({ plies: plies.value }))));
    if (state.adjourned) {
      const when = bound('input', 'when', { type: 'datetime-local', 'aria-label': t('seat.resumeWhen') });
      rows.push(h('div', { class: 'arbiter-row' },
        button(t('arbiter.resumeNow'), 'resume-adjourned', {}),
        when, h('button', {
          type: 'button',
          class: 'button',
          'data-action': 'resume-adjourned-at',
          onclick: () => {
            const at = fromLocalInput(when.value);
            // Without a time the server would open the envelope at once.
            if (at === null) showError(new Error(t('arbiter.pickTime')));
            else send('resume-adjourned', { at });
          },
        }, t('arbiter.resumeAt'))));
    } else if (!state.adjournmentCalled) {
      rows.push(h('div', { class: 'arbiter-row' }, button(t('arbiter.adjourn'), 'adjourn', {})));
    }
    return h('div', { class: 'arbiter-controls' }, rows);
  }

  async act(id, action, fields) {
    try {
      await api(`/api/arbiter/game/${encodeURIComponent(id)}/${action}`, { form: fields });
      toast(t('arbiter.done'), 'info', 1500);
      // The reason went with this action; the next one gets its own.
      if (this.forms[id]) this.forms[id].reason = '';
      this.signature = null;
      await this.load(true);
    } catch (err) {
      showError(err);
    }
  }
}
