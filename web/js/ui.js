// Small DOM helpers shared by every page: element creation, toasts, the
// polite/assertive live regions and confirmation-by-second-click buttons.

import { icon } from './icons.js';
import { t } from './i18n.js';

/**
 * Creates an element. `attrs` may hold: class, text, html-free props, dataset
 * (object), style (string), on<Event> handlers, aria-* and any other attribute.
 * Children may be strings, nodes, arrays or null/false (skipped).
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'text') el.textContent = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key in el && typeof value !== 'string') el[key] = value;
    else if (key === 'value' || key === 'checked' || key === 'disabled' || key === 'selected') {
      el[key] = value;
    } else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** Removes every child of `el` and appends `children`. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Shows a message for a while; errors stay longer and are announced at once. */
export function toast(message, kind = 'error', ms) {
  const box = document.getElementById('toasts');
  if (!box) return;
  const item = h('div', { class: `toast toast-${kind}`, role: kind === 'error' ? 'alert' : 'status' },
    kind === 'error' ? icon('warning', 18) : null,
    h('span', { class: 'toast-text' }, message),
    h('button', { class: 'toast-close', type: 'button', 'aria-label': t('common.close'), title: t('common.close'), onclick: () => item.remove() }, '×'));
  box.append(item);
  const life = ms ?? (kind === 'error' ? 9000 : 4000);
  setTimeout(() => item.remove(), life);
  return item;
}

/** Shows an error (an Error or a string) as a toast, in words. */
export function showError(err) {
  const text = err && err.message ? err.message : String(err);
  toast(text, 'error');
}

/** Says `text` to screen-reader users through the page's live region. */
export function announce(text) {
  const region = document.getElementById('announcer');
  if (!region) return;
  // Clear first so the same words twice are still read.
  region.textContent = '';
  setTimeout(() => { region.textContent = text; }, 30);
}

/**
 * A compact button (or link, with `tag: 'a'`): an icon, and its words as the
 * accessible name and the tooltip. `shown` also writes the words beside the
 * icon, for a state the eye must not miss ("Draw offer sent"). A `title` in
 * `attrs` gives a longer tooltip.
 */
export function iconButton(name, label, attrs = {}, { tag = 'button', shown = false } = {}) {
  const base = tag === 'button' ? { type: 'button' } : {};
  return h(tag, { ...base, 'aria-label': label, title: label, ...attrs, class: `${attrs.class || 'button'} icon${shown ? ' labelled' : ''}` },
    icon(name), h('span', { class: shown ? 'button-label' : 'sr-only' }, label));
}

/**
 * A button that asks "sure?" before acting: the first click arms it for 3 s.
 * With `iconName` it is an icon button whose question is written out while armed.
 */
export function confirmButton(label, confirmLabel, action, attrs = {}, iconName = null) {
  let armed = null;
  const button = iconName ? iconButton(iconName, label, attrs) : h('button', { type: 'button', ...attrs }, label);
  const say = (text, on) => {
    button.classList.toggle('armed', on);
    if (!iconName) {
      button.textContent = text;
      return;
    }
    button.setAttribute('aria-label', text);
    button.title = text;
    button.classList.toggle('labelled', on);
    button.lastChild.textContent = text;
    button.lastChild.className = on ? 'button-label' : 'sr-only';
  };
  button.addEventListener('click', () => {
    if (armed) {
      clearTimeout(armed);
      armed = null;
      say(label, false);
      action();
      return;
    }
    say(confirmLabel, true);
    armed = setTimeout(() => {
      armed = null;
      say(label, false);
    }, 3000);
  });
  return button;
}

/** Formats a clock reading: h:mm:ss, m:ss, or s.t under 10 s. */
export function formatClock(ms) {
  const clamped = Math.max(0, ms);
  if (clamped < 10_000) {
    const tenths = Math.floor(clamped / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const total = Math.floor(clamped / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const ss = String(seconds).padStart(2, '0');
  if (hours > 0) return `${hours}:${String(minutes).padStart(2, '0')}:${ss}`;
  return `${minutes}:${ss}`;
}

/** Offers `text` as a file download named `name`. */
export function download(name, text, type = 'application/x-chess-pgn') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Sets the document title. */
export function setTitle(text) {
  document.title = text ? `${text} · Caissa` : 'Caissa';
}
