// Tests for web/js/chess.js — run with `node --test web/test/`.
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  START_FEN,
  Position,
  replay,
  parsePgn,
  toPgn,
  FIGURINES,
  figurineSan,
} from '../js/chess.js';

function perft(pos, depth) {
  const moves = pos.legalMoves();
  if (depth === 1) return moves.length;
  let n = 0;
  for (const m of moves) n += perft(pos.play(m.uci), depth - 1);
  return n;
}

const sortedUcis = (pos) => pos.legalMoves().map((m) => m.uci).sort();

// ---------------------------------------------------------------------------
// Perft

const PERFT = [
  ['start', START_FEN, [20, 400, 8902, 197281]],
  ['kiwipete', 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1', [48, 2039, 97862]],
  ['position 3', '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1', [14, 191, 2812, 43238]],
  ['position 4', 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1', [6, 264, 9467]],
  ['position 4 mirrored', 'r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1', [6, 264, 9467]],
  ['position 5', 'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8', [44, 1486, 62379]],
  // Variants of the task's positions as typed there (pawn on g2, rook on a1
  // black); counts cross-checked with the Rust `caissa perft`.
  ['kiwipete variant', 'r3k2r/p1ppqpb1/bn2pnp1/3P4/1p2P3/2N2Q1P/PPPBBPpP/R3K2R w KQkq - 0 1', [38, 1936, 71176]],
  ['position 4 variant', 'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/r2Q1RK1 w kq - 0 1', [6, 264, 9030]],
  // Chess960 (Shredder-FEN castling).
  ['chess960', 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9', [21, 528, 12189]],
  ['chess960 castling', '2r1kr2/8/8/8/8/8/8/1R2K1R1 w GBfc - 0 1', [22, 501, 11459]],
];

for (const [name, fen, counts] of PERFT) {
  test(`perft ${name}`, () => {
    const pos = Position.fromFen(fen);
    counts.forEach((expected, i) => assert.equal(perft(pos, i + 1), expected, `depth ${i + 1}`));
  });
}

// ---------------------------------------------------------------------------
// FEN

test('start position', () => {
  const p = Position.start();
  assert.equal(p.fen(), START_FEN);
  assert.equal(p.turn, 'white');
  assert.equal(p.halfmoves, 0);
  assert.equal(p.fullmoves, 1);
  assert.deepEqual(p.pieceAt('e1'), { color: 'white', role: 'king' });
  assert.deepEqual(p.pieceAt('d8'), { color: 'black', role: 'queen' });
  assert.equal(p.pieceAt('e4'), null);
  assert.equal(p.pieces().length, 32);
  assert.deepEqual(p.pieces()[0], { square: 'a1', color: 'white', role: 'rook' });
});

test('FEN round trip', () => {
  const fens = [
    START_FEN,
    'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
    '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1',
    'rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8',
    'rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3',
    'r3k3/8/8/8/8/8/8/4K2R b Kq - 12 40',
    '4k3/8/8/8/8/8/8/4K3 w - - 99 120',
  ];
  for (const fen of fens) assert.equal(Position.fromFen(fen).fen(), fen);
});

test('FEN: en passant square only written when a capture is legal', () => {
  // After 1.e4 no black pawn can take on e3.
  const p = Position.start().play('e2e4');
  assert.equal(p.fen(), 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1');
  // Given explicitly but impossible: dropped.
  assert.equal(
    Position.fromFen('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1').fen(),
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1',
  );
  // A capture is possible: kept.
  const q = Position.fromFen('rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 2');
  assert.ok(q.fen().includes(' e3 '));
  // Pseudo-legal but illegal (pinned along the rank): dropped.
  const r = Position.fromFen('8/8/8/8/k2pP2Q/8/8/4K3 b - e3 0 1');
  assert.ok(!r.isLegal('d4e3'));
  assert.equal(r.fen(), '8/8/8/8/k2pP2Q/8/8/4K3 b - - 0 1');
});

test('FEN: four fields accepted, counters default', () => {
  assert.equal(Position.fromFen('4k3/8/8/8/8/8/8/4K3 b - -').fen(), '4k3/8/8/8/8/8/8/4K3 b - - 0 1');
});

test('FEN errors name the bad field', () => {
  const bad = [
    ['', /6 space-separated fields/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1', /piece placement.*8 ranks/],
    ['rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', /piece placement.*rank 6/],
    ['rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', /piece placement.*'x'/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1', /white must have exactly one king/],
    ['rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQkq - 0 1', /pawn on h8/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1', /side to move/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - 0 1', /castling/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e4 0 1', /en passant/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1', /halfmove/],
    ['rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0', /fullmove/],
    ['4k3/8/8/8/8/8/8/4R1K1 w - - 0 1', /not to move.*in check/],
  ];
  for (const [fen, re] of bad) assert.throws(() => Position.fromFen(fen), re, fen);
});

test('FEN: castling rights without their rook are dropped', () => {
  assert.equal(Position.fromFen('4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1').fen(), '4k3/8/8/8/8/8/8/4K2R w K - 0 1');
});

// ---------------------------------------------------------------------------
// Move generation details

test('legalMoves format', () => {
  const p = Position.start();
  const moves = p.legalMoves();
  assert.equal(moves.length, 20);
  assert.deepEqual(moves.find((m) => m.uci === 'g1f3'), { from: 'g1', to: 'f3', uci: 'g1f3' });
  const dests = p.dests();
  assert.deepEqual(dests.get('e2').sort(), ['e3', 'e4']);
  assert.deepEqual(dests.get('b1').sort(), ['a3', 'c3']);
  assert.equal(dests.has('e1'), false);
});

test('castling: both notations, dests show king and rook squares', () => {
  const p = Position.fromFen('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
  const castles = p.legalMoves().filter((m) => m.castle);
  assert.deepEqual(castles.map((m) => m.uci).sort(), ['e1c1', 'e1g1']);
  assert.deepEqual(p.dests().get('e1').sort(), ['a1', 'c1', 'd1', 'd2', 'e2', 'f1', 'f2', 'g1', 'h1']);
  for (const uci of ['e1g1', 'e1h1']) {
    const q = p.play(uci);
    assert.deepEqual(q.pieceAt('g1'), { color: 'white', role: 'king' });
    assert.deepEqual(q.pieceAt('f1'), { color: 'white', role: 'rook' });
    assert.equal(q.pieceAt('h1'), null);
    assert.equal(q.fen(), 'r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1');
  }
  const q = p.play('e1a1');
  assert.equal(q.fen(), 'r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1');
  assert.ok(p.isLegal('e1c1') && p.isLegal('e1a1'));
});

test('castling through, out of and into check is illegal', () => {
  // Black rook on f8 covers f1: no O-O, O-O-O fine.
  let p = Position.fromFen('4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1');
  assert.ok(!p.isLegal('e1g1'));
  assert.ok(p.isLegal('e1c1'));
  // Rook on g8 covers g1 (landing square).
  p = Position.fromFen('4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1');
  assert.ok(!p.isLegal('e1g1'));
  // In check: no castling at all.
  p = Position.fromFen('4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1');
  assert.ok(!p.isLegal('e1g1') && !p.isLegal('e1c1'));
  // b1 attacked only matters for the rook: O-O-O still legal.
  p = Position.fromFen('1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1');
  assert.ok(p.isLegal('e1c1'));
  // A piece between king and rook blocks.
  p = Position.fromFen('4k3/8/8/8/8/8/8/RN2K1NR w KQ - 0 1');
  assert.ok(!p.isLegal('e1g1') && !p.isLegal('e1c1'));
  // Knight attack on d1.
  p = Position.fromFen('4k3/8/8/8/8/8/2n5/R3K2R w KQ - 0 1');
  assert.ok(!p.isLegal('e1c1'));
});

test('castling rights are lost when king or rook moves or the rook is captured', () => {
  let p = Position.fromFen('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
  assert.equal(p.play('h1h2').fen().split(' ')[2], 'Qkq');
  assert.equal(p.play('e1e2').fen().split(' ')[2], 'kq');
  assert.equal(p.play('a1a8').fen().split(' ')[2], 'Kk');
});

test('en passant, including the discovered check along the rank', () => {
  let p = Position.fromFen('4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1');
  assert.ok(p.isLegal('e5d6'));
  const m = p.legalMoves().find((x) => x.uci === 'e5d6');
  assert.equal(m.enPassant, true);
  assert.equal(m.capture, true);
  const q = p.play('e5d6');
  assert.equal(q.pieceAt('d5'), null);
  assert.deepEqual(q.pieceAt('d6'), { color: 'white', role: 'pawn' });
  assert.equal(p.toSan('e5d6'), 'exd6');
  // Capturing would remove both pawns from the 5th rank and expose the king.
  p = Position.fromFen('8/8/8/K2pP2r/8/8/8/7k w - d6 0 1');
  assert.ok(!p.isLegal('e5d6'));
  assert.ok(p.isLegal('e5e6'));
  // Only possible straight after the double push.
  p = Position.fromFen('4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1');
  assert.ok(!p.isLegal('e5d6'));
  // Generated after a real double push.
  p = Position.fromFen('4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1').play('d7d5');
  assert.ok(p.fen().includes(' d6 '));
  assert.ok(p.isLegal('e5d6'));
});

test('promotions: four choices, captures, SAN', () => {
  const p = Position.fromFen('1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1');
  const promos = p.legalMoves().filter((m) => m.from === 'a7');
  assert.deepEqual(promos.map((m) => m.uci).sort(), ['a7a8b', 'a7a8n', 'a7a8q', 'a7a8r', 'a7b8b', 'a7b8n', 'a7b8q', 'a7b8r']);
  assert.ok(!p.isLegal('a7a8'));
  assert.equal(p.play('a7b8q').pieceAt('b8').role, 'queen');
  assert.equal(p.play('a7a8n').pieceAt('a8').role, 'knight');
  assert.equal(p.toSan('a7b8q'), 'axb8=Q+');
  assert.equal(p.toSan('a7a8r'), 'a8=R');
  assert.equal(p.parseSan('a8=Q'), 'a7a8q');
  assert.equal(p.parseSan('a8Q'), 'a7a8q');
  assert.equal(p.parseSan('axb8=N'), 'a7b8n');
  assert.throws(() => p.parseSan('a8'), /promotion piece is required/);
  // Dests list each promotion square once.
  assert.deepEqual(p.dests().get('a7').sort(), ['a8', 'b8']);
});

test('pins and double check', () => {
  // Knight on e2 pinned by the rook on e8.
  let p = Position.fromFen('4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1');
  assert.equal(p.legalMoves().filter((m) => m.from === 'e2').length, 0);
  // Bishop pinned diagonally can move along the pin line only.
  p = Position.fromFen('6k1/8/8/8/3q4/8/1B6/K7 w - - 0 1');
  assert.deepEqual(p.legalMoves().filter((m) => m.from === 'b2').map((m) => m.uci).sort(), ['b2c3', 'b2d4']);
  // Double check: only the king moves.
  p = Position.fromFen('4k3/8/8/8/8/5n2/8/r3K1N1 w - - 0 1');
  assert.ok(p.isCheck());
  assert.ok(p.legalMoves().every((m) => m.from === 'e1'));
  assert.ok(!p.isLegal('g1f3'));
});

test('check, checkmate, stalemate', () => {
  const mate = replay(null, ['f2f3', 'e7e5', 'g2g4', 'd8h4']);
  const last = mate.positions[4];
  assert.ok(last.isCheck());
  assert.equal(last.checkSquare(), 'e1');
  assert.ok(last.isCheckmate());
  assert.ok(!last.isStalemate());
  assert.equal(mate.sans[3], 'Qh4#');
  const stale = Position.fromFen('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1');
  assert.ok(stale.isStalemate());
  assert.ok(!stale.isCheckmate());
  assert.equal(stale.checkSquare(), null);
  assert.equal(Position.start().checkSquare(), null);
});

test('insufficient material', () => {
  const yes = ['4k3/8/8/8/8/8/8/4K3 w - - 0 1', '4k3/8/8/8/8/8/8/4KN2 w - - 0 1', '4k3/8/8/8/8/8/8/4KB2 w - - 0 1', '2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1'];
  const no = [START_FEN, '4k3/8/8/8/8/8/5P2/4K3 w - - 0 1', '3bk3/8/8/8/8/8/8/4KB2 w - - 0 1', '4kn2/8/8/8/8/8/8/4KN2 w - - 0 1', '4k3/8/8/8/8/8/8/3NKN2 w - - 0 1', '4k3/8/8/8/8/8/8/4KR2 w - - 0 1'];
  for (const f of yes) assert.ok(Position.fromFen(f).isInsufficientMaterial(), f);
  for (const f of no) assert.ok(!Position.fromFen(f).isInsufficientMaterial(), f);
});

test('material', () => {
  const m = Position.start().material();
  assert.deepEqual(m.white, { king: 1, queen: 1, rook: 2, bishop: 2, knight: 2, pawn: 8 });
  assert.deepEqual(m.black, { king: 1, queen: 1, rook: 2, bishop: 2, knight: 2, pawn: 8 });
  const after = replay(null, ['e2e4', 'd7d5', 'e4d5', 'd8d5']).positions[4].material();
  assert.equal(after.white.pawn, 7);
  assert.equal(after.black.pawn, 7);
});

test('immutability and counters', () => {
  const p = Position.start();
  const q = p.play('g1f3');
  assert.equal(p.fen(), START_FEN);
  assert.equal(q.turn, 'black');
  assert.equal(q.halfmoves, 1);
  assert.equal(q.fullmoves, 1);
  const r = q.play('e7e5');
  assert.equal(r.halfmoves, 0);
  assert.equal(r.fullmoves, 2);
  assert.throws(() => p.play('e2e5'), /Illegal move: e2e5/);
  assert.throws(() => p.play('zz'), /Illegal move/);
  assert.ok(!p.isLegal('e7e5'));
});

// ---------------------------------------------------------------------------
// SAN

test('toSan basics', () => {
  const p = Position.start();
  assert.equal(p.toSan('e2e4'), 'e4');
  assert.equal(p.toSan('g1f3'), 'Nf3');
  assert.throws(() => p.toSan('e2e5'), /Illegal/);
  const k = Position.fromFen('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
  assert.equal(k.toSan('e1g1'), 'O-O');
  assert.equal(k.toSan('e1h1'), 'O-O');
  assert.equal(k.toSan('e1c1'), 'O-O-O');
  assert.equal(k.toSan('a1a8'), 'Rxa8+');
  assert.equal(k.toSan('h1h8'), 'Rxh8+');
});

test('toSan disambiguation is minimal', () => {
  // Two knights can reach d2: file decides.
  let p = Position.fromFen('4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1');
  assert.equal(p.toSan('b1d2'), 'Nbd2');
  assert.equal(p.toSan('f3d2'), 'Nfd2');
  assert.equal(p.toSan('f3e5'), 'Ne5');
  // Two rooks on the same file: rank decides.
  p = Position.fromFen('4k3/R7/8/8/8/8/8/R3K3 w - - 0 1');
  assert.equal(p.toSan('a1a4'), 'R1a4');
  assert.equal(p.toSan('a7a4'), 'R7a4');
  // Three queens: full square needed for one of them.
  p = Position.fromFen('4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1');
  assert.equal(p.toSan('a1b2'), 'Qa1b2');
  assert.equal(p.toSan('c1b2'), 'Qcb2');
  assert.equal(p.toSan('a3b2'), 'Q3b2');
  // A pinned rival does not force disambiguation.
  p = Position.fromFen('4k3/8/8/8/8/8/4N3/1N2K2r w - - 0 1');
  assert.equal(Position.fromFen('4r1k1/8/8/8/8/5N2/4N3/4K3 w - - 0 1').toSan('f3d4'), 'Nd4');
  void p;
});

test('toSan check and mate suffixes', () => {
  const p = Position.fromFen('6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1');
  assert.equal(p.toSan('a1a8'), 'Ra8#');
  assert.equal(p.toSan('a1a7'), 'Ra7');
  const q = Position.fromFen('4k3/8/8/8/8/8/8/R3K3 w - - 0 1');
  assert.equal(q.toSan('a1a8'), 'Ra8+');
});

test('parseSan is lenient and strict about legality', () => {
  const p = Position.start();
  assert.equal(p.parseSan('e4'), 'e2e4');
  assert.equal(p.parseSan('Nf3'), 'g1f3');
  assert.equal(p.parseSan('Nf3!?'), 'g1f3');
  assert.equal(p.parseSan('Ng1f3'), 'g1f3');
  assert.equal(p.parseSan('Ng1-f3'), 'g1f3');
  assert.equal(p.parseSan('e2e4'), 'e2e4');
  assert.throws(() => p.parseSan('e5'), /Illegal move 'e5'/);
  assert.throws(() => p.parseSan('Qh5'), /Illegal/);
  assert.throws(() => p.parseSan('hello'), /Invalid SAN/);
  assert.throws(() => p.parseSan('O-O'), /castling kingside is not possible/);

  const k = Position.fromFen('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
  for (const s of ['O-O', '0-0', 'o-o', 'O-O+', 'Kg1']) assert.equal(k.parseSan(s), 'e1g1', s);
  for (const s of ['O-O-O', '0-0-0', 'Kc1']) assert.equal(k.parseSan(s), 'e1c1', s);

  const n = Position.fromFen('4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1');
  assert.throws(() => n.parseSan('Nd2'), /Ambiguous move 'Nd2'/);
  assert.equal(n.parseSan('Nbd2'), 'b1d2');
  assert.equal(n.parseSan('N1d2'), 'b1d2');
  assert.equal(n.parseSan('Nfd2'), 'f3d2');

  const ep = Position.fromFen('4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1');
  assert.equal(ep.parseSan('exd6'), 'e5d6');
  assert.equal(ep.parseSan('exd6 e.p.'), 'e5d6');
  assert.equal(ep.parseSan('ed6'), 'e5d6');
  assert.equal(ep.parseSan('e6'), 'e5e6');

  // Lower-case b is a pawn, upper-case B a bishop.
  const b = Position.fromFen('4k3/8/8/8/8/2p5/1P6/2B1K3 w - - 0 1');
  assert.equal(b.parseSan('bxc3'), 'b2c3');
  assert.equal(b.parseSan('Bd2'), 'c1d2');
});

test('SAN round trip over a whole game', () => {
  const sans = 'e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 c4 c6 cxb5 axb5 Nc3 Bb7 Bg5 b4 Nb1 h6 Bh4 c5 dxe5 Nxe4 Bxe7 Qxe7 exd6 Qf6 Nbd2 Nxd6 Nc4 Nxc4 Bxc4 Nb6 Ne5 Rae8 Bxf7+ Rxf7 Nxf7 Rxe1+ Qxe1 Kxf7 Qe3 Qg5 Qxg5 hxg5 b3 Ke6 a3 Kd6 axb4 cxb4 Ra5 Nd5 f3 Bc8 Kf2 Bf5 Ra7 g6 Ra6+ Kc5 Ke1 Nf4 g3 Nxh3 Kd2 Kb5 Rd6 Kc5 Ra6 Nf2 g4 Bd3 Re6'.split(' ');
  let pos = Position.start();
  for (const s of sans) {
    const uci = pos.parseSan(s);
    assert.equal(pos.toSan(uci), s);
    pos = pos.play(uci);
  }
});

// ---------------------------------------------------------------------------
// replay

test('replay returns positions and SANs', () => {
  const r = replay(null, ['e2e4', 'e7e5', 'g1f3']);
  assert.equal(r.positions.length, 4);
  assert.deepEqual(r.sans, ['e4', 'e5', 'Nf3']);
  assert.equal(r.positions[0].fen(), START_FEN);
  assert.equal(r.positions[3].turn, 'black');
  assert.throws(() => replay(null, ['e2e4', 'e2e4']), /ply 2/);
  const f = replay('4k3/8/8/8/8/8/8/R3K3 w Q - 0 1', ['e1c1']);
  assert.deepEqual(f.sans, ['O-O-O']);
  assert.equal(replay(START_FEN, []).positions.length, 1);
});

// ---------------------------------------------------------------------------
// PGN

const SAMPLE = `[Event "Casual Game"]
[Site "Berlin GER"]
[Date "1852.??.??"]
[Round "?"]
[White "Adolf Anderssen"]
[Black "Jean Dufresne"]
[Result "1-0"]
[Annotator "someone \\"quoted\\""]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. b4 Bxb4 5. c3 Ba5 6. d4 exd4 7. O-O d3 8. Qb3
Qf6 9. e5 Qg6 10. Re1 Nge7 11. Ba3 b5 12. Qxb5 Rb8 13. Qa4 Bb6 14. Nbd2 Bb7 15.
Ne4 Qf5 16. Bxd3 Qh5 17. Nf6+ gxf6 18. exf6 Rg8 19. Rad1 Qxf3 20. Rxe7+ Nxe7 21.
Qxd7+ Kxd7 22. Bf5+ Ke8 23. Bd7+ Kf8 24. Bxe7# 1-0
`;

test('parsePgn: tags, moves, result', () => {
  const games = parsePgn(SAMPLE);
  assert.equal(games.length, 1);
  const g = games[0];
  assert.equal(g.tags.White, 'Adolf Anderssen');
  assert.equal(g.tags.Annotator, 'someone "quoted"');
  assert.equal(g.result, '1-0');
  assert.equal(g.moves.length, 47);
  assert.equal(g.moves[0], 'e4');
  assert.equal(g.moves[46], 'Bxe7#');
  // The moves replay legally.
  let pos = Position.start();
  for (const s of g.moves) pos = pos.play(pos.parseSan(s));
  assert.ok(pos.isCheckmate());
});

test('parsePgn: comments, variations, NAGs, annotations, escapes', () => {
  const text = `[Event "x"]
% an escaped line 1. h4
1. e4 {best by test; (not a variation)} e5 ; rest of line 1. d4
2. Nf3 $1 (2. f4 exf4 (2... d5) 3. Nf3) 2... Nc6!? 3.Bb5 a6?! 4. Ba4 Nf6 5. O-O *`;
  const [g] = parsePgn(text);
  assert.deepEqual(g.moves, ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6', 'Ba4', 'Nf6', 'O-O']);
  assert.equal(g.result, '*');
});

test('parsePgn: several games, FEN/SetUp, missing result', () => {
  const text = `[Event "One"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "Two"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/8/R3K3 w Q - 0 20"]

20. O-O-O Kf7 21. Rd7+ 1/2-1/2

[Event "Three"]
[Result "1-0"]

1. d4`;
  const games = parsePgn(text);
  assert.equal(games.length, 3);
  assert.equal(games[0].result, '0-1');
  assert.deepEqual(games[0].moves, ['f3', 'e5', 'g4', 'Qh4#']);
  assert.equal(games[1].tags.FEN, '4k3/8/8/8/8/8/8/R3K3 w Q - 0 20');
  assert.equal(games[1].tags.SetUp, '1');
  assert.deepEqual(games[1].moves, ['O-O-O', 'Kf7', 'Rd7+']);
  assert.equal(games[1].result, '1/2-1/2');
  // No result token: falls back to the Result tag.
  assert.deepEqual(games[2].moves, ['d4']);
  assert.equal(games[2].result, '1-0');
  // Replaying game two from its FEN.
  let pos = Position.fromFen(games[1].tags.FEN);
  for (const s of games[1].moves) pos = pos.play(pos.parseSan(s));
  assert.equal(pos.fullmoves, 21);
  assert.ok(pos.isCheck());
  assert.deepEqual(parsePgn(''), []);
  assert.deepEqual(parsePgn('1. e4 e5')[0].moves, ['e4', 'e5']);
  assert.equal(parsePgn('1. e4 e5 \u00BD-\u00BD')[0].result, '1/2-1/2');
});

test('toPgn: seven tag roster first, 80 columns, round trip', () => {
  const [g] = parsePgn(SAMPLE);
  const text = toPgn({ tags: g.tags, sans: g.moves, result: g.result });
  const lines = text.split('\n');
  assert.deepEqual(
    lines.slice(0, 7).map((l) => l.match(/^\[(\w+)/)[1]),
    ['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'Result'],
  );
  assert.equal(lines[7], '[Annotator "someone \\"quoted\\""]');
  for (const l of lines) assert.ok(l.length <= 80, `line too long: ${l}`);
  assert.ok(text.includes('1. e4 e5 2. Nf3'));
  assert.ok(text.trimEnd().endsWith('24. Bxe7# 1-0'));
  const [again] = parsePgn(text);
  assert.deepEqual(again.moves, g.moves);
  assert.deepEqual(again.tags, g.tags);
  assert.equal(again.result, '1-0');
});

test('toPgn: defaults and black to move from FEN', () => {
  const text = toPgn({ tags: { FEN: '4k3/8/8/8/8/8/8/R3K3 b Q - 0 7', SetUp: '1' }, sans: ['Kd7', 'O-O-O+'] });
  assert.ok(text.startsWith('[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "?"]\n[Black "?"]\n[Result "*"]\n'));
  assert.ok(text.includes('[FEN "4k3/8/8/8/8/8/8/R3K3 b Q - 0 7"]'));
  assert.ok(text.includes('7... Kd7 8. O-O-O+ *'));
});

// ---------------------------------------------------------------------------
// Figurines

test('figurines', () => {
  assert.equal(FIGURINES.white.knight, '♘');
  assert.equal(FIGURINES.black.queen, '♛');
  assert.equal(figurineSan('Nf3', 'white'), '♘f3');
  assert.equal(figurineSan('Qxh4#', 'black'), '♛xh4#');
  assert.equal(figurineSan('exd8=Q+', 'white'), 'exd8=♕+');
  assert.equal(figurineSan('O-O', 'black'), 'O-O');
  assert.equal(figurineSan('e4', 'white'), 'e4');
});
