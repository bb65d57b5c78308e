// The board editor's FEN. Run with `node --test web/test/`.
import test from 'node:test';
import assert from 'node:assert/strict';
import { editedFen, placementOf } from '../js/editor.js';
import { readFenBoard } from '../js/board-pieces.js';

test('the placement field is written rank by rank, empty squares counted', () => {
  const start = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR';
  assert.equal(placementOf(readFenBoard(start)), start);
  assert.equal(placementOf(new Map()), '8/8/8/8/8/8/8/8');
  assert.equal(placementOf(new Map([['e4', { color: 'white', role: 'knight' }]])), '8/8/8/8/4N3/8/8/8');
});

test('castling rights are kept only where king and rook stand on their squares', () => {
  const pieces = readFenBoard('4k3/8/8/8/8/8/8/4K2R');
  assert.equal(editedFen(pieces, 'black', 'KQkq'), '4k3/8/8/8/8/8/8/4K2R b K - 0 1');
  assert.equal(editedFen(pieces, 'white', ''), '4k3/8/8/8/8/8/8/4K2R w - - 0 1');
});
