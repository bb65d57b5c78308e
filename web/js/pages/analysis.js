// Replay and analysis: step through a game (finished games open here), play
// moves freely into a tree of variations, annotate them (comments, NAGs),
// import a PGN (picking one of its games), set up a position from FEN, export
// PGN, and — when the server's engine answers /api/cloud-eval — the evaluation
// of the position shown, its best line and the evaluation graph of the
// mainline. Every rule comes from the rules module (rules.js).

import { Board } from '../board.js';
import { destsMap, loadRules, play as rulesPlay, position as rulesPosition, readPgn, replay, writePgn } from '../rules.js';
import { START_FEN, fenTurn, materialOf } from '../fen.js';
import { MoveTree } from '../tree.js';
import { BoardEditor } from '../editor.js';
import { loadOpenings, openingOf } from '../openings.js';
import { review } from '../review.js';
import { MOVE_NAGS, POSITION_NAGS, nagGlyph, renderMoveTree } from '../movetree.js';
import { api, isMe } from '../api.js';
import { t } from '../i18n.js';
import * as settings from '../settings.js';
import { Deepening, engineAvailable, evaluate } from '../engine.js';
import { evalChart } from '../chart.js';
import { colorName, resultScore, resultText, speedName } from '../format.js';
import { keyboardSteps, materialDiff, materialView, ratingDiffView, stepButtons } from '../components.js';
import { download, h, replace, setTitle, showError, toast } from '../ui.js';

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
 * A line of UCI moves from the position `fen` in SAN with move numbers
 * ("12... Nc6 13. Bb5"), at most `max` plies; stops at the first move that
 * cannot be played.
 */
export function lineSan(fen, ucis, max = 12) {
  const parts = [];
  let at = fen;
  for (const uci of ucis.slice(0, max)) {
    let played;
    try {
      played = rulesPlay(at, uci);
    } catch {
      break;
    }
    const [, turn, , , , full] = at.split(' ');
    if (turn === 'w') parts.push(`${full}. ${played.san}`);
    else parts.push(parts.length ? played.san : `${full}... ${played.san}`);
    at = played.fen;
  }
  return parts.join(' ');
}

/** The evaluation of a position that is over (no engine needed), or null. */
export function terminalEval(fen) {
  const end = rulesPosition(fen).end;
  if (!end) return null;
  if (end.reason === 'checkmate') return { mate: 0, mated: end.winner === 'white' ? 'black' : 'white', local: true };
  return { cp: 0, local: true, pvs: [] };
}

export async function mount(container, params, ctx) {
  const page = new Analysis(container, params, ctx);
  await page.start();
  return page;
}

/** How the computer's judgement of a move is marked. */
const JUDGEMENT_GLYPHS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** Today as a PGN date. */
function pgnDate(d = new Date()) {
  return `${d.getFullYear()}.${String(d.getMonth() + 1).padStart(2, '0')}.${String(d.getDate()).padStart(2, '0')}`;
}

/** How a finished rated game moved `color`'s rating, shown after the name. */
function diffOf(game, color) {
  const diff = game.players?.[color]?.ratingDiff;
  return typeof diff === 'number' ? ratingDiffView(diff, color) : null;
}

/** One line per game of a PGN file, for picking one. */
function gameLabel(game, i) {
  const tag = (name) => (game.tags.find(([n]) => n === name) || [])[1];
  const who = `${tag('White') || '?'} – ${tag('Black') || '?'}`;
  const extra = [tag('Event'), tag('Date'), game.result || tag('Result')].filter((v) => v && !/^\?/.test(v));
  return `${i + 1}. ${who}${extra.length ? ` (${extra.join(', ')})` : ''}`;
}

class Analysis {
  constructor(container, params, ctx = {}) {
    this.container = container;
    this.navigate = ctx.navigate;
    this.query = ctx.query || new URLSearchParams();
    this.game = params.game || null;
    this.tree = new MoveTree(START_FEN);
    this.chess960 = false;
    this.node = this.tree.root;
    this.orientation = 'white';
    this.tags = {};
    this.result = '*';
    this.pgnGames = [];
    this.evals = new Map();
    this.evalCtl = new AbortController();
    this.evalState = { seen: false, failures: 0, off: false };
    this.deepening = new Deepening((fen, ev) => this.deepened(fen, ev));
    this.cleanups = [];
  }

  async start() {
    try {
      await loadRules();
    } catch (err) {
      showError(err);
      return;
    }
    const gameId = !this.game && this.query.get('game');
    if (gameId) {
      try {
        this.game = await api(`/game/export/${encodeURIComponent(gameId)}`, { accept: 'application/json' });
      } catch (err) {
        showError(err);
      }
    }
    if (this.destroyed) return;
    if (this.game) this.loadGame(this.game);
    else if (this.query.get('fen')) this.loadFen(this.query.get('fen'), true);
    else if (this.query.get('pgn')) this.loadPgn(this.query.get('pgn'), true);
    this.render();
    this.cleanups.push(keyboardSteps((s) => this.step(s)));
    loadOpenings().then(() => {
      if (!this.destroyed && this.el) this.renderOpening();
    });
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
    if (this.editor) this.editor.destroy();
    this.evalCtl.abort();
    this.deepening.stop();
    for (const fn of this.cleanups) fn();
    if (this.board) this.board.destroy();
  }

  onLang() {
    this.render();
  }

  // ----- loading -----

  setTree(tree, chess960 = false) {
    this.tree = tree;
    this.chess960 = chess960;
    this.node = tree.root;
    this.evals = new Map();
    this.evalState = { seen: false, failures: 0, off: false };
  }

  /** The position `fen` followed by the line `ucis`, as a tree. */
  lineTree(fen, ucis) {
    const start = fen || START_FEN;
    const tree = new MoveTree(rulesPosition(start).fen);
    let at = tree.root;
    for (const move of replay(start, ucis).moves) at = tree.add(at, move);
    return tree;
  }

  loadGame(game) {
    const ucis = (game.moves || '').split(' ').filter(Boolean);
    const fen = game.initialFen && game.initialFen !== 'startpos' ? game.initialFen : null;
    try {
      this.setTree(this.lineTree(fen, ucis), game.variant === 'chess960');
    } catch (err) {
      showError(err);
    }
    // Each move's clock, from the export's centiseconds.
    if (Array.isArray(game.clocks)) {
      this.tree.mainline().forEach((node, i) => {
        if (typeof game.clocks[i] === 'number') node.clock = game.clocks[i] * 10;
      });
    }
    this.node = this.tree.mainline().at(-1) || this.tree.root;
    const white = game.players?.white?.user?.name || game.players?.white?.name || '?';
    const black = game.players?.black?.user?.name || game.players?.black?.name || '?';
    this.tags = { Event: `Caissa ${game.speed || ''}`.trim(), Site: `${location.origin}/game/${game.id}`, White: white, Black: black };
    if (game.opening) {
      if (game.opening.eco) this.tags.ECO = game.opening.eco;
      if (game.opening.name) this.tags.Opening = game.opening.name;
    }
    if (isMe(black) && !isMe(white)) this.orientation = 'black';
    this.result = resultScore(game);
  }

  /** Reads a PGN text; with several games, lists them to pick from and opens the first that reads. */
  loadPgn(text, quiet) {
    let read;
    try {
      read = readPgn(text);
    } catch (err) {
      if (!quiet) this.showFormError(this.pgnError, err.message);
      return false;
    }
    if (!read.games.length) {
      if (!quiet) this.showFormError(this.pgnError, t('analysis.pgnEmpty'));
      return false;
    }
    this.pgnGames = read.games.length > 1 ? read.games : [];
    const first = read.games.findIndex((g) => !g.error);
    if (first < 0) {
      if (!quiet) this.showFormError(this.pgnError, t('analysis.pgnBadMove', { reason: read.games[0].error }));
      return false;
    }
    this.openPgnGame(read.games[first]);
    this.pickedGame = first;
    return true;
  }

  openPgnGame(game) {
    this.game = null;
    this.setTree(MoveTree.fromPgnGame(game), game.chess960);
    this.tags = Object.fromEntries(game.tags);
    this.result = game.result || '*';
    this.node = this.tree.mainline().at(-1) || this.tree.root;
  }

  loadFen(fen, quiet) {
    let pos;
    try {
      pos = rulesPosition(fen.trim());
    } catch (err) {
      if (!quiet) this.showFormError(this.fenError, t('analysis.badFen', { reason: err.message }));
      return false;
    }
    this.game = null;
    this.pgnGames = [];
    this.setTree(new MoveTree(pos.fen));
    this.tags = { FEN: pos.fen, SetUp: '1' };
    this.result = '*';
    return true;
  }

  showFormError(el, message) {
    // Said once, next to the form (a live region): no toast over the button.
    if (el) el.textContent = message;
    else toast(message);
  }

  // ----- rendering -----

  render() {
    const game = this.game;
    setTitle(game ? `${this.tags.White} – ${this.tags.Black}` : t('nav.analysis'));
    this.el = {
      boardHost: h('div', { class: 'board-host' }),
      topBar: h('div', { class: 'player-bar top' }),
      bottomBar: h('div', { class: 'player-bar bottom' }),
      moves: h('div', { class: 'move-list tree', role: 'region', tabindex: '0', 'aria-label': t('game.moves'), 'data-testid': 'move-list' }),
      nodeTools: h('div', { class: 'node-tools', 'data-testid': 'node-tools' }),
      evalBox: h('div', { class: 'eval-graph', hidden: true, 'data-testid': 'eval-graph' }),
      review: h('section', { class: 'review', hidden: true, 'data-testid': 'review', 'aria-label': t('review.title') }),
      evalPanel: h('div', { class: 'eval-panel', 'data-testid': 'eval-panel', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' }),
      fen: h('input', { type: 'text', id: 'fen-output', class: 'fen-output', readonly: true, 'aria-label': t('analysis.currentFen') }),
      picker: h('div', { class: 'pgn-picker' }),
      opening: h('p', { class: 'opening', 'data-testid': 'opening' }),
    };
    this.pgnError = h('p', { class: 'field-error', role: 'alert', id: 'pgn-error' });
    this.fenError = h('p', { class: 'field-error', role: 'alert', id: 'fen-error' });
    const pgnInput = h('textarea', { id: 'pgn-input', rows: '6', spellcheck: 'false', 'aria-describedby': 'pgn-error', placeholder: '1. e4 e5 2. Nf3 Nc6 …' });
    const editorHost = h('div', { class: 'editor', 'data-testid': 'board-editor' });
    if (this.editor) {
      this.editor.destroy();
      this.editor = null;
    }
    const fenInput = h('input', { type: 'text', id: 'fen-input', spellcheck: 'false', autocomplete: 'off', 'aria-describedby': 'fen-error', placeholder: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' });
    const header = game
      ? h('div', { class: 'replay-head' },
        h('h1', {},
          h('a', { href: `/@/${encodeURIComponent(this.tags.White)}` }, this.tags.White), diffOf(game, 'white'), ' – ',
          h('a', { href: `/@/${encodeURIComponent(this.tags.Black)}` }, this.tags.Black), diffOf(game, 'black')),
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
          this.el.evalBox,
          this.el.review),
        h('aside', { class: 'game-side' },
          this.el.evalPanel,
          this.el.picker,
          this.el.opening,
          this.el.moves,
          stepButtons({ onStep: (s) => this.step(s), onFlip: () => this.flip() }),
          this.el.nodeTools,
          h('div', { class: 'field' }, h('label', { for: 'fen-output' }, t('analysis.currentFen')), this.el.fen),
          h('div', { class: 'button-row' },
            h('button', { type: 'button', class: 'button', 'data-action': 'export-pgn', onclick: () => this.exportPgn() }, t('analysis.exportPgn')),
            game ? h('a', { class: 'button', href: `/game/export/${encodeURIComponent(game.id)}`, download: `${game.id}.pgn` }, t('analysis.serverPgn')) : null,
            h('button', { type: 'button', class: 'button', onclick: () => this.reset() }, t('analysis.reset'))),
          h('details', { class: 'tool', open: !game && !this.tree.root.children.length },
            h('summary', {}, t('analysis.importPgn')),
            h('form', {
              onsubmit: (e) => {
                e.preventDefault();
                this.pgnError.textContent = '';
                if (this.loadPgn(pgnInput.value)) this.render();
              },
            },
            h('label', { for: 'pgn-input' }, t('analysis.pastePgn')), pgnInput,
            h('button', { type: 'submit', class: 'button primary' }, t('analysis.import')), this.pgnError)),
          h('details', {
            class: 'tool',
            ontoggle: (e) => {
              // The editor is made when first opened, from the position shown.
              if (!e.target.open || this.editor) return;
              const s = settings.settings();
              this.editor = new BoardEditor(editorHost, {
                fen: this.node.fen,
                pieceSet: s.pieceSet,
                theme: s.theme,
                onChange: (fen) => {
                  fenInput.value = fen;
                  this.fenError.textContent = '';
                },
              });
              fenInput.value = this.editor.fen();
            },
          },
            h('summary', {}, t('analysis.setupFen')),
            editorHost,
            h('form', {
              onsubmit: (e) => {
                e.preventDefault();
                this.fenError.textContent = '';
                if (this.loadFen(fenInput.value)) this.render();
              },
            },
            h('label', { for: 'fen-input' }, t('analysis.fen')), fenInput,
            h('button', { type: 'submit', class: 'button primary' }, t('analysis.load')), this.fenError)))));
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
      // Right-drag draws an arrow, a right click a circle; drawn again, it goes.
      onShape: (shape) => {
        this.tree.toggleShape(this.node, shape);
        this.board.set({ shapes: this.node.shapes });
      },
    });
    this.renderPicker();
    this.sync();
    this.requestEvals();
  }

  /** With a PGN of several games: a list to pick one, games that cannot be read named with why. */
  renderPicker() {
    if (this.pgnGames.length < 2) {
      replace(this.el.picker);
      return;
    }
    const select = h('select', {
      id: 'pgn-game',
      'data-testid': 'pgn-game',
      onchange: () => {
        const i = Number(select.value);
        const game = this.pgnGames[i];
        if (!game || game.error) return;
        this.pickedGame = i;
        this.openPgnGame(game);
        this.render();
      },
    }, this.pgnGames.map((g, i) => h('option', {
      value: String(i),
      disabled: g.error ? true : null,
      selected: i === this.pickedGame ? true : null,
      title: g.error || null,
    }, g.error ? `${i + 1}. ${g.error}` : gameLabel(g, i))));
    replace(this.el.picker, h('div', { class: 'field' },
      h('label', { for: 'pgn-game' }, t('analysis.pickGame', { n: this.pgnGames.length })), select));
  }

  sync() {
    const node = this.node;
    let pos;
    try {
      pos = rulesPosition(node.fen, this.chess960);
    } catch (err) {
      showError(err);
      return;
    }
    this.board.set({
      fen: node.fen,
      lastMove: node.uci ? [node.uci.slice(0, 2), node.uci.slice(2, 4)] : null,
      check: pos.check,
      movableColor: pos.turn,
      turnColor: pos.turn,
      dests: destsMap(pos.dests),
      shapes: node.shapes,
      autoShapes: this.engineShapes(),
    });
    this.el.fen.value = node.fen;
    this.renderOpening();
    this.renderMoves();
    this.renderNodeTools();
    this.renderBars();
    this.renderEval();
  }

  /** The opening of the line on the board (from the initial position only). */
  lineOpening(node) {
    if (this.tree.root.fen !== START_FEN || this.chess960) return null;
    return openingOf([this.tree.root, ...this.tree.path(node)].map((n) => n.fen));
  }

  renderOpening() {
    const opening = this.lineOpening(this.node);
    this.el.opening.hidden = !opening;
    replace(this.el.opening, opening ? [h('strong', {}, opening.eco), ` ${opening.name}`] : null);
  }

  renderBars() {
    const diff = materialDiff(materialOf(this.node.fen));
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
    renderMoveTree(this.el.moves, this.tree, {
      current: this.node,
      onPick: (node) => this.goTo(node),
      onToggle: (node) => {
        node.collapsed = !node.collapsed;
        this.renderMoves();
      },
      notation: settings.get('notation'),
      result: this.result !== '*' ? this.result : null,
      judged: this.judged,
    });
    const current = this.el.moves.querySelector('[aria-current="true"]');
    if (current && current.scrollIntoView) current.scrollIntoView({ block: 'nearest' });
  }

  /** What can be done to the move on the board: NAGs, a comment, promote, delete. */
  renderNodeTools() {
    const node = this.node;
    if (!node.parent) {
      replace(this.el.nodeTools);
      return;
    }
    const nagButton = ([nag, name]) => h('button', {
      type: 'button',
      class: `button nag-button ${node.nags.includes(nag) ? 'on' : ''}`,
      'aria-pressed': node.nags.includes(nag) ? 'true' : 'false',
      'aria-label': t(`nag.${name}`),
      title: t(`nag.${name}`),
      'data-nag': String(nag),
      onclick: () => {
        this.tree.toggleNag(node, nag);
        this.renderMoves();
        this.renderNodeTools();
      },
    }, nagGlyph(nag));
    const comment = h('textarea', {
      id: 'node-comment',
      rows: '2',
      'data-testid': 'node-comment',
      onchange: () => {
        const text = comment.value.trim();
        node.comments = text ? [text] : [];
        this.renderMoves();
      },
    });
    comment.value = node.comments.join(' ');
    const onMainline = this.tree.onMainline(node);
    replace(this.el.nodeTools,
      h('div', { class: 'nag-row', role: 'group', 'aria-label': t('analysis.annotate') }, MOVE_NAGS.map(nagButton)),
      h('div', { class: 'nag-row', role: 'group', 'aria-label': t('analysis.assess') }, POSITION_NAGS.map(nagButton)),
      h('label', { for: 'node-comment' }, t('analysis.comment')), comment,
      h('div', { class: 'button-row' },
        onMainline ? null : h('button', { type: 'button', class: 'button', 'data-action': 'promote', onclick: () => this.promote(false) }, t('analysis.promote')),
        onMainline ? null : h('button', { type: 'button', class: 'button', 'data-action': 'mainline', onclick: () => this.promote(true) }, t('analysis.makeMainline')),
        h('button', { type: 'button', class: 'button danger', 'data-action': 'delete', onclick: () => this.deleteNode() }, t('analysis.deleteFromHere'))));
  }

  renderEval() {
    this.renderEvalGraph();
    this.renderEvalPanel();
  }

  /** The mainline's positions, from the start: the graph's points. */
  mainlineNodes() {
    return [this.tree.root, ...this.tree.mainline()];
  }

  renderEvalGraph() {
    const nodes = this.mainlineNodes();
    const evals = nodes.map((n) => this.evals.get(n.fen));
    const current = nodes.indexOf(this.node);
    const reviewed = review(evals, nodes.slice(1).map((n) => n.uci), fenTurn(this.tree.root.fen));
    this.judged = new Map(reviewed.moves.filter((m) => m.judgement).map((m) => [nodes[m.ply].id, m]));
    const chart = this.evalState.off ? null : evalChart(evals, {
      current,
      total: nodes.length,
      onPick: (i) => this.goTo(nodes[i] || this.tree.root),
      title: t('analysis.evalGraph'),
      marks: reviewed.moves.filter((m) => m.judgement).map((m) => ({ index: m.ply, kind: m.judgement })),
    });
    this.el.evalBox.hidden = !chart;
    replace(this.el.evalBox, chart ? [h('h2', { class: 'sr-only' }, t('analysis.evalGraph')), chart] : null);
    this.renderReview(reviewed, nodes, evals);
  }

  /**
   * The computer's review of the mainline: how far the analysis is, each
   * side's accuracy and count of inaccuracies, mistakes and blunders, and
   * every judged move with the engine's better move.
   */
  renderReview(reviewed, nodes, evals) {
    const el = this.el.review;
    if (this.evalState.off || nodes.length < 2) {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    const done = evals.filter((e) => e !== undefined).length;
    const progress = done < nodes.length
      ? h('p', { class: 'review-progress', 'data-testid': 'review-progress' },
        h('progress', { max: String(nodes.length), value: String(done), 'aria-label': t('review.title') }),
        ' ', t('review.progress', { done, total: nodes.length }))
      : null;
    const side = (color) => {
      const accuracy = reviewed.accuracy[color];
      const c = reviewed.counts[color];
      return h('li', { 'data-testid': `accuracy-${color}` },
        h('strong', {}, this.tags[color === 'white' ? 'White' : 'Black'] || colorName(color)), ' ',
        accuracy === null ? '' : t('review.accuracy', { n: Math.round(accuracy) }), ' · ',
        t('review.counts', { inaccuracy: c.inaccuracy, mistake: c.mistake, blunder: c.blunder }));
    };
    const judged = reviewed.moves.filter((m) => m.judgement).map((m) => {
      const node = nodes[m.ply];
      const before = nodes[m.ply - 1];
      const label = lineSan(before.fen, [node.uci], 1);
      const better = m.best ? lineSan(before.fen, [m.best], 1).replace(/^\d+\.+ /, '') : null;
      return h('li', {},
        h('button', { type: 'button', class: `link judged judged-${m.judgement}`, onclick: () => this.goTo(node) },
          `${label}${JUDGEMENT_GLYPHS[m.judgement]}`),
        ` ${t(`review.${m.judgement}`)}`,
        better ? h('span', { class: 'muted' }, ` · ${t('review.bestWas', { move: better })}`) : null);
    });
    replace(el,
      h('h2', {}, t('review.title')),
      progress,
      h('ul', { class: 'review-sides' }, side('white'), side('black')),
      judged.length ? h('ol', { class: 'review-moves', 'data-testid': 'review-moves' }, judged) : null);
  }

  /** The engine's best move in the position shown, as an arrow. */
  engineShapes() {
    const best = this.evals.get(this.node.fen)?.pvs?.[0]?.moves?.[0];
    return best ? [{ brush: 'engine', orig: best.slice(0, 2), dest: best.slice(2, 4) }] : [];
  }

  /** The evaluation of the position shown and its best line. */
  renderEvalPanel() {
    if (this.board) this.board.set({ autoShapes: this.engineShapes() });
    const panel = this.el.evalPanel;
    if (!panel) return;
    if (this.evalState.off) {
      panel.hidden = false;
      panel.classList.add('off');
      replace(panel, h('p', { class: 'muted eval-note', 'data-testid': 'eval-note' }, t('analysis.noEngine')));
      return;
    }
    panel.classList.remove('off');
    const ev = this.evals.get(this.node.fen);
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
    const line = best ? lineSan(this.node.fen, best.moves) : '';
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
   * Evaluates positions one after another — the one shown first, then the
   * mainline's for the graph; a new game or leaving the page stops it.
   */
  async requestEvals() {
    // The engine first answers quickly for the position now shown.
    if (this.deepening.fen !== this.node.fen) this.deepening.stop();
    if (this.evalRunning || this.destroyed) return;
    this.evalRunning = true;
    try {
      for (;;) {
        if (this.destroyed || this.evalState.off) return;
        const fen = !this.evals.has(this.node.fen)
          ? this.node.fen
          : this.mainlineNodes().map((n) => n.fen).find((f) => !this.evals.has(f));
        if (!fen) {
          // All answered: the position shown is searched deeper.
          if (this.evals.get(this.node.fen) && !terminalEval(this.node.fen)) this.deepening.follow(this.node.fen);
          return;
        }
        const tree = this.tree;
        const wasOff = this.evalState.off;
        let ev = terminalEval(fen);
        if (!ev) {
          try {
            ev = await evaluate(fen, { signal: this.evalCtl.signal });
          } catch (err) {
            if (err && err.name === 'AbortError') return;
            ev = null;
          }
          if (this.destroyed) return;
          if (ev) this.evalState.seen = true;
          else this.evalState.failures++;
          // No engine (or none that answers): a note instead of the graph.
          if (!engineAvailable() || (!this.evalState.seen && this.evalState.failures >= 2)) {
            this.evalState.off = true;
          }
        }
        // Another game may have been opened while waiting.
        if (tree !== this.tree) continue;
        this.evals.set(fen, ev);
        this.renderEvalGraph();
        this.renderMoves();
        // The panel (a live region) changes only for the position shown.
        if (fen === this.node.fen || this.evalState.off !== wasOff) this.renderEvalPanel();
      }
    } finally {
      this.evalRunning = false;
    }
  }

  /** A deeper answer for `fen`: shown if it is the position on the board. */
  deepened(fen, ev) {
    if (this.destroyed || (this.evals.get(fen)?.depth ?? 0) >= ev.depth) return;
    this.evals.set(fen, ev);
    this.renderEvalGraph();
    if (fen === this.node.fen) this.renderEvalPanel();
  }

  // ----- actions -----

  /** Steps along the line on the board: back to the parent, on to the first child, or to either end. */
  step(step) {
    const node = this.node;
    if (step === 'first') this.goTo(this.tree.root);
    else if (step === 'prev') this.goTo(node.parent || node);
    else if (step === 'next') this.goTo(node.children[0] || node);
    else if (step === 'last') this.goTo(this.tree.lineThrough(node).at(-1) || node);
  }

  goTo(node) {
    this.node = node;
    this.sync();
    this.requestEvals();
  }

  flip() {
    this.orientation = this.orientation === 'white' ? 'black' : 'white';
    this.board.set({ orientation: this.orientation });
    this.renderBars();
  }

  /** A move on the board: the line goes on, or a variation starts; nothing is ever replaced. */
  play(uci) {
    let played;
    try {
      played = rulesPlay(this.node.fen, uci, this.chess960);
    } catch {
      this.sync();
      return;
    }
    const extendsMainline = this.tree.onMainline(this.node) && !this.node.children.length;
    const node = this.tree.add(this.node, played);
    // Moves after the game's end make the result open again.
    if (extendsMainline && this.result !== '*') this.result = '*';
    this.goTo(node);
  }

  promote(toMainline) {
    if (toMainline) this.tree.makeMainline(this.node);
    else this.tree.promote(this.node);
    this.sync();
  }

  deleteNode() {
    const parent = this.tree.delete(this.node);
    this.goTo(parent);
  }

  reset() {
    this.game = null;
    this.pgnGames = [];
    this.setTree(new MoveTree(START_FEN));
    this.tags = {};
    this.result = '*';
    this.render();
  }

  exportPgn() {
    const tags = { ...this.tags };
    if (this.tree.root.fen !== START_FEN && !tags.FEN) {
      tags.FEN = this.tree.root.fen;
      tags.SetUp = '1';
    }
    if (this.chess960) tags.Variant = 'Chess960';
    const opening = this.lineOpening(this.tree.mainline().at(-1) || this.tree.root);
    if (opening && !tags.ECO) {
      tags.ECO = opening.eco;
      tags.Opening = opening.name;
    }
    if (!tags.Date) tags.Date = pgnDate();
    let pgn;
    try {
      pgn = writePgn(this.tree.toPgnGame(tags, this.result));
    } catch (err) {
      showError(err);
      return;
    }
    download(`${this.game ? this.game.id : 'caissa-analysis'}.pgn`, pgn);
  }
}
