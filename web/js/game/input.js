// Making moves on the game page: dragging or clicking on the board, typing SAN,
// and the optional confirmation. Only the player to move in a live game gets
// the move field; the board takes moves from the players only (the one not to
// move may premove). Mixed into GamePage (pages/game.js).

import { play as playMove, rulesLoaded } from '../rules.js';
import { t } from '../i18n.js';
import * as settings from '../settings.js';
import * as sound from '../sound.js';
import { h, replace, showError, toast } from '../ui.js';

/** The board's view of a position ({fen, check}): FEN, last move and check. */
export function boardView(position, lastUci) {
  return {
    fen: position.fen,
    lastMove: lastUci ? [lastUci.slice(0, 2), lastUci.slice(2, 4)] : null,
    check: position.check || null,
  };
}

export function playMoveSound(san) {
  if (san.includes('+') || san.includes('#')) sound.play('check');
  else if (san.includes('x')) sound.play('capture');
  else sound.play('move');
}

export const inputMethods = {
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
      hidden: true,
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
  },

  /** Whether this page's player is to move in the live game. */
  myMoveNow() {
    return this.isPlaying() && this.latest().turn === this.myColor;
  },

  /**
   * Shows the move field only to the player to move. A move typed hides it
   * until the reply; the focus it had comes back with it.
   */
  renderMoveInput() {
    const form = this.el.sanForm;
    const show = this.myMoveNow();
    if (form.hidden === !show) return;
    if (!show) this.sanHadFocus = document.activeElement === this.sanInput;
    form.hidden = !show;
    if (show && this.sanHadFocus) this.sanInput.focus();
  },

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
  },

  /** The move `uci` in the latest position by the rules module ({san, fen, check}), or null. */
  localMove(uci) {
    if (!rulesLoaded()) return null;
    try {
      return playMove(this.latest().fen, uci, this.chess960);
    } catch {
      return null;
    }
  },

  /** Puts `uci` on the board at once; `next` is its localMove when already known. */
  showLocalMove(uci, next = this.localMove(uci)) {
    // Without the module the board keeps the piece where it was dropped.
    if (next) this.board.set({ ...boardView(next, uci), movableColor: null, dests: new Map() });
    else this.board.set({ movableColor: null, dests: new Map() });
  },

  async sendMove(uci) {
    if (!(this.dests.get(uci.slice(0, 2)) || []).includes(uci.slice(2, 4))) {
      toast(t('game.illegalMove', { move: uci }));
      this.syncBoard();
      return;
    }
    const next = this.localMove(uci);
    // Shown at once; the server's state confirms it (or puts the board back).
    this.showLocalMove(uci, next);
    playMoveSound(next?.san || '');
    this.echo = uci;
    try {
      await this.act({ t: 'move', uci });
    } catch (err) {
      showError(err);
      this.syncBoard();
    }
  },

  typedMove(text, errorEl, input) {
    errorEl.textContent = '';
    // The field shows only on one's turn; a submit racing the opponent's move does nothing.
    if (!text || !this.myMoveNow()) return;
    let uci = null;
    try {
      uci = playMove(this.latest().fen, text, this.chess960).uci;
    } catch (err) {
      errorEl.textContent = t('game.badSan', { move: text, reason: err.message });
      return;
    }
    input.value = '';
    this.viewPly = null;
    this.sendMove(uci);
  },

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
  },
};
