// Arrows and circles drawn on the board, as on lichess: drag with the right
// mouse button from one square to another for an arrow, or release on the same
// square for a circle; Shift makes it red, Alt blue, both yellow, none green.
// Shapes the page gives (`shapes`: the player's, kept in the PGN as [%cal] and
// [%csl]; `autoShapes`: the engine's best move) are drawn in one SVG layer
// above the pieces, in board coordinates (the board is 8 × 8 units).

import { posToSquare, squareToPos } from './squares.js';

const SVG = 'http://www.w3.org/2000/svg';
/** Brushes: colour and opacity. `engine` is for shapes the page computes. */
export const BRUSHES = {
  green: '#15781b',
  red: '#882020',
  blue: '#003088',
  yellow: '#e68f00',
  engine: '#3c7fd6',
};

/** The brush a drawing gesture's modifier keys choose. */
export function brushOf(e) {
  if (e.shiftKey && e.altKey) return 'yellow';
  if (e.shiftKey) return 'red';
  if (e.altKey || e.metaKey) return 'blue';
  return 'green';
}

/** A square's centre in board units. */
function centre(sq, orientation) {
  const { col, row } = squareToPos(sq, orientation);
  return { x: col + 0.5, y: row + 0.5 };
}

/** One shape as SVG elements (an arrow stops short of its square's centre). */
function shapeElements(doc, shape, orientation, current = false) {
  const colour = BRUSHES[shape.brush] || BRUSHES.green;
  const opacity = current ? 0.9 : shape.brush === 'engine' ? 0.6 : 0.75;
  const a = centre(shape.orig, orientation);
  if (!shape.dest || shape.dest === shape.orig) {
    const circle = doc.createElementNS(SVG, 'circle');
    circle.setAttribute('cx', String(a.x));
    circle.setAttribute('cy', String(a.y));
    circle.setAttribute('r', '0.45');
    circle.setAttribute('fill', 'none');
    circle.setAttribute('stroke', colour);
    circle.setAttribute('stroke-width', '0.07');
    circle.setAttribute('opacity', String(opacity));
    circle.setAttribute('data-shape', `${shape.brush}:${shape.orig}`);
    return [circle];
  }
  const b = centre(shape.dest, orientation);
  const length = Math.hypot(b.x - a.x, b.y - a.y);
  const shorten = 0.3;
  const end = { x: b.x - ((b.x - a.x) / length) * shorten, y: b.y - ((b.y - a.y) / length) * shorten };
  const line = doc.createElementNS(SVG, 'line');
  line.setAttribute('x1', String(a.x));
  line.setAttribute('y1', String(a.y));
  line.setAttribute('x2', String(end.x));
  line.setAttribute('y2', String(end.y));
  line.setAttribute('stroke', colour);
  line.setAttribute('stroke-width', shape.brush === 'engine' ? '0.12' : '0.16');
  line.setAttribute('stroke-linecap', 'round');
  line.setAttribute('marker-end', `url(#cb-arrowhead-${BRUSHES[shape.brush] ? shape.brush : 'green'})`);
  line.setAttribute('opacity', String(opacity));
  line.setAttribute('data-shape', `${shape.brush}:${shape.orig}${shape.dest}`);
  return [line];
}

/** The SVG layer of a board, and the right-button gesture that draws on it. */
export class ShapeLayer {
  /**
   * `root`: the board element; `onShape(shape)`: a shape was drawn (the page
   * decides whether it is added or, drawn again, removed).
   */
  constructor(root, { onShape } = {}) {
    this.root = root;
    this.doc = root.ownerDocument;
    this.onShape = onShape || null;
    this.shapes = [];
    this.autoShapes = [];
    this.orientation = 'white';
    this.drawing = null;
    const svg = this.doc.createElementNS(SVG, 'svg');
    svg.setAttribute('class', 'cb-shapes');
    svg.setAttribute('viewBox', '0 0 8 8');
    svg.setAttribute('aria-hidden', 'true');
    const defs = this.doc.createElementNS(SVG, 'defs');
    for (const [name, colour] of Object.entries(BRUSHES)) {
      const marker = this.doc.createElementNS(SVG, 'marker');
      marker.setAttribute('id', `cb-arrowhead-${name}`);
      marker.setAttribute('orient', 'auto');
      marker.setAttribute('markerWidth', '4');
      marker.setAttribute('markerHeight', '8');
      marker.setAttribute('refX', '2.05');
      marker.setAttribute('refY', '2.01');
      const head = this.doc.createElementNS(SVG, 'path');
      head.setAttribute('d', 'M0,0 V4 L3,2 Z');
      head.setAttribute('fill', colour);
      marker.appendChild(head);
      defs.appendChild(marker);
    }
    svg.appendChild(defs);
    this.group = this.doc.createElementNS(SVG, 'g');
    svg.appendChild(this.group);
    this.svg = svg;
    root.appendChild(svg);
  }

  /** Shows `shapes` (the player's) and `autoShapes` (the page's) with the board's orientation. */
  set({ shapes, autoShapes, orientation }) {
    if (shapes) this.shapes = shapes;
    if (autoShapes) this.autoShapes = autoShapes;
    if (orientation) this.orientation = orientation;
    this.render();
  }

  render() {
    while (this.group.firstChild) this.group.removeChild(this.group.firstChild);
    const all = [...this.autoShapes, ...this.shapes];
    for (const shape of all) for (const el of shapeElements(this.doc, shape, this.orientation)) this.group.appendChild(el);
    if (this.drawing && this.drawing.dest) {
      for (const el of shapeElements(this.doc, this.drawing, this.orientation, true)) this.group.appendChild(el);
    }
  }

  /** The square under a point, from the board's rectangle. */
  squareAt(rect, clientX, clientY) {
    if (!rect.width || !rect.height) return null;
    const col = Math.floor(((clientX - rect.left) / rect.width) * 8);
    const row = Math.floor(((clientY - rect.top) / rect.height) * 8);
    return posToSquare(col, row, this.orientation);
  }

  /** A right-button press: starts drawing. Returns whether it was taken. */
  start(e, rect) {
    const sq = this.squareAt(rect, e.clientX, e.clientY);
    if (!sq) return false;
    this.drawing = { brush: brushOf(e), orig: sq, dest: sq, pointerId: e.pointerId };
    this.render();
    return true;
  }

  move(e, rect) {
    if (!this.drawing) return;
    const sq = this.squareAt(rect, e.clientX, e.clientY);
    if (sq && sq !== this.drawing.dest) {
      this.drawing.dest = sq;
      this.render();
    }
  }

  /** The button is released: the drawn shape goes to the page. */
  end(e, rect) {
    const d = this.drawing;
    if (!d) return;
    this.drawing = null;
    const sq = this.squareAt(rect, e.clientX, e.clientY) || d.dest;
    const shape = sq === d.orig ? { brush: d.brush, orig: d.orig } : { brush: d.brush, orig: d.orig, dest: sq };
    this.render();
    if (this.onShape) this.onShape(shape);
  }

  cancel() {
    this.drawing = null;
    this.render();
  }

  destroy() {
    if (this.svg.parentNode) this.svg.parentNode.removeChild(this.svg);
  }
}
