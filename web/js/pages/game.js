// A game: the board, clocks, moves, offers and the result. Players act through
// the game's WebSocket; spectators just watch. Finished games open as a replay.

import { Board } from '../board.js';
import { loadRules, play as playMove, replay as replayLine, rulesLoaded } from '../rules.js';
import { START_FEN, fenFullmoves, fenTurn, kingSquare, materialOf, parseDests } from '../fen.js';
import { loadOpenings, openingOf } from '../openings.js';
import { ApiError, api, isMe } from '../api.js';
import * as events from '../events.js';
import { t } from '../i18n.js';
import * as settings from '../settings.js';
import * as sound from '../sound.js';
import { announce, confirmButton, formatClock, h, replace, setTitle, showError, toast } from '../ui.js';
import {
  aiLevelText, announceMove, clockLabel, colorName, isOver, opposite, resultScore, resultText, rulesetName, speedName,
} from '../format.js';
import { ChatPanel } from './chat.js';
import { seatButtons, seatPanel } from './seat.js';
import { icon, keyboardSteps, materialDiff, materialView, ratingDiffView, renderMoveList, stepButtons, stepPly } from '../components.js';

const LOW_TIME_MS = 10_000;
/** Rulesets where a fallen flag counts only when the opponent claims it. */
const FLAG_CLAIMED = new Set(['fide-rapid', 'fide-blitz']);

/** The board's view of a position ({fen, check}): FEN, last move and check. */
export function boardView(position, lastUci) {
  return {
    fen: position.fen,
    lastMove: lastUci ? [lastUci.slice(0, 2), lastUci.slice(2, 4)] : null,
    check: position.check || null,
  };
}

/** A position of the game as the page keeps it: {fen, turn, fullmoves, check (square or null)}. */
export function positionOf(fen, check = null) {
  return { fen, turn: fenTurn(fen), fullmoves: fenFullmoves(fen), check };
}

/** The side whose clock runs: the server's word, or guessed from the moves. */
export function runningColor(state, turn, clockStartsAfter = 2) {
  if (!state || isOver(state.status)) return null;
  if ('running' in state) return state.running || null;
  const plies = state.moves ? state.moves.split(' ').filter(Boolean).length : 0;
  return plies >= clockStartsAfter ? turn : null;
}

function playMoveSound(san) {
  if (san.includes('+') || san.includes('#')) sound.play('check');
  else if (san.includes('x')) sound.play('capture');
  else sound.play('move');
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
      boardHost: h('div', { class: 'board-host' }),
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
        stepButtons({ onStep: (s) => this.step(s), onFlip: () => this.flip() }),
        this.el.confirm,
        this.el.controls,
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

  buildSanForm() {
    const input = h('input', {
      type: 'text',
      id: 'san-input',
      class: 'san-input',
      autocomplete: 'off',
      autocapitalize: 'off',
      spellcheck: 'false',
      placeholder: 'Nf3',
      'aria-describedby': 'san-error',
    });
    const error = h('p', { id: 'san-error', class: 'field-error', role: 'alert' });
    const form = h('form', {
      class: 'san-form',
      onsubmit: (e) => {
        e.preventDefault();
        this.typedMove(input.value.trim(), error, input);
      },
    },
    h('label', { for: 'san-input' }, t('game.typeMove')),
    h('div', { class: 'inline' }, input, h('button', { type: 'submit', class: 'button' }, t('game.play'))),
    error);
    this.sanInput = input;
    return form;
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

  // ----- socket -----

  connect() {
    if (this.destroyed) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/api/socket/game/${encodeURIComponent(this.id)}`);
    this.ws = ws;
    ws.onopen = () => {
      this.attempts = 0;
      this.connection = 'open';
      this.renderConnection();
    };
    ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      for (const p of this.pendingReplies.splice(0)) p.reject(new Error(t('game.disconnected')));
      if (this.destroyed) return;
      if (this.state && isOver(this.state.status)) {
        this.connection = 'closed';
        this.renderConnection();
        this.chatPanel().keepReading();
        return;
      }
      this.connection = 'reconnecting';
      this.renderConnection();
      const delay = Math.min(500 * 2 ** this.attempts, 10_000);
      this.attempts++;
      this.reconnectTimer = setTimeout(() => this.connect(), delay);
    };
  }

  renderConnection() {
    if (!this.el) return;
    const text = this.connection === 'reconnecting'
      ? t('game.reconnecting')
      : this.connection === 'connecting' ? t('game.connecting') : '';
    replace(this.el.connection, text ? h('span', { class: 'reconnecting', 'data-testid': 'reconnecting' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), text) : null);
  }

  sendWs(message) {
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new Error(t('game.disconnected')));
        return;
      }
      this.pendingReplies.push({ resolve, reject });
      this.ws.send(JSON.stringify(message));
    });
  }

  /** Sends an action; the server's refusal comes back as an Error with its words. */
  async act(message) {
    if (!this.httpMode) {
      try {
        return await this.sendWs(message);
      } catch (err) {
        // A socket that does not know the session answers as to a spectator:
        // the same actions go through the HTTP API with the session cookie.
        if (!(this.myColor && /spectator/i.test(err.message))) throw err;
        this.httpMode = true;
      }
    }
    return this.actHttp(message);
  }

  async actHttp(message) {
    const base = `/api/board/game/${encodeURIComponent(this.id)}`;
    const post = (path) => api(`${base}/${path}`, { method: 'POST' });
    switch (message.t) {
      case 'move':
        return post(`move/${encodeURIComponent(message.uci)}`);
      case 'resign':
        return post('resign');
      case 'abort':
        return post('abort');
      case 'draw':
        return post(`draw/${message.accept === false ? 'no' : 'yes'}`);
      case 'takeback':
        return post(`takeback/${message.accept === false ? 'no' : 'yes'}`);
      case 'claim-victory':
        return post('claim-victory');
      case 'claim-flag':
        return post('claim-flag');
      case 'claim-draw-gone':
        return post('claim-draw');
      case 'seal':
        return api(`${base}/seal`, { form: { move: message.move } });
      case 'propose-resumption':
        return api(`${base}/resume`, { form: { at: message.at } });
      case 'request-increment':
        return post('request-increment');
      case 'claim-no-progress':
        return post('claim-no-progress');
      case 'berserk':
        return post('berserk');
      default:
        throw new Error(t('game.needsSocket'));
    }
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

  clockStartsAfter() {
    const ruleset = this.full && this.full.ruleset;
    if (!ruleset || ruleset === 'online' || ruleset === 'ladder') return 2;
    return 0;
  }

  // ----- account events: rematches -----

  onAccountEvent(event) {
    if (event.type === 'challenge' && event.challenge && event.challenge.rematchOf === this.id) {
      this.incomingRematch = event.challenge;
      sound.play('notify');
      this.renderOffers();
    } else if ((event.type === 'challengeDeclined' || event.type === 'challengeCanceled') && this.incomingRematch
      && event.challenge?.id === this.incomingRematch.id) {
      // The offer was withdrawn.
      this.incomingRematch = null;
      this.renderOffers();
    } else if (event.type === 'challengeDeclined' && this.rematch === 'offered') {
      const c = event.challenge || {};
      if (!c.rematchOf || c.rematchOf === this.id) {
        this.rematch = 'declined';
        this.renderControls();
      }
    }
  }

  // ----- moves -----

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

  onBoardMove(uci) {
    if (!this.isPlaying() || this.viewPly !== null) {
      this.syncBoard();
      return;
    }
    if (settings.get('confirmMove')) {
      this.pendingConfirm = uci;
      this.showLocalMove(uci);
      this.renderConfirm();
      return;
    }
    this.sendMove(uci);
  }

  /** The move `uci` in the latest position by the rules module ({san, fen, check}), or null. */
  localMove(uci) {
    if (!rulesLoaded()) return null;
    try {
      return playMove(this.latest().fen, uci, this.chess960);
    } catch {
      return null;
    }
  }

  showLocalMove(uci) {
    const next = this.localMove(uci);
    // Without the module the board keeps the piece where it was dropped.
    if (next) this.board.set({ ...boardView(next, uci), movableColor: null, dests: new Map() });
    else this.board.set({ movableColor: null, dests: new Map() });
  }

  async sendMove(uci) {
    if (!(this.dests.get(uci.slice(0, 2)) || []).includes(uci.slice(2, 4))) {
      toast(t('game.illegalMove', { move: uci }));
      this.syncBoard();
      return;
    }
    const san = this.localMove(uci)?.san || '';
    // Shown at once; the server's state confirms it (or puts the board back).
    this.showLocalMove(uci);
    playMoveSound(san);
    this.echo = uci;
    try {
      await this.act({ t: 'move', uci });
    } catch (err) {
      showError(err);
      this.syncBoard();
    }
  }

  typedMove(text, errorEl, input) {
    errorEl.textContent = '';
    if (!text) return;
    if (!this.isPlaying()) {
      errorEl.textContent = t('game.notYourGame');
      return;
    }
    const pos = this.latest();
    if (pos.turn !== this.myColor) {
      errorEl.textContent = t('game.notYourTurn');
      return;
    }
    let uci = null;
    try {
      uci = playMove(pos.fen, text, this.chess960).uci;
    } catch (err) {
      errorEl.textContent = t('game.badSan', { move: text, reason: err.message });
      return;
    }
    input.value = '';
    this.viewPly = null;
    this.sendMove(uci);
  }

  renderConfirm() {
    if (!this.el) return;
    if (!this.pendingConfirm) {
      replace(this.el.confirm);
      return;
    }
    const uci = this.pendingConfirm;
    const san = this.localMove(uci)?.san || uci;
    replace(this.el.confirm,
      h('span', {}, t('game.confirmMove', { move: san })),
      h('button', {
        type: 'button',
        class: 'button primary',
        onclick: () => {
          this.pendingConfirm = null;
          this.renderConfirm();
          this.sendMove(uci);
        },
      }, t('game.confirm')),
      h('button', {
        type: 'button',
        class: 'button',
        onclick: () => {
          this.pendingConfirm = null;
          this.renderConfirm();
          this.syncBoard();
        },
      }, t('game.cancel')));
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
    const clockEl = h('div', { class: `clock clock-${color}`, 'data-color': color, role: 'timer', 'aria-label': t('game.clockOf', { color: colorName(color) }) },
      h('span', { class: 'clock-time' }),
      this.controlNote(color),
      h('span', { class: 'clock-move' }));
    this.clockEls = this.clockEls || {};
    this.clockEls[color] = clockEl;
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
      this.full.clock ? clockEl : null,
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

  renderOffers() {
    if (!this.el || !this.state) return;
    const state = this.state;
    const items = [];
    const over = isOver(state.status);
    if (this.myColor && !over) {
      const them = opposite(this.myColor);
      if (state[`${them[0]}draw`]) {
        items.push(h('div', { class: 'offer', 'data-testid': 'draw-offer' },
          h('span', {}, t('game.drawOffered', { color: colorName(them) })),
          h('button', { type: 'button', class: 'button primary', onclick: () => this.run({ t: 'draw', accept: true }) }, t('game.accept')),
          h('button', { type: 'button', class: 'button', onclick: () => this.run({ t: 'draw', accept: false }) }, t('game.decline'))));
      }
      if (state[`${them[0]}takeback`]) {
        items.push(h('div', { class: 'offer', 'data-testid': 'takeback-offer' },
          h('span', {}, t('game.takebackProposed', { color: colorName(them) })),
          h('button', { type: 'button', class: 'button primary', onclick: () => this.run({ t: 'takeback', accept: true }) }, t('game.accept')),
          h('button', { type: 'button', class: 'button', onclick: () => this.run({ t: 'takeback', accept: false }) }, t('game.decline'))));
      }
      if (this.gone && this.gone.color === them) {
        const canClaim = this.gone.claimAt !== null;
        const left = canClaim ? Math.max(0, Math.ceil((this.gone.claimAt - Date.now()) / 1000)) : 0;
        const note = h('span', { class: 'gone-countdown' }, left > 0 ? t('game.opponentGone', { n: left }) : t('game.opponentGoneClaim'));
        const ready = canClaim && left === 0;
        items.push(h('div', { class: 'offer', 'data-testid': 'opponent-gone' }, note,
          ready ? h('button', { type: 'button', class: 'button primary', onclick: () => this.run({ t: 'claim-victory' }) }, t('game.claimVictory')) : null,
          ready ? h('button', { type: 'button', class: 'button', onclick: () => this.run({ t: 'claim-draw-gone' }) }, t('game.callDraw')) : null));
        if (left > 0) {
          clearTimeout(this.goneTimer);
          this.goneTimer = setTimeout(() => this.renderOffers(), 1000);
        }
      }
    }
    if (over && this.incomingRematch) {
      items.push(h('div', { class: 'offer', 'data-testid': 'rematch-offer' },
        h('span', {}, t('game.rematchOffered')),
        h('button', { type: 'button', class: 'button primary', onclick: () => this.answerRematch(true) }, t('game.accept')),
        h('button', { type: 'button', class: 'button', onclick: () => this.answerRematch(false) }, t('game.decline'))));
    }
    replace(this.el.offers, items);
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

  renderControls() {
    const state = this.state;
    const buttons = [];
    const soundOn = settings.get('sound');
    const mute = h('button', {
      type: 'button',
      class: 'button icon',
      'aria-pressed': soundOn ? 'false' : 'true',
      'aria-label': soundOn ? t('game.mute') : t('game.unmute'),
      title: soundOn ? t('game.mute') : t('game.unmute'),
      onclick: () => settings.update({ sound: !settings.get('sound') }),
    }, icon(soundOn ? 'soundOn' : 'soundOff'));
    if (this.isPlaying()) {
      const me = this.myColor[0];
      const plies = this.moves.length;
      const claims = Array.isArray(state.claims) ? state.claims : [];
      if (plies < 2) {
        buttons.push(h('button', { type: 'button', class: 'button', 'data-action': 'abort', onclick: () => this.run({ t: 'abort' }) }, t('game.abort')));
      }
      const myMoves = this.moves.filter((_, i) => this.positions[i].turn === this.myColor).length;
      // An arena's game: half the clock for a point more, before one's first move.
      if (this.full.berserkable && myMoves === 0 && !state[`${me}berserk`]) {
        buttons.push(h('button', {
          type: 'button', class: 'button', 'data-action': 'berserk', title: t('game.berserkHint'),
          onclick: () => this.run({ t: 'berserk' }),
        }, icon('berserk', 16), ` ${t('game.berserk')}`));
      }
      buttons.push(state[`${me}takeback`]
        ? h('button', { type: 'button', class: 'button pending', 'data-action': 'takeback', disabled: true }, t('game.takebackSent'))
        : h('button', { type: 'button', class: 'button', 'data-action': 'takeback', disabled: myMoves === 0, onclick: () => this.run({ t: 'takeback', accept: true }) }, t('game.takeback')));
      buttons.push(state[`${me}draw`]
        ? h('button', { type: 'button', class: 'button pending', 'data-action': 'draw', disabled: true }, t('game.drawSent'))
        : h('button', { type: 'button', class: 'button', 'data-action': 'draw', onclick: () => this.run({ t: 'draw', accept: true }) }, t('game.offerDraw')));
      // The server lists the draws the side to move may claim: only that side's button is live.
      const myTurn = this.latest().turn === this.myColor;
      for (const claim of ['threefold_repetition', 'fifty_moves']) {
        const can = myTurn && claims.includes(claim);
        buttons.push(h('button', {
          type: 'button',
          class: `button${can ? ' primary' : ''}`,
          'data-action': `claim-${claim}`,
          disabled: !can,
          title: can ? '' : t('game.claimUnavailable'),
          onclick: () => this.run({ t: 'claim', claim }),
        }, t(`game.claim.${claim}`)));
      }
      // Where a fallen flag must be claimed (A.5.3, B.3), the button appears once
      // the opponent's clock reads zero and ours does not.
      if (this.flagCanBeClaimed()) {
        buttons.push(h('button', { type: 'button', class: 'button primary', 'data-action': 'claim-flag', onclick: () => this.run({ t: 'claim-flag' }) }, t('game.claimFlag')));
      }
      buttons.push(...seatButtons({
        state,
        ruleset: this.full && this.full.ruleset,
        myColor: this.myColor,
        myTurn,
        myClockMs: this.clockNow(this.myColor),
        run: (message) => this.run(message),
      }));
      buttons.push(confirmButton(t('game.resign'), t('game.resignConfirm'), () => this.run({ t: 'resign' }), { class: 'button danger', 'data-action': 'resign' }));
    } else if (state && isOver(state.status)) {
      if (this.myColor) {
        const label = this.rematch === 'offered' ? t('game.rematchSent')
          : this.rematch === 'declined' ? t('game.rematchDeclined') : t('game.rematch');
        buttons.push(h('button', {
          type: 'button',
          class: `button primary${this.rematch ? ' pending' : ''}`,
          'data-action': 'rematch',
          disabled: this.rematch === 'declined',
          onclick: () => (this.rematch === 'offered' ? this.cancelRematch() : this.offerRematch()),
        }, label));
        if (this.rematch === 'offered') {
          buttons.push(h('button', { type: 'button', class: 'button', onclick: () => this.cancelRematch() }, t('game.cancel')));
        }
        buttons.push(h('a', { class: 'button', href: '/' }, t('game.newOpponent')));
      }
      buttons.push(h('a', { class: 'button', href: `/analysis?game=${encodeURIComponent(this.id)}` }, t('game.analyse')));
      buttons.push(h('a', { class: 'button', href: `/game/export/${encodeURIComponent(this.id)}`, download: `${this.id}.pgn` }, t('game.downloadPgn')));
    }
    buttons.push(mute);
    replace(this.el.controls, buttons);
  }

  /** Sends an action and shows the server's refusal in words. */
  async run(message) {
    try {
      await this.act(message);
    } catch (err) {
      showError(err);
    }
  }

  async offerRematch() {
    if (!this.myColor) return;
    events.expectGame();
    try {
      const answer = await api(`/api/board/game/${encodeURIComponent(this.id)}/rematch/yes`, { method: 'POST' });
      if (answer && answer.gameId) {
        this.navigate(`/game/${encodeURIComponent(answer.gameId)}`);
        return;
      }
      this.rematch = 'offered';
    } catch (err) {
      if (err instanceof ApiError && err.routeMissing) {
        // A server without rematches: challenge the opponent to the same game.
        await this.rematchByChallenge();
        return;
      }
      showError(err);
      return;
    }
    this.renderControls();
  }

  async rematchByChallenge() {
    const opponent = this.full[opposite(this.myColor)]?.name;
    const clock = this.full.clock;
    // The whole control in PGN tag form keeps its periods, delay and per-move
    // limit; lichess's clock object has only the first period.
    const tc = typeof this.full.timeControl === 'string' && this.full.timeControl !== '-' ? this.full.timeControl : null;
    try {
      const c = await api(`/api/challenge/${encodeURIComponent(opponent)}`, {
        form: {
          timeControl: tc || undefined,
          'clock.limit': !tc && clock ? Math.round(clock.initial / 1000) : undefined,
          'clock.increment': !tc && clock ? Math.round(clock.increment / 1000) : undefined,
          rated: this.full.rated ? 'true' : 'false',
          color: opposite(this.myColor),
          ruleset: this.full.ruleset,
        },
      });
      this.rematch = 'offered';
      this.rematchChallenge = c && c.id;
    } catch (err) {
      showError(err);
    }
    this.renderControls();
  }

  async cancelRematch() {
    try {
      await api(`/api/board/game/${encodeURIComponent(this.id)}/rematch/no`, { method: 'POST' });
    } catch (err) {
      if (!(err instanceof ApiError && err.routeMissing)) showError(err);
    }
    this.rematch = null;
    this.renderControls();
  }

  async answerRematch(accept) {
    const challenge = this.incomingRematch;
    this.incomingRematch = null;
    this.renderOffers();
    if (accept) events.expectGame();
    try {
      const answer = await api(`/api/board/game/${encodeURIComponent(this.id)}/rematch/${accept ? 'yes' : 'no'}`, { method: 'POST' });
      if (answer && answer.gameId) this.navigate(`/game/${encodeURIComponent(answer.gameId)}`);
    } catch (err) {
      if (err instanceof ApiError && err.routeMissing && challenge) {
        try {
          await api(`/api/challenge/${encodeURIComponent(challenge.id)}/${accept ? 'accept' : 'decline'}`, { method: 'POST' });
        } catch (inner) {
          showError(inner);
        }
      } else showError(err);
    }
    if (challenge) events.dropChallenge(challenge.id);
  }

  // ----- clocks -----

  tick() {
    if (this.destroyed) return;
    this.updateClocks();
    this.raf = requestAnimationFrame(this.tick);
  }

  clockNow(color) {
    const c = this.clock;
    if (!c || typeof c[color] !== 'number') return null;
    const elapsed = c.running === color ? performance.now() - c.at : 0;
    return Math.max(0, c[color] - elapsed);
  }

  /** Moves `color` has left before the next time control (6.3), if any. */
  controlNote(color) {
    const left = this.state && this.state.movesToControl && this.state.movesToControl[color];
    return typeof left === 'number'
      ? h('span', { class: 'clock-control', 'data-testid': `control-${color}` }, t('game.movesToControl', { n: left }))
      : null;
  }

  /** Whether this player may claim the opponent's fallen flag now. */
  flagCanBeClaimed() {
    const ruleset = this.full && this.full.ruleset;
    if (!this.myColor || !FLAG_CLAIMED.has(ruleset)) return false;
    const theirs = this.clockNow(opposite(this.myColor));
    const mine = this.clockNow(this.myColor);
    return theirs !== null && mine !== null && theirs <= 0 && mine > 0;
  }

  updateClocks() {
    if (this.isPlaying() && this.flagCanBeClaimed() !== Boolean(this.flagClaimShown)) {
      this.flagClaimShown = this.flagCanBeClaimed();
      this.renderControls();
    }
    if (!this.clockEls || !this.clock) return;
    for (const color of ['white', 'black']) {
      const el = this.clockEls[color];
      if (!el) continue;
      const ms = this.clockNow(color);
      if (ms === null) continue;
      const text = formatClock(ms);
      const timeEl = el.firstChild;
      if (timeEl.textContent !== text) timeEl.textContent = text;
      const running = this.clock.running === color;
      el.classList.toggle('running', running);
      el.classList.toggle('low', ms < LOW_TIME_MS);
      const moveEl = el.lastChild;
      if (running && this.clock.moveTime !== null) {
        const left = Math.max(0, this.clock.moveTime - (performance.now() - this.clock.at));
        const moveText = t('game.moveTime', { time: formatClock(left) });
        if (moveEl.textContent !== moveText) moveEl.textContent = moveText;
        moveEl.classList.toggle('low', left < LOW_TIME_MS);
      } else if (moveEl.textContent) moveEl.textContent = '';
      if (running && color === this.myColor && ms < LOW_TIME_MS && !this.lowTimeWarned) {
        this.lowTimeWarned = true;
        sound.play('lowtime');
        announce(t('game.lowTime'));
      }
    }
  }
}
