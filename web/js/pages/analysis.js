// Replay and analysis: step through a game (finished games open here), play
// moves freely, import PGN, set up a position from FEN, export PGN, and the
// evaluation graph when an engine gives evaluations.

import { Board } from '../board.js';
import { Position, parsePgn, replay, toPgn } from '../chess.js';
import { api, isMe } from '../api.js';
import { t } from '../i18n.js';
import * as settings from '../settings.js';
import { evaluate } from '../engine.js';
import { evalChart } from '../chart.js';
import { colorName, resultScore, resultText, speedName } from '../format.js';
import { keyboardSteps, materialDiff, materialView, renderMoveList, stepButtons, stepPly } from '../components.js';
import { download, h, replace, setTitle, showError, toast } from '../ui.js';
import { boardView } from './game.js';

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
      evalBox: h('div', { class: 'eval-graph', hidden: true }),
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
    const chart = evalChart(this.evals, {
      current: this.ply,
      onPick: (ply) => this.goTo(ply),
      title: t('analysis.evalGraph'),
    });
    this.el.evalBox.hidden = !chart;
    replace(this.el.evalBox, chart ? [h('h2', { class: 'sr-only' }, t('analysis.evalGraph')), chart] : null);
  }

  async requestEvals() {
    const token = (this.evalToken = (this.evalToken || 0) + 1);
    for (let i = 0; i < this.positions.length; i++) {
      if (this.destroyed || token !== this.evalToken) return;
      if (this.evals[i] !== undefined) continue;
      const ev = await evaluate(this.positions[i].fen());
      if (this.destroyed || token !== this.evalToken) return;
      this.evals[i] = ev;
      if (ev === null && i === 0) return; // no engine: no graph
      this.renderEval();
    }
  }

  // ----- actions -----

  step(step) {
    this.goTo(stepPly(step, this.ply, this.moves.length));
  }

  goTo(ply) {
    this.ply = Math.max(0, Math.min(this.moves.length, ply));
    this.sync();
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

