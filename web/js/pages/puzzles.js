// Puzzles: /training (a healthy mix at the player's level, or one theme with
// /training/theme/{angle}), /training/daily, /training/{id} and
// /training/streak (unrated, harder and harder, one mistake ends it). The
// board and the judging are in puzzles/round.js; this page draws the words,
// the buttons and the choices around it, fetches the puzzles and sends a
// signed-in player's results (POST /api/puzzle/batch/{angle}).

import { api, session } from '../api.js';
import { has, t } from '../i18n.js';
import { loadRules } from '../rules.js';
import { ratingDiffView } from '../components.js';
import { announce, h, replace, setTitle, showError } from '../ui.js';
import { Round } from '../puzzles/round.js';
import {
  DIFFICULTIES, analysisUrl, notePlayed, noteStreak, pickFromBatch, playerRecord, ratingText, readDifficulty,
  recordOwner, streakRating, themeName, writeDifficulty,
} from '../puzzles/logic.js';

/** What a page address asks for: {mode: 'angle' | 'daily' | 'id' | 'streak', angle?, id?}. */
export function modeOf(params = {}) {
  if (params.daily) return { mode: 'daily' };
  if (params.streak) return { mode: 'streak' };
  if (params.id) return { mode: 'id', id: params.id };
  return { mode: 'angle', angle: params.angle || 'mix' };
}

/** A theme's name in the current language (the server's English one, or the key, otherwise). */
export function localThemeName(key, themes) {
  return themeName(key, themes, (k) => (has(`puzzle.theme.${k}`) ? t(`puzzle.theme.${k}`) : null));
}

export async function mount(container, params, ctx) {
  const page = new PuzzlePage(container, params, ctx);
  await page.start();
  return page;
}

class PuzzlePage {
  constructor(container, params, ctx) {
    this.container = container;
    this.navigate = ctx.navigate;
    Object.assign(this, modeOf(params));
    this.themes = [];
    this.round = null;
    this.data = null;
    this.glicko = null;
    this.result = null;
    this.seen = [];
    this.owner = recordOwner(session.user);
    this.streak = { n: 0, seen: [], over: false, skipUsed: false, best: playerRecord(this.owner).streakBest };
  }

  get signedIn() {
    return !!session.user && !session.user.guest;
  }

  async start() {
    this.layout();
    try {
      await loadRules();
    } catch (err) {
      showError(err);
      return;
    }
    api('/api/puzzle/themes').then((answer) => {
      this.themes = (answer && answer.themes) || [];
      if (!this.destroyed) this.renderAll();
    }).catch(() => {});
    if (this.signedIn && this.mode !== 'angle') {
      // The player's rating comes with a batch; one puzzle is the least to ask for.
      api('/api/puzzle/batch/mix?nb=1').then((answer) => {
        if (answer && answer.glicko && !this.glicko) this.glicko = answer.glicko;
        if (!this.destroyed) this.renderMe();
      }).catch(() => {});
    }
    await this.load();
  }

  destroy() {
    this.destroyed = true;
    if (this.round) this.round.destroy();
  }

  onLang() {
    this.renderAll();
  }

  // ----- the page's parts -----

  layout() {
    const host = h('div', { class: 'board-host' });
    this.el = {
      title: h('h1', { class: 'puzzle-title' }),
      modes: h('nav', { class: 'puzzle-modes' }),
      host,
      prompt: h('div', { class: 'puzzle-feedback', role: 'status', 'aria-live': 'polite', 'data-testid': 'puzzle-feedback' }),
      actions: h('div', { class: 'puzzle-actions', 'data-testid': 'puzzle-actions' }),
      info: h('section', { class: 'card puzzle-info', 'data-testid': 'puzzle-info' }),
      me: h('section', { class: 'card puzzle-me', 'data-testid': 'puzzle-me' }),
      chooser: h('section', { class: 'card puzzle-chooser' }),
    };
    replace(this.container,
      h('div', { class: 'puzzle-head' }, this.el.title, this.el.modes),
      h('div', { class: 'puzzle-layout' },
        h('div', { class: 'puzzle-board-area' }, h('div', { class: 'board-wrap puzzle-board' }, host)),
        h('div', { class: 'puzzle-side' },
          h('section', { class: 'card puzzle-status' }, this.el.prompt, this.el.actions),
          this.el.me, this.el.info, this.mode === 'streak' ? null : this.el.chooser)));
    this.renderAll();
  }

  renderAll() {
    this.renderTitle();
    this.renderModes();
    this.renderPrompt();
    this.renderActions();
    this.renderInfo();
    this.renderMe();
    this.renderChooser();
    this.mark();
  }

  /** The page's state for tests and styles: data-state, data-ply, data-puzzle. */
  mark() {
    const ds = this.container.dataset;
    ds.state = this.loadError ? 'error' : this.round ? this.round.state : 'loading';
    ds.ply = String(this.round ? this.round.ply : 0);
    ds.puzzle = this.data ? this.data.puzzle.id : '';
    ds.failed = String(!!(this.round && this.round.failed));
  }

  titleText() {
    switch (this.mode) {
      case 'daily': return t('puzzle.daily');
      case 'streak': return t('puzzle.streak');
      case 'id': return t('puzzle.number', { id: this.id });
      default:
        return this.angle === 'mix' ? t('puzzle.title') : t('puzzle.titleTheme', { theme: localThemeName(this.angle, this.themes) });
    }
  }

  renderTitle() {
    const text = this.titleText();
    this.el.title.textContent = text;
    setTitle(text);
  }

  renderModes() {
    const here = location.pathname.replace(/\/$/, '');
    const link = (href, key) => h('a', { href, class: 'puzzle-mode', 'aria-current': here === href ? 'page' : null }, t(key));
    this.el.modes.setAttribute('aria-label', t('puzzle.modes'));
    replace(this.el.modes,
      link('/training', 'puzzle.title'),
      link('/training/daily', 'puzzle.daily'),
      link('/training/streak', 'puzzle.streak'));
  }

  /** What the solver is told: whose turn, right or wrong, solved. */
  prompt() {
    const r = this.round;
    if (this.loadError) return { kind: 'wrong', head: t('puzzle.loadFailed'), sub: this.loadError };
    if (!r) return { kind: 'muted', head: t('common.loading') };
    const find = t(`puzzle.findBest.${r.color}`);
    const streakOver = this.mode === 'streak' && this.streak.over;
    switch (r.state) {
      case 'intro':
      case 'play': {
        const good = this.lastEvent === 'reply' || this.lastEvent === 'right';
        return {
          kind: good ? 'right' : 'turn',
          head: good ? t('puzzle.bestMove') : t('puzzle.yourTurn'),
          sub: good ? `${t('puzzle.keepGoing')} ${find}` : find,
          note: r.hinted && this.lastEvent === 'hint' ? t('puzzle.hintShown') : r.failed ? t('puzzle.countsFailed') : null,
        };
      }
      case 'wait':
        return { kind: 'right', head: t('puzzle.bestMove'), sub: t('puzzle.keepGoing') };
      case 'wrong':
        return {
          kind: 'wrong',
          head: t('puzzle.notTheMove'),
          sub: streakOver ? t('puzzle.streakOver', { n: this.streak.n }) : t('puzzle.tryAgain'),
        };
      case 'solution':
        return { kind: 'muted', head: t('puzzle.solutionShowing') };
      default:
        if (r.won) {
          return {
            kind: 'solved',
            head: t('puzzle.solved'),
            sub: this.mode === 'streak' ? t('puzzle.streakCurrent', { n: this.streak.n }) : null,
          };
        }
        return {
          kind: 'complete',
          head: t('puzzle.complete'),
          sub: streakOver ? t('puzzle.streakOver', { n: this.streak.n })
            : r.viewed ? t('puzzle.viewedNote') : t('puzzle.afterMistake'),
        };
    }
  }

  renderPrompt() {
    const p = this.prompt();
    this.promptText = [p.head, p.sub].filter(Boolean).join(' ');
    const turn = this.round && (this.round.state === 'play' || this.round.state === 'intro')
      ? h('span', { class: `puzzle-turn-dot ${this.round.color}`, 'aria-hidden': 'true' }) : null;
    replace(this.el.prompt,
      h('p', { class: `puzzle-headline puzzle-${p.kind}` }, turn, p.head),
      p.sub ? h('p', { class: 'puzzle-sub' }, p.sub) : null,
      p.note ? h('p', { class: 'puzzle-note muted' }, p.note) : null);
  }

  /** The buttons of the moment; `focusNext` brings the keyboard to the main one. */
  renderActions(focusNext = false) {
    const r = this.round;
    const button = (key, action, attrs = {}) => h('button', { type: 'button', class: 'button', 'data-action': action, onclick: () => this.act(action), ...attrs }, t(key));
    const streak = this.mode === 'streak';
    let buttons = [];
    if (this.loadError) {
      buttons = [button('puzzle.next', 'next', { class: 'button primary' })];
    } else if (!r) {
      buttons = [];
    } else if (r.state === 'intro' || r.state === 'play' || r.state === 'wait') {
      const busy = r.state !== 'play';
      buttons = streak
        ? [this.streak.skipUsed ? null : button('puzzle.skip', 'skip', { disabled: busy, title: t('puzzle.skipHint') })]
        : [button('puzzle.hint', 'hint', { disabled: busy || r.hinted }), button('puzzle.viewSolution', 'solution')];
    } else if (r.state === 'wrong') {
      buttons = streak
        ? [button('puzzle.streakNew', 'new-streak', { class: 'button primary' }), button('puzzle.viewSolution', 'solution')]
        : [button('puzzle.retry', 'retry', { class: 'button primary' }), button('puzzle.viewSolution', 'solution')];
    } else if (r.state === 'over') {
      const again = streak && this.streak.over;
      buttons = [
        again ? button('puzzle.streakNew', 'new-streak', { class: 'button primary' }) : button('puzzle.next', 'next', { class: 'button primary' }),
        h('a', { class: 'button', href: analysisUrl(this.data.puzzle.fen, r.sans), 'data-action': 'analysis' }, t('puzzle.analysis')),
      ];
    }
    const hadFocus = this.el.actions.contains(document.activeElement);
    const focused = hadFocus ? document.activeElement.dataset.action : null;
    replace(this.el.actions, buttons);
    // The keyboard stays where it was, or goes to the next step's button.
    if (!hadFocus && !focusNext) return;
    const target = (focused && this.el.actions.querySelector(`[data-action="${focused}"]:not([disabled])`))
      || this.el.actions.querySelector('.primary')
      || (hadFocus ? this.el.actions.querySelector('button:not([disabled]), a') : null);
    if (target) target.focus({ preventScroll: true });
  }

  act(action) {
    const r = this.round;
    switch (action) {
      case 'hint':
        if (r) r.hint();
        break;
      case 'solution':
        if (r) r.viewSolution();
        break;
      case 'retry':
        if (r) r.retry();
        break;
      case 'skip':
        if (r && r.state === 'play' && !this.streak.skipUsed) {
          this.streak.skipUsed = true;
          r.skip();
        }
        break;
      case 'next':
        this.next();
        break;
      case 'new-streak':
        this.streak = { n: 0, seen: [], over: false, skipUsed: false, best: playerRecord(this.owner).streakBest };
        this.load();
        break;
      default:
    }
  }

  renderInfo() {
    const d = this.data;
    if (!d) {
      replace(this.el.info);
      this.el.info.hidden = true;
      return;
    }
    this.el.info.hidden = false;
    const p = d.puzzle;
    const over = this.round && this.round.state === 'over';
    const gameUrl = d.game && d.game.url;
    replace(this.el.info,
      h('h2', { class: 'puzzle-info-title' },
        h('a', { href: `/training/${encodeURIComponent(p.id)}`, 'data-testid': 'puzzle-link' }, t('puzzle.number', { id: p.id }))),
      over
        ? h('p', { 'data-testid': 'puzzle-rating' }, t('puzzle.rating', { rating: p.rating }), ' · ', t('puzzle.plays', { n: p.plays ?? 0 }))
        : h('p', { class: 'muted' }, t('puzzle.ratingHidden')),
      over && Array.isArray(p.themes) && p.themes.length
        ? h('div', { class: 'puzzle-themes' },
          h('h3', {}, t('puzzle.themes')),
          h('ul', { 'data-testid': 'puzzle-themes' }, p.themes.map((key) => h('li', {},
            h('a', { href: `/training/theme/${encodeURIComponent(key)}`, 'data-theme': key }, localThemeName(key, this.themes))))))
        : null,
      over && gameUrl ? h('p', {}, h('a', { href: gameUrl, rel: 'noopener' }, t('puzzle.fromGame'))) : null);
  }

  renderMe() {
    const parts = [];
    if (this.mode === 'streak') {
      parts.push(h('p', { class: 'puzzle-streak' },
        h('span', { 'data-testid': 'streak-current' }, t('puzzle.streakCurrent', { n: this.streak.n })), ' · ',
        h('span', { 'data-testid': 'streak-best' }, t('puzzle.streakBest', { n: this.streak.best }))),
      h('p', { class: 'muted' }, t('puzzle.streakIntro')));
    }
    if (this.signedIn) {
      const result = this.result && this.data && this.result.id === this.data.puzzle.id ? this.result : null;
      if (this.glicko) {
        parts.push(h('p', { 'data-testid': 'my-puzzle-rating' }, t('puzzle.yourRating', { rating: ratingText(this.glicko) }),
          result && result.rated ? [' ', ratingDiffView(Math.round(result.ratingDiff || 0))] : null));
      }
      if (result && !result.rated && this.mode !== 'streak') parts.push(h('p', { class: 'muted', 'data-testid': 'not-rated' }, t('puzzle.replayNotRated')));
      if (result && this.mode === 'streak') parts.push(h('p', { class: 'muted' }, t('puzzle.streakUnrated')));
    } else {
      const solved = playerRecord(this.owner).solved.length;
      parts.push(h('p', { class: 'muted' }, t('puzzle.guestNote'), ' ', h('a', { href: '/login' }, t('nav.login'))),
        h('p', { class: 'muted', 'data-testid': 'guest-solved' }, t('puzzle.solvedHere', { n: solved })));
    }
    replace(this.el.me, parts);
    this.el.me.hidden = !parts.length;
  }

  renderChooser() {
    if (this.mode === 'streak') return;
    const current = this.mode === 'angle' ? this.angle : '';
    const known = this.themes.length ? this.themes : [{ key: 'mix', name: 'Healthy mix' }];
    const options = known.map((th) => [th.key, localThemeName(th.key, this.themes)]);
    if (current && !known.some((th) => th.key === current)) options.push([current, localThemeName(current, this.themes)]);
    const theme = h('select', {
      id: 'puzzle-theme',
      onchange: (e) => {
        const key = e.target.value;
        this.navigate(key === 'mix' ? '/training' : `/training/theme/${encodeURIComponent(key)}`);
      },
    }, this.mode === 'angle' ? null : h('option', { value: '', selected: true, disabled: true }, t('puzzle.chooseTheme')),
    options.map(([key, name]) => h('option', { value: key, selected: key === current }, name)));
    const chosen = readDifficulty();
    const difficulty = h('select', {
      id: 'puzzle-difficulty',
      'aria-describedby': 'puzzle-difficulty-hint',
      onchange: (e) => writeDifficulty(e.target.value),
    }, DIFFICULTIES.map((d) => h('option', { value: d, selected: d === chosen }, t(`puzzle.difficulty.${d}`))));
    replace(this.el.chooser,
      h('h2', {}, t('puzzle.choose')),
      h('div', { class: 'field' }, h('label', { for: 'puzzle-theme' }, t('puzzle.theme')), theme),
      h('div', { class: 'field' }, h('label', { for: 'puzzle-difficulty' }, t('puzzle.difficulty')), difficulty,
        h('p', { class: 'hint', id: 'puzzle-difficulty-hint' }, t('puzzle.difficultyHint'))));
  }

  // ----- puzzles -----

  /** Fetches the puzzle this page shows next: {game, puzzle}. */
  async fetchPuzzle() {
    if (this.mode === 'daily') return api('/api/puzzle/daily');
    if (this.mode === 'id') return api(`/api/puzzle/${encodeURIComponent(this.id)}`);
    if (this.mode === 'streak') {
      const rating = streakRating(this.streak.n);
      const answer = await api(`/api/puzzle/batch/mix?nb=15&rating=${rating}`);
      return pickFromBatch(answer.puzzles, this.streak.seen, rating);
    }
    const q = new URLSearchParams({ nb: '15', difficulty: readDifficulty() });
    const answer = await api(`/api/puzzle/batch/${encodeURIComponent(this.angle)}?${q}`);
    if (answer.glicko) this.glicko = answer.glicko;
    return pickFromBatch(answer.puzzles, [...playerRecord(this.owner).played, ...this.seen]);
  }

  async load() {
    this.loadError = '';
    if (this.round) this.round.destroy();
    this.round = null;
    this.data = null;
    this.lastEvent = null;
    this.renderAll();
    let data;
    try {
      data = await this.fetchPuzzle();
      if (!data || !data.puzzle) throw new Error(t('puzzle.noneFound'));
    } catch (err) {
      if (this.destroyed) return;
      this.loadError = err.message;
      this.renderAll();
      return;
    }
    if (this.destroyed) return;
    this.data = data;
    this.result = null;
    this.reported = false;
    const id = data.puzzle.id;
    this.playedBefore = playerRecord(this.owner).played.includes(id);
    this.seen.push(id);
    if (this.mode === 'streak') this.streak.seen.push(id);
    replace(this.el.host);
    this.round = new Round(this.el.host, data, { onChange: (e) => this.changed(e) });
    this.renderAll();
  }

  next() {
    if (this.mode === 'daily' || this.mode === 'id') this.navigate('/training');
    else this.load();
  }

  /** What the round says: results to send, the streak, and the words. */
  changed(event) {
    if (this.destroyed) return;
    const streak = this.mode === 'streak';
    switch (event.type) {
      case 'wrong':
      case 'viewing':
        if (event.failedNow) this.report(false);
        if (streak && !this.streak.over) this.endStreak();
        break;
      case 'over':
        if (event.won) {
          this.report(true);
          if (streak) {
            this.streak.n++;
            this.streak.best = noteStreak(this.owner, this.streak.n);
          }
        }
        break;
      default:
    }
    this.lastEvent = event.type;
    this.renderPrompt();
    this.renderActions(event.type === 'over' || event.type === 'wrong');
    this.renderInfo();
    this.renderMe();
    this.mark();
    const moved = event.type === 'reply' ? t('puzzle.opponentPlayed', { move: event.san }) : '';
    if (event.type !== 'step') announce([moved, this.promptText].filter(Boolean).join(' '));
  }

  endStreak() {
    this.streak.over = true;
    this.streak.best = noteStreak(this.owner, this.streak.n);
  }

  /** Sends the round's result once (a signed-in player's), and keeps it in this browser. */
  async report(win) {
    if (this.reported || !this.data) return;
    this.reported = true;
    const id = this.data.puzzle.id;
    notePlayed(this.owner, id, win);
    if (!this.signedIn) {
      this.renderMe();
      return;
    }
    const rated = this.mode !== 'streak' && !this.playedBefore;
    const angle = this.mode === 'angle' ? this.angle : 'mix';
    try {
      const answer = await api(`/api/puzzle/batch/${encodeURIComponent(angle)}`, { json: { solutions: [{ id, win, rated }] } });
      const round = (answer.rounds || []).find((r) => r.id === id) || (answer.rounds || [])[0];
      if (answer.glicko) this.glicko = answer.glicko;
      this.result = { id, win, rated, ratingDiff: round ? Number(round.ratingDiff) || 0 : 0 };
    } catch (err) {
      showError(err);
    }
    if (!this.destroyed) this.renderMe();
  }
}
