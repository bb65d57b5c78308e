// The computer's review of a game from its evaluations. Run with `node --test web/test/`.
import test from 'node:test';
import assert from 'node:assert/strict';
import { judgement, moveAccuracy, review, sideAccuracy, winChance } from '../js/review.js';

test('winning chances: even at 0, symmetric, certain at a mate', () => {
  assert.equal(winChance({ cp: 0 }), 50);
  assert.ok(Math.abs(winChance({ cp: 300 }) + winChance({ cp: -300 }) - 100) < 1e-9);
  assert.ok(winChance({ cp: 300 }) > 75 && winChance({ cp: 300 }) < 85);
  assert.equal(winChance({ mate: 2 }), 100);
  assert.equal(winChance({ mate: -1 }), 0);
  assert.equal(winChance({ mate: 0, mated: 'black' }), 100);
  assert.equal(winChance(null), null);
});

test('a move is judged by the winning chances it lost', () => {
  assert.equal(judgement(5), null);
  assert.equal(judgement(10), 'inaccuracy');
  assert.equal(judgement(25), 'mistake');
  assert.equal(judgement(30), 'blunder');
  assert.ok(moveAccuracy(60, 60) > 99.9);
  assert.ok(moveAccuracy(80, 20) < 10);
  // One blunder among good moves costs more than an average would say.
  const accuracies = [100, 100, 100, 10];
  assert.ok(sideAccuracy(accuracies) < (100 * 3 + 10) / 4);
  assert.equal(sideAccuracy([]), null);
});

test('a review finds the blunder, names the better move and scores each side', () => {
  const evals = [
    { cp: 20, pvs: [{ moves: ['e2e4'] }] },
    { cp: 30, pvs: [{ moves: ['e7e5'] }] },
    { cp: 450, pvs: [{ moves: ['d1h5'] }] },
    { cp: 440 },
  ];
  const reviewed = review(evals, ['e2e4', 'f7f6', 'd2d4'], 'white');
  assert.equal(reviewed.complete, true);
  assert.deepEqual(reviewed.moves.map((m) => m.judgement), [null, 'blunder', null]);
  assert.equal(reviewed.moves[1].color, 'black');
  assert.equal(reviewed.moves[1].best, 'e7e5');
  assert.deepEqual(reviewed.counts.black, { inaccuracy: 0, mistake: 0, blunder: 1 });
  assert.ok(reviewed.accuracy.white > 95);
  assert.ok(reviewed.accuracy.black < 30);
  // Positions not evaluated yet: those moves wait.
  const partial = review([evals[0], undefined, evals[2]], ['e2e4', 'f7f6'], 'white');
  assert.equal(partial.complete, false);
  assert.equal(partial.moves.length, 0);
});
