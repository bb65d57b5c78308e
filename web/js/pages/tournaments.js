// Tournaments: the upcoming, running and finished ones, and the form that
// creates a Swiss, a round robin or an arena (organisers: any logged-in account).

import { api, session } from '../api.js';
import { t } from '../i18n.js';
import { RULESETS, rulesetName, timeControlLabel } from '../format.js';
import { h, replace, setTitle, showError } from '../ui.js';

/** The systems the server runs, as the API names them. */
export const SYSTEMS = ['swiss', 'roundRobin', 'doubleRoundRobin', 'arena'];

/** A system's name in the page's language. */
export function systemName(system) {
  return t(`tournament.system.${system || 'swiss'}`);
}

/** "in 3 min", "in 1 h 5 min", "now" from a number of seconds. */
export function countdownText(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s === 0) return t('tournament.now');
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const secs = s % 60;
  const clock = hours > 0
    ? `${hours}:${String(minutes).padStart(2, '0')}:${String(secs).padStart(2, '0')}`
    : `${minutes}:${String(secs).padStart(2, '0')}`;
  return t('tournament.in', { time: clock });
}

/** Where a tournament of `system` is created: an arena as lichess's arenas are. */
export function createPath(system) {
  return system === 'arena' ? '/api/tournament' : '/api/swiss/new';
}

/**
 * The fields `POST /api/swiss/new` takes (or, for an arena, lichess's
 * `POST /api/tournament`), from what the form holds; an error names the field
 * that is wrong.
 */
export function createFields(form, now = Date.now()) {
  const minutes = Number(form.minutes);
  const increment = Number(form.increment);
  if (!Number.isFinite(minutes) || minutes <= 0 || minutes > 180) throw new Error(t('tournament.error.minutes'));
  if (!Number.isInteger(increment) || increment < 0 || increment > 180) throw new Error(t('tournament.error.increment'));
  const startsIn = Number(form.startsIn);
  if (!Number.isFinite(startsIn) || startsIn < 0 || startsIn > 60 * 24 * 30) throw new Error(t('tournament.error.startsIn'));
  if (form.system === 'arena') {
    // Lichess's arena takes at most 60 minutes and 60 s of increment.
    if (minutes > 60) throw new Error(t('tournament.error.minutes'));
    if (increment > 60) throw new Error(t('tournament.error.increment'));
    const duration = Number(form.duration);
    if (!Number.isInteger(duration) || duration < 1 || duration > 720) throw new Error(t('tournament.error.duration'));
    return {
      name: form.name.trim() || undefined,
      clockTime: minutes,
      clockIncrement: increment,
      minutes: duration,
      startDate: now + Math.round(startsIn * 60_000),
      rated: form.rated ? 'true' : 'false',
      berserkable: form.berserkable ? 'true' : 'false',
      ruleset: form.ruleset,
      description: form.description.trim() || undefined,
      password: form.password || undefined,
    };
  }
  const fields = {
    name: form.name.trim() || undefined,
    system: form.system,
    'clock.limit': Math.round(minutes * 60),
    'clock.increment': increment,
    startsAt: now + Math.round(startsIn * 60_000),
    roundInterval: form.roundInterval,
    rated: form.rated ? 'true' : 'false',
    ruleset: form.ruleset,
    description: form.description.trim() || undefined,
    password: form.password || undefined,
  };
  if (form.system === 'swiss') {
    const rounds = Number(form.rounds);
    if (!Number.isInteger(rounds) || rounds < 1 || rounds > 100) throw new Error(t('tournament.error.rounds'));
    fields.nbRounds = rounds;
  }
  return fields;
}

export async function mount(container, _params, { navigate }) {
  const page = new TournamentList(container, navigate);
  await page.load();
  return page;
}

class TournamentList {
  constructor(container, navigate) {
    this.container = container;
    this.navigate = navigate;
    this.lists = null;
    this.form = {
      name: '', system: 'swiss', rounds: '5', minutes: '5', increment: '3', startsIn: '5',
      roundInterval: '10', rated: true, ruleset: 'online', description: '', password: '',
      duration: '30', berserkable: true,
    };
  }

  destroy() {}

  onLang() {
    this.render();
  }

  async load() {
    setTitle(t('tournament.title'));
    replace(this.container, h('p', { class: 'muted' }, t('common.loading')));
    try {
      // Every system's tournaments, arenas included.
      this.lists = await api('/api/swiss?nb=30');
    } catch (err) {
      showError(err);
      this.lists = { created: [], started: [], finished: [] };
    }
    this.render();
  }

  render() {
    setTitle(t('tournament.title'));
    const sections = [
      ['started', 'tournament.running'],
      ['created', 'tournament.upcoming'],
      ['finished', 'tournament.finished'],
    ].map(([status, key]) => h('section', { class: 'card tournament-section', 'data-status': status },
      h('h2', {}, t(key)), this.table(this.lists?.[status] || [])));
    replace(this.container,
      h('div', { class: 'page-head' }, h('h1', {}, t('tournament.title'))),
      h('div', { class: 'tournament-columns' },
        h('div', { class: 'tournament-lists' }, sections),
        session.user ? this.createForm() : h('p', { class: 'card muted' }, t('tournament.signInToCreate'))));
  }

  table(list) {
    if (!list.length) return h('p', { class: 'muted' }, t('tournament.none'));
    return h('table', { class: 'table tournament-table' },
      h('thead', {}, h('tr', {},
        h('th', {}, t('tournament.name')), h('th', {}, t('tournament.system')),
        h('th', {}, t('tournament.clock')), h('th', {}, t('tournament.players')),
        h('th', {}, t('tournament.rounds')))),
      h('tbody', {}, list.map((tour) => h('tr', { 'data-tournament': tour.id },
        h('td', {}, h('a', { href: `/tournament/${encodeURIComponent(tour.id)}` }, tour.name)),
        h('td', {}, systemName(tour.system)),
        h('td', {}, timeControlLabel(tour.clock || {})),
        h('td', {}, String(tour.nbPlayers ?? 0)),
        h('td', {}, tour.system === 'arena'
          ? t('tournament.minutesLong', { n: tour.minutes ?? '?' })
          : `${tour.round ?? 0}/${tour.nbRounds ?? '?'}`)))));
  }

  createForm() {
    const f = this.form;
    const input = (key, attrs = {}) => h('input', {
      id: `tc-${key}`, value: String(f[key]), ...attrs,
      oninput: (e) => { f[key] = e.target.value; },
    });
    const field = (key, label, control, hint) => h('div', { class: 'field', 'data-field': key },
      h('label', { for: `tc-${key}` }, label), control, hint ? h('p', { class: 'hint' }, hint) : null);
    const rounds = field('rounds', t('tournament.nbRounds'), input('rounds', { type: 'number', min: '1', max: '100' }));
    const duration = field('duration', t('tournament.duration'), input('duration', { type: 'number', min: '1', max: '720' }));
    const interval = field('roundInterval', t('tournament.roundInterval'), input('roundInterval', { type: 'number', min: '0', max: '604800' }));
    const berserk = h('div', { class: 'field', 'data-field': 'berserkable' }, h('label', { class: 'check' },
      h('input', { type: 'checkbox', id: 'tc-berserkable', checked: f.berserkable, onchange: (e) => { f.berserkable = e.target.checked; } }),
      t('tournament.berserkable')));
    const show = () => {
      rounds.hidden = f.system !== 'swiss';
      duration.hidden = f.system !== 'arena';
      berserk.hidden = f.system !== 'arena';
      interval.hidden = f.system === 'arena';
    };
    show();
    const error = h('p', { class: 'field-error', role: 'alert' });
    return h('form', {
      class: 'card tournament-create',
      'aria-labelledby': 'tc-title',
      // The form's own messages, in the page's language, name the wrong field.
      novalidate: true,
      onsubmit: (e) => {
        e.preventDefault();
        this.create(error);
      },
    },
    h('h2', { id: 'tc-title' }, t('tournament.create')),
    field('name', t('tournament.name'), input('name', { type: 'text', maxlength: '80', placeholder: t('tournament.namePlaceholder') })),
    field('system', t('tournament.system'), h('select', {
      id: 'tc-system',
      onchange: (e) => {
        f.system = e.target.value;
        show();
      },
    }, SYSTEMS.map((s) => h('option', { value: s, selected: s === f.system }, systemName(s))))),
    rounds,
    duration,
    h('div', { class: 'inline' },
      field('minutes', t('create.minutes'), input('minutes', { type: 'number', min: '0.5', max: '180', step: '0.5' })),
      field('increment', t('create.increment'), input('increment', { type: 'number', min: '0', max: '180' }))),
    h('div', { class: 'inline' },
      field('startsIn', t('tournament.startsIn'), input('startsIn', { type: 'number', min: '0', max: '43200' })),
      interval),
    field('ruleset', t('tournament.ruleset'), h('select', {
      id: 'tc-ruleset',
      onchange: (e) => { f.ruleset = e.target.value; },
    }, RULESETS.map((r) => h('option', { value: r, selected: r === f.ruleset }, rulesetName(r))))),
    h('div', { class: 'field' }, h('label', { class: 'check' },
      h('input', { type: 'checkbox', id: 'tc-rated', checked: f.rated, onchange: (e) => { f.rated = e.target.checked; } }),
      t('seek.rated'))),
    berserk,
    field('password', t('tournament.password'), input('password', { type: 'password', autocomplete: 'new-password' }), t('tournament.passwordHint')),
    field('description', t('tournament.description'), h('textarea', {
      id: 'tc-description', rows: '2', maxlength: '400',
      oninput: (e) => { f.description = e.target.value; },
    }, f.description)),
    error,
    h('button', { type: 'submit', class: 'button primary', 'data-action': 'create-tournament' }, t('tournament.create')));
  }

  async create(error) {
    error.textContent = '';
    let fields;
    try {
      fields = createFields(this.form);
    } catch (err) {
      error.textContent = err.message;
      return;
    }
    try {
      const created = await api(createPath(this.form.system), { form: fields });
      this.navigate(`/tournament/${encodeURIComponent(created.id)}`);
    } catch (err) {
      error.textContent = err.message;
    }
  }
}
