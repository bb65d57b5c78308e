// The board editor: set up any position by placing pieces, choosing the side
// to move and the castling rights; the FEN follows every change. Whether the
// position is legal is for the rules module to say when it is loaded.

import { Board } from './board.js';
import { pieceUrl, readFenBoard } from './board-pieces.js';
import { START_FEN } from './fen.js';
import { t } from './i18n.js';
import { h, replace } from './ui.js';

const LETTER = { king: 'k', queen: 'q', rook: 'r', bishop: 'b', knight: 'n', pawn: 'p' };
const ROLES = ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'];
/** Castling rights, and where the king and rook must stand for each. */
const CASTLING = [
  ['K', 'e1', 'h1', 'white'],
  ['Q', 'e1', 'a1', 'white'],
  ['k', 'e8', 'h8', 'black'],
  ['q', 'e8', 'a8', 'black'],
];

/** The placement field of a FEN for `pieces` (a Map from square to {color, role}). */
export function placementOf(pieces) {
  const rows = [];
  for (let rank = 8; rank >= 1; rank--) {
    let row = '';
    let empty = 0;
    for (const file of 'abcdefgh') {
      const piece = pieces.get(`${file}${rank}`);
      if (!piece) {
        empty++;
        continue;
      }
      if (empty) row += empty;
      empty = 0;
      const letter = LETTER[piece.role];
      row += piece.color === 'white' ? letter.toUpperCase() : letter;
    }
    rows.push(row + (empty ? empty : ''));
  }
  return rows.join('/');
}

/**
 * The FEN of an edited position: the castling rights asked for that the
 * pieces allow (king and rook on their squares), no en-passant square, move 1.
 */
export function editedFen(pieces, turn, castling) {
  const has = (sq, color, role) => {
    const p = pieces.get(sq);
    return !!p && p.color === color && p.role === role;
  };
  const rights = CASTLING
    .filter(([flag, king, rook, color]) => castling.includes(flag) && has(king, color, 'king') && has(rook, color, 'rook'))
    .map(([flag]) => flag)
    .join('');
  return `${placementOf(pieces)} ${turn === 'black' ? 'b' : 'w'} ${rights || '-'} - 0 1`;
}

/** The editor, drawn into `host`; `onChange(fen)` after every change. */
export class BoardEditor {
  constructor(host, { fen = START_FEN, pieceSet = 'classic', theme = 'wood', onChange = null } = {}) {
    this.host = host;
    this.onChange = onChange;
    this.pieceSet = pieceSet;
    this.pieces = readFenBoard(fen);
    const fields = String(fen).split(' ');
    this.turn = fields[1] === 'b' ? 'black' : 'white';
    this.castling = fields[2] && fields[2] !== '-' ? fields[2] : '';
    this.tool = { color: 'white', role: 'pawn' };
    this.boardHost = h('div', { class: 'board-host editor-board' });
    this.palette = h('div', { class: 'editor-palette', role: 'radiogroup', 'aria-label': t('editor.pieces') });
    this.options = h('div', { class: 'editor-options' });
    replace(host, this.palette, this.boardHost, this.options);
    this.board = new Board(this.boardHost, {
      fen: this.fen(),
      pieceSet,
      theme,
      premove: false,
      label: t('editor.board'),
      onSquareClick: (sq) => this.place(sq),
    });
    this.render();
  }

  /** The FEN of the position set up. */
  fen() {
    return editedFen(this.pieces, this.turn, this.castling);
  }

  /** Puts the chosen piece on `sq`; the same piece again, or the eraser, empties it. */
  place(sq) {
    const there = this.pieces.get(sq);
    const tool = this.tool;
    if (!tool || (there && there.color === tool.color && there.role === tool.role)) this.pieces.delete(sq);
    else this.pieces.set(sq, { ...tool });
    this.changed();
  }

  setPosition(fen) {
    this.pieces = readFenBoard(fen);
    const fields = String(fen).split(' ');
    this.turn = fields[1] === 'b' ? 'black' : 'white';
    this.castling = fields[2] && fields[2] !== '-' ? fields[2] : '';
    this.changed();
  }

  changed() {
    this.board.set({ fen: this.fen() });
    this.render();
    if (this.onChange) this.onChange(this.fen());
  }

  render() {
    const toolButton = (tool, label, content) => {
      const on = tool === null ? this.tool === null
        : !!this.tool && this.tool.color === tool.color && this.tool.role === tool.role;
      return h('button', {
        type: 'button',
        class: `editor-tool ${on ? 'on' : ''}`,
        role: 'radio',
        'aria-checked': on ? 'true' : 'false',
        'aria-label': label,
        title: label,
        'data-tool': tool ? `${tool.color}-${tool.role}` : 'eraser',
        onclick: () => {
          this.tool = tool;
          this.render();
        },
      }, content);
    };
    replace(this.palette,
      ['white', 'black'].map((color) => h('div', { class: 'editor-row' },
        ROLES.map((role) => toolButton({ color, role }, `${t(`color.${color}`)} ${t(`piece.${role}`)}`,
          h('img', { src: pieceUrl(this.pieceSet, { color, role }), alt: '', width: '32', height: '32' }))))),
      h('div', { class: 'editor-row' }, toolButton(null, t('editor.eraser'), t('editor.eraser'))));
    const turn = (color) => h('label', { class: 'radio' },
      h('input', {
        type: 'radio', name: 'editor-turn', value: color, checked: this.turn === color,
        onchange: () => {
          this.turn = color;
          this.changed();
        },
      }), h('span', {}, t('editor.toMove', { color: t(`color.${color}`) })));
    const right = ([flag]) => h('label', { class: 'check' },
      h('input', {
        type: 'checkbox', 'data-castling': flag, checked: this.castling.includes(flag),
        onchange: (e) => {
          this.castling = e.target.checked ? this.castling + flag : this.castling.replace(flag, '');
          this.changed();
        },
      }), h('span', {}, t(`editor.castle.${flag === flag.toUpperCase() ? 'white' : 'black'}${'Kk'.includes(flag) ? 'King' : 'Queen'}`)));
    replace(this.options,
      h('fieldset', { class: 'field' }, h('legend', {}, t('editor.sideToMove')), turn('white'), turn('black')),
      h('fieldset', { class: 'field' }, h('legend', {}, t('editor.castling')), CASTLING.map(right)),
      h('div', { class: 'button-row' },
        h('button', { type: 'button', class: 'button', 'data-action': 'editor-start', onclick: () => this.setPosition(START_FEN) }, t('editor.start')),
        h('button', { type: 'button', class: 'button', 'data-action': 'editor-clear', onclick: () => this.setPosition('8/8/8/8/8/8/8/8 w - - 0 1') }, t('editor.clear'))));
  }

  destroy() {
    this.board.destroy();
  }
}
