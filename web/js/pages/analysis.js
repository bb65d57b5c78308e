// Replay and analysis: step through a game (finished games open here), play
// moves freely, import PGN, set up a position from FEN, export PGN, and — when
// the server's engine answers /api/cloud-eval — the evaluation of the position
// shown, its best line and the evaluation graph of the whole game.

import { Board } from '../board.js';
import { Position, parsePgn, replay, toPgn } from '../chess.js';
import { api, isMe } from '../api.js';
import { t } from '../i18n.js';
import * as settings from '../settings.js';
import { engineAvailable, evaluate } from '../engine.js';
import { evalChart } from '../chart.js';
import { colorName, resultScore, resultText, speedName } from '../format.js';
import { keyboardSteps, materialDiff, materialView, renderMoveList, stepButtons, stepPly } from '../components.js';
import { download, h, replace, setTitle, showError, toast } from '../ui.js';
import { boardView } from './game.js';

/** An evaluation in words: "+0.23", "-1.50", "#3" (White mates), "#-3"; "1-0" after mate. */
export function evalText(ev) {
  if (!ev) return '';
  if (typeof ev.mate === 'number') {
    if (ev.mate === 0) return ev.mated === 'white' ? '0-1' : ev.mated === 'black' ? '1-0' : '#';
    return `#${ev.mate}`;
  }
  if (typeof ev.cp !== 'number') return '';
  if (ev.cp === 0) return '0.00';
  return `${ev.cp > 0 ? '+' : '-'}${(Math.abs(ev.cp) / 100).toFixed(2)}`;
}

/**
 * A line of UCI moves from `position` in SAN with move numbers ("12... Nc6 13. Bb5"),
 * at most `max` plies; stops at the first move that cannot be played.
 */
export function lineSan(position, ucis, max = 12) {
  const parts = [];
  let pos = position;
  for (const uci of ucis.slice(0, max)) {
    if (!pos.isLegal(uci)) break;
    const san = pos.toSan(uci);
    if (pos.turn === 'white') parts.push(`${pos.fullmoves}. ${san}`);
    else parts.push(parts.length ? san : `${pos.fullmoves}... ${san}`);
    pos = pos.play(uci);
  }
  return parts.join(' ');
}

/** The evaluation of a position that is over (no engine needed), or null. */
export function terminalEval(position) {
  if (position.isCheckmate()) return { mate: 0, mated: position.turn, local: true };
  if (position.isStalemate() || position.isInsufficientMaterial()) return { cp: 0, local: true, pvs: [] };
  return null;
}

/** Turns SAN moves into UCI from a start position; throws with the move number. */
export function sansToUcis(fen, sans) {
  let pos = fen ? Position.fromFen(fen) : Position.start();
  const ucis = [];
  sans.forEach((san, i) => {
    let uci;
    try {
      uci = pos.parseSan(san);
    } catch (err) {
      const moveNo = pos.fullmoves;
      const dots = pos.turn === 'white' ? '.' : '...';
      const e = new Error(`${moveNo}${dots} ${san}: ${err.message}`);
      e.ply = i;
      throw e;
    }
    ucis.push(uci);
    pos = pos.play(uci);
  });
  return ucis;
}

export async function mount(container, params, ctx) {
  const page = new Analysis(container, params, ctx);
  await page.start();
  return page;
}

class Analysis {
  constructor(container, params, ctx = {}) {
    this.container = container;
    this.navigate = ctx.navigate;
    this.query = ctx.query || new URLSearchParams();
    this.game = params.game || null;
    this.initialFen = null;
    this.moves = [];
    this.sans = [];
    this.positions = [Position.start()];
    this.ply = 0;
    this.orientation = 'white';
    this.tags = {};
    this.result = '*';
    this.evals = [];
    this.evalCtl = new AbortController();
    this.evalState = { seen: false, failures: 0, off: false };
    this.cleanups = [];
  }

  async start() {
    const gameId = !this.game && this.query.get('game');
    if (gameId) {
      try {
        this.game = await api(`/game/export/${encodeURIComponent(gameId)}`, { accept: 'application/json' });
      } catch (err) {
        showError(err);
      }
    }
    if (this.game) this.loadGame(this.game);
    else if (this.query.get('fen')) this.loadFen(this.query.get('fen'), true);
    else if (this.query.get('pgn')) this.loadPgn(this.query.get('pgn'), true);
    this.render();
    this.cleanups.push(keyboardSteps((s) => this.step(s)));
    this.cleanups.push(settings.onChange((s, changed) => {
      if (this.board && ['pieceSet', 'theme', 'coordinates', 'animation'].some((k) => k in changed)) {
        this.board.set({ pieceSet: s.pieceSet, theme: s.theme, coordinates: s.coordinates, animation: s.animation });
      }
      if ('notation' in changed) this.renderMoves();
    }));
    this.requestEvals();
  }

  destroy() {
    this.destroyed = true;
    this.evalCtl.abort();
    for (const fn of this.cleanups) fn();
    if (this.board) this.board.destroy();
  }

  onLang() {
    this.render();
  }

  // ----- loading -----

  setLine(fen, ucis) {
    const { positions, sans } = replay(fen, ucis);
    this.initialFen = fen;
    this.moves = [...ucis];
    this.sans = sans;
    this.positions = positions;
    this.evals = [];
    this.evalState = { seen: false, failures: 0, off: false };
  }

  loadGame(game) {
    const ucis = (game.moves || '').split(' ').filter(Boolean);
    const fen = game.initialFen && game.initialFen !== 'startpos' ? game.initialFen : null;
    try {
      this.setLine(fen, ucis);
    } catch (err) {
      showError(err);
    }
    this.ply = this.moves.length;
    const white = game.players?.white?.user?.name || game.players?.white?.name || '?';
    const black = game.players?.black?.user?.name || game.players?.black?.name || '?';
    this.tags = { Event: `Caissa ${game.speed || ''}`.trim(), Site: `${location.origin}/game/${game.id}`, White: white, Black: black };
    if (isMe(black) && !isMe(white)) this.orientation = 'black';
    this.result = resultScore(game);
  }

  loadPgn(text, quiet) {
    let games;
    try {
      games = parsePgn(text);
    } catch (err) {
      if (!quiet) showError(err);
      return false;
    }
    if (!games.length) {
      const msg = t('analysis.pgnEmpty');
      if (!quiet) this.showFormError(this.pgnError, msg);
      return false;
    }
    const g = games[0];
    const fen = g.tags.FEN || null;
    let ucis;
    try {
      ucis = sansToUcis(fen, g.moves);
    } catch (err) {
      if (!quiet) this.showFormError(this.pgnError, t('analysis.pgnBadMove', { reason: err.message }));
      return false;
    }
    this.game = null;
    this.setLine(fen, ucis);
    this.tags = { ...g.tags };
    this.result = g.result || '*';
    this.ply = this.moves.length;
    return true;
  }

  loadFen(fen, quiet) {
    let pos;
    try {
      pos = Position.fromFen(fen.trim());
    } catch (err) {
      if (!quiet) this.showFormError(this.fenError, t('analysis.badFen', { reason: err.message }));
      return false;
    }
    this.game = null;
    this.setLine(pos.fen(), []);
    this.tags = { FEN: pos.fen(), SetUp: '1' };
    this.result = '*';
    this.ply = 0;
    return true;
  }

  showFormError(el, message) {
    if (el) el.textContent = message;
    toast(message);
  }

  // ----- rendering -----

  render() {
    const game = this.game;
    setTitle(game ? `${this.tags.White} – ${this.tags.Black}` : t('nav.analysis'));
    this.el = {
      boardHost: h('div', { class: 'board-host' }),
      topBar: h('div', { class: 'player-bar top' }),
      bottomBar: h('div', { class: 'player-bar bottom' }),
      moves: h('div', { class: 'move-list', tabindex: '0', 'aria-label': t('game.moves'), 'data-testid': 'move-list' }),
      evalBox: h('div', { class: 'eval-graph', hidden: true, 'data-testid': 'eval-graph' }),
      evalPanel: h('div', { class: 'eval-panel', 'data-testid': 'eval-panel', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' }),
      fen: h('input', { type: 'text', id: 'fen-output', class: 'fen-output', readonly: true, 'aria-label': t('analysis.currentFen') }),
    };
    this.pgnError = h('p', { class: 'field-error', role: 'alert', id: 'pgn-error' });
    this.fenError = h('p', { class: 'field-error', role: 'alert', id: 'fen-error' });
    const pgnInput = h('textarea', { id: 'pgn-input', rows: '6', spellcheck: 'false', 'aria-describedby': 'pgn-error', placeholder: '1. e4 e5 2. Nf3 Nc6 …' });
    const fenInput = h('input', { type: 'text', id: 'fen-input', spellcheck: 'false', autocomplete: 'off', 'aria-describedby': 'fen-error', placeholder: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' });
    const header = game
      ? h('div', { class: 'replay-head' },
        h('h1', {},
          h('a', { href: `/@/${encodeURIComponent(this.tags.White)}` }, this.tags.White), ' – ',
          h('a', { href: `/@/${encodeURIComponent(this.tags.Black)}` }, this.tags.Black)),
        h('p', { class: 'result', 'data-testid': 'result' }, h('strong', {}, resultScore(game)), ' ', resultText(game) || t('analysis.inProgress')),
        h('p', { class: 'muted' }, [speedName(game.speed), game.createdAt ? new Date(game.createdAt).toLocaleString() : null].filter(Boolean).join(' · ')))
      : h('h1', {}, t('analysis.title'));
    replace(this.container,
      header,
      h('div', { class: 'game-layout analysis-layout' },
        h('section', { class: 'board-area', 'aria-label': t('game.board') },
          this.el.topBar,
          h('div', { class: 'board-wrap' }, this.el.boardHost),
          this.el.bottomBar,
          this.el.evalBox),
        h('aside', { class: 'game-side' },
          this.el.evalPanel,
          this.el.moves,
          stepButtons({ onStep: (s) => this.step(s), onFlip: () => this.flip() }),
          h('div', { class: 'field' }, h('label', { for: 'fen-output' }, t('analysis.currentFen')), this.el.fen),
          h('div', { class: 'button-row' },
            h('button', { type: 'button', class: 'button', 'data-action': 'export-pgn', onclick: () => this.exportPgn() }, t('analysis.exportPgn')),
            game ? h('a', { class: 'button', href: `/game/export/${encodeURIComponent(game.id)}`, download: `${game.id}.pgn` }, t('analysis.serverPgn')) : null,
            h('button', { type: 'button', class: 'button', onclick: () => this.reset() }, t('analysis.reset'))),
          h('details', { class: 'tool', open: !game && !this.moves.length },
            h('summary', {}, t('analysis.importPgn')),
            h('form', {
              onsubmit: (e) => {
                e.preventDefault();
                this.pgnError.textContent = '';
                if (this.loadPgn(pgnInput.value)) this.render();
              },
            },
            h('label', { for: 'pgn-input' }, t('analysis.pastePgn')), pgnInput, this.pgnError,
            h('button', { type: 'submit', class: 'button primary' }, t('analysis.import')))),
          h('details', { class: 'tool' },
            h('summary', {}, t('analysis.setupFen')),
            h('form', {
              onsubmit: (e) => {
                e.preventDefault();
                this.fenError.textContent = '';
                if (this.loadFen(fenInput.value)) this.render();
              },
            },
            h('label', { for: 'fen-input' }, t('analysis.fen')), fenInput, this.fenError,
            h('button', { type: 'submit', class: 'button primary' }, t('analysis.load')))))));
    if (this.board) this.board.destroy();
    const s = settings.settings();
    this.board = new Board(this.el.boardHost, {
      orientation: this.orientation,
      coordinates: s.coordinates,
      pieceSet: s.pieceSet,
      theme: s.theme,
      animation: s.animation,
      premove: false,
      label: t('game.board'),
      onMove: (uci) => this.play(uci),
    });
    this.sync();
    this.requestEvals();
  }

  sync() {
    const pos = this.positions[this.ply];
    this.board.set({
      ...boardView(pos, this.ply > 0 ? this.moves[this.ply - 1] : null),
      movableColor: pos.turn,
      turnColor: pos.turn,
      dests: pos.dests(),
    });
    this.el.fen.value = pos.fen();
    this.renderMoves();
    this.renderBars();
    this.renderEval();
  }

  renderBars() {
    const pos = this.positions[this.ply];
    const diff = materialDiff(pos.material());
    const bar = (color) => [
      h('div', { class: 'player' },
        h('span', { class: `color-dot ${color}`, 'aria-hidden': 'true' }),
        h('span', { class: 'player-name' }, this.tags[color === 'white' ? 'White' : 'Black'] || colorName(color)),
        materialView(diff, color)),
    ];
    replace(this.el.topBar, bar(this.orientation === 'white' ? 'black' : 'white'));
    replace(this.el.bottomBar, bar(this.orientation));
  }

  renderMoves() {
    const start = this.positions[0];
    renderMoveList(this.el.moves, {
      sans: this.sans,
      current: this.ply,
      onPick: (ply) => this.goTo(ply),
      notation: settings.get('notation'),
      startColor: start.turn,
      startMove: start.fullmoves,
      result: this.result !== '*' ? this.result : null,
    });
  }

  renderEval() {
    this.renderEvalGraph();
    this.renderEvalPanel();
  }

  renderEvalGraph() {
    const chart = this.evalState.off ? null : evalChart(this.evals, {
      current: this.ply,
      total: this.positions.length,
      onPick: (ply) => this.goTo(ply),
      title: t('analysis.evalGraph'),
    });
    this.el.evalBox.hidden = !chart;
    replace(this.el.evalBox, chart ? [h('h2', { class: 'sr-only' }, t('analysis.evalGraph')), chart] : null);
  }

  /** The evaluation of the position shown and its best line. */
  renderEvalPanel() {
    const panel = this.el.evalPanel;
    if (!panel) return;
    if (this.evalState.off) {
      panel.hidden = false;
      panel.classList.add('off');
      replace(panel, h('p', { class: 'muted eval-note', 'data-testid': 'eval-note' }, t('analysis.noEngine')));
      return;
    }
    panel.classList.remove('off');
    const ev = this.evals[this.ply];
    const pos = this.positions[this.ply];
    if (ev === undefined) {
      replace(panel,
        h('span', { class: 'eval-score pending', 'data-testid': 'eval-score', 'aria-hidden': 'true' }, '…'),
        h('span', { class: 'muted eval-depth' }, t('analysis.evaluating')));
      return;
    }
    if (ev === null) {
      replace(panel, h('p', { class: 'muted eval-note', 'data-testid': 'eval-note' }, t('analysis.noEval')));
      return;
    }
    const best = ev.pvs && ev.pvs[0];
    const line = best ? lineSan(pos, best.moves) : '';
    const score = evalText(ev);
    replace(panel,
      h('div', { class: 'eval-head' },
        h('strong', {
          class: `eval-score ${(ev.cp ?? ev.mate ?? 0) < 0 || ev.mated === 'white' ? 'black-better' : 'white-better'}`,
          'data-testid': 'eval-score',
          title: t('analysis.evalTitle'),
        }, score),
        ev.depth ? h('span', { class: 'muted eval-depth' }, t('analysis.depth', { n: ev.depth })) : null),
      line ? h('p', { class: 'best-line' },
        h('span', { class: 'muted' }, t('analysis.bestLine'), ' '),
        h('span', { 'data-testid': 'best-line' }, line)) : null);
  }

  /**
   * Evaluates the positions one after another (the one shown first), filling in
   * the graph; a new line or leaving the page stops it.
   */
  async requestEvals() {
    if (this.evalRunning || this.destroyed) return;
    this.evalRunning = true;
    try {
      for (;;) {
        if (this.destroyed || this.evalState.off) return;
        let i = this.evals[this.ply] === undefined ? this.ply : -1;
        if (i < 0) {
          for (let j = 0; j < this.positions.length; j++) {
            if (this.evals[j] === undefined) {
              i = j;
              break;
            }
          }
        }
        if (i < 0 || i >= this.positions.length) return;
        const position = this.positions[i];
        const fen = position.fen();
        const wasOff = this.evalState.off;
        let ev = terminalEval(position);
        if (!ev) {
          try {
            ev = await evaluate(fen, { signal: this.evalCtl.signal });
          } catch (err) {
            if (err && err.name === 'AbortError') return;
            ev = null;
          }
          if (this.destroyed) return;
          // The line may have changed while waiting.
          if (this.positions[i]?.fen() !== fen) continue;
          if (ev) this.evalState.seen = true;
          else this.evalState.failures++;
          // No engine (or none that answers): a note instead of the graph.
          if (!engineAvailable() || (!this.evalState.seen && this.evalState.failures >= 2)) {
            this.evalState.off = true;
          }
        }
        this.evals[i] = ev;
        this.renderEvalGraph();
        // The panel (a live region) changes only for the position shown.
        if (i === this.ply || this.evalState.off !== wasOff) this.renderEvalPanel();
      }
    } finally {
      this.evalRunning = false;
    }
  }

  // ----- actions -----

  step(step) {
    this.goTo(stepPly(step, this.ply, this.moves.length));
  }

  goTo(ply) {
    this.ply = Math.max(0, Math.min(this.moves.length, ply));
    this.sync();
    this.requestEvals();
  }

  flip() {
    this.orientation = this.orientation === 'white' ? 'black' : 'white';
    this.board.set({ orientation: this.orientation });
    this.renderBars();
  }

  play(uci) {
    const pos = this.positions[this.ply];
    if (!pos.isLegal(uci)) {
      this.sync();
      return;
    }
    if (this.moves[this.ply] === uci) {
      this.goTo(this.ply + 1);
      return;
    }
    // A new move from here replaces the rest of the line.
    const san = pos.toSan(uci);
    this.moves = [...this.moves.slice(0, this.ply), uci];
    this.sans = [...this.sans.slice(0, this.ply), san];
    this.positions = [...this.positions.slice(0, this.ply + 1), pos.play(uci)];
    this.evals = this.evals.slice(0, this.ply + 1);
    this.result = '*';
    this.ply++;
    this.sync();
    this.requestEvals();
  }

  reset() {
    this.game = null;
    this.setLine(null, []);
    this.tags = {};
    this.result = '*';
    this.ply = 0;
    this.render();
  }

  exportPgn() {
    const tags = { ...this.tags };
    if (this.initialFen && !tags.FEN) {
      tags.FEN = this.initialFen;
      tags.SetUp = '1';
    }
    if (!tags.Date) {
      const d = new Date();
      tags.Date = `${d.getFullYear()}.${String(d.getMonth() + 1).padStart(2, '0')}.${String(d.getDate()).padStart(2, '0')}`;
    }
    const pgn = toPgn({ tags, sans: this.sans, result: this.result });
    download(`${this.game ? this.game.id : 'caissa-analysis'}.pgn`, pgn);
  }
}

