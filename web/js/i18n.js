// Translations: English, Simplified and Traditional Chinese. The dictionaries are
// JSON files in /static/i18n/; English is always loaded as the fallback.

export const LANGS = [
  { code: 'en', name: 'English' },
  { code: 'zh-Hans', name: '简体中文' },
  { code: 'zh-Hant', name: '繁體中文' },
];

const dictionaries = new Map();
let current = 'en';
const listeners = new Set();

/** Installs a dictionary directly (tests, or a preloaded one). */
export function setDictionary(code, dict) {
  dictionaries.set(code, dict);
}

/** The language in use. */
export function lang() {
  return current;
}

/** The best supported language for a browser's preferences. */
export function pickLanguage(preferred = []) {
  for (const tag of preferred) {
    const lower = String(tag).toLowerCase();
    if (lower === 'en' || lower.startsWith('en-')) return 'en';
    if (lower.startsWith('zh')) {
      return /hant|tw|hk|mo/.test(lower) ? 'zh-Hant' : 'zh-Hans';
    }
  }
  return 'en';
}

async function load(code) {
  if (dictionaries.has(code)) return dictionaries.get(code);
  const response = await fetch(`/static/i18n/${code}.json`);
  if (!response.ok) throw new Error(`cannot load language ${code}: HTTP ${response.status}`);
  const dict = await response.json();
  dictionaries.set(code, dict);
  return dict;
}

/** Switches language (loading it if needed) and tells every listener. */
export async function setLang(code) {
  if (!LANGS.some((l) => l.code === code)) code = 'en';
  await load('en');
  await load(code);
  current = code;
  if (typeof document !== 'undefined') document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

/** Calls `fn(code)` after every language change; returns an unsubscribe function. */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * The text for `key` in the current language, with `{name}` placeholders filled
 * from `params`. Falls back to English, then to the key itself.
 */
export function t(key, params) {
  const dict = dictionaries.get(current);
  let text = dict && key in dict ? dict[key] : undefined;
  if (text === undefined) {
    const en = dictionaries.get('en');
    text = en && key in en ? en[key] : key;
  }
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  }
  return text;
}

/** Whether `key` exists in the English dictionary. */
export function has(key) {
  const en = dictionaries.get('en');
  return !!en && key in en;
}
