// The analysis board's game: a tree of moves. Each node is a position reached
// by a move, with what is attached to it (comments, NAGs, the clock, arrows
// and circles); its first child continues its line, the others are
// variations. Nothing here knows the rules: moves arrive already played by the
// rules module (rules.js), and PGN goes in and out through it too.

import { fenFullmoves, fenTurn } from './fen.js';

let nextId = 1;

/** Commands kept in PGN comments that the board shows rather than prints. */
const CLOCK_RE = /\[%clk\s+([0-9:.]+)\s*\]/g;
const SHAPES_RE = /\[%(cal|csl)\s+([^\]]*)\]/g;
const BRUSH_OF = { G: 'green', R: 'red', Y: 'yellow', B: 'blue' };
const LETTER_OF = { green: 'G', red: 'R', yellow: 'Y', blue: 'B' };

/** A clock written h:mm:ss(.f) in milliseconds, or null. */
export function parseClock(text) {
  const parts = String(text).split(':');
  if (parts.length > 3 || parts.some((p) => p === '' || !/^\d+(\.\d+)?$/.test(p))) return null;
  let seconds = 0;
  for (const p of parts) seconds = seconds * 60 + Number(p);
  return Math.round(seconds * 1000);
}

/** Milliseconds as a `[%clk]` time: h:mm:ss, with tenths when there are any. */
export function formatClock(ms) {
  const tenths = Math.round(ms / 100);
  const h = Math.floor(tenths / 36000);
  const m = Math.floor((tenths % 36000) / 600);
  const s = Math.floor((tenths % 600) / 10);
  const f = tenths % 10;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}${f ? `.${f}` : ''}`;
}

/**
 * A comment's text without its `[%clk]`, `[%cal]` and `[%csl]` commands, and
 * what they said: {text, clock (ms or null), shapes: [{brush, orig, dest?}]}.
 */
export function readComment(comment) {
  let clock = null;
  const shapes = [];
  let text = String(comment).replace(CLOCK_RE, (_, time) => {
    clock = parseClock(time);
    return '';
  });
  text = text.replace(SHAPES_RE, (_, kind, list) => {
    for (const item of list.split(',').map((s) => s.trim()).filter(Boolean)) {
      const m = kind === 'cal' ? /^([GRYB])([a-h][1-8])([a-h][1-8])$/.exec(item) : /^([GRYB])([a-h][1-8])$/.exec(item);
      if (!m) continue;
      shapes.push(kind === 'cal' ? { brush: BRUSH_OF[m[1]], orig: m[2], dest: m[3] } : { brush: BRUSH_OF[m[1]], orig: m[2] });
    }
    return '';
  });
  return { text: text.replace(/\s+/g, ' ').trim(), clock, shapes };
}

/** The commands a node's clock and shapes are written as in PGN. */
export function commandsOf(node) {
  const parts = [];
  if (typeof node.clock === 'number') parts.push(`[%clk ${formatClock(node.clock)}]`);
  const circles = node.shapes.filter((s) => !s.dest).map((s) => `${LETTER_OF[s.brush] || 'G'}${s.orig}`);
  const arrows = node.shapes.filter((s) => s.dest).map((s) => `${LETTER_OF[s.brush] || 'G'}${s.orig}${s.dest}`);
  if (circles.length) parts.push(`[%csl ${circles.join(',')}]`);
  if (arrows.length) parts.push(`[%cal ${arrows.join(',')}]`);
  return parts.join(' ');
}

function makeNode(fields) {
  return {
    id: nextId++,
    san: null,
    uci: null,
    fen: null,
    check: null,
    nags: [],
    comments: [],
    before: [],
    clock: null,
    shapes: [],
    collapsed: false,
    children: [],
    parent: null,
    ...fields,
  };
}

/** Reads a PGN comment list onto `node`: texts kept, commands taken out. */
function attachComments(node, comments) {
  for (const comment of comments || []) {
    const read = readComment(comment);
    if (read.clock !== null) node.clock = read.clock;
    node.shapes.push(...read.shapes);
    if (read.text) node.comments.push(read.text);
  }
}

export class MoveTree {
  /** A tree with only its start position (`fen`). */
  constructor(fen) {
    // Move numbers count from the start position's.
    this.root = makeNode({ fen, ply: 0, fullmoves: fenFullmoves(fen), plyOffset: fenTurn(fen) === 'black' ? 1 : 0 });
    this.byId = new Map([[this.root.id, this.root]]);
  }

  /** A tree from a game `readPgn` returned. */
  static fromPgnGame(game) {
    const tree = new MoveTree(game.fen);
    attachComments(tree.root, game.comments);
    tree._addLine(tree.root, game.moves || []);
    return tree;
  }

  /**
   * Adds readPgn's `moves` one after another from `parent`, each move's
   * variations as alternatives to it (from the position before it).
   */
  _addLine(parent, moves, before = []) {
    let at = parent;
    moves.forEach((move, i) => {
      const node = this.add(at, move);
      if (i === 0) node.before.push(...before);
      attachComments(node, move.comments);
      node.nags = [...(move.nags || [])];
      if (typeof move.clock === 'number') node.clock = move.clock;
      for (const variation of move.variations || []) this._addLine(at, variation.moves || [], variation.comments || []);
      at = node;
    });
  }

  /** The node with `id`, or the root. */
  node(id) {
    return this.byId.get(id) || this.root;
  }

  /**
   * The child of `parent` reached by `move` ({san, uci, fen, check}): the one
   * there already, or a new one (a variation when the line goes on already).
   */
  add(parent, move) {
    const existing = parent.children.find((c) => c.uci === move.uci);
    if (existing) return existing;
    const node = makeNode({ san: move.san, uci: move.uci, fen: move.fen, check: move.check || null, ply: parent.ply + 1, parent });
    parent.children.push(node);
    this.byId.set(node.id, node);
    return node;
  }

  /** The nodes from the first move to `node`. */
  path(node) {
    const out = [];
    for (let at = node; at && at.parent; at = at.parent) out.push(at);
    return out.reverse();
  }

  /** The mainline: the first child after first child, from the start. */
  mainline() {
    const out = [];
    for (let at = this.root.children[0]; at; at = at.children[0]) out.push(at);
    return out;
  }

  /** Whether `node` is on the mainline. */
  onMainline(node) {
    for (let at = node; at.parent; at = at.parent) {
      if (at.parent.children[0] !== at) return false;
    }
    return true;
  }

  /** The line `node` is on, continued by first children to its end. */
  lineThrough(node) {
    const out = this.path(node);
    for (let at = node.children[0]; at; at = at.children[0]) out.push(at);
    return out;
  }

  /**
   * Promotes the variation `node` is on by one level: at its branch point it
   * takes the place of the line it was an alternative to.
   */
  promote(node) {
    let at = node;
    while (at.parent && at.parent.children[0] === at) at = at.parent;
    if (!at.parent) return false;
    const siblings = at.parent.children;
    siblings.splice(siblings.indexOf(at), 1);
    siblings.unshift(at);
    return true;
  }

  /** Promotes the variation `node` is on until it is the mainline. */
  makeMainline(node) {
    while (this.promote(node));
  }

  /** Deletes `node` and everything after it; returns its parent. */
  delete(node) {
    const parent = node.parent;
    if (!parent) return this.root;
    parent.children.splice(parent.children.indexOf(node), 1);
    const forget = (n) => {
      this.byId.delete(n.id);
      n.children.forEach(forget);
    };
    forget(node);
    return parent;
  }

  /** Sets or clears a NAG on `node`: a move's quality (1–6) replaces another one. */
  toggleNag(node, nag) {
    if (node.nags.includes(nag)) {
      node.nags = node.nags.filter((n) => n !== nag);
      return;
    }
    const isMoveNag = (n) => n >= 1 && n <= 6;
    const isPositionNag = (n) => n >= 10 && n <= 19;
    node.nags = node.nags.filter((n) => !(isMoveNag(nag) && isMoveNag(n)) && !(isPositionNag(nag) && isPositionNag(n)));
    node.nags.push(nag);
    node.nags.sort((a, b) => a - b);
  }

  /** Toggles an arrow (with `dest`) or a circle on `node`; the same shape in another colour is recoloured. */
  toggleShape(node, shape) {
    const same = (s) => s.orig === shape.orig && (s.dest || null) === (shape.dest || null);
    const found = node.shapes.find(same);
    node.shapes = node.shapes.filter((s) => !same(s));
    if (!found || found.brush !== shape.brush) node.shapes.push({ ...shape });
  }

  /** The game as writePgn takes it: {tags, comments, moves, result}. */
  toPgnGame(tags, result) {
    const commentsOf = (node) => {
      // The commands go in the last comment, as lichess writes them.
      const commands = commandsOf(node);
      const texts = [...node.comments];
      if (commands && texts.length) texts[texts.length - 1] += ` ${commands}`;
      else if (commands) texts.push(commands);
      return texts;
    };
    const line = (first) => {
      const moves = [];
      for (let at = first; at; at = at.children[0]) {
        const alternatives = at.parent.children.slice(1);
        const variationStart = at.parent.children[0] !== at;
        moves.push({
          san: at.san,
          nags: at.nags,
          // Comments before a move are kept before it only at a variation's start.
          comments: variationStart ? commentsOf(at) : [...at.before, ...commentsOf(at)],
          variations: at.parent.children[0] === at ? alternatives.map((alt) => ({ comments: alt.before, moves: line(alt) })) : [],
        });
      }
      return moves;
    };
    return {
      tags: Object.entries(tags),
      comments: commentsOf(this.root),
      moves: this.root.children[0] ? line(this.root.children[0]) : [],
      result: result || '*',
    };
  }
}
