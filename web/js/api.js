// Talking to the server: JSON calls with the session's CSRF token, errors turned
// into ApiError with the server's words, NDJSON streams, and the account event
// stream (games starting, challenges).

import { t } from './i18n.js';

const CSRF_KEY = 'caissa.csrf';

/** A failed call: `message` is what the server said (or a network problem). */
export class ApiError extends Error {
  constructor(message, status = 0) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
  }
}

/** Who is logged in: `user` is `{username, ...}` or null. */
export const session = {
  user: null,
  csrf: null,
};

const sessionListeners = new Set();

/** Calls `fn(session)` whenever the login changes. */
export function onSession(fn) {
  sessionListeners.add(fn);
  return () => sessionListeners.delete(fn);
}

function setSession(user, csrf) {
  session.user = user;
  session.csrf = csrf ?? null;
  try {
    if (csrf) localStorage.setItem(CSRF_KEY, csrf);
    else localStorage.removeItem(CSRF_KEY);
  } catch {
    // Storage unavailable: the token lives in memory only.
  }
  for (const fn of sessionListeners) fn(session);
}

/** Encodes an object as an HTML form body, skipping empty values. */
export function formBody(fields) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null || value === '') continue;
    params.append(key, String(value));
  }
  return params;
}

/** Reads the error message of a failed response. */
async function errorOf(response) {
  let message = '';
  try {
    const text = await response.text();
    try {
      const body = JSON.parse(text);
      message = body.error || body.message || '';
    } catch {
      message = text.trim().slice(0, 300);
    }
  } catch {
    message = '';
  }
  const routeMissing = !message && response.status === 404;
  if (!message) {
    message = response.status === 401 ? t('error.unauthorized') : t('error.http', { status: response.status });
  } else if (response.status === 401 && /unauthori|bearer|token|session/i.test(message)) {
    // The server speaks of API tokens; in the browser it means "not logged in".
    message = t('error.unauthorized');
  }
  const error = new ApiError(message, response.status);
  // An address the server does not know at all (no JSON error body).
  error.routeMissing = routeMissing;
  return error;
}

/**
 * Calls the API. Options: method, json (object body), form (object, sent as a
 * form), accept, signal, raw (return the Response). Answers parsed JSON, or the
 * text for other content types. Throws ApiError.
 */
export async function api(path, options = {}) {
  const method = options.method || (options.json || options.form ? 'POST' : 'GET');
  const headers = {};
  let body;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form !== undefined) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = formBody(options.form).toString();
  }
  if (options.accept) headers.Accept = options.accept;
  if (method !== 'GET' && method !== 'HEAD' && session.csrf) headers['X-CSRF-Token'] = session.csrf;
  let response;
  try {
    response = await fetch(path, { method, headers, body, signal: options.signal, credentials: 'same-origin' });
  } catch (err) {
    if (err && err.name === 'AbortError') throw err;
    throw new ApiError(t('error.network'), 0);
  }
  if (!response.ok) throw await errorOf(response);
  if (options.raw) return response;
  const type = response.headers.get('Content-Type') || '';
  if (type.includes('application/json')) return response.json();
  return response.text();
}

/**
 * Reads an NDJSON response line by line: `onLine(object)` for each non-empty line.
 * Resolves when the stream ends.
 */
export async function readNdjson(response, onLine) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (!line) continue;
      let parsed;
      try {
        parsed = JSON.parse(line);
      } catch {
        continue;
      }
      onLine(parsed);
    }
  }
  const rest = buffer.trim();
  if (rest) {
    try {
      onLine(JSON.parse(rest));
    } catch {
      // A partial line at the end: nothing to do.
    }
  }
}

/** Parses NDJSON text into objects. */
export function parseNdjson(text) {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .flatMap((line) => {
      try {
        return [JSON.parse(line)];
      } catch {
        return [];
      }
    });
}

// ----- accounts -----

/** Finds out who is logged in (cookie session). */
export async function loadAccount() {
  try {
    // 200 with a null account for a visitor: no failed request on every page view.
    const { account } = await api('/api/session');
    if (!account) {
      setSession(null, null);
      return null;
    }
    let csrf = account.csrf;
    if (!csrf) {
      try {
        csrf = localStorage.getItem(CSRF_KEY);
      } catch {
        csrf = null;
      }
    }
    setSession(account, csrf);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
      setSession(null, null);
      return null;
    }
    throw err;
  }
  return session.user;
}

export async function register(username, password) {
  const answer = await api('/api/register', { json: { username, password } });
  setSession({ username: answer.username }, answer.csrf);
  return answer;
}

export async function login(username, password) {
  const answer = await api('/api/login', { json: { username, password } });
  setSession({ username: answer.username }, answer.csrf);
  return answer;
}

export async function guest() {
  const answer = await api('/api/guest', { method: 'POST' });
  setSession({ username: answer.username, guest: true }, answer.csrf);
  return answer;
}

export async function logout() {
  try {
    await api('/api/logout', { method: 'POST' });
  } finally {
    setSession(null, null);
  }
}

/** Whether `name` is the logged-in user. */
export function isMe(name) {
  return !!session.user && !!name && session.user.username.toLowerCase() === String(name).toLowerCase();
}
