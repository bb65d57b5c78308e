// One puzzle on the board: the opponent's move shown being played, the
// solver's moves judged against the solution (any checkmate is right too),
// the opponent's replies played after a moment, a wrong move shown then taken
// back on Retry, the hint, the solution played out. The page hears of each
// change through `onChange(event)` and draws the words and buttons around it.

import { Board } from '../board.js';
import { destsMap, play as rulesPlay, position as rulesPosition } from '../rules.js';
import * as settings from '../settings.js';
import { t } from '../i18n.js';
import { boardBeforeMove, judgeMove, moveSquares, solverColor } from './logic.js';

/** How long the opponent takes to answer, and between moves of a solution shown (ms). */
export const REPLY_MS = 300;
export const SOLUTION_MS = 500;
const INTRO_MS = 500;

/**
 * States: 'intro' (the opponent's move being shown), 'play' (the solver's
 * turn), 'wait' (the opponent answering), 'wrong' (a wrong move on the
 * board), 'solution' (the solution being played), 'over'.
 */
export class Round {
  constructor(host, data, { onChange = () => {}, skipIntro = false } = {}) {
    this.host = host;
    this.puzzle = data.puzzle;
    this.game = data.game || {};
    this.onChange = onChange;
    this.color = solverColor(this.puzzle);
    this.solution = (this.puzzle.solution || []).map(String);
    this.fen = this.puzzle.fen;
    this.ply = 0; // the next move of the solution
    this.sans = []; // the moves played from the puzzle's position, in SAN
    this.lastMove = moveSquares(this.puzzle.lastMove);
    this.failed = false; // a wrong move, or the solution viewed
    this.viewed = false;
    this.won = false; // finished without a mistake
    this.hinted = false;
    this.state = 'intro';
    this.wrongMove = null;
    this.timers = new Set();
    const s = settings.settings();
    const before = skipIntro || !s.animation ? null : boardBeforeMove(this.fen, this.puzzle.lastMove);
    this.board = new Board(host, {
      fen: before || this.fen,
      orientation: this.color,
      coordinates: s.coordinates,
      pieceSet: s.pieceSet,
      theme: s.theme,
      animation: s.animation,
      premove: false,
      label: t('game.board'),
      lastMove: before ? null : this.lastMove,
      onMove: (uci) => this.move(uci),
    });
    this.unwatch = settings.onChange((next, changed) => {
      if (['pieceSet', 'theme', 'coordinates', 'animation'].some((k) => k in changed)) {
        this.board.set({ pieceSet: next.pieceSet, theme: next.theme, coordinates: next.coordinates, animation: next.animation });
      }
    });
    // Later in any case: the page holds this round before it hears from it.
    this.later(before ? INTRO_MS : 0, () => this.begin());
  }

  destroy() {
    for (const id of this.timers) clearTimeout(id);
    this.timers.clear();
    if (this.unwatch) this.unwatch();
    this.board.destroy();
    this.destroyed = true;
  }

  later(ms, fn) {
    const id = setTimeout(() => {
      this.timers.delete(id);
      if (!this.destroyed) fn();
    }, ms);
    this.timers.add(id);
  }

  emit(type, extra = {}) {
    this.onChange({ type, ...extra });
  }

  begin() {
    if (this.state !== 'intro') return;
    this.state = 'play';
    this.show();
    this.emit('ready');
  }

  /** Puts the current position on the board; the solver may move in state 'play'. */
  show(autoShapes = []) {
    const pos = rulesPosition(this.fen);
    const mine = this.state === 'play' && pos.turn === this.color;
    this.board.set({
      fen: this.fen,
      lastMove: this.lastMove,
      check: pos.check,
      turnColor: pos.turn,
      movableColor: mine ? this.color : null,
      dests: mine ? destsMap(pos.dests) : new Map(),
      autoShapes,
    });
  }

  /** The solver's move, from the board. */
  move(uci) {
    if (this.state !== 'play') return;
    const { verdict, played } = judgeMove(this.fen, uci, this.solution[this.ply]);
    if (verdict === 'illegal') {
      this.show();
      return;
    }
    if (verdict === 'wrong') {
      this.state = 'wrong';
      this.wrongMove = played;
      const failedNow = !this.failed;
      this.failed = true;
      // The wrong move stays on the board, marked, until Retry.
      this.board.set({
        fen: played.fen,
        lastMove: moveSquares(played.uci),
        movableColor: null,
        dests: new Map(),
        check: null,
        autoShapes: [{ orig: played.uci.slice(2, 4), brush: 'red' }],
      });
      this.emit('wrong', { san: played.san, failedNow });
      return;
    }
    this.advance(played);
    if (verdict === 'mate' || this.ply >= this.solution.length) {
      this.finish();
      return;
    }
    this.state = 'wait';
    this.show();
    this.emit('right', { san: played.san });
    this.later(REPLY_MS, () => this.reply());
  }

  /** A move of the line played: the position, the move and its SAN. */
  advance(played) {
    this.fen = played.fen;
    this.lastMove = moveSquares(played.uci);
    this.sans.push(played.san);
    this.ply++;
  }

  /** The opponent's answer from the solution. */
  reply() {
    if (this.state !== 'wait') return;
    const uci = this.solution[this.ply];
    let played;
    try {
      played = rulesPlay(this.fen, uci);
    } catch {
      this.finish();
      return;
    }
    this.advance(played);
    this.state = 'play';
    this.show();
    this.emit('reply', { san: played.san });
  }

  /** After a wrong move: back to the position before it, to try again. */
  retry() {
    if (this.state !== 'wrong') return;
    this.state = 'play';
    this.wrongMove = null;
    this.show();
    this.emit('retry');
  }

  /** Circles the piece to move. The hint does not count as a mistake. */
  hint() {
    if (this.state !== 'play') return;
    const next = this.solution[this.ply];
    if (!next) return;
    this.hinted = true;
    this.show([{ orig: next.slice(0, 2), brush: 'green' }]);
    this.emit('hint', { square: next.slice(0, 2) });
  }

  /** Plays the solver's expected move as if it were found (the streak's skip). */
  skip() {
    if (this.state !== 'play') return;
    const uci = this.solution[this.ply];
    if (uci) this.move(rulesPlay(this.fen, uci).uci);
  }

  /** Plays the rest of the solution, one move at a time; the puzzle is failed. */
  viewSolution() {
    if (this.state === 'over' || this.state === 'solution') return;
    const failedNow = !this.failed;
    this.failed = true;
    this.viewed = true;
    this.state = 'solution';
    this.wrongMove = null;
    this.show();
    this.emit('viewing', { failedNow });
    const step = () => {
      if (this.ply >= this.solution.length) {
        this.finish();
        return;
      }
      try {
        this.advance(rulesPlay(this.fen, this.solution[this.ply]));
      } catch {
        this.finish();
        return;
      }
      this.show();
      this.emit('step');
      this.later(SOLUTION_MS, step);
    };
    this.later(SOLUTION_MS / 2, step);
  }

  finish() {
    this.state = 'over';
    this.won = !this.failed;
    this.show();
    this.emit('over', { won: this.won });
  }
}
