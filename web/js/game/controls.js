// The game page's action bar and offers: only the actions that apply to this
// viewer now, as compact icon buttons named for screen readers (a player's
// resign, draw, takeback and claims in a live game; rematch after it), the
// opponent's offers, and rematches. Mixed into GamePage (pages/game.js).

import { ApiError, api } from '../api.js';
import * as events from '../events.js';
import { t } from '../i18n.js';
import { colorName, isOver, opposite } from '../format.js';
import * as settings from '../settings.js';
import * as sound from '../sound.js';
import { confirmButton, h, iconButton, replace, showError } from '../ui.js';
import { seatButtons } from '../pages/seat.js';

/** Rulesets that allow takebacks, and those where a game may be aborted before its second move. */
const TAKEBACKS = new Set(['online']);
const ABORTABLE = new Set(['online', 'ladder']);
const DRAW_CLAIMS = ['threefold_repetition', 'fifty_moves'];

export const controlMethods = {
  renderControls() {
    const state = this.state;
    const buttons = [];
    const ruleset = (this.full && this.full.ruleset) || 'online';
    const soundOn = settings.get('sound');
    const mute = iconButton(soundOn ? 'soundOn' : 'soundOff', soundOn ? t('game.mute') : t('game.unmute'), {
      'aria-pressed': soundOn ? 'false' : 'true',
      onclick: () => settings.update({ sound: !settings.get('sound') }),
    });
    if (this.isPlaying()) {
      const me = this.myColor[0];
      const claims = Array.isArray(state.claims) ? state.claims : [];
      const myTurn = this.latest().turn === this.myColor;
      const myMoves = this.moves.filter((_, i) => this.positions[i].turn === this.myColor).length;
      if (this.moves.length < 2 && ABORTABLE.has(ruleset)) {
        buttons.push(iconButton('abort', t('game.abort'), { 'data-action': 'abort', onclick: () => this.run({ t: 'abort' }) }));
      }
      // An arena's game: half the clock for a point more, before one's first move.
      if (this.full.berserkable && myMoves === 0 && !state[`${me}berserk`]) {
        buttons.push(iconButton('berserk', t('game.berserk'), {
          'data-action': 'berserk', title: t('game.berserkHint'), onclick: () => this.run({ t: 'berserk' }),
        }));
      }
      if (TAKEBACKS.has(ruleset)) {
        buttons.push(state[`${me}takeback`]
          ? iconButton('takeback', t('game.takebackSent'), { class: 'button pending', 'data-action': 'takeback', disabled: true }, { shown: true })
          : iconButton('takeback', t('game.takeback'), {
            'data-action': 'takeback', disabled: myMoves === 0, onclick: () => this.run({ t: 'takeback', accept: true }),
          }));
      }
      buttons.push(state[`${me}draw`]
        ? iconButton('draw', t('game.drawSent'), { class: 'button pending', 'data-action': 'draw', disabled: true }, { shown: true })
        : iconButton('draw', t('game.offerDraw'), { 'data-action': 'draw', onclick: () => this.run({ t: 'draw', accept: true }) }));
      // The server lists the draws the side to move may claim now (9.2,
      // 9.3): a button for each, and none while there is nothing to claim.
      for (const claim of DRAW_CLAIMS) {
        if (!myTurn || !claims.includes(claim)) continue;
        const label = t(`game.claim.${claim}`);
        buttons.push(iconButton('claim', label, {
          class: 'button primary',
          'data-action': `claim-${claim}`,
          title: label,
          onclick: () => this.run({ t: 'claim', claim }),
        }));
      }
      // Where a fallen flag must be claimed (A.5.3, B.3), the button appears once
      // the opponent's clock reads zero and ours does not.
      if (this.flagCanBeClaimed()) {
        buttons.push(iconButton('claim', t('game.claimFlag'), {
          class: 'button primary', 'data-action': 'claim-flag', onclick: () => this.run({ t: 'claim-flag' }),
        }, { shown: true }));
      }
      buttons.push(...seatButtons({
        state,
        ruleset: this.full && this.full.ruleset,
        myColor: this.myColor,
        myTurn,
        myClockMs: this.clockNow(this.myColor),
        run: (message) => this.run(message),
      }));
      buttons.push(confirmButton(t('game.resign'), t('game.resignConfirm'), () => this.run({ t: 'resign' }),
        { class: 'button danger', 'data-action': 'resign' }, 'resign'));
    } else if (state && isOver(state.status)) {
      if (this.myColor) {
        const label = this.rematch === 'offered' ? t('game.rematchSent')
          : this.rematch === 'declined' ? t('game.rematchDeclined') : t('game.rematch');
        buttons.push(iconButton('rematch', label, {
          class: `button primary${this.rematch ? ' pending' : ''}`,
          'data-action': 'rematch',
          disabled: this.rematch === 'declined',
          onclick: () => (this.rematch === 'offered' ? this.cancelRematch() : this.offerRematch()),
        }, { shown: !!this.rematch }));
        if (this.rematch === 'offered') {
          buttons.push(iconButton('close', t('game.cancel'), { onclick: () => this.cancelRematch() }));
        }
        buttons.push(iconButton('newOpponent', t('game.newOpponent'), { href: '/' }, { tag: 'a' }));
      }
      buttons.push(iconButton('analysis', t('game.analyse'), { href: `/analysis?game=${encodeURIComponent(this.id)}` }, { tag: 'a' }));
      buttons.push(iconButton('download', t('game.downloadPgn'), {
        href: `/game/export/${encodeURIComponent(this.id)}`, download: `${this.id}.pgn`,
      }, { tag: 'a' }));
    }
    buttons.push(mute);
    replace(this.el.controls, buttons);
  },

  renderOffers() {
    if (!this.el || !this.state) return;
    const state = this.state;
    const items = [];
    const over = isOver(state.status);
    const answer = (testid, text, onAnswer) => h('div', { class: 'offer', 'data-testid': testid },
      h('span', {}, text),
      h('button', { type: 'button', class: 'button primary', onclick: () => onAnswer(true) }, t('game.accept')),
      h('button', { type: 'button', class: 'button', onclick: () => onAnswer(false) }, t('game.decline')));
    if (this.myColor && !over) {
      const them = opposite(this.myColor);
      if (state[`${them[0]}draw`]) {
        items.push(answer('draw-offer', t('game.drawOffered', { color: colorName(them) }), (accept) => this.run({ t: 'draw', accept })));
      }
      if (state[`${them[0]}takeback`]) {
        items.push(answer('takeback-offer', t('game.takebackProposed', { color: colorName(them) }), (accept) => this.run({ t: 'takeback', accept })));
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
      items.push(answer('rematch-offer', t('game.rematchOffered'), (accept) => this.answerRematch(accept)));
    }
    replace(this.el.offers, items);
  },

  /** Sends an action and shows the server's refusal in words. */
  async run(message) {
    try {
      await this.act(message);
    } catch (err) {
      showError(err);
    }
  },

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
  },

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
  },

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
  },

  async cancelRematch() {
    try {
      await api(`/api/board/game/${encodeURIComponent(this.id)}/rematch/no`, { method: 'POST' });
    } catch (err) {
      if (!(err instanceof ApiError && err.routeMissing)) showError(err);
    }
    this.rematch = null;
    this.renderControls();
  },

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
  },
};
