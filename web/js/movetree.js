// The analysis board's moves as a tree: the mainline flows as text, and each
// set of alternatives to a mainline move opens a block under it, one line per
// variation, with deeper variations in parentheses. Every move is a button;
// the one on the board is marked `aria-current`.

import { t } from './i18n.js';
import { figurineSan } from './fen.js';
import { h, replace } from './ui.js';

/** How NAGs are shown: ASCII or Latin-1 only, which every font has. */
export const NAG_GLYPHS = {
  1: '!', 2: '?', 3: '!!', 4: '??', 5: '!?', 6: '?!', 7: '[]',
  10: '=', 13: '∞', 14: '+/=', 15: '=/+', 16: '±', 17: '-/+', 18: '+-', 19: '-+',
  22: '(.)', 32: '@', 36: '->', 40: '^', 132: '<=>', 146: 'N',
};

const JUDGED = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** A NAG as shown next to its move. */
export function nagGlyph(nag) {
  return NAG_GLYPHS[nag] || `$${nag}`;
}

/** The NAGs a move can be marked with from the board, by name (i18n `nag.*`). */
export const MOVE_NAGS = [
  [1, 'good'], [2, 'mistake'], [3, 'brilliant'], [4, 'blunder'], [5, 'interesting'], [6, 'dubious'],
];
export const POSITION_NAGS = [
  [10, 'equal'], [13, 'unclear'], [14, 'whiteSlightly'], [15, 'blackSlightly'], [16, 'whiteModerately'],
  [17, 'blackModerately'], [18, 'whiteDecisive'], [19, 'blackDecisive'],
];

/**
 * Renders `tree` into `el`. `current`: the node on the board; `onPick(node)`;
 * `onToggle(node)` collapses or opens the variation starting at `node`;
 * `notation`: 'san' or 'figurine'; `result`: shown after the mainline;
 * `judged`: the computer's judgement of mainline moves by node id.
 */
export function renderMoveTree(el, tree, { current, onPick, onToggle, notation = 'san', result = null, judged = new Map() }) {
  const moveButton = (node, withNumber) => {
    const white = (node.ply + tree.root.plyOffset) % 2 === 1;
    const color = white ? 'white' : 'black';
    // Move numbers count from the start position's.
    const number = tree.root.fullmoves + Math.floor((node.ply - 1 + tree.root.plyOffset) / 2);
    const label = white ? `${number}.` : withNumber ? `${number}...` : null;
    const san = notation === 'figurine' ? figurineSan(node.san, color) : node.san;
    const glyphs = node.nags.map(nagGlyph).join(' ');
    const judgedMove = judged.get(node.id);
    return [
      label ? h('span', { class: 'move-number' }, label) : null,
      h('button', {
        type: 'button',
        class: `move ${node === current ? 'current' : ''}`,
        'data-node': String(node.id),
        'data-san': node.san,
        'data-ply': String(node.ply),
        'aria-current': node === current ? 'true' : null,
        onclick: () => onPick(node),
      }, san, glyphs ? h('span', { class: 'nag' }, glyphs) : null,
      // Drawn by CSS from data-glyph: the computer's mark is not part of the move's text.
      judgedMove && !glyphs ? h('span', { class: `judged judged-${judgedMove.judgement}`, title: t(`review.${judgedMove.judgement}`), 'data-glyph': JUDGED[judgedMove.judgement] }) : null),
      ...node.comments.map((c) => h('span', { class: 'comment' }, c)),
    ];
  };

  // A line from `first` on; nested alternatives go in parentheses.
  const inlineLine = (first) => {
    const out = [];
    let numbered = true;
    for (let at = first; at; at = at.children[0]) {
      out.push(...moveButton(at, numbered));
      numbered = false;
      const alternatives = at.parent.children[0] === at ? at.parent.children.slice(1) : [];
      for (const alt of alternatives) {
        out.push(h('span', { class: 'paren' }, '('), ...inlineLine(alt), h('span', { class: 'paren' }, ')'));
        numbered = true;
      }
    }
    return out;
  };

  const variationBlock = (alternatives) => h('div', { class: 'variations' },
    alternatives.map((alt) => h('div', { class: `variation ${alt.collapsed ? 'collapsed' : ''}` },
      h('button', {
        type: 'button',
        class: 'toggle',
        'aria-expanded': alt.collapsed ? 'false' : 'true',
        'aria-label': alt.collapsed ? t('analysis.expandVariation') : t('analysis.collapseVariation'),
        title: alt.collapsed ? t('analysis.expandVariation') : t('analysis.collapseVariation'),
        onclick: () => onToggle(alt),
      }, alt.collapsed ? '+' : '-'),
      alt.collapsed ? moveButton(alt, true) : inlineLine(alt))));

  const parts = [];
  if (tree.root.comments.length) parts.push(...tree.root.comments.map((c) => h('span', { class: 'comment' }, c)));
  let numbered = true;
  for (const node of tree.mainline()) {
    parts.push(...moveButton(node, numbered));
    numbered = false;
    const alternatives = node.parent.children.slice(1);
    if (alternatives.length) {
      parts.push(variationBlock(alternatives));
      numbered = true;
    }
  }
  if (result) parts.push(h('span', { class: 'result-mark', 'data-testid': 'tree-result' }, result));
  replace(el, h('div', { class: 'move-tree' }, parts));
}
