// The arbiter's seat as a game page shows it: what arbiters did (live, from the
// state's `arbiter` notes), a paused or adjourned game, claims waiting for a
// decision, and the player's own actions outside the moves: sealing a move
// (Guidelines I), proposing when to resume, and the Guidelines III requests.

import { t } from '../i18n.js';
import { colorName } from '../format.js';
import { h } from '../ui.js';

/** Rulesets that adjourn with a sealed move (Guidelines I). */
const ADJOURNING = new Set(['fide-standard', 'fide-seed-edition']);
/** Rulesets with Guidelines III (games without increment, the last two minutes). */
const GUIDELINES_III = new Set(['fide-standard', 'fide-rapid']);
const TWO_MINUTES = 120_000;

/** A time in ms since the epoch as the reader's local date and time. */
export function localTime(ms) {
  return new Date(ms).toLocaleString();
}

/** The value of a datetime-local input as ms since the epoch, or null. */
export function fromLocalInput(value) {
  if (!value) return null;
  const ms = new Date(value).getTime();
  return Number.isFinite(ms) ? ms : null;
}

/** One arbiter's action in words: "Ruth: paused the clocks — noise". */
export function noteText(note) {
  const reason = note.reason ? ` — ${note.reason}` : '';
  return `${note.arbiter}: ${note.action}${reason}`;
}

/**
 * The seat's panel for a game's state: banners (paused, adjourned, adjournment
 * called, a claim waiting) and the arbiters' notes, newest last. Null when there
 * is nothing to show.
 */
export function seatPanel(state) {
  if (!state) return null;
  const lines = [];
  if (state.paused) lines.push(h('p', { class: 'seat-banner', 'data-testid': 'seat-paused' }, t('seat.paused')));
  if (state.adjournmentCalled) lines.push(h('p', { class: 'seat-banner' }, t('seat.adjournmentCalled')));
  const adjourned = state.adjourned;
  if (adjourned) {
    const parts = [t('seat.adjourned', { color: colorName(adjourned.sealedBy) })];
    if (adjourned.resumeAt) parts.push(t('seat.resumesAt', { time: localTime(adjourned.resumeAt) }));
    else if (adjourned.proposed) {
      parts.push(t('seat.proposed', { color: colorName(adjourned.proposed.by), time: localTime(adjourned.proposed.at) }));
    }
    lines.push(h('p', { class: 'seat-banner', 'data-testid': 'seat-adjourned' }, parts.join(' ')));
  }
  const pending = state.pending || {};
  if (pending.noProgressClaim) {
    lines.push(h('p', { class: 'seat-banner' }, t('seat.noProgressClaimed', { color: colorName(pending.noProgressClaim) })));
  }
  if (pending.incrementRequest) {
    lines.push(h('p', { class: 'seat-banner' }, t('seat.incrementRequested', { color: colorName(pending.incrementRequest) })));
  }
  if (state.score) lines.push(h('p', { class: 'seat-banner' }, t('seat.score', { score: state.score })));
  const notes = Array.isArray(state.arbiter) ? state.arbiter : [];
  if (notes.length) {
    lines.push(h('h3', {}, t('seat.notes')),
      h('ol', { class: 'seat-notes', 'data-testid': 'arbiter-notes' }, notes.map((n) => h('li', {}, noteText(n)))));
  }
  return lines.length ? h('div', { class: 'seat', 'aria-live': 'polite' }, lines) : null;
}

/**
 * A player's own seat buttons in a live game: seal (where the ruleset adjourns,
 * or the arbiter called the adjournment, on one's move), propose a time to resume
 * an adjourned game, and the Guidelines III request and claim under two minutes.
 * `page` gives ruleset, myColor, myTurn, myClockMs and run(message).
 */
export function seatButtons(page) {
  const { state, ruleset, myColor } = page;
  if (!state || !myColor) return [];
  const out = [];
  if (state.adjourned) {
    const input = h('input', { type: 'datetime-local', 'aria-label': t('seat.resumeWhen'), 'data-testid': 'resume-at' });
    out.push(h('form', {
      class: 'seat-form',
      onsubmit: (e) => {
        e.preventDefault();
        const at = fromLocalInput(input.value);
        if (at !== null) page.run({ t: 'propose-resumption', at });
      },
    }, input, h('button', { type: 'submit', class: 'button', 'data-action': 'propose-resumption' }, t('seat.proposeResumption'))));
    return out;
  }
  if ((ADJOURNING.has(ruleset) || state.adjournmentCalled) && page.myTurn) {
    const input = h('input', {
      type: 'text', placeholder: 'Nf3', size: 6, 'aria-label': t('seat.sealedMove'), 'data-testid': 'sealed-move',
    });
    out.push(h('form', {
      class: 'seat-form',
      onsubmit: (e) => {
        e.preventDefault();
        const text = input.value.trim();
        if (text) page.run({ t: 'seal', move: text });
      },
    }, input, h('button', {
      type: 'submit', class: `button${state.adjournmentCalled ? ' primary' : ''}`, 'data-action': 'seal',
    }, t('seat.seal'))));
  }
  const mine = page.myClockMs;
  if (GUIDELINES_III.has(ruleset) && typeof mine === 'number' && mine > 0 && mine < TWO_MINUTES) {
    out.push(h('button', { type: 'button', class: 'button', 'data-action': 'request-increment', onclick: () => page.run({ t: 'request-increment' }) }, t('seat.requestIncrement')));
    out.push(h('button', { type: 'button', class: 'button', 'data-action': 'claim-no-progress', onclick: () => page.run({ t: 'claim-no-progress' }) }, t('seat.claimNoProgress')));
  }
  return out;
}
