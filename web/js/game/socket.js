// The game page's link to the server: the game's WebSocket (reconnecting with
// back-off) and, where the socket does not know the session, the same actions
// through the board HTTP API. Mixed into GamePage (pages/game.js).

import { api } from '../api.js';
import { t } from '../i18n.js';
import { isOver } from '../format.js';
import { h, replace } from '../ui.js';

export const socketMethods = {
  connect() {
    if (this.destroyed) return;
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/api/socket/game/${encodeURIComponent(this.id)}`);
    this.ws = ws;
    ws.onopen = () => {
      this.attempts = 0;
      this.connection = 'open';
      this.renderConnection();
    };
    ws.onmessage = (e) => {
      let msg;
      try {
        msg = JSON.parse(e.data);
      } catch {
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      for (const p of this.pendingReplies.splice(0)) p.reject(new Error(t('game.disconnected')));
      if (this.destroyed) return;
      if (this.state && isOver(this.state.status)) {
        this.connection = 'closed';
        this.renderConnection();
        this.chatPanel().keepReading();
        return;
      }
      this.connection = 'reconnecting';
      this.renderConnection();
      const delay = Math.min(500 * 2 ** this.attempts, 10_000);
      this.attempts++;
      this.reconnectTimer = setTimeout(() => this.connect(), delay);
    };
  },

  renderConnection() {
    if (!this.el) return;
    const text = this.connection === 'reconnecting'
      ? t('game.reconnecting')
      : this.connection === 'connecting' ? t('game.connecting') : '';
    replace(this.el.connection, text ? h('span', { class: 'reconnecting', 'data-testid': 'reconnecting' }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), text) : null);
  },

  sendWs(message) {
    return new Promise((resolve, reject) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        reject(new Error(t('game.disconnected')));
        return;
      }
      this.pendingReplies.push({ resolve, reject });
      this.ws.send(JSON.stringify(message));
    });
  },

  /** Sends an action; the server's refusal comes back as an Error with its words. */
  async act(message) {
    if (!this.httpMode) {
      try {
        return await this.sendWs(message);
      } catch (err) {
        // A socket that does not know the session answers as to a spectator:
        // the same actions go through the HTTP API with the session cookie.
        if (!(this.myColor && /spectator/i.test(err.message))) throw err;
        this.httpMode = true;
      }
    }
    return this.actHttp(message);
  },

  async actHttp(message) {
    const base = `/api/board/game/${encodeURIComponent(this.id)}`;
    const post = (path) => api(`${base}/${path}`, { method: 'POST' });
    switch (message.t) {
      case 'move':
        return post(`move/${encodeURIComponent(message.uci)}`);
      case 'resign':
        return post('resign');
      case 'abort':
        return post('abort');
      case 'draw':
        return post(`draw/${message.accept === false ? 'no' : 'yes'}`);
      case 'takeback':
        return post(`takeback/${message.accept === false ? 'no' : 'yes'}`);
      case 'claim-victory':
        return post('claim-victory');
      case 'claim-flag':
        return post('claim-flag');
      case 'claim-draw-gone':
        return post('claim-draw');
      case 'seal':
        return api(`${base}/seal`, { form: { move: message.move } });
      case 'propose-resumption':
        return api(`${base}/resume`, { form: { at: message.at } });
      case 'request-increment':
        return post('request-increment');
      case 'claim-no-progress':
        return post('claim-no-progress');
      case 'berserk':
        return post('berserk');
      default:
        throw new Error(t('game.needsSocket'));
    }
  },
};
