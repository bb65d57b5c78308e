// A game's chat beside the board: players talk in their own room, anyone else
// signed in in the spectators' room (as on lichess). Lines are sent over HTTP and
// arrive, everyone's own included, on the game's socket; after the game the
// socket is closed, so the room is read again every few seconds (and after each
// line sent) while the page is open. The viewer may mute every game's chat (a
// setting), and report someone else's line to the operators.

import { api, session } from '../api.js';
import { t } from '../i18n.js';
import * as settings from '../settings.js';
import { icon } from '../icons.js';
import { h, replace, showError } from '../ui.js';

/** Whether `viewer` (a username, or null) may report `line`: someone else's. */
export function reportable(line, viewer) {
  return !!viewer && !!line.username && line.username.toLowerCase() !== viewer.toLowerCase();
}

const lineKey = (l) => `${l.username}\n${l.text}`;

const MAX_CHARS = 140;
/** How often the room is read again once the game's socket has closed. */
const POLL_MS = 5000;
/** For how long after the game. */
const POLL_FOR_MS = 10 * 60_000;

export class ChatPanel {
  /** `socketOpen()` says whether lines will still come over the socket. */
  constructor(gameId, socketOpen) {
    this.gameId = gameId;
    this.socketOpen = socketOpen;
    this.room = null;
    this.lines = [];
    this.el = h('section', { class: 'chat', 'data-testid': 'chat' });
    this.poller = null;
    /** The lines reported from this page, by lineKey. */
    this.reported = new Set();
  }

  /** Reads the room again every few seconds: the socket carries no more lines. */
  keepReading() {
    if (this.poller || !this.room) return;
    const until = Date.now() + POLL_FOR_MS;
    this.poller = setInterval(() => {
      if (Date.now() > until) this.stop();
      else this.reload();
    }, POLL_MS);
  }

  stop() {
    clearInterval(this.poller);
    this.poller = null;
  }

  /** The room as the server has it. */
  async reload() {
    try {
      const lines = await api(`/api/board/game/${encodeURIComponent(this.gameId)}/chat`);
      const fresh = lines.map((l) => ({ username: l.user, text: l.text }));
      if (JSON.stringify(fresh) === JSON.stringify(this.lines)) return;
      this.lines = fresh;
      this.renderLines();
    } catch {
      // Shown on the next try, or not at all once the page is left.
    }
  }

  /** Opens the room of a player (`true`) or a spectator, and reads what was said. */
  async open(asPlayer) {
    const room = asPlayer ? 'player' : 'spectator';
    if (!session.user || room === this.room) return;
    this.room = room;
    this.render();
    try {
      const lines = await api(`/api/board/game/${encodeURIComponent(this.gameId)}/chat`);
      // Lines that came over the socket while the history was on its way stay.
      const fresh = lines.map((l) => ({ username: l.user, text: l.text }));
      const seen = new Set(fresh.map(lineKey));
      this.lines = [...fresh, ...this.lines.filter((l) => !seen.has(lineKey(l)))];
      this.renderLines();
    } catch (err) {
      showError(err);
    }
  }

  /** A line from the socket. */
  onLine(msg) {
    if (msg.room !== this.room) return;
    this.lines.push({ username: msg.username, text: msg.text });
    this.renderLines();
  }

  async send(input) {
    const text = input.value.trim();
    if (!text) return;
    this.tell('');
    try {
      await api(`/api/board/game/${encodeURIComponent(this.gameId)}/chat`, { form: { room: this.room, text } });
      input.value = '';
      if (!this.socketOpen()) await this.reload();
    } catch (err) {
      this.tell(err.message, true);
    }
  }

  /** Reports `line` (insults, harassment or spam) to the operators. */
  async report(line) {
    this.tell('');
    try {
      await api('/api/report', { json: { username: line.username, reason: 'comm', text: line.text, gameId: this.gameId } });
      this.reported.add(lineKey(line));
      this.tell(t('chat.reported', { name: line.username }));
    } catch (err) {
      this.tell(err.message, true);
    }
    this.renderLines();
  }

  /** Says how sending or reporting went, under the chat (`error`: it failed). */
  tell(text, error = false) {
    if (!this.errorEl) return;
    this.errorEl.textContent = error ? text : '';
    this.noteEl.textContent = error ? '' : text;
  }

  render() {
    if (!this.room) {
      replace(this.el);
      return;
    }
    const muted = settings.get('chatMuted');
    const head = h('div', { class: 'chat-head' },
      h('h2', { class: 'chat-title' }, this.room === 'player' ? t('chat.players') : t('chat.spectators')),
      h('label', { class: 'check chat-mute' },
        h('input', {
          type: 'checkbox', id: 'chat-muted', checked: muted,
          onchange: (e) => {
            settings.update({ chatMuted: e.target.checked });
            this.render();
            this.el.querySelector('#chat-muted')?.focus();
          },
        }),
        h('span', {}, t('chat.mute'))));
    if (muted) {
      this.list = null;
      this.errorEl = null;
      replace(this.el, head, h('p', { class: 'muted', 'data-testid': 'chat-muted' }, t('chat.muted')));
      return;
    }
    this.list = h('ol', { class: 'chat-lines', 'aria-live': 'polite', 'aria-label': t('chat.title') });
    this.errorEl = h('p', { class: 'field-error', role: 'alert', 'data-testid': 'chat-error' });
    this.noteEl = h('p', { class: 'ok-text chat-note', role: 'status', 'data-testid': 'chat-note' });
    const input = h('input', {
      id: 'chat-input', maxlength: MAX_CHARS, autocomplete: 'off', placeholder: t('chat.placeholder'),
    });
    replace(this.el,
      head,
      this.list,
      h('form', {
        class: 'chat-form',
        onsubmit: (e) => {
          e.preventDefault();
          this.send(input);
        },
      },
      h('label', { for: 'chat-input', class: 'sr-only' }, t('chat.title')),
      input,
      h('button', { type: 'submit', class: 'button' }, t('chat.send'))),
      this.errorEl,
      this.noteEl);
    this.renderLines();
  }

  renderLines() {
    if (!this.list) return;
    const me = session.user ? session.user.username : null;
    replace(this.list, ...this.lines.map((l) => h('li', { class: 'chat-line' },
      h('span', { class: 'chat-user' }, l.username), ' ', h('span', { class: 'chat-text' }, l.text),
      reportable(l, me) ? this.reportButton(l) : null)));
    this.list.scrollTop = this.list.scrollHeight;
  }

  /**
   * The report action of someone else's line: an icon only, its words in its
   * name, so that the line reads the same (once reported, it stays marked).
   */
  reportButton(line) {
    const done = this.reported.has(lineKey(line));
    const label = done ? t('chat.lineReported') : t('chat.report', { name: line.username });
    return h('button', {
      type: 'button', class: `chat-report${done ? ' done' : ''}`, 'data-action': 'report-line',
      'aria-label': label, title: label, disabled: done,
      onclick: (e) => {
        e.currentTarget.disabled = true;
        this.report(line);
      },
    }, icon('warning', 16));
  }
}
