// Home: quick pairing, creating a game, the open seeks, playing the computer,
// your games and the live games.

import { followLobby } from '../lobby-socket.js';
import { ApiError, api, isMe, readNdjson, session } from '../api.js';
import * as events from '../events.js';
import { t } from '../i18n.js';
import { LEVEL_ELO, RULESETS, colorName, rulesetName, speedName, timeControlLabel } from '../format.js';
import { h, replace, setTitle, showError, toast } from '../ui.js';

const DAYS = [1, 2, 3, 5, 7, 10, 14];

/** The form fields of a seek (POST /api/board/seek) from the create-game form. */
export function seekFields(v) {
  const f = { rated: v.rated ? 'true' : 'false', color: v.color || 'random' };
  if (v.ruleset && v.ruleset !== 'online') f.ruleset = v.ruleset;
  if (v.mode === 'correspondence') {
    f.days = v.days;
  } else if (v.mode === 'periods') {
    // Several periods, delays or per-move limits in one field (6.3):
    // PGN TimeControl syntax, e.g. 40/5400+30:1800+30.
    f.timeControl = String(v.timeControl || '').trim();
  } else {
    f.time = v.time;
    f.increment = v.mode === 'match' || v.mode === 'delay' ? 0 : v.increment;
    if (v.mode === 'fast' || v.mode === 'match') f['clock.perMove'] = v.perMove;
    if (v.mode === 'delay') {
      f['clock.delay'] = v.delay;
      f['clock.delayType'] = v.delayType || 'simple';
    }
  }
  const lo = Number(v.ratingMin);
  const hi = Number(v.ratingMax);
  if (v.ratingMin !== '' && v.ratingMax !== '' && Number.isFinite(lo) && Number.isFinite(hi) && lo > 0 && hi >= lo) {
    f.ratingRange = `${lo}-${hi}`;
  }
  return f;
}

/** The same terms as a direct challenge (clock in seconds). */
export function challengeFields(v) {
  const seek = seekFields(v);
  const f = { rated: seek.rated, color: seek.color, ruleset: seek.ruleset };
  if (seek.days) f.days = seek.days;
  else if (seek.timeControl !== undefined) f.timeControl = seek.timeControl;
  else {
    f['clock.limit'] = Number(seek.time) * 60;
    f['clock.increment'] = seek.increment;
    for (const k of ['clock.perMove', 'clock.delay', 'clock.delayType']) if (seek[k] !== undefined) f[k] = seek[k];
  }
  const arbiters = String(v.arbiters || '').trim();
  if (arbiters) f.arbiters = arbiters;
  if (v.variant === 'chess960' || v.variant === 'fromPosition') f.variant = v.variant;
  const fen = String(v.fen || '').trim();
  if (v.variant === 'fromPosition' && fen) f.fen = fen;
  return f;
}

/** Whether the form's game can only be played by challenge (seeks are standard games). */
export function needsChallenge(v) {
  return v.variant === 'chess960' || v.variant === 'fromPosition';
}

export async function mount(container, params, ctx) {
  const page = new Lobby(container, ctx);
  page.render();
  page.load();
  return page;
}

class Lobby {
  constructor(container, ctx) {
    this.container = container;
    this.navigate = ctx.navigate;
    this.pools = null;
    this.seeks = null;
    this.seeksMissing = false;
    this.live = null;
    this.seeking = null;
    this.cleanups = [];
    this.form = {
      mode: 'realtime', time: 5, increment: 3, delay: 5, delayType: 'simple', perMove: 10, days: 2,
      timeControl: '40/5400+30:1800+30', arbiters: '',
      rated: false, color: 'random', ruleset: 'online', ratingMin: '', ratingMax: '', variant: 'standard', fen: '',
      // A profile's "Challenge" button comes here with the opponent named.
      opponent: new URLSearchParams(globalThis.location?.search || '').get('opponent') || '',
    };
    this.ai = { level: 1, timed: false, time: 10, increment: 0, color: 'random' };
  }

  destroy() {
    this.destroyed = true;
    for (const fn of this.cleanups) fn();
    if (this.seeking) this.seeking.ctl.abort();
  }

  onLang() {
    this.render();
  }

  async load() {
    this.cleanups.push(events.onEvent((e) => {
      if (['gameStart', 'gameFinish', 'connected', 'challenge', 'challengesChanged'].includes(e.type)) this.renderMine();
    }));
    await Promise.all([this.loadPools(), this.loadSeeks(), this.loadLive()]);
    // From here on the server says what changes.
    this.cleanups.push(followLobby((lobby) => {
      if (this.destroyed) return;
      this.pools = lobby.pools || [];
      this.seeks = lobby.seeks || [];
      this.live = lobby.games || [];
      this.renderPools();
      this.renderSeeks();
      this.renderLive();
    }));
  }

  async loadPools(quiet) {
    try {
      this.pools = (await api('/api/pools')).pools || [];
    } catch (err) {
      if (!quiet) showError(err);
      this.pools = this.pools || [];
    }
    if (!this.destroyed) this.renderPools();
  }

  async loadSeeks(quiet) {
    if (this.seeksMissing) return;
    try {
      this.seeks = (await api('/api/lobby/seeks')).seeks || [];
    } catch (err) {
      if (err instanceof ApiError && err.routeMissing) this.seeksMissing = true;
      else if (!quiet) showError(err);
      this.seeks = this.seeks || [];
    }
    if (!this.destroyed) this.renderSeeks();
  }

  async loadLive(quiet) {
    try {
      this.live = (await api('/api/games/live')).games || [];
    } catch (err) {
      if (!quiet) showError(err);
      this.live = this.live || [];
    }
    if (!this.destroyed) this.renderLive();
  }

  render() {
    setTitle(t('nav.play'));
    this.el = {
      pools: h('div', { class: 'pools', role: 'group', 'aria-label': t('lobby.quickPairing') }),
      seeking: h('div', { class: 'seeking', 'aria-live': 'polite' }),
      seeks: h('div', { class: 'seek-list' }),
      mine: h('div', { class: 'my-games' }),
      live: h('div', { class: 'live-games' }),
    };
    replace(this.container,
      h('h1', { class: 'sr-only' }, t('nav.play')),
      h('div', { class: 'lobby' },
        h('section', { class: 'card lobby-pools', 'aria-labelledby': 'quick-title' },
          h('h2', { id: 'quick-title' }, t('lobby.quickPairing')),
          this.el.seeking,
          this.el.pools),
        h('section', { class: 'card lobby-create', 'aria-labelledby': 'create-title' },
          h('h2', { id: 'create-title' }, t('lobby.createGame')),
          this.createForm()),
        h('section', { class: 'card lobby-seeks', 'aria-labelledby': 'seeks-title' },
          h('h2', { id: 'seeks-title' }, t('lobby.openSeeks')),
          this.el.seeks),
        h('section', { class: 'card lobby-ai', 'aria-labelledby': 'ai-title' },
          h('h2', { id: 'ai-title' }, t('lobby.playComputer')),
          this.aiForm()),
        h('section', { class: 'card lobby-mine', 'aria-labelledby': 'mine-title' },
          h('h2', { id: 'mine-title' }, t('lobby.yourGames')),
          this.el.mine),
        h('section', { class: 'card lobby-live', 'aria-labelledby': 'live-title' },
          h('h2', { id: 'live-title' }, t('lobby.liveGames')),
          this.el.live)));
    this.renderPools();
    this.renderSeeking();
    this.renderSeeks();
    this.renderMine();
    this.renderLive();
  }

  // ----- quick pairing and seeks -----

  renderPools() {
    if (!this.el) return;
    if (!this.pools) {
      replace(this.el.pools, h('p', { class: 'muted' }, t('common.loading')));
      return;
    }
    replace(this.el.pools, this.pools.map((pool) => {
      const active = this.seeking && this.seeking.pool === pool.id;
      return h('button', {
        type: 'button',
        class: `pool${active ? ' active' : ''}`,
        'data-pool': pool.id,
        'aria-pressed': active ? 'true' : 'false',
        onclick: () => (active ? this.cancelSeek() : this.quickPair(pool)),
      },
      h('span', { class: 'pool-tc' }, `${pool.time}+${pool.increment}`),
      h('span', { class: 'pool-speed' }, speedName(pool.speed)),
      h('span', { class: 'pool-waiting' }, active ? t('lobby.searching') : t('lobby.waiting', { n: pool.waiting || 0 })));
    }));
  }

  renderSeeking() {
    if (!this.el) return;
    if (!this.seeking) {
      replace(this.el.seeking);
      return;
    }
    replace(this.el.seeking,
      h('p', { class: 'seeking-note', role: 'status', 'data-testid': 'seeking' },
        h('span', { class: 'spinner', 'aria-hidden': 'true' }),
        t('lobby.seekingFor', { tc: this.seeking.label })),
      h('button', { type: 'button', class: 'button', onclick: () => this.cancelSeek() }, t('lobby.cancelSeek')));
  }

  quickPair(pool) {
    this.seek({ time: pool.time, increment: pool.increment, rated: 'true', color: 'random' }, `${pool.time}+${pool.increment}`, pool.id);
  }

  async seek(fields, label, poolId = null) {
    if (this.seeking) this.cancelSeek();
    try {
      await events.ensureSession();
    } catch (err) {
      showError(err);
      return;
    }
    const ctl = new AbortController();
    const seeking = { ctl, label, pool: poolId };
    this.seeking = seeking;
    events.expectGame();
    this.renderSeeking();
    this.renderPools();
    try {
      const response = await api('/api/board/seek', { form: fields, raw: true, signal: ctl.signal });
      const type = response.headers.get('Content-Type') || '';
      if (type.includes('application/json')) {
        // Paired at once (the game comes on the event stream), or a
        // correspondence seek that now waits in the list.
        await response.json();
        if (fields.days) {
          toast(t('lobby.seekCreated'), 'info');
          this.loadSeeks(true);
        }
      } else {
        // Open until paired; the game arrives on the event stream.
        await readNdjson(response, () => {});
      }
    } catch (err) {
      if (!(err && err.name === 'AbortError')) showError(err);
    } finally {
      if (this.seeking === seeking) {
        this.seeking = null;
        if (!this.destroyed) {
          this.renderSeeking();
          this.renderPools();
        }
      }
    }
  }

  cancelSeek() {
    if (!this.seeking) return;
    this.seeking.ctl.abort();
    this.seeking = null;
    this.renderSeeking();
    this.renderPools();
    this.loadSeeks(true);
  }

  renderSeeks() {
    if (!this.el) return;
    if (this.seeksMissing) {
      replace(this.el.seeks, h('p', { class: 'muted' }, t('lobby.seeksUnavailable')));
      return;
    }
    if (!this.seeks) {
      replace(this.el.seeks, h('p', { class: 'muted' }, t('common.loading')));
      return;
    }
    if (!this.seeks.length) {
      replace(this.el.seeks, h('p', { class: 'muted' }, t('lobby.noSeeks')));
      return;
    }
    replace(this.el.seeks, h('table', { class: 'table seeks-table' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, t('lobby.player')),
        h('th', { scope: 'col' }, t('lobby.rating')),
        h('th', { scope: 'col' }, t('lobby.time')),
        h('th', { scope: 'col' }, t('lobby.mode')),
        h('th', { scope: 'col' }, t('lobby.color')),
        h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, t('lobby.action'))))),
      h('tbody', {}, this.seeks.map((s) => {
        const mine = isMe(s.username);
        const tc = timeControlLabel(s);
        const mode = [t(s.rated ? 'seek.rated' : 'seek.casual'), s.ruleset && s.ruleset !== 'online' ? rulesetName(s.ruleset) : null].filter(Boolean).join(' · ');
        return h('tr', { class: mine ? 'mine' : '', 'data-seek': s.id },
          h('td', {}, s.username),
          h('td', {}, s.rating ? String(Math.round(s.rating)) : '—'),
          h('td', {}, `${tc} ${speedName(s.speed)}`),
          h('td', {}, mode),
          h('td', {}, s.color && s.color !== 'random' ? colorName(s.color) : t('color.random')),
          h('td', {}, mine
            ? h('span', { class: 'muted' }, t('lobby.yourSeek'))
            : h('button', { type: 'button', class: 'button primary', 'data-accept-seek': s.id, onclick: () => this.acceptSeek(s) }, t('lobby.acceptSeek'))));
      }))));
  }

  async acceptSeek(seek) {
    try {
      await events.ensureSession();
      events.expectGame();
      const answer = await api(`/api/lobby/seeks/${encodeURIComponent(seek.id)}/accept`, { method: 'POST' });
      if (answer && answer.gameId) this.navigate(`/game/${encodeURIComponent(answer.gameId)}`);
    } catch (err) {
      showError(err);
      this.loadSeeks(true);
    }
  }

  // ----- create a game -----

  createForm() {
    const v = this.form;
    const field = (id, label, control, hint) => h('div', { class: 'field', 'data-field': id },
      h('label', { for: `cg-${id}` }, label), control, hint ? h('p', { class: 'hint' }, hint) : null);
    const number = (id, min, max, step = 1) => h('input', {
      type: 'number', id: `cg-${id}`, name: id, min: String(min), max: String(max), step: String(step), value: String(v[id]), inputmode: 'numeric',
      oninput: (e) => { v[id] = e.target.value; },
    });
    const select = (id, options) => h('select', {
      id: `cg-${id}`, name: id,
      onchange: (e) => {
        v[id] = e.target.value;
        if (id === 'mode') syncMode();
        if (id === 'variant') syncVariant();
      },
    }, options.map(([value, label]) => h('option', { value: String(value), selected: String(v[id]) === String(value) }, label)));
    const radios = (name, options) => h('div', { class: 'radios', role: 'radiogroup' },
      options.map(([value, label]) => h('label', { class: 'radio' },
        h('input', { type: 'radio', name: `cg-${name}`, value, checked: String(v[name]) === String(value), onchange: () => { v[name] = value === 'true' ? true : value === 'false' ? false : value; } }),
        h('span', {}, label))));

    const mode = field('mode', t('create.clockMode'), select('mode', [
      ['realtime', t('create.mode.realtime')],
      ['delay', t('create.mode.delay')],
      ['fast', t('create.mode.fast')],
      ['match', t('create.mode.match')],
      ['periods', t('create.mode.periods')],
      ['correspondence', t('create.mode.correspondence')],
    ]));
    const timeControl = field('timeControl', t('create.timeControl'), h('input', {
      type: 'text', id: 'cg-timeControl', name: 'timeControl', value: v.timeControl, spellcheck: 'false', autocomplete: 'off',
      oninput: (e) => { v.timeControl = e.target.value; },
    }), t('create.timeControlHint'));
    const time = field('time', t('create.minutes'), number('time', 0, 180));
    const increment = field('increment', t('create.increment'), number('increment', 0, 180));
    const delay = field('delay', t('create.delay'), number('delay', 0, 180));
    const delayType = field('delayType', t('create.delayType'), select('delayType', [['simple', t('create.delay.simple')], ['bronstein', t('create.delay.bronstein')]]));
    const perMove = field('perMove', t('create.perMove'), number('perMove', 1, 3600), t('create.perMoveHint'));
    const days = field('days', t('create.days'), select('days', DAYS.map((d) => [d, t('tc.days', { n: d })])));
    const variant = field('variant', t('create.variant'), select('variant', [
      ['standard', t('create.variant.standard')],
      ['chess960', t('create.variant.chess960')],
      ['fromPosition', t('create.variant.fromPosition')],
    ]), t('create.variantHint'));
    const fen = field('fen', t('create.fen'), h('input', {
      type: 'text', id: 'cg-fen', name: 'fen', value: v.fen, spellcheck: 'false', autocomplete: 'off',
      placeholder: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
      oninput: (e) => { v.fen = e.target.value; },
    }));
    const syncVariant = () => {
      fen.hidden = v.variant !== 'fromPosition';
    };
    syncVariant();
    const syncMode = () => {
      const m = v.mode;
      time.hidden = m === 'correspondence' || m === 'periods';
      timeControl.hidden = m !== 'periods';
      increment.hidden = !(m === 'realtime' || m === 'fast');
      delay.hidden = m !== 'delay';
      delayType.hidden = m !== 'delay';
      perMove.hidden = !(m === 'fast' || m === 'match');
      days.hidden = m !== 'correspondence';
    };
    syncMode();
    const ratingRange = h('fieldset', { class: 'field range' },
      h('legend', {}, t('create.ratingRange')),
      h('div', { class: 'inline' },
        h('input', { type: 'number', min: '0', max: '4000', step: '50', placeholder: '1400', 'aria-label': t('create.ratingMin'), value: v.ratingMin, oninput: (e) => { v.ratingMin = e.target.value; } }),
        h('span', { 'aria-hidden': 'true' }, '–'),
        h('input', { type: 'number', min: '0', max: '4000', step: '50', placeholder: '1800', 'aria-label': t('create.ratingMax'), value: v.ratingMax, oninput: (e) => { v.ratingMax = e.target.value; } })));
    const opponent = h('input', {
      type: 'text', id: 'cg-opponent', autocomplete: 'off', value: v.opponent, placeholder: t('create.anyone'),
      oninput: (e) => { v.opponent = e.target.value.trim(); },
    });
    return h('form', {
      class: 'create-form',
      'data-testid': 'create-form',
      onsubmit: (e) => {
        e.preventDefault();
        this.createGame();
      },
    },
    mode, time, increment, delay, delayType, perMove, days, timeControl, variant, fen,
    h('fieldset', { class: 'field' }, h('legend', {}, t('create.rated')), radios('rated', [['false', t('seek.casual')], ['true', t('seek.rated')]])),
    h('fieldset', { class: 'field' }, h('legend', {}, t('create.color')), radios('color', [['white', t('color.white')], ['random', t('color.random')], ['black', t('color.black')]])),
    field('ruleset', t('create.ruleset'), select('ruleset', RULESETS.map((r) => [r, rulesetName(r)]))),
    ratingRange,
    field('opponent', t('create.opponent'), opponent, t('create.opponentHint')),
    field('arbiters', t('create.arbiters'), h('input', {
      type: 'text', id: 'cg-arbiters', autocomplete: 'off', value: v.arbiters,
      oninput: (e) => { v.arbiters = e.target.value; },
    }), t('create.arbitersHint')),
    h('button', { type: 'submit', class: 'button primary wide' }, t('create.submit')),
    h('button', { type: 'button', class: 'button wide', 'data-action': 'create-link', onclick: () => this.createLink() }, t('create.link')));
  }

  /** An open challenge with the form's terms; its page shows the link to share. */
  async createLink() {
    try {
      await events.ensureSession();
      // The challenge page follows its own game (not expectGame: see there).
      const challenge = await api('/api/challenge/open', { form: challengeFields(this.form) });
      this.navigate(challenge.url || `/challenge/${encodeURIComponent(challenge.id)}`);
    } catch (err) {
      showError(err);
    }
  }

  async createGame() {
    const v = this.form;
    const label = v.mode === 'correspondence' ? t('tc.days', { n: v.days })
      : v.mode === 'periods' ? String(v.timeControl).trim()
        : `${v.time}+${v.mode === 'realtime' || v.mode === 'fast' ? v.increment : 0}`;
    if (String(v.arbiters || '').trim() && !v.opponent) {
      showError(new Error(t('create.arbitersNeedOpponent')));
      return;
    }
    if (needsChallenge(v) && !v.opponent) {
      showError(new Error(t('create.variantNeedsOpponent')));
      return;
    }
    if (v.opponent) {
      try {
        await events.ensureSession();
        if (isMe(v.opponent)) throw new Error(t('create.notYourself'));
        events.expectGame();
        await api(`/api/challenge/${encodeURIComponent(v.opponent)}`, { form: challengeFields(v) });
        toast(t('create.challengeSent', { name: v.opponent }), 'info');
      } catch (err) {
        showError(err);
      }
      return;
    }
    this.seek(seekFields(v), label);
  }

  // ----- the computer -----

  aiForm() {
    const a = this.ai;
    const levels = h('div', { class: 'levels', role: 'radiogroup', 'aria-label': t('ai.level') },
      LEVEL_ELO.map((elo, i) => {
        const n = i + 1;
        const name = t('ai.levelElo', { n, elo });
        return h('label', { class: 'level', title: name },
          h('input', { type: 'radio', name: 'ai-level', value: String(n), 'aria-label': name, checked: a.level === n, onchange: () => { a.level = n; } }),
          h('span', {}, String(n)));
      }));
    const timeFields = h('div', { class: 'inline', hidden: !a.timed },
      h('label', { for: 'ai-time' }, t('create.minutes')),
      h('input', { type: 'number', id: 'ai-time', min: '1', max: '180', value: String(a.time), oninput: (e) => { a.time = e.target.value; } }),
      h('label', { for: 'ai-inc' }, t('create.increment')),
      h('input', { type: 'number', id: 'ai-inc', min: '0', max: '180', value: String(a.increment), oninput: (e) => { a.increment = e.target.value; } }));
    return h('form', {
      class: 'ai-form',
      onsubmit: (e) => {
        e.preventDefault();
        this.playComputer();
      },
    },
    h('fieldset', { class: 'field' }, h('legend', {}, t('ai.level')), levels),
    h('div', { class: 'field' },
      h('label', { class: 'check' },
        h('input', { type: 'checkbox', id: 'ai-timed', checked: a.timed, onchange: (e) => { a.timed = e.target.checked; timeFields.hidden = !a.timed; } }),
        h('span', {}, t('ai.withClock'))),
      timeFields),
    h('fieldset', { class: 'field' }, h('legend', {}, t('create.color')),
      h('div', { class: 'radios' }, [['white', t('color.white')], ['random', t('color.random')], ['black', t('color.black')]].map(([value, label]) =>
        h('label', { class: 'radio' },
          h('input', { type: 'radio', name: 'ai-color', value, checked: a.color === value, onchange: () => { a.color = value; } }),
          h('span', {}, label))))),
    h('button', { type: 'submit', class: 'button primary wide', 'data-testid': 'play-ai' }, t('ai.play')));
  }

  async playComputer() {
    const a = this.ai;
    try {
      await events.ensureSession();
      const form = { level: a.level, color: a.color };
      if (a.timed) {
        form['clock.limit'] = Math.round(Number(a.time) * 60);
        form['clock.increment'] = Number(a.increment) || 0;
      }
      const game = await api('/api/challenge/ai', { form });
      if (game && game.id) this.navigate(`/game/${encodeURIComponent(game.id)}`);
    } catch (err) {
      showError(err);
    }
  }

  // ----- games -----

  renderMine() {
    if (!this.el) return;
    if (!session.user) {
      replace(this.el.mine, h('p', { class: 'muted' }, t('lobby.loginToSee'), ' ',
        h('a', { href: '/login' }, t('nav.login')), ' · ', h('a', { href: '/register' }, t('nav.register'))));
      return;
    }
    const games = [...events.currentGames.values()];
    if (!games.length) {
      replace(this.el.mine, h('p', { class: 'muted' }, t('lobby.noCurrentGames')));
      return;
    }
    replace(this.el.mine, h('ul', { class: 'game-links' }, games.map((g) => {
      const id = g.gameId || g.id;
      const opponent = g.opponent?.username || g.opponent?.name || '?';
      return h('li', {}, h('a', { href: `/game/${encodeURIComponent(id)}` },
        t('lobby.vs', { name: opponent }), ' · ', colorName(g.color), ' · ',
        g.isMyTurn ? h('strong', {}, t('lobby.yourTurn')) : t('lobby.theirTurn')));
    })));
  }

  renderLive() {
    if (!this.el) return;
    if (!this.live) {
      replace(this.el.live, h('p', { class: 'muted' }, t('common.loading')));
      return;
    }
    if (!this.live.length) {
      replace(this.el.live, h('p', { class: 'muted' }, t('watch.none')));
      return;
    }
    replace(this.el.live,
      h('ul', { class: 'game-links' }, this.live.slice(0, 8).map((g) => h('li', {},
        h('a', { href: `/game/${encodeURIComponent(g.id)}` }, `${g.white} – ${g.black}`),
        h('span', { class: 'muted' }, ` · ${speedName(g.speed)} · ${t('watch.plies', { n: g.plies })}`)))),
      h('p', {}, h('a', { href: '/watch' }, t('lobby.allLive'))));
  }
}

