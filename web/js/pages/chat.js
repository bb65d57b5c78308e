// A game's chat beside the board: players talk in their own room, anyone else
// signed in in the spectators' room (as on lichess). Lines are sent over HTTP and
// arrive, everyone's own included, on the game's socket; after the game the
// socket is closed, so one's own lines are shown as soon as they are stored.

import { api, session } from '../api.js';
import { t } from '../i18n.js';
import { h, replace, showError } from '../ui.js';

const MAX_CHARS = 140;

export class ChatPanel {
  /** `socketOpen()` says whether lines will still come over the socket. */
  constructor(gameId, socketOpen) {
    this.gameId = gameId;
    this.socketOpen = socketOpen;
    this.room = null;
    this.lines = [];
    this.el = h('section', { class: 'chat', 'data-testid': 'chat' });
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
      if (!this.socketOpen()) this.onLine({ room: this.room, username: session.user.username, text });
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
