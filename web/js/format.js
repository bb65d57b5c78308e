// Words for chess things: results and their reasons, moves read aloud, speeds,
// rulesets and time controls. Everything goes through i18n.

import { t } from './i18n.js';

/** A colour in words ("White"). */
export function colorName(color) {
  return t(color === 'black' ? 'color.black' : 'color.white');
}

export function opposite(color) {
  return color === 'white' ? 'black' : 'white';
}

/** The termination of a finished game: the server's, or guessed from the status. */
export function terminationOf(state) {
  if (!state) return null;
  if (state.termination) return state.termination;
  switch (state.status) {
    case 'mate':
      return 'checkmate';
    case 'resign':
      return 'resignation';
    case 'stalemate':
      return 'stalemate';
    case 'outoftime':
      return state.winner ? 'time_forfeit' : 'timeout_draw';
    case 'aborted':
      return 'aborted';
    case 'timeout':
      return state.winner ? 'abandoned' : 'draw';
    case 'noStart':
      return 'no_show';
    case 'cheat':
      return 'illegal_moves';
    case 'unknownFinish':
      return 'arbiter';
    case 'draw':
      return 'draw';
    default:
      return null;
  }
}

/** Whether a game status means the game is over. */
export function isOver(status) {
  return !!status && status !== 'started' && status !== 'created';
}

const WIN_REASONS = new Set([
  'checkmate', 'resignation', 'time_forfeit', 'abandoned', 'no_show', 'illegal_moves', 'invalid_sealed_move', 'arbiter',
  'arbiter_decision',
]);
const DRAW_REASONS = new Set([
  'stalemate', 'agreement', 'threefold_repetition', 'fifty_moves', 'insufficient_material', 'dead_position', 'timeout_draw',
  'fivefold_repetition', 'seventyfive_moves', 'no_progress', 'perpetual_checks', 'abandoned', 'arbiter', 'arbiter_decision',
  'no_show', 'draw',
]);

/**
 * The result in words, e.g. "Black wins — White's flag fell" or "White wins by
 * checkmate"; null while the game goes on.
 */
export function resultText(state) {
  if (!state || !isOver(state.status)) return null;
  const reason = terminationOf(state) || 'unknown';
  if (reason === 'aborted') return t('end.aborted');
  // The arbiter's scores that are not one game's outcome.
  if (state.score) return t('seat.score', { score: state.score });
  if (state.result === '*' && !state.winner) return t('end.void');
  if (state.winner) {
    const params = { winner: colorName(state.winner), loser: colorName(opposite(state.winner)) };
    if (WIN_REASONS.has(reason)) return t(`end.${reason}`, params);
    return t('end.win', params);
  }
  if (DRAW_REASONS.has(reason)) return t(`draw.${reason}`);
  return t('draw.draw');
}

/** "1-0", "0-1", "1/2-1/2", an arbiter's "0-0", "1/2-0" or "0-1/2", or "*". */
export function resultScore(state) {
  if (!state || !isOver(state.status)) return '*';
  if (state.status === 'aborted') return '*';
  if (state.score) return state.score;
  if (state.result === '*') return '*';
  if (state.winner === 'white') return '1-0';
  if (state.winner === 'black') return '0-1';
  return '1/2-1/2';
}

const PIECE_LETTERS = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight' };

/** A piece's name ("knight"). */
export function pieceName(role) {
  return t(`piece.${role}`);
}

/** A SAN move in words, e.g. "knight f3", "pawn takes d5, check". */
export function sanToWords(san) {
  const clean = String(san).replace(/[!?]+$/, '');
  const suffix = clean.endsWith('#') ? 'checkmate' : clean.endsWith('+') ? 'check' : null;
  const body = clean.replace(/[+#]$/, '');
  let words;
  if (body === 'O-O' || body === '0-0') words = t('speak.castleShort');
  else if (body === 'O-O-O' || body === '0-0-0') words = t('speak.castleLong');
  else {
    const m = body.match(/^([KQRBN])?([a-h]?[1-8]?)(x)?([a-h][1-8])(?:=?([QRBN]))?$/);
    if (!m) return clean;
    const role = m[1] ? PIECE_LETTERS[m[1]] : 'pawn';
    const parts = [pieceName(role)];
    if (m[2]) parts.push(m[2]);
    if (m[3]) parts.push(t('speak.takes'));
    parts.push(m[4]);
    if (m[5]) parts.push(t('speak.promotes', { piece: pieceName(PIECE_LETTERS[m[5]]) }));
    words = parts.join(' ');
  }
  if (suffix) words += t('speak.separator') + t(`speak.${suffix}`);
  return words;
}

/** "White: knight f3". */
export function announceMove(color, san) {
  return t('speak.move', { color: colorName(color), move: sanToWords(san) });
}

/** A speed's name. */
export function speedName(speed) {
  return t(`speed.${speed || 'unlimited'}`);
}

export const RULESETS = ['online', 'ladder', 'fide-standard', 'fide-rapid', 'fide-blitz', 'fide-seed-edition'];

export function rulesetName(ruleset) {
  return t(`ruleset.${ruleset || 'online'}`);
}

/** "3+2", "1 day", "∞" from a seek or pool. */
export function timeControlLabel({ time, increment, days, limit, perMove } = {}) {
  if (days) return t('tc.days', { n: days });
  if (perMove) return `${timeControlLabel({ time, increment, limit })} ${t('tc.perMove', { n: perMove })}`;
  if (limit !== undefined && limit !== null) {
    const minutes = limit / 60;
    const shown = Number.isInteger(minutes) ? minutes : minutes.toFixed(1).replace(/\.0$/, '');
    return `${shown}+${increment || 0}`;
  }
  if (time === undefined || time === null) return t('tc.unlimited');
  const minutes = Number.isInteger(time) ? time : Number(time).toFixed(1).replace(/\.0$/, '');
  return `${minutes}+${increment || 0}`;
}

/** A clock object {initial, increment} (ms) as "3+2". */
export function clockLabel(clock) {
  if (!clock) return t('tc.unlimited');
  return timeControlLabel({ limit: clock.initial / 1000, increment: Math.round(clock.increment / 1000) });
}

/**
 * The computer's levels 1–8 as measured against Stockfish's UCI_Elo scale (the
 * table and the matches are in crates/engine/src/levels.rs), to the nearest 50.
 */
export const LEVEL_ELO = [150, 500, 850, 1300, 1650, 1800, 2100, 2150];

/** "Level 5 · about 1650": the computer's level and strength, for the board. */
export function aiLevelText(level) {
  return t('ai.onBoard', { n: level, elo: LEVEL_ELO[level - 1] ?? '?' });
}
