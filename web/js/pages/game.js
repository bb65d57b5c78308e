// A game: the board, clocks, moves, offers and the result. Players act through
// the game's WebSocket; spectators just watch. Finished games open as a replay.
// The page's parts live in ../game/: the socket, the clocks, the action bar and
// offers, and move input; each is mixed into GamePage below.

import { Board } from '../board.js';
import { loadRules, replay as replayLine, rulesLoaded } from '../rules.js';
import { START_FEN, fenFullmoves, fenTurn, kingSquare, materialOf, parseDests } from '../fen.js';
import { loadOpenings, openingOf } from '../openings.js';
import { ApiError, api, isMe } from '../api.js';
import * as events from '../events.js';
import { t } from '../i18n.js';
import * as settings from '../settings.js';
import * as sound from '../sound.js';
import { announce, h, replace, setTitle, showError, toast } from '../ui.js';
import {
  aiLevelText, announceMove, clockLabel, colorName, isOver, opposite, resultScore, resultText, rulesetName, speedName,
} from '../format.js';
import { ChatPanel } from './chat.js';
import { seatPanel } from './seat.js';
import { icon, keyboardSteps, materialDiff, materialView, ratingDiffView, renderMoveList, stepButtons, stepPly } from '../components.js';
import { socketMethods } from '../game/socket.js';
import { clockMethods, runningColor } from '../game/clocks.js';
import { controlMethods } from '../game/controls.js';
import { boardView, inputMethods, playMoveSound } from '../game/input.js';

export { boardView, runningColor };

/** A position of the game as the page keeps it: {fen, turn, fullmoves, check (square or null)}. */
export function positionOf(fen, check = null) {
  return { fen, turn: fenTurn(fen), fullmoves: fenFullmoves(fen), check };
}

export async function mount(container, params, ctx) {
  const game = new GamePage(container, params, ctx);
  await game.start();
  return game;
}

/** Shows a game that is being played (or has just ended). */
export class GamePage {
  constructor(container, params, ctx = {}) {
    this.container = container;
    this.id = params.id;
    this.requestedColor = params.color || null;
    this.navigate = ctx.navigate || (() => {});
    this.tv = !!params.tv;
    this.onFinish = params.onFinish || null;
    this.destroyed = false;
    this.ws = null;
    this.pendingReplies = [];
    this.httpMode = false;
    this.attempts = 0;
    this.connection = 'connecting';
    this.full = null;
    this.state = null;
    this.moves = [];
    this.positions = [positionOf(START_FEN)];
    this.sans = [];
    this.dests = new Map();
    this.viewPly = null;
    this.myColor = null;
    this.clock = null;
    this.gone = null;
    this.rematch = null;
    this.incomingRematch = null;
    this.pendingConfirm = null;
    this.sanError = '';
    this.lowTimeWarned = false;
    this.raf = 0;
    this.cleanups = [];
  }

  async start() {
    // A finished game is a replay: the analysis page shows it.
    if (!this.tv) {
      let exported = null;
      try {
        exported = await api(`/game/export/${encodeURIComponent(this.id)}`, { accept: 'application/json' });
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) {
          this.renderMissing(err.message);
          return;
        }
        showError(err);
      }
      if (this.destroyed) return;
      if (exported && isOver(exported.status)) {
        const analysis = await import('./analysis.js');
        if (this.destroyed) return;
        const replayPage = await analysis.mount(this.container, { game: exported }, { navigate: this.navigate });
        if (this.destroyed) replayPage.destroy();
        else this.replay = replayPage;
        return;
      }
    }
    // The move list and stepping back need the rules module; playing does not
    // (the server sends each position and its legal moves).
    try {
      await loadRules();
    } catch (err) {
      showError(err);
    }
    if (this.destroyed) return;
    this.buildLayout();
    this.connect();
    loadOpenings().then(() => {
      if (!this.destroyed && this.el && this.full) this.renderInfo();
    });
    this.cleanups.push(keyboardSteps((step) => this.step(step)));
    this.cleanups.push(settings.onChange((s, changed) => this.onSettings(changed)));
    this.cleanups.push(events.onEvent((event) => this.onAccountEvent(event)));
    for (const c of events.challenges.values()) this.onAccountEvent({ type: 'challenge', challenge: c });
    this.tick = this.tick.bind(this);
    this.raf = requestAnimationFrame(this.tick);
  }

  destroy() {
    this.destroyed = true;
    cancelAnimationFrame(this.raf);
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.goneTimer);
    for (const fn of this.cleanups) fn();
    if (this.chat) this.chat.stop();
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close();
    }
    if (this.board) this.board.destroy();
    if (this.replay && this.replay.destroy) this.replay.destroy();
  }

  onLang() {
    if (this.replay) {
      if (this.replay.onLang) this.replay.onLang();
      return;
    }
    if (!this.full) return;
    this.buildLayout();
    this.renderAll();
  }

  renderMissing(message) {
    setTitle(t('game.notFound'));
    replace(this.container,
      h('h1', {}, t('game.notFound')),
      h('p', { role: 'alert', class: 'error-text' }, message),
      h('p', {}, h('a', { href: '/' }, t('nav.home'))));
  }

  // ----- layout -----

  buildLayout() {
    const orientation = this.orientation();
    this.el = {
      topBar: h('div', { class: 'player-bar top' }),
      bottomBar: h('div', { class: 'player-bar bottom' }),
      boardHost: h('div', { class: 'board-host', 'data-input': 'none' }),
      info: h('div', { class: 'game-info' }),
      status: h('div', { class: 'game-status', role: 'status', 'data-testid': 'game-status' }),
      connection: h('div', { class: 'connection', role: 'status', 'aria-live': 'polite' }),
      offers: h('div', { class: 'offers', 'aria-live': 'polite' }),
      moves: h('div', { class: 'move-list', role: 'region', tabindex: '0', 'aria-label': t('game.moves'), 'data-testid': 'move-list' }),
      controls: h('div', { class: 'game-controls', role: 'group', 'aria-label': t('game.actions') }),
      confirm: h('div', { class: 'confirm-bar' }),
      seat: h('div', { class: 'seat-host', 'data-testid': 'seat' }),
      sanForm: this.buildSanForm(),
    };
    const layout = h('div', { class: 'game-layout' },
      h('section', { class: 'board-area', 'aria-label': t('game.board') },
        this.el.topBar,
        h('div', { class: 'board-wrap' }, this.el.boardHost),
        this.el.bottomBar),
      h('aside', { class: 'game-side' },
        this.el.info,
        this.el.connection,
        this.el.status,
        this.el.offers,
        this.el.seat,
        this.el.moves,
        // On a phone the bar stays in sight at the bottom of the screen.
        h('div', { class: 'action-bar', 'data-testid': 'action-bar' },
          this.el.confirm,
          stepButtons({ onStep: (s) => this.step(s), onFlip: () => this.flip() }),
          this.el.controls),
        this.el.sanForm,
        this.chatPanel().el));
    this.chat.render();
    replace(this.container, layout);
    if (this.board) this.board.destroy();
    const s = settings.settings();
    this.board = new Board(this.el.boardHost, {
      fen: this.latest().fen,
      orientation,
      coordinates: s.coordinates,
      pieceSet: s.pieceSet,
      theme: s.theme,
      animation: s.animation,
      premove: s.premove,
      label: t('game.board'),
      movableColor: null,
      dests: new Map(),
      onMove: (uci) => this.onBoardMove(uci),
      onPremove: () => {},
    });
    this.renderConnection();
  }

  /** The chat, made once and kept across re-layouts. */
  chatPanel() {
    if (!this.chat) this.chat = new ChatPanel(this.id, () => !!this.ws && this.ws.readyState === WebSocket.OPEN);
    return this.chat;
  }

  orientation() {
    return this.flipped
      ? opposite(this.myColor || this.requestedColor || 'white')
      : this.myColor || this.requestedColor || 'white';
  }

  flip() {
    this.flipped = !this.flipped;
    this.board.set({ orientation: this.orientation() });
    this.renderPlayers();
  }

  onMessage(msg) {
    switch (msg.t) {
      case 'full':
        this.onFull(msg);
        break;
      case 'state':
        this.onState(msg, true);
        break;
      case 'ack': {
        const p = this.pendingReplies.shift();
        if (p) p.resolve();
        break;
      }
      case 'error': {
        const p = this.pendingReplies.shift();
        if (p) p.reject(new Error(msg.error || t('error.unknown')));
        else toast(msg.error || t('error.unknown'));
        break;
      }
      case 'chat':
        this.chatPanel().onLine(msg);
        break;
      case 'watchers':
        if (this.state) {
          this.state = { ...this.state, watchers: msg.n };
          this.renderInfo();
        }
        break;
      case 'gone':
        if (msg.gone) {
          const seconds = typeof msg.claimWinInSeconds === 'number' ? msg.claimWinInSeconds : null;
          this.gone = { color: msg.color, claimAt: seconds === null ? null : Date.now() + seconds * 1000 };
        } else if (!this.gone || this.gone.color === msg.color) this.gone = null;
        this.renderOffers();
        this.renderPlayers();
        break;
      default:
        break;
    }
  }

  onFull(full) {
    const first = !this.full;
    this.full = full;
    this.initialFen = full.initialFen && full.initialFen !== 'startpos' ? full.initialFen : null;
    this.chess960 = full.variant?.key === 'chess960';
    const mine = isMe(full.white?.name) ? 'white' : isMe(full.black?.name) ? 'black' : null;
    const colorChanged = mine !== this.myColor;
    this.myColor = mine;
    if (first) {
      // On a reconnection the moves we have are kept: only what is new is replayed.
      this.moves = [];
      this.sans = [];
      this.positions = [positionOf(this.initialFen || START_FEN)];
    }
    if (colorChanged && this.board) {
      this.board.set({ orientation: this.orientation() });
    }
    setTitle(`${full.white?.name || '?'} – ${full.black?.name || '?'}`);
    this.chatPanel().open(!!mine);
    this.onState({ ...full.state, t: 'state' }, !first);
    if (first && this.myColor && this.moves.length === 0 && !isOver(this.state.status)) sound.play('start');
    this.renderAll();
  }

  onState(state, live) {
    const previous = this.state;
    const moves = (state.moves || '').split(' ').filter(Boolean);
    const before = this.moves.length;
    // Keep what is common with what we had, replay the rest.
    let common = 0;
    while (common < Math.min(before, moves.length) && this.moves[common] === moves[common]) common++;
    if (common < before) {
      this.moves = this.moves.slice(0, common);
      this.sans = this.sans.slice(0, common);
      this.positions = this.positions.slice(0, common + 1);
    }
    this.appendMoves(moves.slice(common), state);
    this.dests = parseDests(state.dests);
    if (this.el && this.full && (this.opening()?.name || null) !== this.shownOpening) this.renderInfo();
    this.state = state;
    if (previous && (previous.wberserk !== state.wberserk || previous.bberserk !== state.bberserk)) this.renderPlayers();
    const turn = this.positions[this.positions.length - 1].turn;
    this.clock = {
      white: state.wtime,
      black: state.btime,
      at: performance.now(),
      running: this.full && this.full.clock ? runningColor(state, turn, this.clockStartsAfter()) : null,
      moveTime: typeof state.moveTime === 'number' ? state.moveTime : null,
    };
    if (live && moves.length > before && common === before) {
      const ply = moves.length;
      const san = this.sans[ply - 1];
      const color = this.positions[ply - 1].turn;
      if (san) {
        // Our own move already made its sound when it was played.
        const echo = this.echo === moves[ply - 1] && color === this.myColor;
        this.echo = null;
        if (!echo) playMoveSound(san);
        announce(announceMove(color, san));
      }
    }
    if (this.viewPly !== null && this.viewPly >= this.moves.length) this.viewPly = null;
    if (previous && this.myColor) {
      const me = this.myColor[0];
      const them = opposite(this.myColor)[0];
      if (state[`${them}draw`] && !previous[`${them}draw`]) sound.play('notify');
      if (state[`${them}takeback`] && !previous[`${them}takeback`]) sound.play('notify');
      if (previous[`${me}draw`] && !state[`${me}draw`] && !isOver(state.status) && moves.length === before) {
        toast(t('game.drawDeclined'), 'info');
      }
      if (previous[`${me}takeback`] && !state[`${me}takeback`] && moves.length >= before) {
        toast(t('game.takebackDeclined'), 'info');
      }
    }
    const ended = isOver(state.status) && !(previous && isOver(previous.status));
    if (ended) {
      if (live) sound.play('end');
      const text = resultText(state);
      if (text && live) announce(text);
      this.gone = null;
      if (this.full?.rated) this.fetchRatingDiffs();
      if (this.onFinish) this.onFinish(this);
    }
    if (this.el) this.renderAll();
    if (this.board && this.myColor && !isOver(state.status) && turn === this.myColor && live && moves.length > before) {
      this.board.playPremove();
    }
  }

  latest() {
    return this.positions[this.positions.length - 1];
  }

  /**
   * Adds moves the server announced. The last one comes with its SAN and FEN
   * in the state; earlier ones (a page opened mid-game, a reconnection) are
   * replayed by the rules module, for the move list and stepping back.
   */
  appendMoves(ucis, state) {
    if (!ucis.length) return;
    const last = ucis.length - 1;
    let replayed = [];
    if (last > 0 || !state.fen) {
      try {
        replayed = rulesLoaded() ? replayLine(this.latest().fen, ucis, this.chess960).moves : [];
      } catch (err) {
        showError(err);
      }
    }
    ucis.forEach((uci, i) => {
      const known = replayed[i];
      let position;
      let san;
      if (i === last && state.fen) {
        position = positionOf(state.fen, state.check ? kingSquare(state.fen, fenTurn(state.fen)) : null);
        san = state.san || known?.san || uci;
      } else if (known) {
        position = positionOf(known.fen, known.check);
        san = known.san;
      } else {
        // Not known here: the server's next full state will say.
        position = this.latest();
        san = uci;
      }
      this.moves.push(uci);
      this.sans.push(san);
      this.positions.push(position);
    });
  }

  isPlaying() {
    return !!this.myColor && this.state && !isOver(this.state.status);
  }

  // ----- stepping through the moves -----

  step(step) {
    const last = this.moves.length;
    const current = this.viewPly === null ? last : this.viewPly;
    this.goTo(stepPly(step, current, last));
  }

  goTo(ply) {
    this.viewPly = ply >= this.moves.length ? null : ply;
    this.syncBoard();
    this.renderMoves();
    this.renderPlayers();
  }

  /** Puts the board in line with the game (or the move looked at). */
  syncBoard() {
    if (!this.board) return;
    const ply = this.viewPly === null ? this.moves.length : this.viewPly;
    const pos = this.positions[ply] || this.latest();
    const lastUci = ply > 0 ? this.moves[ply - 1] : null;
    const playing = this.isPlaying() && this.viewPly === null && !this.pendingConfirm;
    const myTurn = playing && pos.turn === this.myColor;
    // Whether the board takes a move from this viewer now: a move, a premove, or none.
    this.el.boardHost.dataset.input = myTurn ? 'move' : playing ? 'premove' : 'none';
    this.board.set({
      ...boardView(pos, lastUci),
      movableColor: playing ? this.myColor : null,
      dests: myTurn && ply === this.moves.length ? this.dests : new Map(),
      premove: settings.get('premove'),
    });
  }

  onSettings(changed) {
    if (!this.board) return;
    const s = settings.settings();
    const boardKeys = ['pieceSet', 'theme', 'coordinates', 'animation'];
    if (boardKeys.some((k) => k in changed)) {
      this.board.set({ pieceSet: s.pieceSet, theme: s.theme, coordinates: s.coordinates, animation: s.animation });
    }
    if ('notation' in changed) this.renderMoves();
    if ('sound' in changed) this.renderControls();
  }

  // ----- rendering -----

  renderAll() {
    if (!this.el || !this.full) return;
    this.syncBoard();
    this.renderInfo();
    this.renderPlayers();
    this.renderStatus();
    this.renderOffers();
    this.renderMoves();
    this.renderControls();
    this.renderConfirm();
    this.renderMoveInput();
  }

  renderInfo() {
    const f = this.full;
    const perMove = typeof f.timeControl === 'string' && f.clock ? f.timeControl.match(/\/(\d+)$/) : null;
    const parts = [
      perMove ? `${clockLabel(f.clock)} ${t('tc.perMove', { n: perMove[1] })}` : clockLabel(f.clock),
      speedName(f.speed),
      t(f.rated ? 'seek.rated' : 'seek.casual'),
      f.ruleset ? rulesetName(f.ruleset) : null,
    ].filter(Boolean);
    const watchers = typeof this.state?.watchers === 'number'
      ? h('span', { class: 'watchers', 'data-testid': 'watchers' }, icon('eye', 16), t('game.watchers', { n: this.state.watchers }))
      : null;
    const opening = this.opening();
    this.shownOpening = opening?.name || null;
    replace(this.el.info, h('span', {}, parts.join(' · ')), watchers,
      this.myColor ? null : h('span', { class: 'badge' }, t('game.spectating')),
      opening ? h('span', { class: 'opening', 'data-testid': 'opening', title: opening.name }, `${opening.eco} · ${opening.name}`) : null);
  }

  /**
   * How the finished rated game moved both ratings, from its export (written
   * just after the game ends: asked again for a few seconds).
   */
  async fetchRatingDiffs() {
    for (let attempt = 0; attempt < 10 && !this.destroyed; attempt++) {
      try {
        const game = await api(`/game/export/${encodeURIComponent(this.id)}`, { accept: 'application/json' });
        const white = game.players?.white?.ratingDiff;
        const black = game.players?.black?.ratingDiff;
        if (typeof white === 'number' && typeof black === 'number') {
          this.ratingDiffs = { white, black };
          if (this.el && !this.destroyed) this.renderPlayers();
          return;
        }
      } catch {
        // Asked again below.
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }

  /** The opening played, for a game from the initial position. */
  opening() {
    if (this.initialFen || this.chess960) return null;
    return openingOf(this.positions.map((p) => p.fen));
  }

  playerBar(color) {
    const player = this.full[color] || {};
    const ply = this.viewPly === null ? this.moves.length : this.viewPly;
    const pos = this.positions[ply] || this.latest();
    const diff = materialDiff(materialOf(pos.fen));
    const name = player.name || player.user?.name || '?';
    const ratingDiff = this.ratingDiffs?.[color];
    const rating = player.aiLevel
      ? h('span', { class: 'rating ai-level', 'data-testid': `ai-level-${color}` }, aiLevelText(player.aiLevel))
      : player.rating ? h('span', { class: 'rating' }, `${player.rating}${player.provisional ? '?' : ''}`,
        typeof ratingDiff === 'number' ? ratingDiffView(ratingDiff, color) : null) : null;
    const goneNote = this.gone && this.gone.color === color ? h('span', { class: 'gone-note' }, t('game.opponentGoneShort')) : null;
    return [
      h('div', { class: 'player' },
        h('span', { class: `color-dot ${color}`, 'aria-hidden': 'true' }),
        player.title ? h('span', { class: 'user-title', 'data-testid': `title-${color}` }, player.title) : null,
        h('a', { class: 'player-name', href: `/@/${encodeURIComponent(name)}` }, name),
        h('span', { class: 'sr-only' }, ` (${colorName(color)})`),
        rating,
        this.state && this.state[`${color[0]}berserk`]
          ? h('span', { class: 'berserk-badge', 'data-testid': `berserk-${color}`, title: t('game.berserked') }, icon('berserk', 16))
          : null,
        goneNote,
        materialView(diff, color)),
      this.full.clock ? this.clockElement(color) : null,
    ];
  }

  renderPlayers() {
    if (!this.full) return;
    const bottom = this.orientation();
    const top = opposite(bottom);
    this.clockEls = {};
    replace(this.el.topBar, this.playerBar(top));
    replace(this.el.bottomBar, this.playerBar(bottom));
    this.updateClocks();
  }

  renderStatus() {
    const state = this.state;
    replace(this.el.seat, seatPanel(state));
    const text = resultText(state);
    if (text) {
      replace(this.el.status,
        h('p', { class: 'result', 'data-testid': 'result' }, h('strong', {}, resultScore(state)), ' ', text));
      return;
    }
    const pos = this.latest();
    const turn = pos.turn;
    const lines = [];
    if (this.myColor) {
      lines.push(turn === this.myColor ? t('game.yourTurn') : t('game.waitingForOpponent'));
    } else {
      lines.push(t('game.toMove', { color: colorName(turn) }));
    }
    if (pos.check) lines.push(t('game.check'));
    replace(this.el.status, h('p', { class: `turn turn-${turn}` }, lines.join(' — ')));
  }

  renderMoves() {
    const startPos = this.positions[0];
    const current = this.viewPly === null ? this.moves.length : this.viewPly;
    renderMoveList(this.el.moves, {
      sans: this.sans,
      current,
      onPick: (ply) => this.goTo(ply),
      notation: settings.get('notation'),
      startColor: startPos.turn,
      startMove: startPos.fullmoves,
      result: isOver(this.state?.status) ? resultScore(this.state) : null,
    });
    if (this.viewPly !== null) {
      this.el.moves.append(h('button', { type: 'button', class: 'button back-to-game', onclick: () => this.goTo(this.moves.length) }, t('game.backToGame')));
    }
  }
}

Object.assign(GamePage.prototype, socketMethods, clockMethods, controlMethods, inputMethods);
