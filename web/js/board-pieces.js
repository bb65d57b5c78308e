// What the board shows, as data: the pieces a FEN places, the squares a piece
// could premove to, and how a move changes the pieces (castling, en passant
// and promotion drawn right without knowing the rules). Pure functions, tested
// without a page.

const FILES = 'abcdefgh';
const LETTER_ROLE = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };
const ROLE_LETTER = { king: 'K', queen: 'Q', rook: 'R', bishop: 'B', knight: 'N', pawn: 'P' };

/** The piece sets, each a folder of SVG pieces under web/pieces/. */
export const PIECE_SETS = ['classic', 'flat', 'playful', 'minimal', 'chinese'];

export function pieceCode(piece) {
  return (piece.color === 'white' ? 'w' : 'b') + ROLE_LETTER[piece.role];
}

export function pieceUrl(set, piece) {
  const safeSet = PIECE_SETS.includes(set) ? set : 'classic';
  return new URL(`../pieces/${safeSet}/${pieceCode(piece)}.svg`, import.meta.url).href;
}

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
