// Tests for web/js/board.js (pure helpers + the component on a tiny fake
// DOM) and for the piece SVG files. Run with `node --test web/test/`.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Board,
  squareColor,
  squareToPos,
  posToSquare,
  readFenBoard,
  fenTurn,
  premoveDests,
  findMovedPieces,
  applyMoveToPieces,
  normalizeCastle,
  pieceCode,
  pieceUrl,
  describeSquare,
  PIECE_SETS,
} from '../js/board.js';
import { loadRules, play, position } from '../js/rules.js';
import { START_FEN } from '../js/fen.js';
import { cursorTarget } from '../js/squares.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const WEB = path.resolve(HERE, '..');
await loadRules(fs.readFileSync(path.join(WEB, 'wasm/caissa.wasm')));

/** A position as the rules module sees it, with what the board tests ask of it. */
function at(fen) {
  const p = position(fen);
  return {
    fen: () => p.fen,
    dests: () => new Map(Object.entries(p.dests)),
    play: (uci) => at(play(p.fen, uci).fen),
    checkSquare: () => p.check,
  };
}

// ---------------------------------------------------------------------------
// Pure helpers

test('square colours: a1 dark, h1 light, h8 dark, a8 light', () => {
  assert.equal(squareColor('a1'), 'dark');
  assert.equal(squareColor('h1'), 'light');
  assert.equal(squareColor('h8'), 'dark');
  assert.equal(squareColor('a8'), 'light');
  assert.equal(squareColor('e4'), 'light');
  assert.equal(squareColor('d4'), 'dark');
  let light = 0;
  for (const f of 'abcdefgh') for (let r = 1; r <= 8; r++) if (squareColor(f + r) === 'light') light++;
  assert.equal(light, 32);
});

test('each player has a light square at their right-hand corner', () => {
  // White at the bottom: bottom-right corner is h1 and must be light.
  assert.equal(posToSquare(7, 7, 'white'), 'h1');
  assert.equal(squareColor(posToSquare(7, 7, 'white')), 'light');
  // Black at the bottom: bottom-right corner is a8, also light.
  assert.equal(posToSquare(7, 7, 'black'), 'a8');
  assert.equal(squareColor(posToSquare(7, 7, 'black')), 'light');
  // And the bottom-left corners are dark.
  assert.equal(squareColor(posToSquare(0, 7, 'white')), 'dark');
  assert.equal(squareColor(posToSquare(0, 7, 'black')), 'dark');
});

test('coordinate mapping for both orientations', () => {
  assert.deepEqual(squareToPos('a1', 'white'), { col: 0, row: 7 });
  assert.deepEqual(squareToPos('h8', 'white'), { col: 7, row: 0 });
  assert.deepEqual(squareToPos('e2', 'white'), { col: 4, row: 6 });
  assert.deepEqual(squareToPos('a1', 'black'), { col: 7, row: 0 });
  assert.deepEqual(squareToPos('h8', 'black'), { col: 0, row: 7 });
  assert.deepEqual(squareToPos('e2', 'black'), { col: 3, row: 1 });
  for (const o of ['white', 'black']) {
    for (const f of 'abcdefgh') {
      for (let r = 1; r <= 8; r++) {
        const { col, row } = squareToPos(f + r, o);
        assert.equal(posToSquare(col, row, o), f + r);
      }
    }
  }
  assert.equal(posToSquare(-1, 0, 'white'), null);
  assert.equal(posToSquare(0, 8, 'black'), null);
});

test('keyboard cursor: arrows move as the board is seen, and stop at its edge', () => {
  // From White's side "up" is towards the 8th rank; from Black's, towards the 1st.
  assert.equal(cursorTarget('e4', 'ArrowUp', 'white'), 'e5');
  assert.equal(cursorTarget('e4', 'ArrowUp', 'black'), 'e3');
  assert.equal(cursorTarget('e4', 'ArrowLeft', 'white'), 'd4');
  assert.equal(cursorTarget('e4', 'ArrowLeft', 'black'), 'f4');
  assert.equal(cursorTarget('e4', 'Home', 'white'), 'a4');
  assert.equal(cursorTarget('e4', 'End', 'black'), 'a4');
  assert.equal(cursorTarget('h8', 'ArrowUp', 'white'), 'h8');
  assert.equal(cursorTarget('h8', 'ArrowRight', 'white'), 'h8');
  assert.equal(cursorTarget('a1', 'ArrowUp', 'black'), 'a1');
  assert.equal(cursorTarget('e4', 'Tab', 'white'), null);
});

test('readFenBoard / fenTurn', () => {
  const m = readFenBoard(START_FEN);
  assert.equal(m.size, 32);
  assert.deepEqual(m.get('e1'), { color: 'white', role: 'king' });
  assert.deepEqual(m.get('g8'), { color: 'black', role: 'knight' });
  assert.equal(m.get('e4'), undefined);
  // Placement only, no kings: fine for editors.
  assert.equal(readFenBoard('8/8/8/8/8/8/8/8').size, 0);
  assert.equal(readFenBoard('8/8/8/3Q4/8/8/8/8').get('d5').role, 'queen');
  assert.equal(fenTurn(START_FEN), 'white');
  assert.equal(fenTurn('8/8/8/8/8/8/8/8 b - - 0 1'), 'black');
  assert.equal(fenTurn('8/8/8/8/8/8/8/8'), null);
});

test('pieceCode, pieceUrl, describeSquare', () => {
  assert.equal(pieceCode({ color: 'white', role: 'knight' }), 'wN');
  assert.equal(pieceCode({ color: 'black', role: 'king' }), 'bK');
  assert.match(pieceUrl('flat', { color: 'black', role: 'pawn' }), /\/pieces\/flat\/bP\.svg$/);
  assert.match(pieceUrl('nonsense', { color: 'white', role: 'queen' }), /\/pieces\/classic\/wQ\.svg$/);
  assert.equal(describeSquare('e4', { color: 'white', role: 'knight' }), 'e4 white knight');
  assert.equal(describeSquare('e4', null), 'e4');
});

test('premoveDests ignores blockers', () => {
  const pieces = readFenBoard(START_FEN);
  assert.deepEqual(premoveDests(pieces, 'e2').sort(), ['d3', 'e3', 'e4', 'f3']);
  assert.deepEqual(premoveDests(pieces, 'g1').sort(), ['e2', 'f3', 'h3']);
  assert.ok(premoveDests(pieces, 'e1').includes('g1'));
  assert.ok(premoveDests(pieces, 'e1').includes('c1'));
  assert.equal(premoveDests(pieces, 'd1').length, 21);
  assert.deepEqual(premoveDests(pieces, 'e7').sort(), ['d6', 'e5', 'e6', 'f6']);
  assert.deepEqual(premoveDests(pieces, 'e4'), []);
});

test('findMovedPieces pairs vanished and appeared pieces', () => {
  const a = readFenBoard(START_FEN);
  const b = readFenBoard(at(START_FEN).play('e2e4').fen());
  assert.deepEqual(findMovedPieces(a, b), [{ from: 'e2', to: 'e4', piece: { color: 'white', role: 'pawn' } }]);
  const c = readFenBoard('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
  const d = readFenBoard('r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1');
  const moved = findMovedPieces(c, d).map((m) => m.from + m.to).sort();
  assert.deepEqual(moved, ['e1g1', 'h1f1']);
});

test('applyMoveToPieces handles castling, en passant, promotion', () => {
  let p = readFenBoard('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
  for (const to of ['g1', 'h1']) {
    const q = applyMoveToPieces(p, 'e1', to);
    assert.equal(q.get('g1').role, 'king');
    assert.equal(q.get('f1').role, 'rook');
    assert.equal(q.has('h1'), false);
    assert.equal(q.has('e1'), false);
  }
  const q = applyMoveToPieces(p, 'e8', 'c8');
  assert.equal(q.get('c8').role, 'king');
  assert.equal(q.get('d8').role, 'rook');
  p = readFenBoard('4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1');
  const e = applyMoveToPieces(p, 'e5', 'd6');
  assert.equal(e.has('d5'), false);
  assert.equal(e.get('d6').role, 'pawn');
  p = readFenBoard('4k3/P7/8/8/8/8/8/4K3 w - - 0 1');
  assert.deepEqual(applyMoveToPieces(p, 'a7', 'a8', 'knight').get('a8'), { color: 'white', role: 'knight' });
});

test('normalizeCastle', () => {
  const p = readFenBoard('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
  assert.equal(normalizeCastle(p, 'e1', 'h1'), 'e1g1');
  assert.equal(normalizeCastle(p, 'e1', 'a1'), 'e1c1');
  assert.equal(normalizeCastle(p, 'e8', 'h8'), 'e8g8');
  assert.equal(normalizeCastle(p, 'e1', 'g1'), 'e1g1');
  assert.equal(normalizeCastle(p, 'a1', 'a8'), 'a1a8');
  // Chess960 style (king not on e-file): unchanged.
  const c = readFenBoard('2r1kr2/8/8/8/8/8/8/1R2K1R1');
  assert.equal(normalizeCastle(c, 'e1', 'g1'), 'e1g1');
  assert.equal(normalizeCastle(readFenBoard('8/8/8/8/8/8/8/1RK5'), 'c1', 'b1'), 'c1b1');
});

// ---------------------------------------------------------------------------
// A tiny fake DOM, just enough for Board.

class FakeEvent {
  constructor(type, props = {}) {
    Object.assign(this, { button: 0, pointerId: 1, cancelable: true }, props);
    this.type = type;
    this.defaultPrevented = false;
    this.stopped = false;
  }

  preventDefault() {
    this.defaultPrevented = true;
  }

  stopPropagation() {
    this.stopped = true;
  }
}

class FakeElement {
  constructor(tag, doc) {
    this.tagName = tag.toUpperCase();
    this.ownerDocument = doc;
    this.children = [];
    this.parentNode = null;
    this.attrs = new Map();
    this.style = {};
    this.dataset = {};
    this.className = '';
    this.listeners = new Map();
    this.textContent = '';
  }

  get classList() {
    const el = this;
    const list = () => el.className.split(/\s+/).filter(Boolean);
    return {
      add: (...c) => { el.className = [...new Set([...list(), ...c])].join(' '); },
      remove: (...c) => { el.className = list().filter((x) => !c.includes(x)).join(' '); },
      contains: (c) => list().includes(c),
    };
  }

  setAttribute(k, v) { this.attrs.set(k, String(v)); }
  getAttribute(k) { return this.attrs.has(k) ? this.attrs.get(k) : null; }
  removeAttribute(k) { this.attrs.delete(k); }
  appendChild(c) { c.parentNode = this; this.children.push(c); return c; }
  removeChild(c) { this.children = this.children.filter((x) => x !== c); c.parentNode = null; return c; }
  remove() { if (this.parentNode) this.parentNode.removeChild(this); }
  addEventListener(t, fn) { if (!this.listeners.has(t)) this.listeners.set(t, []); this.listeners.get(t).push(fn); }
  removeEventListener(t, fn) { this.listeners.set(t, (this.listeners.get(t) || []).filter((f) => f !== fn)); }
  dispatchEvent(ev) {
    ev.target = ev.target || this;
    for (let el = this; el && !ev.stopped; el = el.parentNode) {
      for (const fn of [...(el.listeners.get(ev.type) || [])]) fn(ev);
    }
    if (!ev.stopped) for (const fn of [...(this.ownerDocument.listeners.get(ev.type) || [])]) fn(ev);
    return !ev.defaultPrevented;
  }
  getBoundingClientRect() { return { left: 0, top: 0, width: 400, height: 400, right: 400, bottom: 400 }; }
  focus() { this.ownerDocument.activeElement = this; }
  setPointerCapture() {}

  // Helpers for the tests.
  all(pred, out = []) {
    for (const c of this.children) {
      if (pred(c)) out.push(c);
      c.all(pred, out);
    }
    return out;
  }
}

class FakeDocument {
  constructor() {
    this.listeners = new Map();
    this.activeElement = null;
  }

  createElement(tag) { return new FakeElement(tag, this); }
  addEventListener(t, fn) { if (!this.listeners.has(t)) this.listeners.set(t, []); this.listeners.get(t).push(fn); }
  removeEventListener(t, fn) { this.listeners.set(t, (this.listeners.get(t) || []).filter((f) => f !== fn)); }
}

function setup(options = {}) {
  const doc = new FakeDocument();
  const container = doc.createElement('div');
  const moves = [];
  const premoves = [];
  const board = new Board(container, {
    onMove: (u) => moves.push(u),
    onPremove: (u) => premoves.push(u),
    ...options,
  });
  const root = board.root;
  // Centre of a square in client coordinates (the board is 400x400 at 0,0).
  const at = (sq) => {
    const { col, row } = squareToPos(sq, board.orientation);
    return { clientX: col * 50 + 25, clientY: row * 50 + 25 };
  };
  const fire = (type, props, target = root) => target.dispatchEvent(new FakeEvent(type, props));
  const click = (sq) => {
    fire('pointerdown', at(sq));
    fire('pointerup', at(sq));
  };
  const drag = (from, to) => {
    fire('pointerdown', at(from));
    const a = at(from);
    const b = at(to);
    fire('pointermove', { clientX: (a.clientX + b.clientX) / 2 + 1, clientY: (a.clientY + b.clientY) / 2 + 1 });
    fire('pointermove', b);
    fire('pointerup', b);
  };
  const cell = (sq) => board.cellBySquare.get(sq);
  const cells = () => root.all((e) => e.getAttribute('role') === 'gridcell');
  const pieceImgs = () => root.all((e) => e.className.split(' ').includes('cb-piece'));
  return { doc, container, board, root, moves, premoves, at, fire, click, drag, cell, cells, pieceImgs };
}

const dests = (fen) => at(fen).dests();

test('board renders an accessible grid of 64 squares', () => {
  const t = setup();
  assert.equal(t.container.children[0], t.root);
  assert.equal(t.root.getAttribute('role'), 'grid');
  assert.equal(t.root.getAttribute('aria-label'), 'Chess board');
  const rows = t.root.all((e) => e.getAttribute('role') === 'row');
  assert.equal(rows.length, 8);
  assert.equal(t.cells().length, 64);
  assert.equal(t.cell('e1').getAttribute('aria-label'), 'e1 white king');
  assert.equal(t.cell('g8').getAttribute('aria-label'), 'g8 black knight');
  assert.equal(t.cell('e4').getAttribute('aria-label'), 'e4');
  assert.equal(t.pieceImgs().length, 32);
  assert.ok(t.pieceImgs().every((img) => /\/pieces\/classic\/[wb][KQRBNP]\.svg$/.test(img.src)));
  assert.match(t.root.className, /cb-theme-wood/);
  assert.match(t.root.className, /cb-coords/);
});

test('board: bottom-right square is light in both orientations', () => {
  const t = setup();
  // rows[7] (bottom) cell 7 (right)
  const rows = t.root.all((e) => e.getAttribute('role') === 'row');
  const bottomRight = rows[7].children[7];
  assert.equal(bottomRight.dataset.square, 'h1');
  assert.ok(bottomRight.className.includes('cb-light'));
  t.board.flip();
  assert.equal(t.board.orientation, 'black');
  assert.equal(rows[7].children[7].dataset.square, 'a8');
  assert.ok(rows[7].children[7].className.includes('cb-light'));
  assert.equal(rows[0].children[0].dataset.square, 'h1');
  // Coordinates follow the orientation.
  const files = t.root.all((e) => e.className.includes('cb-coord-file')).map((e) => e.textContent).join('');
  assert.equal(files, 'hgfedcba');
});

test('click-click move with legal destinations shown', () => {
  const t = setup({ movableColor: 'white', dests: at(START_FEN).dests() });
  t.click('e2');
  assert.ok(t.cell('e2').className.includes('cb-selected'));
  assert.ok(t.cell('e4').className.includes('cb-dest'));
  assert.ok(t.cell('e3').className.includes('cb-dest'));
  assert.ok(!t.cell('e5').className.includes('cb-dest'));
  assert.equal(t.cell('e2').getAttribute('aria-selected'), 'true');
  t.click('e4');
  assert.deepEqual(t.moves, ['e2e4']);
  assert.equal(t.board.pieces.get('e4').role, 'pawn');
  assert.ok(!t.board.pieces.has('e2'));
  assert.ok(t.cell('e4').className.includes('cb-last'));
  assert.equal(t.cell('e4').getAttribute('aria-label'), 'e4 white pawn, last move');
});

test('clicking an illegal square or the same piece deselects', () => {
  const t = setup({ movableColor: 'white', dests: at(START_FEN).dests() });
  t.click('e2');
  t.click('e5');
  assert.equal(t.board.selected, null);
  t.click('g1');
  t.click('g1');
  assert.equal(t.board.selected, null);
  // Opponent pieces cannot be selected.
  t.click('e7');
  assert.equal(t.board.selected, null);
  assert.deepEqual(t.moves, []);
});

test('drag and drop, snapping back from illegal squares', () => {
  const t = setup({ movableColor: 'white', dests: at(START_FEN).dests() });
  t.drag('g1', 'g4');
  assert.deepEqual(t.moves, []);
  assert.ok(t.board.pieces.has('g1'));
  assert.equal(t.board.pieceEls.get('g1').style.transform, 'translate(600%, 700%)');
  t.drag('g1', 'f3');
  assert.deepEqual(t.moves, ['g1f3']);
  assert.equal(t.board.pieceEls.get('f3').style.transform, 'translate(500%, 500%)');
});

test('castling by dropping the king on its rook', () => {
  const fen = 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1';
  const t = setup({ fen, movableColor: 'white', dests: dests(fen) });
  t.drag('e1', 'h1');
  assert.deepEqual(t.moves, ['e1g1']);
  assert.equal(t.board.pieces.get('g1').role, 'king');
  assert.equal(t.board.pieces.get('f1').role, 'rook');
});

test('promotion picker', () => {
  const fen = '1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1';
  const t = setup({ fen, movableColor: 'white', dests: dests(fen) });
  t.click('a7');
  t.click('a8');
  assert.deepEqual(t.moves, []);
  const choices = () => t.root.all((e) => e.className === 'cb-promo-choice');
  assert.equal(choices().length, 4);
  assert.deepEqual(choices().map((b) => b.dataset.role), ['queen', 'knight', 'rook', 'bishop']);
  // Escape cancels.
  t.fire('keydown', { key: 'Escape' });
  assert.equal(choices().length, 0);
  assert.deepEqual(t.moves, []);
  // Drag to b8 (capture) and pick a knight.
  t.drag('a7', 'b8');
  const knight = choices().find((b) => b.dataset.role === 'knight');
  t.fire('click', {}, knight);
  assert.deepEqual(t.moves, ['a7b8n']);
  assert.deepEqual(t.board.pieces.get('b8'), { color: 'white', role: 'knight' });
  assert.equal(choices().length, 0);
});

test('promotion picker: clicking outside cancels', () => {
  const fen = '4k3/P7/8/8/8/8/8/4K3 w - - 0 1';
  const t = setup({ fen, movableColor: 'white', dests: dests(fen) });
  t.click('a7');
  t.click('a8');
  const overlay = t.root.all((e) => e.className === 'cb-promo')[0];
  assert.ok(overlay);
  t.fire('pointerdown', { clientX: 300, clientY: 300 }, overlay);
  assert.equal(t.root.all((e) => e.className === 'cb-promo').length, 0);
  assert.deepEqual(t.moves, []);
  assert.ok(t.board.pieces.has('a7'));
});

test('premove: queued while waiting, played when the turn comes', () => {
  const start = at(START_FEN).play('e2e4');
  const t = setup({ fen: start.fen(), movableColor: 'white', dests: new Map() });
  assert.equal(t.board.turnColor, 'black');
  t.click('d2');
  assert.ok(t.cell('d4').className.includes('cb-pdest'));
  t.click('d4');
  assert.deepEqual(t.moves, []);
  assert.deepEqual(t.premoves, ['d2d4']);
  assert.ok(t.cell('d2').className.includes('cb-premove'));
  // Opponent replies; page updates and asks to play the premove.
  const next = start.play('e7e5');
  t.board.set({ fen: next.fen(), dests: next.dests(), lastMove: ['e7', 'e5'] });
  assert.equal(t.board.turnColor, 'white');
  assert.equal(t.board.playPremove(), true);
  assert.deepEqual(t.moves, ['d2d4']);
  assert.equal(t.board.premove, null);
});

test('premove that became illegal is cleared', () => {
  const start = at(START_FEN).play('e2e4');
  const t = setup({ fen: start.fen(), movableColor: 'white' });
  t.click('e4');
  t.click('e5');
  assert.deepEqual(t.premoves, ['e4e5']);
  const next = start.play('e7e5');
  t.board.set({ fen: next.fen(), dests: next.dests() });
  assert.equal(t.board.playPremove(), false);
  assert.deepEqual(t.moves, []);
  assert.deepEqual(t.premoves, ['e4e5', null]);
  // setPremove(null) from the page also clears.
  t.board.setPremove('d2d4');
  t.board.setPremove(null);
  assert.equal(t.board.premove, null);
});

test('set(): fen, lastMove, check, theme, piece set', () => {
  const t = setup();
  const p = at('rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3');
  t.board.set({ fen: p.fen(), lastMove: ['d8', 'h4'], check: p.checkSquare(), theme: 'blue', pieceSet: 'playful' });
  assert.ok(t.cell('e1').className.includes('cb-check'));
  assert.ok(t.cell('h4').className.includes('cb-last'));
  assert.equal(t.cell('h4').getAttribute('aria-label'), 'h4 black queen, last move');
  assert.match(t.root.className, /cb-theme-blue/);
  assert.match(t.root.className, /cb-set-playful/);
  assert.ok(t.pieceImgs().every((img) => img.src.includes('/pieces/playful/')));
  assert.equal(t.pieceImgs().length, 32);
  t.board.set({ coordinates: false });
  assert.doesNotMatch(t.root.className, /cb-coords/);
});

test('keyboard: arrows move the cursor, Enter selects and drops', () => {
  const t = setup({ movableColor: 'white', dests: at(START_FEN).dests() });
  t.root.focus();
  assert.equal(t.board.cursor, 'e2');
  t.fire('keydown', { key: 'Enter' });
  assert.equal(t.board.selected, 'e2');
  t.fire('keydown', { key: 'ArrowUp' });
  t.fire('keydown', { key: 'ArrowUp' });
  assert.equal(t.board.cursor, 'e4');
  assert.ok(t.cell('e4').className.includes('cb-cursor'));
  assert.equal(t.root.getAttribute('aria-activedescendant'), t.cell('e4').id);
  t.fire('keydown', { key: ' ' });
  assert.deepEqual(t.moves, ['e2e4']);
});

test('destroy removes the board', () => {
  const t = setup();
  t.board.destroy();
  assert.equal(t.container.children.length, 0);
});

// ---------------------------------------------------------------------------
// Piece SVGs

// A small well-formedness check: balanced tags, quoted attributes, one root.
function checkXml(text) {
  const stack = [];
  let roots = 0;
  const re = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>/g;
  let last = 0;
  let m;
  while ((m = re.exec(text))) {
    const between = text.slice(last, m.index);
    if (/[<>]/.test(between)) throw new Error(`stray markup near: ${between.slice(0, 40)}`);
    last = re.lastIndex;
    if (!m[2]) continue; // comment / declaration
    const [, close, name, , self] = m;
    if (close) {
      const open = stack.pop();
      if (open !== name) throw new Error(`</${name}> closes <${open}>`);
    } else if (!self) {
      if (stack.length === 0) roots++;
      stack.push(name);
    } else if (stack.length === 0) {
      roots++;
    }
  }
  if (/[<>]/.test(text.slice(last))) throw new Error('stray markup at end');
  if (stack.length) throw new Error(`unclosed <${stack.join('>, <')}>`);
  if (roots !== 1) throw new Error(`expected one root element, got ${roots}`);
}

test('piece SVGs exist for every set and are well-formed', () => {
  assert.deepEqual(PIECE_SETS, ['classic', 'flat', 'playful', 'minimal', 'chinese']);
  for (const set of PIECE_SETS) {
    for (const c of 'wb') {
      for (const p of 'KQRBNP') {
        const file = path.join(WEB, 'pieces', set, `${c}${p}.svg`);
        const text = fs.readFileSync(file, 'utf8');
        assert.doesNotThrow(() => checkXml(text), file);
        assert.match(text, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 45 45"/, file);
        // All url(#id) references resolve.
        for (const [, id] of text.matchAll(/url\(#([\w-]+)\)/g)) assert.ok(text.includes(`id="${id}"`), `${file}: #${id}`);
      }
    }
  }
});

test('the XML checker rejects broken markup', () => {
  assert.throws(() => checkXml('<svg><g></svg>'));
  assert.throws(() => checkXml('<svg><path d="x"></svg>'));
  assert.throws(() => checkXml('<svg/><svg/>'));
  assert.doesNotThrow(() => checkXml('<svg a="1"><g><path d="M0 0"/></g></svg>'));
});
