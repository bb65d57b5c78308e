// Reading a FEN for display only — whose turn, the move number, the material on
// the board — and writing SAN with figurines. The rules themselves (legal moves,
// check, the end of the game) come from the server or from rules.js.

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

const ROLE_OF = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };

/** 'white' or 'black': the side to move in `fen`. */
export function fenTurn(fen) {
  return String(fen).split(' ')[1] === 'b' ? 'black' : 'white';
}

/** The full-move number of `fen` (1 when it does not say). */
export function fenFullmoves(fen) {
  const n = parseInt(String(fen).split(' ')[5], 10);
  return Number.isFinite(n) && n > 0 ? n : 1;
}

/** Pieces on the board by colour and role: {white: {king: 1, ...}, black: {...}}. */
export function materialOf(fen) {
  const out = {};
  for (const color of ['white', 'black']) out[color] = { king: 0, queen: 0, rook: 0, bishop: 0, knight: 0, pawn: 0 };
  for (const ch of String(fen).split(' ')[0]) {
    const role = ROLE_OF[ch.toLowerCase()];
    if (role) out[ch === ch.toLowerCase() ? 'black' : 'white'][role]++;
  }
  return out;
}

/** The square of `color`'s king in `fen` ('e1'), or null. */
export function kingSquare(fen, color) {
  const want = color === 'white' ? 'K' : 'k';
  const ranks = String(fen).split(' ')[0].split('/');
  for (let r = 0; r < ranks.length; r++) {
    let file = 0;
    for (const ch of ranks[r]) {
      if (/\d/.test(ch)) file += Number(ch);
      else {
        if (ch === want) return 'abcdefgh'[file] + (8 - r);
        file++;
      }
    }
  }
  return null;
}

/** The server's destinations ("e2e3e4 g1f3h3") as the board's map {e2: [e3, e4], ...}. */
export function parseDests(text) {
  const map = new Map();
  for (const group of String(text || '').split(' ')) {
    if (group.length < 4) continue;
    const to = [];
    for (let i = 2; i + 2 <= group.length; i += 2) to.push(group.slice(i, i + 2));
    map.set(group.slice(0, 2), to);
  }
  return map;
}

export const FIGURINES = {
  white: { king: '\u2654', queen: '\u2655', rook: '\u2656', bishop: '\u2657', knight: '\u2658', pawn: '\u2659' },
  black: { king: '\u265A', queen: '\u265B', rook: '\u265C', bishop: '\u265D', knight: '\u265E', pawn: '\u265F' },
};

/** A SAN move with its piece letters as figurines of `color`. */
export function figurineSan(san, color) {
  const set = FIGURINES[color] || FIGURINES.white;
  const figure = (letter) => set[ROLE_OF[letter.toLowerCase()]];
  return String(san)
    .replace(/^[KQRBN]/, figure)
    .replace(/=([QRBN])/, (_, letter) => '=' + figure(letter));
}
