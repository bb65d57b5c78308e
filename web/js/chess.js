// Chess rules for the Caissa web client.
//
// Written for this project. Squares are strings 'a1'..'h8', colours are
// 'white' | 'black', roles are 'king' | 'queen' | 'rook' | 'bishop' |
// 'knight' | 'pawn'. Positions are immutable: play() returns a new one.
//
// Internally a square is an index 0..63 with a1 = 0, b1 = 1, ..., h8 = 63.
// Castling rights are kept as the squares of the rooks that may still
// castle, so Chess960 start positions (Shredder-FEN / X-FEN castling
// fields) work as well as the standard game.

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

export const ROLES = ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'];
export const COLORS = ['white', 'black'];

const ROLE_TO_CHAR = { king: 'k', queen: 'q', rook: 'r', bishop: 'b', knight: 'n', pawn: 'p' };
const CHAR_TO_ROLE = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };
const PROMOTION_ROLES = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' };
const FILES = 'abcdefgh';

const KNIGHT_STEPS = [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]];
const KING_STEPS = [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]];
const ROOK_DIRS = [[1, 0], [-1, 0], [0, 1], [0, -1]];
const BISHOP_DIRS = [[1, 1], [1, -1], [-1, 1], [-1, -1]];

const opposite = (color) => (color === 'white' ? 'black' : 'white');
const fileOf = (i) => i & 7;
const rankOf = (i) => i >> 3;

export function squareName(i) {
  return FILES[fileOf(i)] + (rankOf(i) + 1);
}

export function parseSquare(name) {
  if (typeof name !== 'string' || name.length !== 2) return -1;
  const f = FILES.indexOf(name[0]);
  const r = name.charCodeAt(1) - 49;
  if (f < 0 || r < 0 || r > 7) return -1;
  return r * 8 + f;
}

function offset(i, df, dr) {
  const f = fileOf(i) + df;
  const r = rankOf(i) + dr;
  if (f < 0 || f > 7 || r < 0 || r > 7) return -1;
  return r * 8 + f;
}

// Precomputed leaper tables.
const KNIGHT_TARGETS = [];
const KING_TARGETS = [];
for (let i = 0; i < 64; i++) {
  KNIGHT_TARGETS.push(KNIGHT_STEPS.map(([df, dr]) => offset(i, df, dr)).filter((t) => t >= 0));
  KING_TARGETS.push(KING_STEPS.map(([df, dr]) => offset(i, df, dr)).filter((t) => t >= 0));
}
// Precomputed rays: RAYS[dirIndex][square] = list of squares outward.
const ALL_DIRS = [...ROOK_DIRS, ...BISHOP_DIRS];
const RAYS = ALL_DIRS.map(([df, dr]) => {
  const perSquare = [];
  for (let i = 0; i < 64; i++) {
    const ray = [];
    let t = offset(i, df, dr);
    while (t >= 0) {
      ray.push(t);
      t = offset(t, df, dr);
    }
    perSquare.push(ray);
  }
  return perSquare;
});
const ROOK_RAYS = RAYS.slice(0, 4);
const BISHOP_RAYS = RAYS.slice(4, 8);

// Is square `sq` attacked by any piece of colour `by` on `board`?
function attacked(board, sq, by) {
  for (const t of KNIGHT_TARGETS[sq]) {
    const p = board[t];
    if (p && p.color === by && p.role === 'knight') return true;
  }
  for (const t of KING_TARGETS[sq]) {
    const p = board[t];
    if (p && p.color === by && p.role === 'king') return true;
  }
  // Pawns of colour `by` attack sq from one rank "behind" it (from by's view).
  const back = by === 'white' ? -1 : 1;
  for (const df of [-1, 1]) {
    const t = offset(sq, df, back);
    if (t >= 0) {
      const p = board[t];
      if (p && p.color === by && p.role === 'pawn') return true;
    }
  }
  for (const rays of ROOK_RAYS) {
    for (const t of rays[sq]) {
      const p = board[t];
      if (p) {
        if (p.color === by && (p.role === 'rook' || p.role === 'queen')) return true;
        break;
      }
    }
  }
  for (const rays of BISHOP_RAYS) {
    for (const t of rays[sq]) {
      const p = board[t];
      if (p) {
        if (p.color === by && (p.role === 'bishop' || p.role === 'queen')) return true;
        break;
      }
    }
  }
  return false;
}

function findKing(board, color) {
  for (let i = 0; i < 64; i++) {
    const p = board[i];
    if (p && p.role === 'king' && p.color === color) return i;
  }
  return -1;
}

// Applies an internal move object to a copy of the board and returns it.
// Move: {from, to, promotion?, castle?: {rookFrom, rookTo, kingTo}, enPassant?}
function applyToBoard(board, color, m) {
  const b = board.slice();
  if (m.castle) {
    const king = b[m.from];
    const rook = b[m.castle.rookFrom];
    b[m.from] = null;
    b[m.castle.rookFrom] = null;
    b[m.castle.kingTo] = king;
    b[m.castle.rookTo] = rook;
    return b;
  }
  const piece = b[m.from];
  b[m.from] = null;
  if (m.enPassant) b[m.to + (color === 'white' ? -8 : 8)] = null;
  b[m.to] = m.promotion ? { color, role: PROMOTION_ROLES[m.promotion] } : piece;
  return b;
}

function pieceChar(p) {
  const c = ROLE_TO_CHAR[p.role];
  return p.color === 'white' ? c.toUpperCase() : c;
}

function uciOf(m) {
  return squareName(m.from) + squareName(m.to) + (m.promotion || '');
}

export class Position {
  // Use Position.start() / Position.fromFen(); the constructor is internal.
  constructor(board, turn, castling, epSquare, halfmoves, fullmoves) {
    this._board = board; // Array(64) of {color, role} | null
    this._turn = turn;
    this._castling = castling; // sorted array of rook squares (indices)
    this._ep = epSquare; // index of the square skipped by a double pawn push, or -1
    this._halfmoves = halfmoves;
    this._fullmoves = fullmoves;
    this._legal = null; // cache
    Object.freeze(this._board);
  }

  static start() {
    return Position.fromFen(START_FEN);
  }

  static fromFen(fen) {
    if (typeof fen !== 'string') throw new Error('Invalid FEN: expected a string');
    const fields = fen.trim().split(/\s+/);
    if (fields.length < 4 || fields.length > 6 || fields[0] === '') {
      throw new Error(`Invalid FEN: expected 6 space-separated fields, got ${fields[0] === '' ? 0 : fields.length}`);
    }
    const [placement, turnField, castlingField, epField, halfField = '0', fullField = '1'] = fields;

    // 1. Piece placement.
    const board = new Array(64).fill(null);
    const rows = placement.split('/');
    if (rows.length !== 8) {
      throw new Error(`Invalid FEN piece placement: expected 8 ranks separated by '/', got ${rows.length}`);
    }
    rows.forEach((row, idx) => {
      const rank = 7 - idx;
      let file = 0;
      for (const ch of row) {
        if (ch >= '1' && ch <= '8') {
          file += ch.charCodeAt(0) - 48;
        } else {
          const role = CHAR_TO_ROLE[ch.toLowerCase()];
          if (!role) throw new Error(`Invalid FEN piece placement: unknown piece character '${ch}' on rank ${rank + 1}`);
          if (file > 7) throw new Error(`Invalid FEN piece placement: rank ${rank + 1} has more than 8 squares`);
          board[rank * 8 + file] = { color: ch === ch.toUpperCase() ? 'white' : 'black', role };
          file += 1;
        }
      }
      if (file !== 8) {
        throw new Error(`Invalid FEN piece placement: rank ${rank + 1} describes ${file} squares instead of 8`);
      }
    });
    for (const color of COLORS) {
      const kings = board.filter((p) => p && p.color === color && p.role === 'king').length;
      if (kings !== 1) throw new Error(`Invalid FEN piece placement: ${color} must have exactly one king (found ${kings})`);
    }
    for (let f = 0; f < 8; f++) {
      for (const i of [f, 56 + f]) {
        if (board[i] && board[i].role === 'pawn') {
          throw new Error(`Invalid FEN piece placement: pawn on ${squareName(i)} (pawns cannot stand on the first or last rank)`);
        }
      }
    }

    // 2. Side to move.
    if (turnField !== 'w' && turnField !== 'b') {
      throw new Error(`Invalid FEN side to move: '${turnField}' (expected 'w' or 'b')`);
    }
    const turn = turnField === 'w' ? 'white' : 'black';

    // 3. Castling (KQkq, Shredder-FEN files, or X-FEN). Rights that do not
    // match the pieces on the board are dropped.
    const castling = [];
    if (castlingField !== '-') {
      if (!/^[KQkqA-Ha-h]{1,4}$/.test(castlingField)) {
        throw new Error(`Invalid FEN castling field: '${castlingField}' (expected '-' or letters from KQkq / A-H / a-h)`);
      }
      for (const ch of castlingField) {
        const color = ch === ch.toUpperCase() ? 'white' : 'black';
        const backRank = color === 'white' ? 0 : 7;
        const kingSq = findKing(board, color);
        if (rankOf(kingSq) !== backRank) continue;
        const isRook = (i) => board[i] && board[i].color === color && board[i].role === 'rook';
        let rookSq = -1;
        const lower = ch.toLowerCase();
        if (lower === 'k') {
          for (let f = 7; f > fileOf(kingSq); f--) if (isRook(backRank * 8 + f)) { rookSq = backRank * 8 + f; break; }
        } else if (lower === 'q') {
          for (let f = 0; f < fileOf(kingSq); f++) if (isRook(backRank * 8 + f)) { rookSq = backRank * 8 + f; break; }
        } else {
          const f = FILES.indexOf(lower);
          if (isRook(backRank * 8 + f) && f !== fileOf(kingSq)) rookSq = backRank * 8 + f;
        }
        if (rookSq >= 0 && !castling.includes(rookSq)) castling.push(rookSq);
      }
      castling.sort((a, b) => a - b);
    }

    // 4. En passant.
    let ep = -1;
    if (epField !== '-') {
      const sq = parseSquare(epField);
      const wantRank = turn === 'white' ? 5 : 2;
      if (sq < 0 || rankOf(sq) !== wantRank) {
        throw new Error(`Invalid FEN en passant field: '${epField}' (expected '-' or a square on rank ${wantRank + 1})`);
      }
      // Only keep it if the pushed pawn is really there.
      const pawnSq = sq + (turn === 'white' ? -8 : 8);
      const p = board[pawnSq];
      if (p && p.role === 'pawn' && p.color === opposite(turn) && !board[sq]) ep = sq;
    }

    // 5/6. Move counters.
    if (!/^\d+$/.test(halfField)) {
      throw new Error(`Invalid FEN halfmove clock: '${halfField}' (expected a non-negative integer)`);
    }
    if (!/^\d+$/.test(fullField) || parseInt(fullField, 10) < 1) {
      throw new Error(`Invalid FEN fullmove number: '${fullField}' (expected a positive integer)`);
    }

    const pos = new Position(board, turn, castling, ep, parseInt(halfField, 10), parseInt(fullField, 10));
    if (attacked(board, findKing(board, opposite(turn)), turn)) {
      throw new Error(`Invalid FEN: the side not to move (${opposite(turn)}) is in check`);
    }
    return pos;
  }

  get turn() {
    return this._turn;
  }

  get halfmoves() {
    return this._halfmoves;
  }

  get fullmoves() {
    return this._fullmoves;
  }

  pieceAt(sq) {
    const i = parseSquare(sq);
    if (i < 0) return null;
    const p = this._board[i];
    return p ? { color: p.color, role: p.role } : null;
  }

  pieces() {
    const out = [];
    for (let i = 0; i < 64; i++) {
      const p = this._board[i];
      if (p) out.push({ square: squareName(i), color: p.color, role: p.role });
    }
    return out;
  }

  // True when the castling rights describe a standard (non-960) setup for
  // that side: king on e-file, rooks on a/h files.
  _isStandardCastle(kingSq, rookSq) {
    return fileOf(kingSq) === 4 && (fileOf(rookSq) === 0 || fileOf(rookSq) === 7);
  }

  _castlingFen() {
    if (this._castling.length === 0) return '-';
    let out = '';
    for (const color of COLORS) {
      const backRank = color === 'white' ? 0 : 7;
      const kingSq = findKing(this._board, color);
      const rooks = this._castling.filter((r) => rankOf(r) === backRank).sort((a, b) => b - a);
      for (const r of rooks) {
        // Use K/Q when the rook is the outermost one on that side, else the file.
        const kingside = fileOf(r) > fileOf(kingSq);
        let outermost = true;
        if (kingside) {
          for (let f = fileOf(r) + 1; f < 8; f++) {
            const p = this._board[backRank * 8 + f];
            if (p && p.role === 'rook' && p.color === color) outermost = false;
          }
        } else {
          for (let f = 0; f < fileOf(r); f++) {
            const p = this._board[backRank * 8 + f];
            if (p && p.role === 'rook' && p.color === color) outermost = false;
          }
        }
        let ch = outermost ? (kingside ? 'k' : 'q') : FILES[fileOf(r)];
        if (color === 'white') ch = ch.toUpperCase();
        out += ch;
      }
    }
    return out || '-';
  }

  fen() {
    const rows = [];
    for (let r = 7; r >= 0; r--) {
      let row = '';
      let empty = 0;
      for (let f = 0; f < 8; f++) {
        const p = this._board[r * 8 + f];
        if (!p) {
          empty++;
        } else {
          if (empty) row += empty;
          empty = 0;
          row += pieceChar(p);
        }
      }
      if (empty) row += empty;
      rows.push(row);
    }
    const ep = this._legalEpSquare();
    return [
      rows.join('/'),
      this._turn === 'white' ? 'w' : 'b',
      this._castlingFen(),
      ep >= 0 ? squareName(ep) : '-',
      this._halfmoves,
      this._fullmoves,
    ].join(' ');
  }

  _legalEpSquare() {
    if (this._ep < 0) return -1;
    return this._legalInternal().some((m) => m.enPassant) ? this._ep : -1;
  }

  // Pseudo-legal moves (internal format) for the side to move.
  _pseudo() {
    const board = this._board;
    const us = this._turn;
    const them = opposite(us);
    const moves = [];
    const fwd = us === 'white' ? 1 : -1;
    const startRank = us === 'white' ? 1 : 6;
    const lastRank = us === 'white' ? 7 : 0;

    const addPawn = (from, to, extra) => {
      if (rankOf(to) === lastRank) {
        for (const promo of ['q', 'r', 'b', 'n']) moves.push({ from, to, promotion: promo, ...extra });
      } else {
        moves.push({ from, to, ...extra });
      }
    };

    for (let from = 0; from < 64; from++) {
      const p = board[from];
      if (!p || p.color !== us) continue;
      switch (p.role) {
        case 'pawn': {
          const one = offset(from, 0, fwd);
          if (one >= 0 && !board[one]) {
            addPawn(from, one, {});
            const two = offset(from, 0, 2 * fwd);
            if (rankOf(from) === startRank && !board[two]) moves.push({ from, to: two });
          }
          for (const df of [-1, 1]) {
            const to = offset(from, df, fwd);
            if (to < 0) continue;
            const target = board[to];
            if (target && target.color === them) addPawn(from, to, { capture: true });
            else if (to === this._ep && !target) moves.push({ from, to, capture: true, enPassant: true });
          }
          break;
        }
        case 'knight':
        case 'king': {
          const targets = p.role === 'knight' ? KNIGHT_TARGETS[from] : KING_TARGETS[from];
          for (const to of targets) {
            const target = board[to];
            if (!target) moves.push({ from, to });
            else if (target.color === them) moves.push({ from, to, capture: true });
          }
          break;
        }
        default: {
          const rays = p.role === 'rook' ? ROOK_RAYS : p.role === 'bishop' ? BISHOP_RAYS : RAYS;
          for (const dir of rays) {
            for (const to of dir[from]) {
              const target = board[to];
              if (!target) {
                moves.push({ from, to });
              } else {
                if (target.color === them) moves.push({ from, to, capture: true });
                break;
              }
            }
          }
        }
      }
    }
    this._castlingMoves(moves);
    return moves;
  }

  _castlingMoves(moves) {
    const board = this._board;
    const us = this._turn;
    const them = opposite(us);
    const backRank = us === 'white' ? 0 : 7;
    const kingSq = findKing(board, us);
    if (rankOf(kingSq) !== backRank) return;
    for (const rookSq of this._castling) {
      if (rankOf(rookSq) !== backRank) continue;
      const kingside = fileOf(rookSq) > fileOf(kingSq);
      const kingTo = backRank * 8 + (kingside ? 6 : 2);
      const rookTo = backRank * 8 + (kingside ? 5 : 3);
      // Every square the king or rook passes over or lands on must be empty
      // apart from the king and the castling rook themselves.
      const lo = Math.min(kingSq, rookSq, kingTo, rookTo);
      const hi = Math.max(kingSq, rookSq, kingTo, rookTo);
      let clear = true;
      for (let i = lo; i <= hi; i++) {
        if (i !== kingSq && i !== rookSq && board[i]) {
          clear = false;
          break;
        }
      }
      if (!clear) continue;
      // The king may not castle out of, through, or into check. Its final
      // square is checked by the general legality test after the move.
      const step = kingTo > kingSq ? 1 : -1;
      let safe = true;
      for (let i = kingSq; i !== kingTo; i += step) {
        if (attacked(board, i, them)) {
          safe = false;
          break;
        }
      }
      if (!safe) continue;
      moves.push({ from: kingSq, to: kingTo, castle: { rookFrom: rookSq, rookTo, kingTo } });
    }
  }

  // Legal moves in internal format (cached).
  _legalInternal() {
    if (this._legal) return this._legal;
    const us = this._turn;
    const them = opposite(us);
    const legal = [];
    const ourKing = findKing(this._board, us);
    for (const m of this._pseudo()) {
      const b = applyToBoard(this._board, us, m);
      const k = m.castle ? m.castle.kingTo : m.from === ourKing ? m.to : ourKing;
      if (!attacked(b, k, them)) legal.push(m);
    }
    this._legal = legal;
    return legal;
  }

  _publicMove(m) {
    const out = { from: squareName(m.from), to: squareName(m.to) };
    if (m.castle) {
      // Standard chess uses king-two-squares notation; Chess960 style
      // positions use king-takes-rook.
      const toSq = this._isStandardCastle(m.from, m.castle.rookFrom) ? m.to : m.castle.rookFrom;
      out.to = squareName(toSq);
      out.uci = squareName(m.from) + squareName(toSq);
      out.castle = true;
      return out;
    }
    if (m.promotion) out.promotion = m.promotion;
    out.uci = uciOf(m);
    if (m.capture) out.capture = true;
    if (m.enPassant) out.enPassant = true;
    return out;
  }

  legalMoves() {
    return this._legalInternal().map((m) => this._publicMove(m));
  }

  dests() {
    const map = new Map();
    const add = (from, to) => {
      if (!map.has(from)) map.set(from, []);
      const list = map.get(from);
      if (!list.includes(to)) list.push(to);
    };
    for (const m of this._legalInternal()) {
      const from = squareName(m.from);
      if (m.castle) {
        add(from, squareName(m.castle.kingTo));
        add(from, squareName(m.castle.rookFrom));
      } else {
        add(from, squareName(m.to));
      }
    }
    return map;
  }

  // Finds the internal move matching a UCI string, or null.
  _findUci(uci) {
    if (typeof uci !== 'string') return null;
    const s = uci.trim();
    const m = /^([a-h][1-8])([a-h][1-8])([qrbnQRBN])?$/.exec(s);
    if (!m) return null;
    const from = parseSquare(m[1]);
    const to = parseSquare(m[2]);
    const promo = m[3] ? m[3].toLowerCase() : undefined;
    for (const mv of this._legalInternal()) {
      if (mv.from !== from) continue;
      if (mv.castle) {
        if (!promo && (to === mv.castle.rookFrom || to === mv.castle.kingTo)) return mv;
        continue;
      }
      if (mv.to === to && mv.promotion === promo) return mv;
    }
    return null;
  }

  isLegal(uci) {
    return this._findUci(uci) !== null;
  }

  play(uci) {
    const m = this._findUci(uci);
    if (!m) throw new Error(`Illegal move: ${uci}`);
    return this._after(m);
  }

  _after(m) {
    const us = this._turn;
    const them = opposite(us);
    const piece = this._board[m.from];
    const board = applyToBoard(this._board, us, m);
    let castling = this._castling;
    if (piece.role === 'king') {
      const backRank = us === 'white' ? 0 : 7;
      castling = castling.filter((r) => rankOf(r) !== backRank);
    }
    castling = castling.filter((r) => r !== m.from && r !== m.to);
    let ep = -1;
    if (piece.role === 'pawn' && Math.abs(m.to - m.from) === 16) ep = (m.from + m.to) / 2;
    const resetClock = piece.role === 'pawn' || m.capture;
    return new Position(
      board,
      them,
      castling,
      ep,
      resetClock ? 0 : this._halfmoves + 1,
      us === 'black' ? this._fullmoves + 1 : this._fullmoves,
    );
  }

  isCheck() {
    return this.checkSquare() !== null;
  }

  checkSquare() {
    const k = findKing(this._board, this._turn);
    return attacked(this._board, k, opposite(this._turn)) ? squareName(k) : null;
  }

  isCheckmate() {
    return this.isCheck() && this._legalInternal().length === 0;
  }

  isStalemate() {
    return !this.isCheck() && this._legalInternal().length === 0;
  }

  isInsufficientMaterial() {
    const minors = [];
    for (let i = 0; i < 64; i++) {
      const p = this._board[i];
      if (!p || p.role === 'king') continue;
      if (p.role === 'pawn' || p.role === 'rook' || p.role === 'queen') return false;
      minors.push({ role: p.role, sq: i });
    }
    if (minors.length <= 1) return true;
    // Only bishops, all on squares of one colour: no mate is possible.
    if (minors.every((m) => m.role === 'bishop')) {
      const shade = (i) => (fileOf(i) + rankOf(i)) & 1;
      return minors.every((m) => shade(m.sq) === shade(minors[0].sq));
    }
    return false;
  }

  material() {
    const out = {};
    for (const color of COLORS) {
      out[color] = { king: 0, queen: 0, rook: 0, bishop: 0, knight: 0, pawn: 0 };
    }
    for (const p of this._board) if (p) out[p.color][p.role]++;
    return out;
  }

  toSan(uci) {
    const m = this._findUci(uci);
    if (!m) throw new Error(`Illegal move: ${uci}`);
    return this._san(m);
  }

  _san(m) {
    let san;
    if (m.castle) {
      san = fileOf(m.castle.rookFrom) > fileOf(m.from) ? 'O-O' : 'O-O-O';
    } else {
      const piece = this._board[m.from];
      const to = squareName(m.to);
      if (piece.role === 'pawn') {
        san = m.capture ? FILES[fileOf(m.from)] + 'x' + to : to;
        if (m.promotion) san += '=' + m.promotion.toUpperCase();
      } else {
        const letter = ROLE_TO_CHAR[piece.role].toUpperCase();
        // Disambiguate among other pieces of the same role reaching `to`.
        const rivals = this._legalInternal().filter(
          (o) => !o.castle && o.to === m.to && o.from !== m.from && this._board[o.from].role === piece.role,
        );
        let dis = '';
        if (rivals.length) {
          const sameFile = rivals.some((o) => fileOf(o.from) === fileOf(m.from));
          const sameRank = rivals.some((o) => rankOf(o.from) === rankOf(m.from));
          if (!sameFile) dis = FILES[fileOf(m.from)];
          else if (!sameRank) dis = String(rankOf(m.from) + 1);
          else dis = squareName(m.from);
        }
        san = letter + dis + (m.capture ? 'x' : '') + to;
      }
    }
    const after = this._after(m);
    if (after.isCheck()) san += after._legalInternal().length === 0 ? '#' : '+';
    return san;
  }

  parseSan(san) {
    if (typeof san !== 'string') throw new Error('Invalid SAN: expected a string');
    const original = san;
    let s = san.trim().replace(/e\.p\.$/i, '').replace(/[+#!?]+$/, '').trim();
    if (!s) throw new Error('Invalid SAN: empty move');
    const legal = this._legalInternal();

    // Castling (O-O, 0-0, o-o, O-O-O ...).
    const castleMatch = /^([O0o])-?\1(-?\1)?$/.exec(s);
    if (castleMatch) {
      const long = !!castleMatch[2];
      const found = legal.filter(
        (m) => m.castle && (fileOf(m.castle.rookFrom) > fileOf(m.from)) === !long,
      );
      if (found.length === 1) return this._publicMove(found[0]).uci;
      if (found.length === 0) throw new Error(`Illegal move '${original}': castling ${long ? 'queenside' : 'kingside'} is not possible`);
      throw new Error(`Ambiguous move '${original}'`);
    }

    // Plain UCI is accepted too (e.g. 'e2e4', 'e7e8q').
    if (/^[a-h][1-8][a-h][1-8][qrbn]?$/.test(s)) {
      const m = this._findUci(s);
      if (m) return this._publicMove(m).uci;
    }

    const re = /^([NBRQK])?([a-h])?([1-8])?[x:-]?([a-h][1-8])(?:=?([NBRQnbrq]))?$/;
    const mm = re.exec(s);
    if (!mm) throw new Error(`Invalid SAN '${original}': cannot read the move`);
    const role = mm[1] ? CHAR_TO_ROLE[mm[1].toLowerCase()] : 'pawn';
    const fromFile = mm[2] ? FILES.indexOf(mm[2]) : -1;
    const fromRank = mm[3] ? parseInt(mm[3], 10) - 1 : -1;
    const to = parseSquare(mm[4]);
    const promo = mm[5] ? mm[5].toLowerCase() : undefined;
    if (promo && role !== 'pawn') throw new Error(`Invalid SAN '${original}': only pawns can promote`);

    const candidates = legal.filter((m) => {
      if (m.castle) {
        // 'Kg1' written for castling.
        return role === 'king' && !promo && m.castle.kingTo === to && fromFile < 0 && fromRank < 0
          && !this._board[to];
      }
      if (this._board[m.from].role !== role) return false;
      if (m.to !== to) return false;
      if (fromFile >= 0 && fileOf(m.from) !== fromFile) return false;
      if (fromRank >= 0 && rankOf(m.from) !== fromRank) return false;
      if (role === 'pawn' && fromFile < 0 && fileOf(m.from) !== fileOf(m.to)) return false;
      return true;
    });
    if (candidates.length === 0) {
      throw new Error(`Illegal move '${original}': no ${role} can move to ${mm[4]}`);
    }
    if (role === 'pawn' && candidates.some((m) => m.promotion)) {
      if (!promo) throw new Error(`Invalid SAN '${original}': a promotion piece is required (e.g. ${mm[4]}=Q)`);
      const withPromo = candidates.filter((m) => m.promotion === promo);
      if (withPromo.length === 1) return this._publicMove(withPromo[0]).uci;
      if (withPromo.length > 1) throw new Error(`Ambiguous move '${original}': add the origin file`);
      throw new Error(`Illegal move '${original}'`);
    }
    if (promo) throw new Error(`Illegal move '${original}': no promotion on ${mm[4]}`);
    if (candidates.length > 1) {
      const froms = candidates.map((m) => squareName(m.from)).join(', ');
      throw new Error(`Ambiguous move '${original}': could be played from ${froms}`);
    }
    return this._publicMove(candidates[0]).uci;
  }
}

// Replays UCI moves from a FEN (or the start position). Returns every
// position (length n+1) and the SAN of each move.
export function replay(fen, ucis) {
  let pos = fen ? Position.fromFen(fen) : Position.start();
  const positions = [pos];
  const sans = [];
  (ucis || []).forEach((uci, i) => {
    let san;
    try {
      san = pos.toSan(uci);
      pos = pos.play(uci);
    } catch (e) {
      throw new Error(`Illegal move at ply ${i + 1}: ${uci}`);
    }
    sans.push(san);
    positions.push(pos);
  });
  return { positions, sans };
}

// ---------------------------------------------------------------------------
// PGN

const RESULTS = ['1-0', '0-1', '1/2-1/2', '*'];

// Parses one or more games. Returns [{tags, moves: [san], result}]. Only the
// main line is kept; comments, variations, NAGs and move numbers are skipped.
export function parsePgn(text) {
  const games = [];
  let game = null;
  let inMoves = false;
  let depth = 0; // variation nesting
  const src = String(text || '').replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');

  const newGame = () => ({ tags: {}, moves: [], result: '*', _hasResult: false });
  const finish = () => {
    if (game && (game.moves.length || Object.keys(game.tags).length || game._hasResult)) {
      if (!game._hasResult && game.tags.Result && RESULTS.includes(game.tags.Result)) game.result = game.tags.Result;
      delete game._hasResult;
      games.push(game);
    }
    game = null;
    inMoves = false;
    depth = 0;
  };

  let i = 0;
  const n = src.length;
  let lineStart = true;
  while (i < n) {
    const ch = src[i];
    if (ch === '\n') {
      lineStart = true;
      i++;
      continue;
    }
    // '%' at the start of a line escapes the whole line.
    if (lineStart && ch === '%') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    lineStart = false;
    if (ch === ' ' || ch === '\t') {
      i++;
      continue;
    }
    if (ch === '{') {
      const end = src.indexOf('}', i + 1);
      i = end < 0 ? n : end + 1;
      continue;
    }
    if (ch === ';') {
      while (i < n && src[i] !== '\n') i++;
      continue;
    }
    if (ch === '[' && depth === 0) {
      // Tag pair: [Name "value"]
      if (inMoves) finish();
      if (!game) game = newGame();
      let j = i + 1;
      while (j < n && /\s/.test(src[j])) j++;
      let name = '';
      while (j < n && /[A-Za-z0-9_+#=:-]/.test(src[j])) name += src[j++];
      while (j < n && /[ \t]/.test(src[j])) j++;
      let value = '';
      if (src[j] === '"') {
        j++;
        while (j < n && src[j] !== '"' && src[j] !== '\n') {
          if (src[j] === '\\' && (src[j + 1] === '"' || src[j + 1] === '\\')) j++;
          value += src[j++];
        }
        if (src[j] === '"') j++;
      }
      while (j < n && src[j] !== ']' && src[j] !== '\n') j++;
      if (src[j] === ']') j++;
      if (name) game.tags[name] = value;
      i = j;
      continue;
    }
    if (ch === '(') {
      depth++;
      i++;
      continue;
    }
    if (ch === ')') {
      if (depth > 0) depth--;
      i++;
      continue;
    }
    // A token runs up to whitespace or a delimiter.
    let j = i;
    while (j < n && !/[\s{}();[\]]/.test(src[j])) j++;
    if (j === i) {
      i++;
      continue;
    }
    let tok = src.slice(i, j);
    i = j;
    if (depth > 0) continue;
    if (!game) game = newGame();
    inMoves = true;
    if (tok === '\u00BD-\u00BD') tok = '1/2-1/2';
    if (RESULTS.includes(tok)) {
      game.result = tok;
      game._hasResult = true;
      finish();
      continue;
    }
    if (/^\$\d+$/.test(tok)) continue; // NAG
    // Move numbers: "12." "12..." possibly glued to the move ("12.e4").
    tok = tok.replace(/^\d+\.+/, '');
    if (!tok || /^\.+$/.test(tok) || /^\d+$/.test(tok)) continue;
    tok = tok.replace(/[!?]+$/, '').replace(/\$\d+$/, '');
    if (tok === '--' || tok === 'Z0') {
      continue; // null moves are not supported; skip
    }
    if (tok) game.moves.push(tok);
  }
  finish();
  return games;
}

const SEVEN_TAGS = ['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result'];
const SEVEN_DEFAULTS = { Event: '?', Site: '?', Date: '????.??.??', Round: '?', White: '?', Black: '?', Result: '*' };

function escapeTag(v) {
  return String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/[\r\n]+/g, ' ');
}

// Builds PGN text: Seven Tag Roster first, then other tags, then movetext
// wrapped at 80 columns.
export function toPgn({ tags = {}, sans = [], result } = {}) {
  const res = result || tags.Result || '*';
  const lines = [];
  for (const name of SEVEN_TAGS) {
    const value = name === 'Result' ? res : tags[name] != null && tags[name] !== '' ? tags[name] : SEVEN_DEFAULTS[name];
    lines.push(`[${name} "${escapeTag(value)}"]`);
  }
  for (const [name, value] of Object.entries(tags)) {
    if (SEVEN_TAGS.includes(name) || value == null) continue;
    lines.push(`[${name} "${escapeTag(value)}"]`);
  }
  lines.push('');

  let moveNo = 1;
  let white = true;
  if (tags.FEN) {
    try {
      const p = Position.fromFen(tags.FEN);
      moveNo = p.fullmoves;
      white = p.turn === 'white';
    } catch {
      // keep defaults
    }
  }
  const tokens = [];
  sans.forEach((san, idx) => {
    if (white) tokens.push(`${moveNo}. ${san}`);
    else if (idx === 0) tokens.push(`${moveNo}... ${san}`);
    else tokens.push(san);
    if (!white) moveNo++;
    white = !white;
  });
  tokens.push(res);

  // Wrap: a "N. move" token pair may be split at its inner space if needed.
  const words = tokens.flatMap((t) => t.split(' '));
  let line = '';
  for (const w of words) {
    if (line && line.length + 1 + w.length > 80) {
      lines.push(line);
      line = w;
    } else {
      line = line ? line + ' ' + w : w;
    }
  }
  if (line) lines.push(line);
  return lines.join('\n') + '\n';
}

// ---------------------------------------------------------------------------
// Figurines

export const FIGURINES = {
  white: { king: '\u2654', queen: '\u2655', rook: '\u2656', bishop: '\u2657', knight: '\u2658', pawn: '\u2659' },
  black: { king: '\u265A', queen: '\u265B', rook: '\u265C', bishop: '\u265D', knight: '\u265E', pawn: '\u265F' },
};

// Replaces piece letters of a SAN move with figurines of the given colour.
export function figurineSan(san, color) {
  const set = FIGURINES[color] || FIGURINES.white;
  const letterToFig = (l) => set[CHAR_TO_ROLE[l.toLowerCase()]];
  return String(san)
    .replace(/^[KQRBN]/, letterToFig)
    .replace(/=([QRBN])/, (_, l) => '=' + letterToFig(l));
}
