// The game page's clocks: which one runs, what each reads now (counted down
// between the server's states, frame by frame), the per-move limit, the low-time
// warning and when a fallen flag may be claimed. Mixed into GamePage (pages/game.js).

import { t } from '../i18n.js';
import { colorName, isOver, opposite } from '../format.js';
import * as sound from '../sound.js';
import { announce, formatClock, h } from '../ui.js';

const LOW_TIME_MS = 10_000;
/** Rulesets where a fallen flag counts only when the opponent claims it. */
const FLAG_CLAIMED = new Set(['fide-rapid', 'fide-blitz']);

/** The side whose clock runs: the server's word, or guessed from the moves. */
export function runningColor(state, turn, clockStartsAfter = 2) {
  if (!state || isOver(state.status)) return null;
  if ('running' in state) return state.running || null;
  const plies = state.moves ? state.moves.split(' ').filter(Boolean).length : 0;
  return plies >= clockStartsAfter ? turn : null;
}

export const clockMethods = {
  tick() {
    if (this.destroyed) return;
    this.updateClocks();
    this.raf = requestAnimationFrame(this.tick);
  },

  clockNow(color) {
    const c = this.clock;
    if (!c || typeof c[color] !== 'number') return null;
    const elapsed = c.running === color ? performance.now() - c.at : 0;
    return Math.max(0, c[color] - elapsed);
  },

  clockStartsAfter() {
    const ruleset = this.full && this.full.ruleset;
    if (!ruleset || ruleset === 'online' || ruleset === 'ladder') return 2;
    return 0;
  },

  /** The clock of `color`, filled in by updateClocks. */
  clockElement(color) {
    const el = h('div', { class: `clock clock-${color}`, 'data-color': color, role: 'timer', 'aria-label': t('game.clockOf', { color: colorName(color) }) },
      h('span', { class: 'clock-time' }),
      this.controlNote(color),
      h('span', { class: 'clock-move' }));
    this.clockEls = this.clockEls || {};
    this.clockEls[color] = el;
    return el;
  },

  /** Moves `color` has left before the next time control (6.3), if any. */
  controlNote(color) {
    const left = this.state && this.state.movesToControl && this.state.movesToControl[color];
    return typeof left === 'number'
      ? h('span', { class: 'clock-control', 'data-testid': `control-${color}` }, t('game.movesToControl', { n: left }))
      : null;
  },

  /** Whether this player may claim the opponent's fallen flag now. */
  flagCanBeClaimed() {
    const ruleset = this.full && this.full.ruleset;
    if (!this.myColor || !FLAG_CLAIMED.has(ruleset)) return false;
    const theirs = this.clockNow(opposite(this.myColor));
    const mine = this.clockNow(this.myColor);
    return theirs !== null && mine !== null && theirs <= 0 && mine > 0;
  },

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
  },
};
