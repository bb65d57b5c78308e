// Pieces of page shared by the game, watch and analysis pages: the move list,
// captured material, and stepping through a game with the keyboard.

import { FIGURINES, figurineSan } from './fen.js';
import { t } from './i18n.js';
import { icon } from './icons.js';
import { h, replace } from './ui.js';

export { icon };

const VALUES = { queen: 9, rook: 5, bishop: 3, knight: 3, pawn: 1 };
const ORDER = ['queen', 'rook', 'bishop', 'knight', 'pawn'];

/**
 * Material imbalance of a position's `material()`: for each side, the pieces it
 * has more of than the other side, and its lead in points (0 if behind).
 */
export function materialDiff(material) {
  const out = { white: { pieces: [], score: 0 }, black: { pieces: [], score: 0 } };
  let total = 0;
  for (const role of ORDER) {
    const diff = (material.white[role] || 0) - (material.black[role] || 0);
    total += diff * VALUES[role];
    const side = diff > 0 ? 'white' : 'black';
    for (let i = 0; i < Math.abs(diff); i++) out[side].pieces.push(role);
  }
  if (total > 0) out.white.score = total;
  if (total < 0) out.black.score = -total;
  return out;
}

/** The material a side is ahead by, as figurines of the captured (opponent) pieces and "+N". */
export function materialView(diff, color) {
  const mine = diff[color];
  const other = color === 'white' ? 'black' : 'white';
  const label = mine.pieces.length
    ? mine.pieces.map((r) => t(`piece.${r}`)).join(', ') + (mine.score ? ` (+${mine.score})` : '')
    : t('game.noMaterialLead');
  // The figurines are for the eye; the words, for screen readers.
  return h('span', { class: 'material', title: label },
    h('span', { class: 'sr-only' }, label),
    mine.pieces.map((role) => h('span', { class: `material-piece role-${role}`, 'aria-hidden': 'true' }, FIGURINES[other][role])),
    mine.score ? h('span', { class: 'material-score', 'aria-hidden': 'true' }, `+${mine.score}`) : null);
}

/** How a SAN is shown, by the notation setting. */
export function displaySan(san, color, notation) {
  return notation === 'figurine' ? figurineSan(san, color) : san;
}

/**
 * Renders the move list into `el`: numbered rows of buttons, one per ply.
 * `current` is the ply shown on the board (0 = start); `onPick(ply)`.
 */
export function renderMoveList(el, { sans, current, onPick, notation = 'san', startColor = 'white', startMove = 1, result = null }) {
  const rows = [];
  let moveNo = startMove;
  let row = null;
  sans.forEach((san, i) => {
    const color = (startColor === 'white') === (i % 2 === 0) ? 'white' : 'black';
    const ply = i + 1;
    if (color === 'white' || row === null) {
      row = h('li', { class: 'move-row' }, h('span', { class: 'move-no', 'aria-hidden': 'true' }, `${moveNo}.`));
      if (color === 'black') row.append(h('span', { class: 'move move-empty', 'aria-hidden': 'true' }, '…'));
      rows.push(row);
    }
    const button = h('button', {
      type: 'button',
      class: `move${ply === current ? ' current' : ''}`,
      dataset: { ply: String(ply) },
      'aria-current': ply === current ? 'step' : null,
      'aria-label': `${moveNo}${color === 'white' ? '.' : '...'} ${san}`,
      onclick: () => onPick(ply),
    }, displaySan(san, color, notation));
    row.append(button);
    if (color === 'black') {
      moveNo++;
      row = null;
    }
  });
  const list = h('ol', { class: 'move-list-rows' }, rows);
  replace(el, list, result ? h('p', { class: 'move-result' }, result) : null);
  if (!sans.length) el.append(h('p', { class: 'muted' }, t('game.noMoves')));
  const active = el.querySelector('.move.current');
  if (active && typeof active.scrollIntoView === 'function') {
    const box = el.getBoundingClientRect();
    const at = active.getBoundingClientRect();
    if (at.top < box.top || at.bottom > box.bottom) el.scrollTop += at.top - box.top - box.height / 2;
  }
}

/** The navigation buttons under a move list: first, back, forward, last (and flip). */
export function stepButtons({ onStep, onFlip }) {
  const b = (name, key, action) => h('button', { type: 'button', class: 'button icon', 'aria-label': t(key), title: t(key), onclick: action }, icon(name));
  return h('div', { class: 'step-buttons', role: 'group', 'aria-label': t('game.navigation') },
    b('first', 'game.first', () => onStep('first')),
    b('prev', 'game.prev', () => onStep('prev')),
    b('next', 'game.next', () => onStep('next')),
    b('last', 'game.last', () => onStep('last')),
    onFlip ? b('flip', 'game.flip', onFlip) : null);
}

/**
 * Arrow keys step through the moves while no text field has focus. Returns a
 * function that removes the listener.
 */
export function keyboardSteps(onStep) {
  const handler = (e) => {
    const target = e.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const map = { ArrowLeft: 'prev', ArrowRight: 'next', ArrowUp: 'first', ArrowDown: 'last', Home: 'first', End: 'last' };
    const step = map[e.key];
    if (!step) return;
    e.preventDefault();
    onStep(step);
  };
  document.addEventListener('keydown', handler);
  return () => document.removeEventListener('keydown', handler);
}

/** The ply after a step. */
export function stepPly(step, current, last) {
  switch (step) {
    case 'first':
      return 0;
    case 'prev':
      return Math.max(0, current - 1);
    case 'next':
      return Math.min(last, current + 1);
    case 'last':
      return last;
    default:
      return current;
  }
}

/** A rating change as shown next to the rating: "+12" or "-8", coloured. */
export function ratingDiffView(diff, color) {
  const text = diff > 0 ? `+${diff}` : `${diff}`;
  return h('span', {
    class: `rating-diff ${diff > 0 ? 'up' : diff < 0 ? 'down' : 'same'}`,
    'data-testid': color ? `rating-diff-${color}` : 'rating-diff',
    title: t('game.ratingChange', { diff: text }),
  }, text);
}
