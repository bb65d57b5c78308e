// Interactive chess board for the Caissa web client.
//
// Written for this project: no dependencies, no build step. The board draws
// 64 squares in a CSS grid with the pieces in an absolutely positioned layer
// above it. Moves are made by dragging (pointer events: mouse, pen and touch)
// or by clicking a piece then its destination, or with the keyboard (arrow
// keys move a cursor, Enter/Space select and drop, Escape cancels).
//
// The board does not know the rules: the page passes `dests` (a Map from a
// square to the squares its piece may go to: the server's, or the rules
// module's) and receives moves through `onMove(uci)`.

import { cursorTarget, isSquare, posToSquare, squareColor, squareToPos } from './squares.js';
import { ShapeLayer } from './shapes.js';
import { promotionPicker } from './promotion.js';
import {
  PIECE_SETS, applyMoveToPieces, fenTurn, findMovedPieces, normalizeCastle, pieceCode, pieceUrl,
  premoveDests, readFenBoard,
} from './board-pieces.js';

const LETTER_ROLE = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };
const PROMOTION_LETTER = { queen: 'q', rook: 'r', bishop: 'b', knight: 'n' };

export const THEMES = ['wood', 'green', 'blue', 'grey', 'marble', 'ink', 'contrast'];
export const START_BOARD_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

const ANIMATION_MS = 150;
const DRAG_THRESHOLD_PX = 4;
let boardCounter = 0;

// ---------------------------------------------------------------------------
// Pure helpers (exported for tests and for other modules)

export { isSquare, squareColor, squareToPos, posToSquare };
export {
  PIECE_SETS, applyMoveToPieces, fenTurn, findMovedPieces, normalizeCastle, pieceCode, pieceUrl, premoveDests,
  readFenBoard,
};

function opposite(color) {
  return color === 'white' ? 'black' : 'white';
}

export function describeSquare(sq, piece) {
  return piece ? `${sq} ${piece.color} ${piece.role}` : sq;
}

// Reads the piece placement (first field) of a FEN into a Map square -> piece.
// Only the placement is needed, so positions without kings (editors) work.
function isPromotion(piece, to) {
  return piece && piece.role === 'pawn' && (to[1] === '8' || to[1] === '1');
}

function normalizeDests(dests) {
  if (!dests) return new Map();
  if (dests instanceof Map) return dests;
  return new Map(Object.entries(dests));
}

// ---------------------------------------------------------------------------
// The board component

const DEFAULTS = {
  fen: START_BOARD_FEN,
  orientation: 'white',
  coordinates: true,
  pieceSet: 'classic',
  theme: 'wood',
  movableColor: null,
  turnColor: null,
  dests: null,
  lastMove: null,
  check: null,
  animation: true,
  premove: true,
  label: 'Chess board',
  onMove: null,
  onPremove: null,
  // Arrows and circles: the player's (drawn with the right button when
  // `onShape` is given) and the page's own (`autoShapes`).
  shapes: [],
  autoShapes: [],
  onShape: null,
  // A board editor: every press on a square (pointer, or Enter/Space on the
  // keyboard cursor) goes to the page instead of moving pieces.
  onSquareClick: null,
};

export class Board {
  constructor(element, options = {}) {
    if (!element) throw new Error('Board: a container element is required');
    this.element = element;
    this.doc = element.ownerDocument || globalThis.document;
    this.id = `cb${++boardCounter}`;
    this.opts = { ...DEFAULTS, ...options };
    this.opts.dests = normalizeDests(this.opts.dests);
    this.pieces = readFenBoard(this.opts.fen);
    this.turnColor = this.opts.turnColor || fenTurn(this.opts.fen) || 'white';
    this.selected = null;
    this.premove = null;
    this.drag = null;
    this.promotion = null;
    this.cursor = this.opts.orientation === 'black' ? 'e7' : 'e2';
    this.keyboardActive = false;
    this.pieceEls = new Map(); // square -> <img>
    this._destroyed = false;
    this._build();
    this._renderAll();
  }

  // --- public API ----------------------------------------------------------

  get orientation() {
    return this.opts.orientation;
  }

  get fen() {
    return this.opts.fen;
  }

  set(partial = {}) {
    if (this._destroyed) return;
    const o = this.opts;
    let reorient = false;
    let restyle = false;
    if ('dests' in partial) partial = { ...partial, dests: normalizeDests(partial.dests) };
    for (const [k, v] of Object.entries(partial)) {
      if (k === 'orientation' && v !== o.orientation) reorient = true;
      if (k === 'pieceSet' || k === 'theme' || k === 'coordinates') restyle = true;
      o[k] = v;
    }
    if ('fen' in partial) {
      const next = readFenBoard(partial.fen);
      const changed = !sameBoard(next, this.pieces);
      if (!('turnColor' in partial)) this.turnColor = fenTurn(partial.fen) || this.turnColor;
      if (changed) {
        const prev = this.pieces;
        this._keepInteractionIfStill(prev, next);
        this.pieces = next;
        this._syncPieces(prev);
      }
    }
    if ('turnColor' in partial && partial.turnColor) this.turnColor = partial.turnColor;
    if ('movableColor' in partial || 'turnColor' in partial) {
      if (this.selected && !this._canSelect(this.selected)) this.selected = null;
    }
    if (reorient) this._applyOrientation();
    if (restyle) this._applyStyle();
    if ('shapes' in partial || 'autoShapes' in partial || reorient) this._renderShapes();
    this._renderSquares();
  }

  /** The shape layer, made when there is something to draw or a page that draws. */
  _renderShapes() {
    const o = this.opts;
    if (!this.shapeLayer) {
      if (!o.onShape && !o.shapes.length && !o.autoShapes.length) return;
      this.shapeLayer = new ShapeLayer(this.root, { onShape: (shape) => o.onShape && o.onShape(shape) });
    }
    this.shapeLayer.set({ shapes: o.shapes, autoShapes: o.autoShapes, orientation: o.orientation });
  }

  flip() {
    this.set({ orientation: opposite(this.opts.orientation) });
  }

  setPremove(uci) {
    if (this._destroyed) return;
    const before = this.premove;
    this.premove = uci || null;
    this._renderSquares();
    if (before !== this.premove && this.opts.onPremove) this.opts.onPremove(this.premove);
  }

  // Plays the queued premove if the current dests allow it. Returns true if
  // a move was played.
  playPremove() {
    const uci = this.premove;
    if (!uci) return false;
    const from = uci.slice(0, 2);
    const to = uci.slice(2, 4);
    const legal = (this.opts.dests.get(from) || []).includes(to);
    this.premove = null;
    if (!legal) {
      this._renderSquares();
      if (this.opts.onPremove) this.opts.onPremove(null);
      return false;
    }
    const promo = uci.length > 4 ? LETTER_ROLE[uci[4]] : undefined;
    this._commitMove(from, to, promo, true);
    return true;
  }

  destroy() {
    if (this._destroyed) return;
    this._destroyed = true;
    this._closePromotion();
    const root = this.root;
    root.removeEventListener('pointerdown', this._onPointerDown);
    root.removeEventListener('pointermove', this._onPointerMove);
    root.removeEventListener('pointerup', this._onPointerUp);
    root.removeEventListener('pointercancel', this._onPointerCancel);
    root.removeEventListener('keydown', this._onKeyDown);
    root.removeEventListener('focus', this._onFocus);
    root.removeEventListener('blur', this._onBlur);
    root.removeEventListener('contextmenu', this._onContextMenu);
    if (this.shapeLayer) this.shapeLayer.destroy();
    if (root.parentNode) root.parentNode.removeChild(root);
    this.pieceEls.clear();
  }

  // --- construction --------------------------------------------------------

  _el(tag, className) {
    const el = this.doc.createElement(tag);
    if (className) el.className = className;
    return el;
  }

  _build() {
    const root = this._el('div', 'cb-board');
    root.setAttribute('role', 'grid');
    root.setAttribute('aria-label', this.opts.label);
    root.setAttribute('tabindex', '0');
    this.root = root;

    const squares = this._el('div', 'cb-squares');
    this.squaresEl = squares;
    this.cells = []; // [row][col]
    for (let row = 0; row < 8; row++) {
      const rowEl = this._el('div', 'cb-row');
      rowEl.setAttribute('role', 'row');
      const cells = [];
      for (let col = 0; col < 8; col++) {
        const cell = this._el('div', 'cb-sq');
        cell.setAttribute('role', 'gridcell');
        rowEl.appendChild(cell);
        cells.push(cell);
      }
      squares.appendChild(rowEl);
      this.cells.push(cells);
    }
    root.appendChild(squares);

    const coords = this._el('div', 'cb-coords-layer');
    coords.setAttribute('aria-hidden', 'true');
    this.fileLabels = [];
    this.rankLabels = [];
    for (let i = 0; i < 8; i++) {
      const f = this._el('span', 'cb-coord cb-coord-file');
      f.style.left = `${i * 12.5}%`;
      coords.appendChild(f);
      this.fileLabels.push(f);
      const r = this._el('span', 'cb-coord cb-coord-rank');
      r.style.top = `${i * 12.5}%`;
      coords.appendChild(r);
      this.rankLabels.push(r);
    }
    this.coordsEl = coords;
    root.appendChild(coords);

    const layer = this._el('div', 'cb-pieces');
    layer.setAttribute('aria-hidden', 'true');
    this.piecesEl = layer;
    root.appendChild(layer);

    this._onPointerDown = (e) => this._pointerDown(e);
    this._onPointerMove = (e) => this._pointerMove(e);
    this._onPointerUp = (e) => this._pointerUp(e);
    this._onPointerCancel = () => {
      if (this.shapeLayer) this.shapeLayer.cancel();
      this._cancelDrag();
    };
    this._onKeyDown = (e) => this._keyDown(e);
    this._onFocus = () => this._renderSquares();
    this._onBlur = () => {
      this.keyboardActive = false;
      this._renderSquares();
    };
    this._onContextMenu = (e) => {
      // Right-dragging draws on a page that takes shapes: no menu then.
      if (this.drag || this.opts.onShape) e.preventDefault();
    };
    root.addEventListener('pointerdown', this._onPointerDown);
    root.addEventListener('pointermove', this._onPointerMove);
    root.addEventListener('pointerup', this._onPointerUp);
    root.addEventListener('pointercancel', this._onPointerCancel);
    root.addEventListener('keydown', this._onKeyDown);
    root.addEventListener('focus', this._onFocus);
    root.addEventListener('blur', this._onBlur);
    root.addEventListener('contextmenu', this._onContextMenu);

    this.element.appendChild(root);
  }

  _renderAll() {
    this._applyStyle();
    this._applyOrientation();
    this._renderShapes();
  }

  _applyStyle() {
    const o = this.opts;
    const theme = THEMES.includes(o.theme) ? o.theme : 'wood';
    const set = PIECE_SETS.includes(o.pieceSet) ? o.pieceSet : 'classic';
    this.root.className = `cb-board cb-theme-${theme} cb-set-${set}${o.coordinates ? ' cb-coords' : ''}`;
    for (const [sq, img] of this.pieceEls) img.src = pieceUrl(set, this.pieces.get(sq));
  }

  // (Re)assigns squares to cells and repositions all pieces.
  _applyOrientation() {
    const orient = this.opts.orientation;
    this.cellBySquare = new Map();
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        const sq = posToSquare(col, row, orient);
        const cell = this.cells[row][col];
        cell.id = `${this.id}-${sq}`;
        cell.dataset.square = sq;
        this.cellBySquare.set(sq, cell);
      }
    }
    // File letters along the bottom edge, rank numbers along the left edge;
    // each label takes the colour that contrasts with the square under it.
    for (let i = 0; i < 8; i++) {
      const fileSq = posToSquare(i, 7, orient);
      const rankSq = posToSquare(0, i, orient);
      const f = this.fileLabels[i];
      const r = this.rankLabels[i];
      f.textContent = fileSq[0];
      r.textContent = rankSq[1];
      f.className = `cb-coord cb-coord-file cb-on-${squareColor(fileSq)}`;
      r.className = `cb-coord cb-coord-rank cb-on-${squareColor(rankSq)}`;
    }
    for (const [sq, img] of this.pieceEls) this._placePiece(img, sq);
    this._syncPieces(null);
    this._renderSquares();
  }

  // --- pieces ----------------------------------------------------------------

  _placePiece(img, sq) {
    const { col, row } = squareToPos(sq, this.opts.orientation);
    img.style.transform = `translate(${col * 100}%, ${row * 100}%)`;
  }

  _newPieceEl(sq, piece) {
    const img = this._el('img', 'cb-piece');
    img.alt = '';
    img.draggable = false;
    img.src = pieceUrl(this.opts.pieceSet, piece);
    this._placePiece(img, sq);
    this.piecesEl.appendChild(img);
    return img;
  }

  // Brings the piece elements in line with this.pieces. If `prev` is given
  // and only a few pieces moved, their movement is animated.
  _syncPieces(prev, skipAnimation = false) {
    const moved = prev ? findMovedPieces(prev, this.pieces) : [];
    const animate = this.opts.animation && !skipAnimation && moved.length > 0 && moved.length <= 4;
    const oldEls = this.pieceEls;
    const next = new Map();
    // Reuse elements of moved pieces so they can slide.
    const reuse = new Map();
    for (const m of moved) {
      const img = oldEls.get(m.from);
      if (img) {
        reuse.set(m.to, { img, from: m.from });
        oldEls.delete(m.from);
      }
    }
    for (const [sq, piece] of this.pieces) {
      const old = oldEls.get(sq);
      const prevPiece = prev ? prev.get(sq) : null;
      if (reuse.has(sq)) {
        const { img, from } = reuse.get(sq);
        if (old) {
          old.remove();
          oldEls.delete(sq);
        }
        img.src = pieceUrl(this.opts.pieceSet, piece);
        this._placePiece(img, sq);
        if (animate) this._animate(img, from, sq);
        next.set(sq, img);
      } else if (old && (!prev || (prevPiece && prevPiece.color === piece.color && prevPiece.role === piece.role))) {
        const dragged = this.drag && this.drag.started && this.drag.square === sq;
        if (!dragged) this._placePiece(old, sq);
        oldEls.delete(sq);
        next.set(sq, old);
      } else {
        if (old) {
          old.remove();
          oldEls.delete(sq);
        }
        next.set(sq, this._newPieceEl(sq, piece));
      }
    }
    for (const img of oldEls.values()) img.remove();
    this.pieceEls = next;
  }

  _animate(img, from, to) {
    if (typeof img.animate !== 'function') return;
    const a = squareToPos(from, this.opts.orientation);
    const b = squareToPos(to, this.opts.orientation);
    img.classList.add('cb-anim');
    const anim = img.animate(
      [
        { transform: `translate(${a.col * 100}%, ${a.row * 100}%)` },
        { transform: `translate(${b.col * 100}%, ${b.row * 100}%)` },
      ],
      { duration: ANIMATION_MS, easing: 'ease-out' },
    );
    anim.onfinish = anim.oncancel = () => img.classList.remove('cb-anim');
  }

  // --- squares / highlights ---------------------------------------------------

  _renderSquares() {
    if (this._destroyed) return;
    const o = this.opts;
    const marks = new Map(); // square -> Set of classes
    const mark = (sq, cls) => {
      if (!isSquare(sq)) return;
      if (!marks.has(sq)) marks.set(sq, new Set());
      marks.get(sq).add(cls);
    };
    if (o.lastMove && o.lastMove.length >= 2) {
      mark(o.lastMove[0], 'cb-last');
      mark(o.lastMove[1], 'cb-last');
    }
    let check = o.check;
    if (check === true) {
      for (const [sq, p] of this.pieces) if (p.role === 'king' && p.color === this.turnColor) check = sq;
    }
    if (isSquare(check)) mark(check, 'cb-check');
    if (this.premove) {
      mark(this.premove.slice(0, 2), 'cb-premove');
      mark(this.premove.slice(2, 4), 'cb-premove');
    }
    if (this.selected) {
      mark(this.selected, 'cb-selected');
      const premoving = this._isPremoveMode(this.selected);
      for (const d of this._destsFor(this.selected)) {
        const occupied = this.pieces.has(d) && !(this.drag && this.drag.started && d === this.selected);
        mark(d, premoving ? 'cb-pdest' : 'cb-dest');
        if (occupied) mark(d, 'cb-occupied');
      }
    }
    if (this.drag && this.drag.started) {
      mark(this.drag.square, 'cb-origin');
      if (this.drag.over) mark(this.drag.over, 'cb-hover');
    }
    const showCursor = this.keyboardActive && this._hasFocus();
    if (showCursor) mark(this.cursor, 'cb-cursor');

    for (const [sq, cell] of this.cellBySquare) {
      const piece = this.pieces.get(sq);
      const classes = ['cb-sq', squareColor(sq) === 'light' ? 'cb-light' : 'cb-dark'];
      const m = marks.get(sq);
      if (m) classes.push(...m);
      const cls = classes.join(' ');
      if (cell.className !== cls) cell.className = cls;
      let label = describeSquare(sq, piece);
      if (m && m.has('cb-check')) label += ', in check';
      if (m && m.has('cb-last')) label += ', last move';
      if (m && m.has('cb-dest')) label += ', legal destination';
      if (m && m.has('cb-pdest')) label += ', premove destination';
      if (m && m.has('cb-premove')) label += ', premove';
      if (cell.getAttribute('aria-label') !== label) cell.setAttribute('aria-label', label);
      cell.setAttribute('aria-selected', sq === this.selected ? 'true' : 'false');
    }
    const cursorCell = this.cellBySquare.get(this.cursor);
    if (cursorCell) this.root.setAttribute('aria-activedescendant', cursorCell.id);
  }

  _hasFocus() {
    const active = this.doc && this.doc.activeElement;
    return !active || active === this.root;
  }

  // --- move logic ------------------------------------------------------------

  _canSelect(sq) {
    const piece = this.pieces.get(sq);
    const mc = this.opts.movableColor;
    if (!piece || !mc) return false;
    if (mc === 'both') return piece.color === this.turnColor || !this.turnColor;
    if (piece.color !== mc) return false;
    return piece.color === this.turnColor || !!this.opts.premove;
  }

  _isPremoveMode(sq) {
    const piece = this.pieces.get(sq);
    const mc = this.opts.movableColor;
    return !!piece && mc !== 'both' && piece.color === mc && piece.color !== this.turnColor;
  }

  _destsFor(sq) {
    if (this._isPremoveMode(sq)) return premoveDests(this.pieces, sq);
    return this.opts.dests.get(sq) || [];
  }

  _canMove(from, to) {
    return from !== to && this._destsFor(from).includes(to);
  }

  _select(sq) {
    this.selected = sq;
    this._renderSquares();
  }

  _deselect() {
    if (this.selected === null) return;
    this.selected = null;
    this._renderSquares();
  }

  // A user gesture asks to move from -> to (already checked with _canMove).
  _userMove(from, to, fromDrag) {
    const piece = this.pieces.get(from);
    if (this._isPremoveMode(from)) {
      const uci = from + to + (isPromotion(piece, to) ? 'q' : '');
      this.selected = null;
      this.setPremove(uci);
      return;
    }
    if (isPromotion(piece, to)) {
      this._openPromotion(from, to, piece.color);
      return;
    }
    this._commitMove(from, to, undefined, fromDrag);
  }

  _commitMove(from, to, promoRole, skipAnimation) {
    const piece = this.pieces.get(from);
    const uci = normalizeCastle(this.pieces, from, to) + (promoRole ? PROMOTION_LETTER[promoRole] : '');
    const prev = this.pieces;
    this.pieces = applyMoveToPieces(prev, from, to, promoRole);
    this.selected = null;
    this.opts.lastMove = [from, uci.slice(2, 4)];
    this.opts.check = null;
    if (piece) this.turnColor = opposite(piece.color);
    this._syncPieces(prev, skipAnimation);
    this._renderSquares();
    if (this.opts.onMove) this.opts.onMove(uci);
  }

  // After a position change, keep the selection / drag / promotion picker
  // only if the piece they concern is still on its square.
  _keepInteractionIfStill(prev, next) {
    const still = (sq) => {
      const a = prev.get(sq);
      const b = next.get(sq);
      return a && b && a.color === b.color && a.role === b.role;
    };
    if (this.promotion && !still(this.promotion.from)) this._closePromotion();
    if (this.drag && !still(this.drag.square)) this._cancelDrag();
    if (this.selected && !still(this.selected)) this.selected = null;
  }

  // --- pointer input ---------------------------------------------------------

  _squareAt(clientX, clientY) {
    const rect = this.squaresEl.getBoundingClientRect();
    if (!rect.width || !rect.height) return null;
    const col = Math.floor(((clientX - rect.left) / rect.width) * 8);
    const row = Math.floor(((clientY - rect.top) / rect.height) * 8);
    return posToSquare(col, row, this.opts.orientation);
  }

  _pointerDown(e) {
    if (this.promotion) return;
    if (e.button !== undefined && e.button !== 0) {
      // Right click cancels a premove / selection, and draws where the page takes shapes.
      if (e.button === 2) {
        if (this.premove) this.setPremove(null);
        this._deselect();
        if (this.opts.onShape) {
          this._renderShapes();
          if (this.shapeLayer.start(e, this.squaresEl.getBoundingClientRect())) {
            if (e.cancelable) e.preventDefault();
            this._capture(e.pointerId);
          }
        }
      }
      return;
    }
    this.keyboardActive = false;
    const sq = this._squareAt(e.clientX, e.clientY);
    if (!sq) return;
    if (e.cancelable) e.preventDefault();
    if (this.root.focus) this.root.focus({ preventScroll: true });
    this.cursor = sq;
    if (this.opts.onSquareClick) {
      this.opts.onSquareClick(sq);
      return;
    }
    this._pressSquare(sq, e);
  }

  // Shared by pointer and keyboard: a press on a square.
  _pressSquare(sq, e) {
    if (this.selected && this.selected !== sq && this._canMove(this.selected, sq)) {
      this._userMove(this.selected, sq, false);
      return;
    }
    if (this._canSelect(sq)) {
      const wasSelected = this.selected === sq;
      this._select(sq);
      if (e) {
        this.drag = {
          square: sq,
          pointerId: e.pointerId,
          startX: e.clientX,
          startY: e.clientY,
          started: false,
          wasSelected,
          over: null,
        };
        this._capture(e.pointerId);
      } else if (wasSelected) {
        this._deselect();
      }
      return;
    }
    if (this.premove && !this.selected) this.setPremove(null);
    this._deselect();
  }

  /** Keeps a pointer's events coming to the board while a button is held. */
  _capture(pointerId) {
    if (!this.root.setPointerCapture || pointerId === undefined) return;
    try {
      this.root.setPointerCapture(pointerId);
    } catch {
      /* the pointer is gone already */
    }
  }

  _pointerMove(e) {
    if (this.shapeLayer && this.shapeLayer.drawing) {
      this.shapeLayer.move(e, this.squaresEl.getBoundingClientRect());
      return;
    }
    const d = this.drag;
    if (!d || (d.pointerId !== undefined && e.pointerId !== d.pointerId)) return;
    if (!d.started) {
      const dist = Math.hypot(e.clientX - d.startX, e.clientY - d.startY);
      if (dist < DRAG_THRESHOLD_PX) return;
      d.started = true;
      const img = this.pieceEls.get(d.square);
      if (img) img.classList.add('cb-dragging');
    }
    const img = this.pieceEls.get(d.square);
    if (img) {
      const rect = this.piecesEl.getBoundingClientRect();
      const x = e.clientX - rect.left;
      const y = e.clientY - rect.top;
      img.style.transform = `translate(${x}px, ${y}px) translate(-50%, -50%)`;
    }
    const over = this._squareAt(e.clientX, e.clientY);
    if (over !== d.over) {
      d.over = over;
      this._renderSquares();
    }
  }

  _pointerUp(e) {
    if (this.shapeLayer && this.shapeLayer.drawing) {
      this.shapeLayer.end(e, this.squaresEl.getBoundingClientRect());
      return;
    }
    const d = this.drag;
    if (!d || (d.pointerId !== undefined && e.pointerId !== d.pointerId)) return;
    this.drag = null;
    const img = this.pieceEls.get(d.square);
    if (img) img.classList.remove('cb-dragging');
    if (d.started) {
      const dest = this._squareAt(e.clientX, e.clientY);
      if (dest && dest !== d.square && this._canMove(d.square, dest)) {
        if (img) this._placePiece(img, d.square);
        this._userMove(d.square, dest, true);
        if (this.promotion && img) {
          // Show the pawn on the promotion square while choosing.
          this._placePiece(img, dest);
        }
        return;
      }
      // Illegal drop: snap back; keep the selection only if dropped home.
      if (img) this._placePiece(img, d.square);
      if (dest !== d.square) this.selected = null;
      this._renderSquares();
      return;
    }
    // A plain click on an already selected piece deselects it.
    if (d.wasSelected) this._deselect();
  }

  _cancelDrag() {
    const d = this.drag;
    if (!d) return;
    this.drag = null;
    const img = this.pieceEls.get(d.square);
    if (img) {
      img.classList.remove('cb-dragging');
      this._placePiece(img, d.square);
    }
    this._renderSquares();
  }

  // --- keyboard ----------------------------------------------------------------

  _keyDown(e) {
    if (this.promotion) {
      if (e.key === 'Escape') {
        e.preventDefault();
        this._cancelPromotion();
      }
      return;
    }
    switch (e.key) {
      case 'Enter':
      case ' ':
      case 'Spacebar':
        e.preventDefault();
        this.keyboardActive = true;
        if (this.opts.onSquareClick) this.opts.onSquareClick(this.cursor);
        else this._pressSquare(this.cursor, null);
        this._renderSquares();
        return;
      case 'Escape':
        if (this.selected) {
          e.preventDefault();
          this._deselect();
        } else if (this.premove) {
          e.preventDefault();
          this.setPremove(null);
        }
        return;
      default:
        break;
    }
    const sq = cursorTarget(this.cursor, e.key, this.opts.orientation);
    if (!sq) return;
    e.preventDefault();
    this.keyboardActive = true;
    this.cursor = sq;
    this._renderSquares();
  }

  // --- promotion picker --------------------------------------------------------

  _openPromotion(from, to, color) {
    this._closePromotion();
    const picker = promotionPicker(this.doc, {
      square: squareToPos(to, this.opts.orientation),
      color,
      pieceSet: this.opts.pieceSet,
      onChoose: (role) => this._finishPromotion(role),
      onCancel: () => this._cancelPromotion(),
    });
    const onDocKey = (ev) => {
      if (ev.key === 'Escape') this._cancelPromotion();
    };
    if (this.doc && this.doc.addEventListener) this.doc.addEventListener('keydown', onDocKey);
    this.root.appendChild(picker.overlay);
    this.promotion = { from, to, overlay: picker.overlay, onDocKey, buttons: picker.buttons };
    if (picker.buttons[0].focus) picker.buttons[0].focus();
  }

  _closePromotion() {
    const p = this.promotion;
    if (!p) return;
    this.promotion = null;
    if (this.doc && this.doc.removeEventListener) this.doc.removeEventListener('keydown', p.onDocKey);
    p.overlay.remove();
  }

  _finishPromotion(role) {
    const p = this.promotion;
    if (!p) return;
    this._closePromotion();
    if (this.root.focus) this.root.focus({ preventScroll: true });
    this._commitMove(p.from, p.to, role, true);
  }

  _cancelPromotion() {
    const p = this.promotion;
    if (!p) return;
    this._closePromotion();
    const img = this.pieceEls.get(p.from);
    if (img) this._placePiece(img, p.from);
    this.selected = null;
    if (this.root.focus) this.root.focus({ preventScroll: true });
    this._renderSquares();
  }
}

function sameBoard(a, b) {
  if (a.size !== b.size) return false;
  for (const [sq, p] of a) {
    const q = b.get(sq);
    if (!q || q.color !== p.color || q.role !== p.role) return false;
  }
  return true;
}
