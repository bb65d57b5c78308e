// The rules module (our Rust crates in WebAssembly) as the pages call it, and
// the analysis board's move tree. Run with `node --test web/test/`.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadRules, play, position, readPgn, replay, RulesError, writePgn } from '../js/rules.js';
import { MoveTree, commandsOf, formatClock, parseClock, readComment } from '../js/tree.js';
import { START_FEN, fenFullmoves, fenTurn, kingSquare, materialOf, parseDests } from '../js/fen.js';

await loadRules(readFileSync(new URL('../wasm/caissa.wasm', import.meta.url)));

const count = (dests) => Object.values(dests).reduce((n, to) => n + to.length, 0);

test('the module knows the legal moves of well-known positions', () => {
  // perft(1) of the start, "kiwipete" and position 3 (chessprogramming.org).
  assert.equal(count(position().dests), 20);
  // 48 moves; castling is listed to the king's square and onto the rook (2 more).
  assert.equal(count(position('r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1').dests), 50);
  assert.equal(count(position('8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1').dests), 14);
});

test('a move in UCI or SAN is played and its SAN given; an illegal one is refused, named', () => {
  const played = play(START_FEN, 'e2e4');
  assert.equal(played.san, 'e4');
  assert.equal(play(played.fen, 'Nf6').uci, 'g8f6');
  assert.throws(() => play(START_FEN, 'e2e5'), (err) => err instanceof RulesError && /e2e5/.test(err.message));
  assert.throws(() => position('not a fen'), RulesError);
});

test('checkmate ends the game and the module says who won', () => {
  const line = replay(null, ['f3', 'e5', 'g4', 'Qh4#']);
  assert.equal(line.moves[3].san, 'Qh4#');
  assert.equal(line.moves[3].check, 'e1');
  assert.deepEqual(line.position.end, { result: '0-1', reason: 'checkmate', winner: 'black' });
});

test('reading a FEN for display: turn, move number, material, king, the server\'s dests', () => {
  const fen = 'rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3';
  assert.equal(fenTurn(fen), 'white');
  assert.equal(fenFullmoves(fen), 3);
  assert.equal(materialOf(fen).white.pawn, 8);
  assert.equal(materialOf(fen).black.queen, 1);
  assert.equal(kingSquare(fen, 'black'), 'e8');
  assert.deepEqual([...parseDests('e2e3e4 g1f3h3')], [['e2', ['e3', 'e4']], ['g1', ['f3', 'h3']]]);
});

test('clocks and shapes in comments are read and written back', () => {
  assert.equal(parseClock('1:02:03.5'), 3723500);
  assert.equal(formatClock(3723500), '1:02:03.5');
  assert.equal(formatClock(300000), '0:05:00');
  const read = readComment('Nice [%clk 0:04:59] [%cal Ge2e4,Rd7d5] [%csl Ye4]');
  assert.equal(read.text, 'Nice');
  assert.equal(read.clock, 299000);
  assert.deepEqual(read.shapes, [
    { brush: 'green', orig: 'e2', dest: 'e4' },
    { brush: 'red', orig: 'd7', dest: 'd5' },
    { brush: 'yellow', orig: 'e4' },
  ]);
  assert.equal(commandsOf({ clock: 299000, shapes: read.shapes }), '[%clk 0:04:59] [%csl Ye4] [%cal Ge2e4,Rd7d5]');
});

const ANNOTATED = `[Event "Annotated"]
[White "A"]
[Black "B"]
[Result "1-0"]

{Start} 1. e4 {[%clk 0:05:00]} e5 2. Nf3 $1 (2. Bc4 {Bishop} Nf6 (2... Bc5 3. Qh5 $2) 3. d3) 2... Nc6 3. Bb5 a6 {[%cal Gb5c6]} (3... Nf6 $14 4. O-O) 4. Ba4 1-0
`;

test('a PGN with nested variations, comments, NAGs, clocks and arrows survives the tree', () => {
  const game = readPgn(ANNOTATED).games[0];
  const tree = MoveTree.fromPgnGame(game);
  assert.deepEqual(tree.mainline().map((n) => n.san), ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6', 'Ba4']);
  const e5 = tree.mainline()[1];
  assert.deepEqual(e5.children.map((n) => n.san), ['Nf3', 'Bc4']);
  const bc4 = e5.children[1];
  assert.deepEqual(bc4.comments, ['Bishop']);
  assert.deepEqual(bc4.children.map((n) => n.san), ['Nf6', 'Bc5']);
  assert.equal(tree.mainline()[0].clock, 300000);
  assert.deepEqual(tree.mainline()[5].shapes, [{ brush: 'green', orig: 'b5', dest: 'c6' }]);
  const written = writePgn(tree.toPgnGame(Object.fromEntries(game.tags), game.result));
  const flat = written.replace(/\s+/g, ' ');
  assert.ok(flat.includes('(2. Bc4 {Bishop} 2... Nf6 (2... Bc5 3. Qh5 $2) 3. d3)'), written);
  assert.ok(flat.includes('{[%clk 0:05:00]}'), written);
  assert.ok(flat.includes('a6 {[%cal Gb5c6]} (3... Nf6 $14 4. O-O)'), written);
  const again = readPgn(written).games[0];
  assert.deepEqual(again.moves, game.moves);
});

test('a different move starts a variation; the game is never cut', () => {
  const tree = new MoveTree(START_FEN);
  let at = tree.root;
  for (const move of replay(null, ['e4', 'e5', 'Nf3', 'Nc6']).moves) at = tree.add(at, move);
  const e4 = tree.mainline()[0];
  const d5 = tree.add(e4, play(e4.fen, 'd5'));
  assert.equal(tree.mainline().length, 4);
  assert.equal(tree.onMainline(d5), false);
  // Playing the same move again goes to the node there.
  assert.equal(tree.add(e4, play(e4.fen, 'd5')), d5);
  tree.promote(d5);
  assert.deepEqual(tree.mainline().map((n) => n.san), ['e4', 'd5']);
  assert.deepEqual(e4.children.map((n) => n.san), ['d5', 'e5']);
  const back = tree.delete(d5);
  assert.equal(back, e4);
  assert.deepEqual(tree.mainline().map((n) => n.san), ['e4', 'e5', 'Nf3', 'Nc6']);
});

test('a NAG of move quality replaces another; a shape drawn twice goes away', () => {
  const tree = new MoveTree(START_FEN);
  const e4 = tree.add(tree.root, play(START_FEN, 'e4'));
  tree.toggleNag(e4, 1);
  tree.toggleNag(e4, 2);
  tree.toggleNag(e4, 14);
  assert.deepEqual(e4.nags, [2, 14]);
  tree.toggleNag(e4, 2);
  assert.deepEqual(e4.nags, [14]);
  tree.toggleShape(e4, { brush: 'green', orig: 'e2', dest: 'e4' });
  tree.toggleShape(e4, { brush: 'red', orig: 'e2', dest: 'e4' });
  assert.deepEqual(e4.shapes, [{ brush: 'red', orig: 'e2', dest: 'e4' }]);
  tree.toggleShape(e4, { brush: 'red', orig: 'e2', dest: 'e4' });
  assert.deepEqual(e4.shapes, []);
});

test('a PGN of several games lists each; one that cannot be read says why', () => {
  const read = readPgn('[White "A"]\n\n1. e4 *\n\n[White "B"]\n\n1. e4 e5 2. Ke3 *\n');
  assert.equal(read.games.length, 2);
  assert.equal(read.games[0].moves.length, 1);
  assert.match(read.games[1].error, /game 2.*2\. Ke3/);
});
