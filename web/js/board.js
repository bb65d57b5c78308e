// Interactive chess board for the Caissa web client.
//
// Written for this project: no dependencies, no build step. The board draws
// 64 squares in a CSS grid with the pieces in an absolutely positioned layer
// above it. Moves are made by dragging (pointer events: mouse, pen and touch)
// or by clicking a piece then its destination, or with the keyboard (arrow
// keys move a cursor, Enter/Space select and drop, Escape cancels).
//
// The board does not know the rules: the page passes `dests` (a Map from a
// square to the squares its piece may go to, e.g. Position#dests() from
// chess.js) and receives moves through `onMove(uci)`.

const FILES = 'abcdefgh';
const ROLE_LETTER = { king: 'K', queen: 'Q', rook: 'R', bishop: 'B', knight: 'N', pawn: 'P' };
const LETTER_ROLE = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };
const PROMOTION_CHOICES = ['queen', 'knight', 'rook', 'bishop'];
const PROMOTION_LETTER = { queen: 'q', rook: 'r', bishop: 'b', knight: 'n' };

export const PIECE_SETS = ['classic', 'flat', 'playful'];
export const THEMES = ['wood', 'green', 'blue', 'grey'];
export const START_BOARD_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

const ANIMATION_MS = 150;
const DRAG_THRESHOLD_PX = 4;
let boardCounter = 0;

// ---------------------------------------------------------------------------
// Pure helpers (exported for tests and for other modules)

export function isSquare(sq) {
  return typeof sq === 'string' && /^[a-h][1-8]$/.test(sq);
}

// 'light' or 'dark'. a1 is dark, h1 is light.
export function squareColor(sq) {
  const f = FILES.indexOf(sq[0]);
  const r = Number(sq[1]) - 1;
  return (f + r) % 2 === 0 ? 'dark' : 'light';
}

// Screen position of a square: col 0 = left edge, row 0 = top edge.
export function squareToPos(sq, orientation = 'white') {
  const f = FILES.indexOf(sq[0]);
  const r = Number(sq[1]) - 1;
  return orientation === 'black' ? { col: 7 - f, row: r } : { col: f, row: 7 - r };
}

export function posToSquare(col, row, orientation = 'white') {
  if (col < 0 || col > 7 || row < 0 || row > 7) return null;
  return orientation === 'black' ? FILES[7 - col] + (row + 1) : FILES[col] + (8 - row);
}

export function pieceCode(piece) {
  return (piece.color === 'white' ? 'w' : 'b') + ROLE_LETTER[piece.role];
}

export function pieceUrl(set, piece) {
  const safeSet = PIECE_SETS.includes(set) ? set : 'classic';
  return new URL(`../pieces/${safeSet}/${pieceCode(piece)}.svg`, import.meta.url).href;
}

export function describeSquare(sq, piece) {
  return piece ? `${sq} ${piece.color} ${piece.role}` : sq;
}

// Reads the piece placement (first field) of a FEN into a Map square -> piece.
// Only the placement is needed, so positions without kings (editors) work.
export function readFenBoard(fen) {
  const map = new Map();
  const placement = String(fen || '').trim().split(/\s+/)[0] || '';
  const rows = placement.split('/');
  for (let i = 0; i < 8 && i < rows.length; i++) {
    const rank = 8 - i;
    let file = 0;
    for (const ch of rows[i]) {
      if (file > 7) break;
      if (ch >= '1' && ch <= '8') {
        file += Number(ch);
      } else {
        const role = LETTER_ROLE[ch.toLowerCase()];
        if (role) map.set(FILES[file] + rank, { color: ch === ch.toLowerCase() ? 'black' : 'white', role });
        file += 1;
      }
    }
  }
  return map;
}

// Side to move from a FEN's second field, or null.
export function fenTurn(fen) {
  const field = String(fen || '').trim().split(/\s+/)[1];
  return field === 'w' ? 'white' : field === 'b' ? 'black' : null;
}

function opposite(color) {
  return color === 'white' ? 'black' : 'white';
}

// Squares a piece could reach on an otherwise empty board: used for
// premoves, which are made before the opponent's move is known.
export function premoveDests(pieces, from) {
  const piece = pieces.get(from);
  if (!piece) return [];
  const f = FILES.indexOf(from[0]);
  const r = Number(from[1]) - 1;
  const out = [];
  const add = (df, dr) => {
    const nf = f + df;
    const nr = r + dr;
    if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8) out.push(FILES[nf] + (nr + 1));
  };
  const slide = (dirs) => {
    for (const [df, dr] of dirs) for (let k = 1; k < 8; k++) add(df * k, dr * k);
  };
  const straight = [[1, 0], [-1, 0], [0, 1], [0, -1]];
  const diagonal = [[1, 1], [1, -1], [-1, 1], [-1, -1]];
  switch (piece.role) {
    case 'pawn': {
      const fwd = piece.color === 'white' ? 1 : -1;
      add(0, fwd);
      if (r === (piece.color === 'white' ? 1 : 6)) add(0, 2 * fwd);
      add(-1, fwd);
      add(1, fwd);
      break;
    }
    case 'knight':
      for (const [df, dr] of [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]]) add(df, dr);
      break;
    case 'bishop':
      slide(diagonal);
      break;
    case 'rook':
      slide(straight);
      break;
    case 'queen':
      slide([...straight, ...diagonal]);
      break;
    case 'king': {
      for (const [df, dr] of [...straight, ...diagonal]) add(df, dr);
      const backRank = piece.color === 'white' ? 0 : 7;
      if (r === backRank && f === 4) {
        add(2, 0);
        add(-2, 0);
      }
      break;
    }
    default:
      break;
  }
  return out;
}

// Given the pieces before and after a change, finds which pieces moved
// (same colour and role, vanished from one square and appeared on another),
// pairing each with the nearest candidate. Returns [{from, to, piece}].
export function findMovedPieces(before, after) {
  const vanished = [];
  const appeared = [];
  const same = (a, b) => a && b && a.color === b.color && a.role === b.role;
  for (const [sq, p] of before) if (!same(p, after.get(sq))) vanished.push({ sq, p });
  for (const [sq, p] of after) if (!same(p, before.get(sq))) appeared.push({ sq, p });
  const dist = (a, b) => {
    const df = FILES.indexOf(a[0]) - FILES.indexOf(b[0]);
    const dr = Number(a[1]) - Number(b[1]);
    return df * df + dr * dr;
  };
  const moves = [];
  const used = new Set();
  for (const a of appeared) {
    let best = null;
    for (const v of vanished) {
      if (used.has(v.sq) || !same(v.p, a.p)) continue;
      if (!best || dist(v.sq, a.sq) < dist(best.sq, a.sq)) best = v;
    }
    if (best) {
      used.add(best.sq);
      moves.push({ from: best.sq, to: a.sq, piece: a.p });
    }
  }
  return moves;
}

// What happens to the pieces when a move is played on the board: handles
// castling (both notations), en passant and promotion. Returns a new Map.
export function applyMoveToPieces(pieces, from, to, promotionRole) {
  const next = new Map(pieces);
  const piece = next.get(from);
  if (!piece) return next;
  const target = next.get(to);
  next.delete(from);
  if (piece.role === 'king' && from[1] === to[1]) {
    const rank = from[1];
    const df = FILES.indexOf(to[0]) - FILES.indexOf(from[0]);
    const ownRook = target && target.color === piece.color && target.role === 'rook';
    if (ownRook || Math.abs(df) === 2) {
      // Castling: king to g/c file, rook to f/d file.
      const kingside = ownRook ? FILES.indexOf(to[0]) > FILES.indexOf(from[0]) : df > 0;
      let rookSq = to;
      if (!ownRook) rookSq = (kingside ? 'h' : 'a') + rank;
      const rook = next.get(rookSq);
      if (rook && rook.role === 'rook' && rook.color === piece.color) next.delete(rookSq);
      next.set((kingside ? 'g' : 'c') + rank, piece);
      if (rook && rook.role === 'rook' && rook.color === piece.color) next.set((kingside ? 'f' : 'd') + rank, rook);
      return next;
    }
  }
  if (piece.role === 'pawn' && from[0] !== to[0] && !target) {
    next.delete(to[0] + from[1]); // en passant
  }
  next.set(to, promotionRole ? { color: piece.color, role: promotionRole } : piece);
  return next;
}

// Standard-chess UCI for a king dropped on its own rook (e1h1 -> e1g1),
// leaving Chess960 king-takes-rook moves alone.
export function normalizeCastle(pieces, from, to) {
  const piece = pieces.get(from);
  const target = pieces.get(to);
  if (!piece || piece.role !== 'king' || !target || target.role !== 'rook' || target.color !== piece.color) {
    return from + to;
  }
  if (from[0] === 'e' && from[1] === to[1] && (to[0] === 'a' || to[0] === 'h')) {
    return from + (to[0] === 'h' ? 'g' : 'c') + from[1];
  }
  return from + to;
}

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
    this._renderSquares();
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
    this._onPointerCancel = () => this._cancelDrag();
    this._onKeyDown = (e) => this._keyDown(e);
    this._onFocus = () => this._renderSquares();
    this._onBlur = () => {
      this.keyboardActive = false;
      this._renderSquares();
    };
    this._onContextMenu = (e) => {
      if (this.drag) e.preventDefault();
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
      // Right click cancels a premove / selection.
      if (e.button === 2) {
        if (this.premove) this.setPremove(null);
        this._deselect();
      }
      return;
    }
    this.keyboardActive = false;
    const sq = this._squareAt(e.clientX, e.clientY);
    if (!sq) return;
    if (e.cancelable) e.preventDefault();
    if (this.root.focus) this.root.focus({ preventScroll: true });
    this.cursor = sq;
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
        if (this.root.setPointerCapture && e.pointerId !== undefined) {
          try {
            this.root.setPointerCapture(e.pointerId);
          } catch {
            /* ignore */
          }
        }
      } else if (wasSelected) {
        this._deselect();
      }
      return;
    }
    if (this.premove && !this.selected) this.setPremove(null);
    this._deselect();
  }

  _pointerMove(e) {
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
    const { col, row } = squareToPos(this.cursor, this.opts.orientation);
    let nc = col;
    let nr = row;
    switch (e.key) {
      case 'ArrowUp': nr--; break;
      case 'ArrowDown': nr++; break;
      case 'ArrowLeft': nc--; break;
      case 'ArrowRight': nc++; break;
      case 'Home': nc = 0; break;
      case 'End': nc = 7; break;
      case 'Enter':
      case ' ':
      case 'Spacebar':
        e.preventDefault();
        this.keyboardActive = true;
        this._pressSquare(this.cursor, null);
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
        return;
    }
    e.preventDefault();
    const sq = posToSquare(Math.max(0, Math.min(7, nc)), Math.max(0, Math.min(7, nr)), this.opts.orientation);
    this.keyboardActive = true;
    this.cursor = sq;
    this._renderSquares();
  }

  // --- promotion picker --------------------------------------------------------

  _openPromotion(from, to, color) {
    this._closePromotion();
    const overlay = this._el('div', 'cb-promo');
    overlay.setAttribute('role', 'dialog');
    overlay.setAttribute('aria-label', 'Choose a promotion piece');
    const { col, row } = squareToPos(to, this.opts.orientation);
    const down = row === 0; // picker grows from the edge towards the centre
    const buttons = [];
    PROMOTION_CHOICES.forEach((role, i) => {
      const btn = this._el('button', 'cb-promo-choice');
      btn.type = 'button';
      btn.setAttribute('aria-label', `Promote to ${role}`);
      btn.dataset.role = role;
      const r = down ? row + i : row - i;
      btn.style.left = `${col * 12.5}%`;
      btn.style.top = `${r * 12.5}%`;
      const img = this._el('img', 'cb-promo-piece');
      img.alt = '';
      img.draggable = false;
      img.src = pieceUrl(this.opts.pieceSet, { color, role });
      btn.appendChild(img);
      btn.addEventListener('click', (ev) => {
        ev.stopPropagation();
        this._finishPromotion(role);
      });
      btn.addEventListener('pointerdown', (ev) => ev.stopPropagation());
      overlay.appendChild(btn);
      buttons.push(btn);
    });
    overlay.addEventListener('pointerdown', (ev) => {
      ev.stopPropagation();
      if (ev.target === overlay) this._cancelPromotion();
    });
    const onDocKey = (ev) => {
      if (ev.key === 'Escape') this._cancelPromotion();
    };
    if (this.doc && this.doc.addEventListener) this.doc.addEventListener('keydown', onDocKey);
    this.root.appendChild(overlay);
    this.promotion = { from, to, overlay, onDocKey, buttons };
    if (buttons[0].focus) buttons[0].focus();
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
