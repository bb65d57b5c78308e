// The settings page's API tokens: make one for a board app or a lichess client
// (shown once, to copy), see which exist, revoke one.

import { api, session } from '../api.js';
import { t } from '../i18n.js';
import { confirmButton, h, replace, showError, toast } from '../ui.js';

const SCOPES = [
  ['board:play', 'tokens.scope.board'],
  ['bot:play', 'tokens.scope.bot'],
  ['challenge:read', 'tokens.scope.challengeRead'],
  ['challenge:write', 'tokens.scope.challengeWrite'],
];

/** The tokens card; it fills itself in and keeps its list current. */
export function tokensCard() {
  const card = h('section', { class: 'card tokens', 'aria-labelledby': 'tokens-title' });
  const list = h('ul', { class: 'token-list' });
  const shown = h('div', { class: 'token-shown', 'aria-live': 'polite' });

  const refresh = async () => {
    try {
      const tokens = await api('/api/token');
      if (!tokens.length) {
        replace(list, h('li', { class: 'muted' }, t('tokens.none')));
        return;
      }
      replace(list, ...tokens.map((token) => h('li', { class: 'token', 'data-token': token.id },
        h('span', { class: 'token-description' }, token.description),
        h('span', { class: 'token-scopes' }, token.scopes.split(',').filter(Boolean).join(' · ') || t('tokens.noScope')),
        h('time', { datetime: new Date(token.createdAt).toISOString() }, new Date(token.createdAt).toLocaleDateString()),
        confirmButton(t('tokens.revoke'), t('tokens.revokeSure'), async () => {
          try {
            await api(`/api/token/${encodeURIComponent(token.id)}`, { method: 'DELETE' });
            toast(t('tokens.revoked'), 'info', 2000);
            refresh();
          } catch (err) {
            showError(err);
          }
        }, { class: 'button danger' }))));
    } catch (err) {
      showError(err);
    }
  };

  if (!session.user) {
    replace(card, h('h2', { id: 'tokens-title' }, t('tokens.title')), h('p', { class: 'hint' }, t('tokens.signIn')));
    return card;
  }

  const description = h('input', { id: 'token-description', maxlength: 100, required: true, placeholder: t('tokens.descriptionHint') });
  const boxes = SCOPES.map(([scope, key]) => h('label', { class: 'check' },
    // A bot's token is asked for on purpose, as on lichess.
    h('input', { type: 'checkbox', value: scope, checked: scope !== 'bot:play' }),
    h('span', {}, t(key))));
  const form = h('form', {
    class: 'token-form',
    onsubmit: async (e) => {
      e.preventDefault();
      const scopes = boxes.map((b) => b.querySelector('input')).filter((i) => i.checked).map((i) => i.value);
      try {
        // An empty list is a token that only identifies its owner.
        const made = await api('/api/token', { form: { description: description.value.trim(), scopes: scopes.join(',') || ',' } });
        const value = h('input', { class: 'token-value', readonly: true, value: made.token, 'aria-label': t('tokens.title') });
        replace(shown, h('p', {}, t('tokens.created')), value);
        value.select();
        description.value = '';
        refresh();
      } catch (err) {
        showError(err);
      }
    },
  },
  h('div', { class: 'field' }, h('label', { for: 'token-description' }, t('tokens.description')), description),
  h('fieldset', { class: 'field' }, h('legend', {}, t('tokens.scopes')), ...boxes),
  h('button', { type: 'submit', class: 'button primary' }, t('tokens.create')));

  replace(card,
    h('h2', { id: 'tokens-title' }, t('tokens.title')),
    h('p', { class: 'hint' }, t('tokens.hint')),
    form, shown, list);
  refresh();
  return card;
}
