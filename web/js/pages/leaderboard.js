// The leaderboard: the best established players at each speed, with how far
// their rating moved over their last games.

import { api } from '../api.js';
import { t } from '../i18n.js';
import { speedName } from '../format.js';
import { h, replace, setTitle } from '../ui.js';

const SPEEDS = ['bullet', 'blitz', 'rapid', 'classical', 'correspondence'];
const SHOWN = 50;

export async function mount(container) {
  const page = new Leaderboard(container);
  await page.show('blitz');
  return page;
}

class Leaderboard {
  constructor(container) {
    this.container = container;
  }

  destroy() {}

  onLang() {
    this.show(this.speed);
  }

  async show(speed) {
    this.speed = speed;
    setTitle(t('leaderboard.title'));
    const tabs = h('div', { class: 'tabs', role: 'tablist', 'aria-label': t('leaderboard.speeds') },
      SPEEDS.map((s) => h('button', {
        type: 'button',
        role: 'tab',
        class: `tab ${s === speed ? 'current' : ''}`,
        'aria-selected': s === speed ? 'true' : 'false',
        'data-speed': s,
        onclick: () => this.show(s),
      }, speedName(s))));
    const body = h('div', { role: 'tabpanel', 'data-testid': 'leaderboard' }, h('p', { class: 'muted' }, t('common.loading')));
    replace(this.container, h('h1', {}, t('leaderboard.title')), tabs, body);
    let users;
    try {
      users = (await api(`/api/player/top/${SHOWN}/${speed}`)).users || [];
    } catch (err) {
      replace(body, h('p', { class: 'error-text', role: 'alert' }, err.message));
      return;
    }
    if (this.speed !== speed) return;
    if (!users.length) {
      replace(body, h('p', { class: 'muted' }, t('leaderboard.none')));
      return;
    }
    replace(body, h('table', { class: 'table leaderboard' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, '#'),
        h('th', { scope: 'col' }, t('leaderboard.player')),
        h('th', { scope: 'col' }, t('leaderboard.rating')),
        h('th', { scope: 'col' }, t('leaderboard.progress')))),
      h('tbody', {}, users.map((u, i) => {
        const perf = u.perfs?.[speed] || {};
        const progress = perf.progress || 0;
        return h('tr', {},
          h('td', {}, String(i + 1)),
          h('td', {}, u.title ? h('span', { class: 'user-title' }, u.title) : null, u.title ? ' ' : null,
            h('a', { href: `/@/${encodeURIComponent(u.username)}` }, u.username)),
          h('td', {}, String(perf.rating ?? '')),
          h('td', { class: `rating-diff ${progress > 0 ? 'up' : progress < 0 ? 'down' : 'same'}` }, progress > 0 ? `+${progress}` : String(progress)));
      }))));
  }
}
