// The promotion picker of the board: the four pieces a pawn may become, in a
// column growing from the promotion square toward the board's centre.

import { pieceUrl } from './board-pieces.js';

/** The pieces offered, in the order shown. */
export const PROMOTION_CHOICES = ['queen', 'knight', 'rook', 'bishop'];

/**
 * The picker's overlay for a promotion on the square drawn at `square`
 * ({col, row}): `onChoose(role)`, or `onCancel()` when the player presses
 * outside the choices. Returns `{overlay, buttons}`.
 */
export function promotionPicker(doc, { square, color, pieceSet, onChoose, onCancel }) {
  const el = (tag, className) => {
    const node = doc.createElement(tag);
    node.className = className;
    return node;
  };
  const overlay = el('div', 'cb-promo');
  overlay.setAttribute('role', 'dialog');
  overlay.setAttribute('aria-label', 'Choose a promotion piece');
  const { col, row } = square;
  const down = row === 0; // picker grows from the edge towards the centre
  const buttons = PROMOTION_CHOICES.map((role, i) => {
    const btn = el('button', 'cb-promo-choice');
    btn.type = 'button';
    btn.setAttribute('aria-label', `Promote to ${role}`);
    btn.dataset.role = role;
    const r = down ? row + i : row - i;
    btn.style.left = `${col * 12.5}%`;
    btn.style.top = `${r * 12.5}%`;
    const img = el('img', 'cb-promo-piece');
    img.alt = '';
    img.draggable = false;
    img.src = pieceUrl(pieceSet, { color, role });
    btn.appendChild(img);
    btn.addEventListener('click', (ev) => {
      ev.stopPropagation();
      onChoose(role);
    });
    btn.addEventListener('pointerdown', (ev) => ev.stopPropagation());
    overlay.appendChild(btn);
    return btn;
  });
  overlay.addEventListener('pointerdown', (ev) => {
    ev.stopPropagation();
    if (ev.target === overlay) onCancel();
  });
  return { overlay, buttons };
}
