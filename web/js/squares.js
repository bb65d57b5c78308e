// Squares on a board seen from either side: names, colours and the grid
// position where a square is drawn (shared by the board and its shape layer).

const FILES = 'abcdefgh';

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

// The square the keyboard cursor moves to from `sq` on `key` (the arrows
// as the board is seen, Home and End along the rank), kept on the board;
// null for any other key.
export function cursorTarget(sq, key, orientation = 'white') {
  let { col, row } = squareToPos(sq, orientation);
  switch (key) {
    case 'ArrowUp': row--; break;
    case 'ArrowDown': row++; break;
    case 'ArrowLeft': col--; break;
    case 'ArrowRight': col++; break;
    case 'Home': col = 0; break;
    case 'End': col = 7; break;
    default: return null;
  }
  const clamp = (n) => Math.max(0, Math.min(7, n));
  return posToSquare(clamp(col), clamp(row), orientation);
}
