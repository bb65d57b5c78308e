// The puzzle page's pure parts, kept apart from the page so that they can be
// tested without a browser: judging a move against the solution (with the
// rules module), the position just before the opponent's move (to show it
// being played), the streak's ratings, the analysis board's address, theme
// names, and what this browser remembers (puzzles played, the best streak).

import { play as rulesPlay } from '../rules.js';

const STORAGE_KEY = 'caissa.puzzles';
/** How many played puzzles this browser remembers per player. */
const KEEP_PLAYED = 500;

export const DIFFICULTIES = ['easiest', 'easier', 'normal', 'harder', 'hardest'];

/** The streak's first puzzle rating, and how much harder each solved one makes the next. */
export const STREAK_START = 800;
export const STREAK_STEP = 100;

/** The rating the streak asks for after `solved` puzzles in a row. */
export function streakRating(solved) {
  return Math.min(4000, STREAK_START + STREAK_STEP * Math.max(0, solved));
}

/** The side that solves: the one to move in the puzzle's position. */
export function solverColor(puzzle) {
  return String(puzzle.fen).split(' ')[1] === 'b' ? 'black' : 'white';
}

/** A position without its move counters: two equal ones are the same position. */
function positionKey(fen) {
  return String(fen).split(' ').slice(0, 4).join(' ');
}

/**
 * Judges the solver's move `uci` in `fen`, where the solution expects
 * `expected`: {verdict: 'right' | 'mate' | 'wrong' | 'illegal', played}, with
 * `played` the rules module's answer ({uci, san, fen, position}) for a legal
 * move. The expected move is right however it is written (e1h1 or e1g1);
 * any other move that checkmates is right too ('mate': the puzzle is won).
 */
export function judgeMove(fen, uci, expected) {
  let played;
  try {
    played = rulesPlay(fen, uci);
  } catch {
    return { verdict: 'illegal', played: null };
  }
  let wanted = null;
  try {
    wanted = expected ? rulesPlay(fen, expected) : null;
  } catch {
    wanted = null;
  }
  const mate = played.position?.end?.reason === 'checkmate';
  if (wanted && positionKey(wanted.fen) === positionKey(played.fen)) return { verdict: mate ? 'mate' : 'right', played };
  if (mate) return { verdict: 'mate', played };
  return { verdict: 'wrong', played };
}

const LETTER = { k: 'k', q: 'q', r: 'r', b: 'b', n: 'n', p: 'p' };
const FILES = 'abcdefgh';

/** The 64 squares of a FEN's placement: {a8: 'r', ...} (absent when empty). */
export function placement(fen) {
  const out = {};
  const rows = String(fen).split(' ')[0].split('/');
  rows.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else {
        if (LETTER[ch.toLowerCase()] && file < 8) out[FILES[file] + (8 - i)] = ch;
        file++;
      }
    }
  });
  return out;
}

/** A placement ({square: letter}) as a FEN's first field. */
export function placementFen(squares) {
  const rows = [];
  for (let rank = 8; rank >= 1; rank--) {
    let row = '';
    let empty = 0;
    for (const file of FILES) {
      const piece = squares[file + rank];
      if (piece) {
        if (empty) row += empty;
        empty = 0;
        row += piece;
      } else empty++;
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return rows.join('/');
}

/**
 * The board just before the opponent's move `uci` led to `fen`, for showing
 * the move being played: the piece back on its square (a pawn again if it
 * promoted, the rook back after castling). A piece it took is not known and
 * not shown. Null when the move does not fit the position.
 */
export function boardBeforeMove(fen, uci) {
  if (!/^[a-h][1-8][a-h][1-8][qrbn]?$/.test(String(uci || ''))) return null;
  const squares = placement(fen);
  const from = uci.slice(0, 2);
  const to = uci.slice(2, 4);
  const piece = squares[to];
  if (!piece || squares[from]) return null;
  const white = piece === piece.toUpperCase();
  delete squares[to];
  squares[from] = uci.length > 4 ? (white ? 'P' : 'p') : piece;
  // Castling: the king went two files; its rook goes back to the corner.
  if (piece.toLowerCase() === 'k' && from[0] === 'e' && from[1] === to[1] && (to[0] === 'g' || to[0] === 'c')) {
    const rank = from[1];
    const [rookNow, rookBefore] = to[0] === 'g' ? [`f${rank}`, `h${rank}`] : [`d${rank}`, `a${rank}`];
    if (squares[rookNow] && squares[rookNow].toLowerCase() === 'r') {
      squares[rookBefore] = squares[rookNow];
      delete squares[rookNow];
    }
  }
  const fields = String(fen).split(' ');
  fields[0] = placementFen(squares);
  fields[1] = white ? 'w' : 'b';
  return fields.join(' ');
}

/** The moves of a puzzle line from `fen` as PGN, for the analysis board. */
export function puzzlePgn(fen, moves) {
  const tags = `[FEN "${fen}"]\n[SetUp "1"]\n\n`;
  const fields = String(fen).split(' ');
  let black = fields[1] === 'b';
  let number = Number(fields[5]) || 1;
  const parts = [];
  moves.forEach((san, i) => {
    if (!black) parts.push(`${number}. ${san}`);
    else parts.push(i === 0 ? `${number}... ${san}` : san);
    if (black) number++;
    black = !black;
  });
  return `${tags}${parts.join(' ')} *`;
}

/** The analysis board's address for a puzzle's position and the moves played from it (SAN). */
export function analysisUrl(fen, sans = []) {
  if (!sans.length) return `/analysis?fen=${encodeURIComponent(fen)}`;
  return `/analysis?pgn=${encodeURIComponent(puzzlePgn(fen, sans))}`;
}

/**
 * A theme's name: `translate(key)` when the dictionary has one, else the
 * server's English name from `themes` ([{key, name}]), else the key.
 */
export function themeName(key, themes, translate) {
  const local = translate && translate(key);
  if (local) return local;
  const known = (themes || []).find((th) => th.key === key);
  return known ? known.name : angleWords(key);
}

/** Who this browser's record is for: the account's name in lower case, or '' for a guest. */
export function recordOwner(user) {
  return user && !user.guest && user.username ? String(user.username).toLowerCase() : '';
}

/** Everything this browser keeps: {players: {owner: {played: [ids], streakBest}}}. */
export function readStore(storage = globalThis.localStorage) {
  try {
    const data = JSON.parse(storage.getItem(STORAGE_KEY) || '{}');
    return data && typeof data === 'object' && data.players && typeof data.players === 'object' ? data : { players: {} };
  } catch {
    return { players: {} };
  }
}

function writeStore(data, storage) {
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify(data));
  } catch {
    // Storage full or off: the record lasts as long as the page.
  }
}

/** One player's record: {played: [ids, newest last], solved: [ids], streakBest}. */
export function playerRecord(owner, storage = globalThis.localStorage) {
  const record = readStore(storage).players[owner] || {};
  return {
    played: Array.isArray(record.played) ? record.played.map(String) : [],
    solved: Array.isArray(record.solved) ? record.solved.map(String) : [],
    streakBest: Number(record.streakBest) > 0 ? Math.floor(Number(record.streakBest)) : 0,
  };
}

function updateRecord(owner, storage, fn) {
  const data = readStore(storage);
  const record = playerRecord(owner, storage);
  fn(record);
  record.played = record.played.slice(-KEEP_PLAYED);
  record.solved = record.solved.slice(-KEEP_PLAYED);
  data.players[owner] = record;
  writeStore(data, storage);
  return record;
}

/** Notes that `owner` played puzzle `id` (and solved it, with `win`). */
export function notePlayed(owner, id, win, storage = globalThis.localStorage) {
  return updateRecord(owner, storage, (record) => {
    record.played = [...record.played.filter((p) => p !== id), id];
    if (win) record.solved = [...record.solved.filter((p) => p !== id), id];
  });
}

/** Raises `owner`'s best streak to `n` (never lowers it); answers the best. */
export function noteStreak(owner, n, storage = globalThis.localStorage) {
  return updateRecord(owner, storage, (record) => {
    record.streakBest = Math.max(record.streakBest, n);
  }).streakBest;
}

/**
 * Picks the puzzle to play from a batch ([{game, puzzle}]): one not in
 * `avoid` (ids), the nearest to `rating` when given, else one at random;
 * from the whole batch when every one is to avoid. Null for an empty batch.
 */
export function pickFromBatch(batch, avoid = [], rating = null, random = Math.random) {
  if (!Array.isArray(batch) || !batch.length) return null;
  const skip = new Set(avoid);
  const fresh = batch.filter((p) => !skip.has(p.puzzle.id));
  const list = fresh.length ? fresh : batch;
  if (rating === null) return list[Math.min(list.length - 1, Math.floor(random() * list.length))];
  return [...list].sort((a, b) => Math.abs(a.puzzle.rating - rating) - Math.abs(b.puzzle.rating - rating))[0];
}

/** The last moves' squares as the board wants them: ['e2', 'e4'], or null. */
export function moveSquares(uci) {
  return uci && uci.length >= 4 ? [uci.slice(0, 2), uci.slice(2, 4)] : null;
}

/** A rating as shown: rounded, with '?' while provisional. */
export function ratingText(glicko) {
  if (!glicko || typeof glicko.rating !== 'number') return '';
  return `${Math.round(glicko.rating)}${glicko.provisional ? '?' : ''}`;
}

/** The difficulty this browser last chose ('normal' when none). */
export function readDifficulty(storage = globalThis.localStorage) {
  const chosen = readStore(storage).difficulty;
  return DIFFICULTIES.includes(chosen) ? chosen : 'normal';
}

/** Keeps the chosen difficulty. */
export function writeDifficulty(difficulty, storage = globalThis.localStorage) {
  if (!DIFFICULTIES.includes(difficulty)) return;
  const data = readStore(storage);
  data.difficulty = difficulty;
  writeStore(data, storage);
}

/** An angle as words when it is not a known theme: an opening tag ("Sicilian_Defense") with spaces. */
export function angleWords(angle) {
  return String(angle).replace(/_/g, ' ');
}
