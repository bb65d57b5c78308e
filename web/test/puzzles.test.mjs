// The puzzle page's pure parts: judging moves against a solution (a mate
// other than the expected one is right too), the board before the opponent's
// move, the streak's ratings, picking from a batch, what this browser keeps,
// theme names, the analysis board's address, the history rows and the routes.
// Run with `node --test web/test/`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadRules, play } from '../js/rules.js';
import {
  analysisUrl, angleWords, boardBeforeMove, judgeMove, notePlayed, noteStreak, pickFromBatch, placement,
  placementFen, playerRecord, puzzlePgn, ratingText, readDifficulty, recordOwner, solverColor, streakRating,
  themeName, writeDifficulty,
} from '../js/puzzles/logic.js';
import { historyRows } from '../js/puzzles/history.js';
import { matchRoute } from '../js/routes.js';
import { modeOf } from '../js/pages/puzzles.js';

await loadRules(readFileSync(new URL('../wasm/caissa.wasm', import.meta.url)));
const read = (path) => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8'));

/** A localStorage stand-in. */
function memoryStorage() {
  const map = new Map();
  return { getItem: (k) => (map.has(k) ? map.get(k) : null), setItem: (k, v) => map.set(k, String(v)) };
}

// A back-rank mate in one for White.
const BACK_RANK = '6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1';

test('the expected move is right, another legal move wrong, an illegal one illegal', () => {
  const fen = 'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3';
  assert.equal(judgeMove(fen, 'f1b5', 'f1b5').verdict, 'right');
  const wrong = judgeMove(fen, 'f1c4', 'f1b5');
  assert.equal(wrong.verdict, 'wrong');
  assert.equal(wrong.played.san, 'Bc4');
  assert.equal(judgeMove(fen, 'f1f5', 'f1b5').verdict, 'illegal');
});

test('castling is right however it is written', () => {
  const fen = 'r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 8';
  assert.equal(judgeMove(fen, 'e1g1', 'e1h1').verdict, 'right');
  assert.equal(judgeMove(fen, 'e1h1', 'e1g1').verdict, 'right');
  assert.equal(judgeMove(fen, 'e1c1', 'e1g1').verdict, 'wrong');
});

test('a checkmate wins even when the solution has another move', () => {
  // With two rooks either mates: the one the solution does not name counts too.
  assert.equal(judgeMove(BACK_RANK, 'a1a8', 'a1a8').verdict, 'mate');
  const twoMates = '6k1/5ppp/8/8/8/8/5PPP/RR4K1 w - - 0 1';
  assert.equal(judgeMove(twoMates, 'b1b8', 'a1a8').verdict, 'mate');
  assert.equal(judgeMove(twoMates, 'a1a7', 'a1a8').verdict, 'wrong');
});

test('a promotion is judged by the piece chosen', () => {
  const fen = '8/P6k/8/8/8/8/8/K7 w - - 0 1';
  assert.equal(judgeMove(fen, 'a7a8q', 'a7a8q').verdict, 'right');
  assert.equal(judgeMove(fen, 'a7a8n', 'a7a8q').verdict, 'wrong');
});

test('the board before the opponent\'s move: the piece back, a pawn before promoting, the rook before castling', () => {
  const after = play('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', 'e2e4').fen;
  const before = boardBeforeMove(after, 'e2e4');
  assert.equal(before.split(' ')[0], 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR');
  assert.equal(before.split(' ')[1], 'w');
  // A promotion: the pawn goes back.
  assert.equal(boardBeforeMove('Q6k/8/8/8/8/8/8/K7 b - - 0 1', 'a7a8q').split(' ')[0], '7k/P7/8/8/8/8/8/K7');
  // Castling short and long.
  assert.equal(boardBeforeMove('5rk1/8/8/8/8/8/8/K7 w - - 0 1', 'e8g8').split(' ')[0], '4k2r/8/8/8/8/8/8/K7');
  assert.equal(boardBeforeMove('k7/8/8/8/8/8/8/2KR4 b - - 0 1', 'e1c1').split(' ')[0], 'k7/8/8/8/8/8/8/R3K3');
  // A move that does not fit the position.
  assert.equal(boardBeforeMove(after, 'd2d4'), null);
  assert.equal(boardBeforeMove(after, 'nonsense'), null);
  assert.equal(placementFen(placement(after)), after.split(' ')[0]);
});

test('the solver is the side to move', () => {
  assert.equal(solverColor({ fen: BACK_RANK }), 'white');
  assert.equal(solverColor({ fen: '6k1/8/8/8/8/8/8/6K1 b - - 0 1' }), 'black');
});

test('the streak climbs from 800 by 100', () => {
  assert.equal(streakRating(0), 800);
  assert.equal(streakRating(3), 1100);
  assert.equal(streakRating(1000), 4000);
});

test('picking from a batch avoids puzzles played, nearest the rating, else at random', () => {
  const p = (id, rating) => ({ game: {}, puzzle: { id, rating } });
  const batch = [p('a', 900), p('b', 1200), p('c', 1500)];
  assert.equal(pickFromBatch(batch, ['b'], 1250).puzzle.id, 'c');
  assert.equal(pickFromBatch(batch, [], 1250).puzzle.id, 'b');
  assert.equal(pickFromBatch(batch, ['a', 'b', 'c'], 1000).puzzle.id, 'a');
  assert.equal(pickFromBatch(batch, ['a'], null, () => 0).puzzle.id, 'b');
  assert.equal(pickFromBatch(batch, ['a'], null, () => 0.99).puzzle.id, 'c');
  assert.equal(pickFromBatch([], []), null);
});

test('this browser keeps puzzles played and the best streak per player', () => {
  const storage = memoryStorage();
  assert.deepEqual(playerRecord('', storage), { played: [], solved: [], streakBest: 0 });
  notePlayed('', 'abc', true, storage);
  notePlayed('', 'def', false, storage);
  notePlayed('alice', 'xyz', true, storage);
  assert.deepEqual(playerRecord('', storage).played, ['abc', 'def']);
  assert.deepEqual(playerRecord('', storage).solved, ['abc']);
  assert.deepEqual(playerRecord('alice', storage).played, ['xyz']);
  assert.equal(noteStreak('', 4, storage), 4);
  assert.equal(noteStreak('', 2, storage), 4);
  assert.equal(playerRecord('alice', storage).streakBest, 0);
  assert.equal(recordOwner({ username: 'Alice' }), 'alice');
  assert.equal(recordOwner({ username: 'Guest1', guest: true }), '');
  assert.equal(recordOwner(null), '');
  assert.equal(readDifficulty(storage), 'normal');
  writeDifficulty('harder', storage);
  writeDifficulty('impossible', storage);
  assert.equal(readDifficulty(storage), 'harder');
  // A broken record reads as empty.
  const broken = memoryStorage();
  broken.setItem('caissa.puzzles', '{not json');
  assert.deepEqual(playerRecord('', broken), { played: [], solved: [], streakBest: 0 });
});

test('theme names: translated, else the server\'s, else the words of the key', () => {
  const themes = [{ key: 'fork', name: 'Fork' }, { key: 'pin', name: 'Pin' }];
  assert.equal(themeName('fork', themes, (k) => (k === 'fork' ? '捉双' : null)), '捉双');
  assert.equal(themeName('pin', themes, () => null), 'Pin');
  assert.equal(themeName('Sicilian_Defense', themes, () => null), 'Sicilian Defense');
  assert.equal(angleWords('Kings_Gambit_Accepted'), 'Kings Gambit Accepted');
  // Every theme the server names has its words in each language.
  for (const code of ['en', 'zh-Hans', 'zh-Hant']) {
    const dict = read(`../i18n/${code}.json`);
    for (const key of ['mix', 'mateIn2', 'fork', 'pin', 'skewer', 'discoveredAttack', 'backRankMate', 'hangingPiece', 'promotion', 'sacrifice', 'endgame']) {
      assert.ok(dict[`puzzle.theme.${key}`], `${code} names ${key}`);
    }
  }
});

test('the analysis board opens the puzzle with the moves played', () => {
  assert.equal(analysisUrl(BACK_RANK), `/analysis?fen=${encodeURIComponent(BACK_RANK)}`);
  assert.equal(puzzlePgn(BACK_RANK, ['Ra8#']), `[FEN "${BACK_RANK}"]\n[SetUp "1"]\n\n1. Ra8# *`);
  const black = '6k1/8/8/8/8/8/8/6K1 b - - 0 7';
  assert.equal(puzzlePgn(black, ['Kf7', 'Kf2', 'Ke6']).split('\n\n')[1], '7... Kf7 8. Kf2 Ke6 *');
  assert.match(analysisUrl(BACK_RANK, ['Ra8#']), /^\/analysis\?pgn=/);
});

test('ratings as shown, history rows', () => {
  assert.equal(ratingText({ rating: 1523.4, provisional: true }), '1523?');
  assert.equal(ratingText({ rating: 1499.6, provisional: false }), '1500');
  assert.equal(ratingText(null), '');
  const rows = historyRows([
    { date: 1700000000000, win: true, puzzle: { id: 'abc', rating: 1250.2 } },
    { date: 1690000000000, win: false, puzzle: { id: 'def', rating: 900 } },
    { nonsense: true },
  ]);
  assert.deepEqual(rows, [
    { date: 1700000000000, id: 'abc', rating: 1250, win: true },
    { date: 1690000000000, id: 'def', rating: 900, win: false },
  ]);
});

test('the puzzle pages\' addresses', () => {
  assert.deepEqual(matchRoute('/training'), { page: 'puzzles', params: {} });
  assert.deepEqual(matchRoute('/training/'), { page: 'puzzles', params: {} });
  assert.deepEqual(matchRoute('/training/daily'), { page: 'puzzles', params: { daily: true } });
  assert.deepEqual(matchRoute('/training/streak'), { page: 'puzzles', params: { streak: true } });
  assert.deepEqual(matchRoute('/training/theme/mateIn2'), { page: 'puzzles', params: { angle: 'mateIn2' } });
  assert.deepEqual(matchRoute('/training/aySi4'), { page: 'puzzles', params: { id: 'aySi4' } });
  assert.deepEqual(modeOf(matchRoute('/training').params), { mode: 'angle', angle: 'mix' });
  assert.deepEqual(modeOf(matchRoute('/training/theme/fork').params), { mode: 'angle', angle: 'fork' });
  assert.deepEqual(modeOf(matchRoute('/training/daily').params), { mode: 'daily' });
  assert.deepEqual(modeOf(matchRoute('/training/streak').params), { mode: 'streak' });
  assert.deepEqual(modeOf(matchRoute('/training/aySi4').params), { mode: 'id', id: 'aySi4' });
});
