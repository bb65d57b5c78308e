// Small inline SVG icons. Drawn here rather than taken from a font, so that no
// icon depends on the fonts (or emoji) of the machine: each renders the same
// everywhere, and none can turn into a missing-glyph box.

const ICONS = {
  first: 'M6 5h2v14H6zM19 5v14L9 12z',
  prev: 'M17 5v14L7 12z',
  next: 'M7 5v14l10-7z',
  last: 'M16 5h2v14h-2zM5 5v14l10-7z',
  flip: 'M7 3l-4 4h3v10h2V7h3zM17 21l4-4h-3V7h-2v10h-3z',
  soundOn: 'M4 9v6h4l5 4V5L8 9zM16 8.5a5 5 0 0 1 0 7l-1.4-1.4a3 3 0 0 0 0-4.2zM18.5 6a8.5 8.5 0 0 1 0 12l-1.4-1.4a6.5 6.5 0 0 0 0-9.2z',
  soundOff: 'M4 9v6h4l5 4V5L8 9zM16.3 9.7l1.4-1.4 2 2 2-2 1.4 1.4-2 2 2 2-1.4 1.4-2-2-2 2-1.4-1.4 2-2z',
  // An eye: the outline, the iris cut out, the pupil filled in (even-odd).
  eye: 'M12 5C7 5 3.2 8.2 1.5 12 3.2 15.8 7 19 12 19s8.8-3.2 10.5-7C20.8 8.2 17 5 12 5zm0 11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9zm0-2.3a2.2 2.2 0 1 0 0-4.4 2.2 2.2 0 0 0 0 4.4z',
  // A warning triangle with an exclamation mark cut out.
  warning: 'M12 2 1 21h22zm-1 7h2v6h-2zm0 8h2v2h-2z',
  // A lightning bolt: an arena player who went berserk.
  berserk: 'M13 2 4 14h6l-1 8 9-12h-6z',
  moon: 'M20 15.5A8.5 8.5 0 0 1 8.5 4 8.5 8.5 0 1 0 20 15.5z',
  // The site menu on a phone: three bars.
  menu: 'M3 6h18v2H3zM3 11h18v2H3zM3 16h18v2H3z',
  // Game actions. A flag on its pole: resigning.
  resign: 'M5 3h2v18H5zM8 4h10l-2.5 4L18 12H8z',
  // A circle half filled: a draw, half a point.
  draw: 'M11 3.05A9 9 0 0 0 11 20.95zM13 3.05a9 9 0 0 1 0 17.9zm0 2.05v13.8a7 7 0 0 0 0-13.8z',
  // An arrow turning back: a takeback.
  takeback: 'M9 5 3 10l6 5v-3.5h6a3.5 3.5 0 0 1 0 7h-4V21h4a6 6 0 0 0 0-12H9z',
  // Scales: a claim for the rules to decide.
  claim: 'M11 3h2v2h7v2h-1.2l2.7 6.5a3.5 3.5 0 0 1-7 0L17.2 7H13v12h4v2H7v-2h4V7H6.8l2.7 6.5a3.5 3.5 0 0 1-7 0L5.2 7H4V5h7z',
  // A circular arrow: the same game again.
  rematch: 'M12 4V1L8 5l4 4V6a6 6 0 1 1-6 6H4a8 8 0 1 0 8-8z',
  // A magnifying glass: the analysis board.
  analysis: 'M10 3a7 7 0 0 1 5.6 11.2l5.1 5.1-1.4 1.4-5.1-5.1A7 7 0 1 1 10 3zm0 2a5 5 0 1 0 0 10 5 5 0 0 0 0-10z',
  download: 'M11 3h2v9.2l3.3-3.3 1.4 1.4L12 16l-5.7-5.7 1.4-1.4 3.3 3.3zM4 18h16v2H4z',
  // A cross in a disc: calling the game off.
  abort: 'M12 2a10 10 0 1 1 0 20 10 10 0 0 1 0-20zm-3.5 5.1L7.1 8.5 10.6 12l-3.5 3.5 1.4 1.4 3.5-3.5 3.5 3.5 1.4-1.4-3.5-3.5 3.5-3.5-1.4-1.4-3.5 3.5z',
  close: 'M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6l5.6-5.6L5 6.4z',
  // A person and a plus: someone new to play.
  newOpponent: 'M9 4a4 4 0 1 1 0 8 4 4 0 0 1 0-8zM1 20c0-3.9 3.6-6 8-6s8 2.1 8 6zM18 7h2v3h3v2h-3v3h-2v-3h-3v-2h3z',
  sun: 'M12 7a5 5 0 1 1 0 10 5 5 0 0 1 0-10zM11 1h2v3h-2zM11 20h2v3h-2zM1 11h3v2H1zM20 11h3v2h-3zM4.2 5.6l1.4-1.4 2.1 2.1-1.4 1.4zM16.3 17.7l1.4-1.4 2.1 2.1-1.4 1.4zM4.2 18.4l2.1-2.1 1.4 1.4-2.1 2.1zM16.3 6.3l2.1-2.1 1.4 1.4-2.1 2.1z',
};

/** The names of the icons. */
export const ICON_NAMES = Object.freeze(Object.keys(ICONS));

/**
 * A small inline SVG icon, decorative (aria-hidden): the control it sits in
 * carries the words. `size` is in CSS pixels.
 */
export function icon(name, size = 20) {
  const d = ICONS[name];
  if (!d) throw new Error(`no icon named ${name}`);
  const span = document.createElement('span');
  span.className = `svg-icon icon-${name}`;
  span.setAttribute('aria-hidden', 'true');
  span.innerHTML = `<svg viewBox="0 0 24 24" width="${size}" height="${size}" focusable="false"><path fill="currentColor" fill-rule="evenodd" d="${d}"/></svg>`;
  return span;
}
