// The player's preferences, kept in localStorage.

const KEY = 'caissa.settings';

export const DEFAULTS = Object.freeze({
  pieceSet: 'classic', // classic | flat | playful | minimal | chinese
  theme: 'wood', // wood | green | blue | grey | marble | ink | contrast
  sound: true,
  lang: null, // null: from the browser
  confirmMove: false,
  notation: 'san', // san | figurine
  coordinates: true,
  premove: true,
  animation: true,
  scheme: 'system', // system | light | dark
  chatMuted: false, // hides every game's chat
});

export const CHOICES = Object.freeze({
  pieceSet: ['classic', 'flat', 'playful', 'minimal', 'chinese'],
  theme: ['wood', 'green', 'blue', 'grey', 'marble', 'ink', 'contrast'],
  notation: ['san', 'figurine'],
  lang: ['en', 'zh-Hans', 'zh-Hant'],
  scheme: ['system', 'light', 'dark'],
});

const listeners = new Set();
let cache = null;

function storage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** Keeps only known keys with values of the right kind. */
export function sanitize(raw) {
  const out = { ...DEFAULTS };
  if (!raw || typeof raw !== 'object') return out;
  for (const [key, def] of Object.entries(DEFAULTS)) {
    const value = raw[key];
    if (value === undefined) continue;
    if (CHOICES[key]) {
      if (CHOICES[key].includes(value)) out[key] = value;
    } else if (typeof def === 'boolean') {
      if (typeof value === 'boolean') out[key] = value;
    }
  }
  return out;
}

/** All settings. */
export function settings() {
  if (!cache) {
    let raw = null;
    try {
      raw = JSON.parse(storage()?.getItem(KEY) ?? 'null');
    } catch {
      raw = null;
    }
    cache = sanitize(raw);
  }
  return cache;
}

/** One setting. */
export function get(key) {
  return settings()[key];
}

/** Changes settings, stores them and tells the listeners. */
export function update(partial) {
  cache = sanitize({ ...settings(), ...partial });
  try {
    storage()?.setItem(KEY, JSON.stringify(cache));
  } catch {
    // Private mode or full storage: the settings last for this page only.
  }
  for (const fn of listeners) fn(cache, partial);
  return cache;
}

/** Calls `fn(settings, changed)` after every change; returns an unsubscribe function. */
export function onChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
