// Log in, register, or play as a guest.

import * as account from '../api.js';
import { t } from '../i18n.js';
import { h, replace, setTitle, showError, toast } from '../ui.js';

export async function mount(container, params, ctx) {
  const page = new Auth(container, params.mode, ctx);
  page.render();
  return page;
}

class Auth {
  constructor(container, mode, ctx) {
    this.container = container;
    this.mode = mode === 'register' ? 'register' : 'login';
    this.navigate = ctx.navigate;
    // Where to go afterwards: a path of this site only (?next=/challenge/…).
    const next = ctx.query ? ctx.query.get('next') : null;
    this.next = next && /^\/(?![/\\])/.test(next) ? next : '/';
    this.values = { username: '', password: '' };
  }

  destroy() {}

  onLang() {
    this.render();
  }

  render() {
    const register = this.mode === 'register';
    const title = t(register ? 'auth.registerTitle' : 'auth.loginTitle');
    setTitle(title);
    const error = h('p', { class: 'field-error', role: 'alert', id: 'auth-error' });
    const username = h('input', {
      type: 'text', id: 'auth-username', name: 'username', required: true, autocomplete: 'username',
      minlength: '2', maxlength: '20', value: this.values.username, 'aria-describedby': register ? 'username-hint' : null,
      oninput: (e) => { this.values.username = e.target.value; },
    });
    const password = h('input', {
      type: 'password', id: 'auth-password', name: 'password', required: true,
      autocomplete: register ? 'new-password' : 'current-password', minlength: register ? '8' : null,
      'aria-describedby': register ? 'password-hint' : null,
      oninput: (e) => { this.values.password = e.target.value; },
    });
    const submit = h('button', { type: 'submit', class: 'button primary wide' }, title);
    const form = h('form', {
      class: 'card auth-form',
      'aria-labelledby': 'auth-title',
      onsubmit: async (e) => {
        e.preventDefault();
        error.textContent = '';
        submit.disabled = true;
        try {
          if (register) await account.register(username.value.trim(), password.value);
          else await account.login(username.value.trim(), password.value);
          toast(t(register ? 'auth.welcomeNew' : 'auth.welcome', { name: account.session.user.username }), 'info');
          this.navigate(this.next);
        } catch (err) {
          const message = !register && err.status === 401 ? t('auth.badLogin') : err.message;
          error.textContent = message;
          showError(message);
        } finally {
          submit.disabled = false;
        }
      },
    },
    h('h1', { id: 'auth-title' }, title),
    h('div', { class: 'field' },
      h('label', { for: 'auth-username' }, t('auth.username')), username,
      register ? h('p', { class: 'hint', id: 'username-hint' }, t('auth.usernameHint')) : null),
    h('div', { class: 'field' },
      h('label', { for: 'auth-password' }, t('auth.password')), password,
      register ? h('p', { class: 'hint', id: 'password-hint' }, t('auth.passwordHint')) : null),
    error,
    submit,
    h('p', { class: 'switch-auth' },
      register ? t('auth.haveAccount') : t('auth.noAccount'), ' ',
      h('a', { href: `${register ? '/login' : '/register'}${this.next !== '/' ? `?next=${encodeURIComponent(this.next)}` : ''}` }, t(register ? 'nav.login' : 'nav.register'))),
    h('p', {},
      h('button', {
        type: 'button',
        class: 'link-button',
        onclick: async () => {
          try {
            await account.guest();
            toast(t('auth.welcome', { name: account.session.user.username }), 'info');
            this.navigate(this.next);
          } catch (err) {
            showError(err);
          }
        },
      }, t('auth.playAsGuest'))));
    replace(this.container, h('div', { class: 'auth-page' }, form));
  }
}
