// The settings page: board look, sound, language, notation and move confirmation,
// the account's API tokens, and a link to the account page (password, blocks).

import { session } from '../api.js';
import { LANGS, lang, setLang, t } from '../i18n.js';
import * as settings from '../settings.js';
import { Board } from '../board.js';
import { h, replace, setTitle, showError, toast } from '../ui.js';
import { tokensCard } from './tokens.js';

export async function mount(container) {
  const page = new SettingsPage(container);
  page.render();
  return page;
}

class SettingsPage {
  constructor(container) {
    this.container = container;
  }

  destroy() {
    if (this.preview) this.preview.destroy();
  }

  onLang() {
    this.render();
  }

  render() {
    setTitle(t('nav.settings'));
    const s = settings.settings();
    const save = (partial) => {
      settings.update(partial);
      if (this.preview) {
        const now = settings.settings();
        this.preview.set({ pieceSet: now.pieceSet, theme: now.theme, coordinates: now.coordinates });
      }
      toast(t('settings.saved'), 'info', 1500);
    };
    const choice = (key, options, label) => h('fieldset', { class: 'field', 'data-setting': key },
      h('legend', {}, label),
      h('div', { class: 'radios' }, options.map(([value, text]) => h('label', { class: 'radio' },
        h('input', { type: 'radio', name: `set-${key}`, value, checked: s[key] === value, onchange: () => save({ [key]: value }) }),
        h('span', {}, text)))));
    const toggle = (key, label, hint) => h('div', { class: 'field', 'data-setting': key },
      h('label', { class: 'check' },
        h('input', { type: 'checkbox', id: `set-${key}`, checked: !!s[key], onchange: (e) => save({ [key]: e.target.checked }) }),
        h('span', {}, label)),
      hint ? h('p', { class: 'hint' }, hint) : null);
    const langSelect = h('select', {
      id: 'set-lang',
      onchange: async (e) => {
        settings.update({ lang: e.target.value });
        try {
          await setLang(e.target.value);
        } catch (err) {
          showError(err);
        }
      },
    }, LANGS.map((l) => h('option', { value: l.code, selected: l.code === lang(), lang: l.code }, l.name)));
    const previewHost = h('div', { class: 'board-host preview-board' });
    replace(this.container,
      h('h1', {}, t('nav.settings')),
      session.user ? h('p', {}, h('a', { href: '/account', 'data-testid': 'account-link' }, t('account.manage'))) : null,
      h('div', { class: 'settings-layout' },
        h('form', { class: 'card settings-form', onsubmit: (e) => e.preventDefault() },
          h('div', { class: 'field' }, h('label', { for: 'set-lang' }, t('settings.language')), langSelect),
          choice('pieceSet', settings.CHOICES.pieceSet.map((v) => [v, t(`settings.piece.${v}`)]), t('settings.pieceSet')),
          choice('theme', settings.CHOICES.theme.map((v) => [v, t(`settings.theme.${v}`)]), t('settings.theme')),
          choice('notation', [['san', t('settings.notation.san')], ['figurine', t('settings.notation.figurine')]], t('settings.notation')),
          choice('scheme', [['system', t('settings.scheme.system')], ['light', t('settings.scheme.light')], ['dark', t('settings.scheme.dark')]], t('settings.scheme')),
          toggle('coordinates', t('settings.coordinates')),
          toggle('sound', t('settings.sound')),
          toggle('confirmMove', t('settings.confirmMove'), t('settings.confirmMoveHint')),
          toggle('premove', t('settings.premove')),
          toggle('animation', t('settings.animation'))),
        h('div', { class: 'card preview' }, h('h2', {}, t('settings.preview')), previewHost)),
      tokensCard());
    if (this.preview) this.preview.destroy();
    try {
      this.preview = new Board(previewHost, {
        pieceSet: s.pieceSet, theme: s.theme, coordinates: s.coordinates, movableColor: null, label: t('settings.preview'),
      });
    } catch (err) {
      showError(err);
    }
  }
}
