// A game's chat beside the board: players talk in their own room, anyone else
// signed in in the spectators' room (as on lichess). Lines are sent over HTTP and
// arrive, everyone's own included, on the game's socket; after the game the
// socket is closed, so the room is read again every few seconds (and after each
// line sent) while the page is open.

import { api, session } from '../api.js';
import { t } from '../i18n.js';
import { h, replace, showError } from '../ui.js';

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
      const seen = new Set(lines.map((l) => `${l.user}\n${l.text}`));
      this.lines = [...lines.map((l) => ({ username: l.user, text: l.text })),
        ...this.lines.filter((l) => !seen.has(`${l.username}\n${l.text}`))];
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
    try {
      await api(`/api/board/game/${encodeURIComponent(this.gameId)}/chat`, { form: { room: this.room, text } });
      input.value = '';
      if (!this.socketOpen()) await this.reload();
    } catch (err) {
      showError(err);
    }
  }

  render() {
    if (!this.room) {
      replace(this.el);
      return;
    }
    this.list = h('ol', { class: 'chat-lines', 'aria-live': 'polite', 'aria-label': t('chat.title') });
    const input = h('input', {
      id: 'chat-input', maxlength: MAX_CHARS, autocomplete: 'off', placeholder: t('chat.placeholder'),
    });
    replace(this.el,
      h('h2', { class: 'chat-title' }, this.room === 'player' ? t('chat.players') : t('chat.spectators')),
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
      h('button', { type: 'submit', class: 'button' }, t('chat.send'))));
    this.renderLines();
  }

  renderLines() {
    if (!this.list) return;
    replace(this.list, ...this.lines.map((l) => h('li', { class: 'chat-line' },
      h('span', { class: 'chat-user' }, l.username), ' ', h('span', { class: 'chat-text' }, l.text))));
    this.list.scrollTop = this.list.scrollHeight;
  }
}
