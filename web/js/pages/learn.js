// "Learn chess": the map of lessons (/learn) and one lesson (/learn/{id}), its
// exercises one at a time on the board or as a quiz. The server judges every
// answer (POST /api/learn/{lesson}/{exercise}); the page only shows the legal
// destinations, from the rules module, and the verdicts. Stars are kept in this
// browser for everyone and on the server for a signed-in learner.

import { Board } from '../board.js';
import { destsMap, loadRules, position as rulesPosition } from '../rules.js';
import { fenTurn } from '../fen.js';
import { api, session } from '../api.js';
import * as events from '../events.js';
import { lang, t } from '../i18n.js';
import * as settings from '../settings.js';
import { announce, h, replace, setTitle, showError } from '../ui.js';
import {
  byCategory, lessonDone, lessonStars, localText, maxStars, mergeProgress, mistakeKey, nextLesson, readLocal,
  withStars, writeLocal,
} from '../learn/progress.js';

const STAR_PATH = 'M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z';

/** A small star, filled or hollow; decorative (the words around it say how many). */
function star(filled, size = 16) {
  const span = h('span', { class: `learn-star${filled ? ' filled' : ''}`, 'aria-hidden': 'true' });
  span.innerHTML = `<svg viewBox="0 0 24 24" width="${size}" height="${size}" focusable="false"><path d="${STAR_PATH}"/></svg>`;
  return span;
}

/** `n` stars of three, with their words for screen readers. */
function starRow(n, size) {
  return h('span', { class: 'learn-stars', role: 'img', 'aria-label': t('learn.starsOf', { n, max: 3 }) },
    [1, 2, 3].map((i) => star(i <= n, size)));
}

/** The lessons and the learner's stars: this browser's record merged with the server's. */
async function load() {
  const [{ lessons }, remote] = await Promise.all([
    api('/api/learn'),
    session.user && !session.user.guest ? api('/api/learn/progress').catch(() => null) : null,
  ]);
  const record = mergeProgress(readLocal(), remote && remote.lessons);
  writeLocal(record);
  return { lessons, record };
}

export async function mount(container, params, ctx) {
  const page = params.id ? new Lesson(container, params.id, ctx) : new LessonMap(container);
  await page.start();
  return page;
}

class LessonMap {
  constructor(container) {
    this.container = container;
  }

  async start() {
    setTitle(t('learn.title'));
    let data;
    try {
      data = await load();
    } catch (err) {
      showError(err);
      return;
    }
    const { lessons, record } = data;
    const lg = lang();
    replace(this.container,
      h('h1', {}, t('learn.title')),
      h('p', { class: 'muted' }, t('learn.subtitle')),
      byCategory(lessons).map(([category, list]) => h('section', { class: 'learn-category', 'aria-labelledby': `learn-cat-${category}` },
        h('h2', { id: `learn-cat-${category}` }, t(`learn.category.${category}`)),
        h('ul', { class: 'learn-lessons' }, list.map((lesson) => {
          const got = lessonStars(record, lesson);
          const done = lessonDone(record, lesson);
          return h('li', {},
            h('a', { href: `/learn/${encodeURIComponent(lesson.id)}`, class: `learn-lesson${done ? ' done' : ''}`, 'data-lesson': lesson.id },
              h('span', { class: 'learn-lesson-title' }, localText(lesson.title, lg)),
              h('span', { class: 'learn-lesson-stars', 'data-testid': 'lesson-stars' },
                star(got > 0, 14), t('learn.starCount', { n: got, max: maxStars(lesson) })),
              done ? h('span', { class: 'learn-done' }, t('learn.done')) : null));
        })))));
  }
}

class Lesson {
  constructor(container, id, ctx) {
    this.container = container;
    this.id = id;
    this.navigate = ctx.navigate;
    this.board = null;
    this.boards = [];
  }

  async start() {
    let data;
    try {
      [data] = await Promise.all([load(), loadRules()]);
    } catch (err) {
      showError(err);
      return;
    }
    this.lessons = data.lessons;
    this.record = data.record;
    this.lesson = data.lessons.find((l) => l.id === this.id);
    if (!this.lesson) {
      setTitle(t('page.notFound'));
      replace(this.container, h('h1', {}, t('page.notFound')), h('p', {}, h('a', { href: '/learn' }, t('learn.back'))));
      return;
    }
    const lg = lang();
    setTitle(localText(this.lesson.title, lg));
    this.el = {
      step: h('p', { class: 'learn-step', 'data-testid': 'learn-step' }),
      body: h('div', { class: 'learn-body' }),
    };
    replace(this.container,
      h('p', {}, h('a', { href: '/learn' }, t('learn.back'))),
      h('h1', {}, localText(this.lesson.title, lg)),
      h('p', { class: 'learn-intro' }, localText(this.lesson.intro, lg)),
      this.el.step, this.el.body);
    // `?exercise=N` (from 1) opens that exercise: a link can point at one.
    const asked = Number(new URLSearchParams(window.location.search).get('exercise'));
    const last = this.lesson.exercises.length;
    this.show(Number.isInteger(asked) && asked >= 1 && asked <= last ? asked - 1 : 0);
  }

  destroy() {
    this.clearBoards();
  }

  clearBoards() {
    for (const board of this.boards) board.destroy();
    this.boards = [];
    this.board = null;
  }

  /** A board in `host`; `interactive` ones send their moves to `play`. */
  makeBoard(host, fen, interactive) {
    const s = settings.settings();
    const board = new Board(host, {
      fen,
      orientation: fenTurn(fen) || 'white',
      coordinates: interactive && s.coordinates,
      pieceSet: s.pieceSet,
      theme: s.theme,
      animation: s.animation,
      premove: false,
      label: interactive ? t('game.board') : t('learn.choiceBoard'),
      onMove: interactive ? (uci) => this.play(uci) : null,
    });
    this.boards.push(board);
    return board;
  }

  /** Shows exercise `index` from its start. */
  show(index) {
    this.clearBoards();
    this.index = index;
    this.moves = [];
    this.busy = false;
    const ex = this.lesson.exercises[index];
    const lg = lang();
    const total = this.lesson.exercises.length;
    this.el.step.textContent = t('learn.exercise', { n: index + 1, total });
    this.el.feedback = h('div', { class: 'learn-feedback', role: 'status', 'aria-live': 'polite', 'data-testid': 'learn-feedback' });
    this.el.actions = h('div', { class: 'learn-actions' });
    const quiz = ex.goal.kind === 'quiz';
    const hint = ex.hint ? h('p', { class: 'learn-hint', hidden: true, tabindex: '-1' }, localText(ex.hint, lg)) : null;
    replace(this.el.body,
      h('p', { class: 'learn-instruction', 'data-testid': 'learn-instruction' }, localText(ex.prompt || ex.instruction, lg)),
      quiz ? this.quizView(ex, lg) : this.boardView(ex),
      hint ? h('button', {
        type: 'button', class: 'button', 'data-testid': 'learn-hint',
        onclick: (e) => {
          hint.hidden = false;
          e.currentTarget.remove();
          hint.focus();
        },
      }, t('learn.hint')) : null,
      hint,
      this.el.feedback, this.el.actions);
  }

  boardView(ex) {
    const host = h('div', { class: 'board-host' });
    const wrap = h('div', { class: 'board-wrap learn-board' }, host);
    this.board = this.makeBoard(host, ex.fen, true);
    this.fen = ex.fen;
    this.setPosition(ex.fen);
    return wrap;
  }

  /** Puts `fen` on the board with the learner to move (and the targets still to reach circled). */
  setPosition(fen, lastMove = null) {
    const pos = rulesPosition(fen);
    const targets = this.lesson.exercises[this.index].goal.targets || [];
    this.board.set({
      fen,
      lastMove,
      check: pos.check,
      turnColor: pos.turn,
      movableColor: pos.turn,
      dests: destsMap(pos.dests),
      autoShapes: targets.filter((sq) => !this.reached(sq)).map((sq) => ({ orig: sq, brush: 'green' })),
    });
  }

  /** Whether a target square was landed on by one of the moves so far. */
  reached(square) {
    return this.moves.some((uci) => uci.slice(2, 4) === square);
  }

  quizView(ex, lg) {
    const goal = ex.goal;
    const list = h('div', { class: 'learn-choices', role: 'group', 'aria-label': localText(goal.question, lg) });
    goal.choices.forEach((choice, i) => {
      const boardHost = choice.fen ? h('div', { class: 'board-host learn-choice-board' }) : null;
      const button = h('button', {
        type: 'button', class: 'button learn-choice', 'data-choice': String(i),
        onclick: () => this.choose(i, button),
      }, h('span', {}, localText(choice.text, lg)));
      list.append(h('div', { class: 'learn-choice-item' }, boardHost, button));
      if (boardHost) this.makeBoard(boardHost, choice.fen, false);
    });
    // The question is often the instruction itself: then it is not said twice.
    const question = localText(goal.question, lg);
    const said = localText(ex.prompt || ex.instruction, lg);
    return h('div', { class: 'learn-quiz' }, question !== said ? h('p', { class: 'learn-question' }, question) : null, list);
  }

  async answer(body) {
    return api(`/api/learn/${encodeURIComponent(this.id)}/${this.index}`, { json: body });
  }

  async choose(i, button) {
    if (this.busy) return;
    this.busy = true;
    try {
      const res = await this.answer({ choice: i });
      if (res.state === 'solved') {
        button.classList.add('right');
        for (const b of this.el.body.querySelectorAll('.learn-choice')) b.disabled = true;
        this.solved(res);
      } else {
        button.classList.add('wrong');
        button.disabled = true;
        this.say(t(mistakeKey(res.why)), 'wrong');
      }
    } catch (err) {
      showError(err);
    } finally {
      this.busy = false;
    }
  }

  async play(uci) {
    if (this.busy) return;
    this.busy = true;
    this.moves.push(uci);
    let lastMove = [uci.slice(0, 2), uci.slice(2, 4)];
    try {
      const res = await this.answer({ moves: this.moves.join(' ') });
      // In a mate against the computer, its answer comes with the verdict.
      if (res.reply) {
        this.moves.push(res.reply);
        lastMove = [res.reply.slice(0, 2), res.reply.slice(2, 4)];
        if (res.state !== 'going' && res.fen) this.setPosition(res.fen, lastMove);
      }
      if (res.state === 'illegal') {
        this.moves.pop();
        this.setPosition(this.fen);
        this.say(t('learn.illegal', { reason: res.reason || '' }), 'wrong');
      } else if (res.state === 'wrong') {
        this.board.set({ movableColor: null, lastMove });
        this.say(t(mistakeKey(res.why)), 'wrong');
        replace(this.el.actions, h('button', { type: 'button', class: 'button primary', 'data-testid': 'learn-retry', onclick: () => this.show(this.index) }, t('learn.retry')));
      } else if (res.state === 'going') {
        this.fen = res.fen;
        this.setPosition(res.fen, lastMove);
        if (res.reply) this.say(t('learn.goingMate', { left: res.movesLeft }), 'going');
        else this.say(t('learn.going', { n: res.toGo, left: res.movesLeft }), 'going');
      } else {
        this.board.set({ movableColor: null, lastMove, autoShapes: [] });
        this.solved(res);
      }
    } catch (err) {
      this.moves.pop();
      this.setPosition(this.fen);
      showError(err);
    } finally {
      this.busy = false;
    }
  }

  say(text, kind, extra = null) {
    replace(this.el.feedback, h('p', { class: `learn-${kind}` }, text), extra);
    announce(text);
  }

  solved(res) {
    const stars = Number(res.stars) || 1;
    this.record = withStars(this.record, this.id, this.index, stars);
    writeLocal(this.record);
    this.say(t('learn.solved'), 'solved', starRow(stars, 28));
    const last = this.index + 1 >= this.lesson.exercises.length;
    replace(this.el.actions,
      h('button', {
        type: 'button', class: 'button primary', 'data-testid': 'learn-next',
        onclick: () => (last ? this.summary() : this.show(this.index + 1)),
      }, last ? t('learn.finish') : t('learn.next')),
      h('button', { type: 'button', class: 'button', onclick: () => this.show(this.index) }, t('learn.again')));
    this.el.actions.querySelector('button').focus();
  }

  /** After the last exercise: the stars of the lesson and where to go next. */
  summary() {
    this.clearBoards();
    const got = lessonStars(this.record, this.lesson);
    const next = nextLesson(this.lessons, this.id);
    this.el.step.textContent = '';
    replace(this.el.body,
      h('section', { class: 'learn-summary', 'data-testid': 'learn-summary' },
        h('h2', { tabindex: '-1' }, t('learn.complete')),
        h('p', {}, star(true, 20), ' ', t('learn.starCount', { n: got, max: maxStars(this.lesson) })),
        h('div', { class: 'learn-actions' },
          next ? h('a', { class: 'button primary', href: `/learn/${encodeURIComponent(next.id)}`, 'data-testid': 'learn-next-lesson' },
            t('learn.nextLesson', { title: localText(next.title, lang()) })) : null,
          h('button', { type: 'button', class: 'button', onclick: () => this.playComputer() }, t('learn.playComputer')),
          h('a', { class: 'button', href: '/learn' }, t('learn.back')))));
    this.el.body.querySelector('h2').focus();
  }

  async playComputer() {
    try {
      await events.ensureSession();
      const game = await api('/api/challenge/ai', { form: { level: 1, color: 'random' } });
      if (game && game.id) this.navigate(`/game/${encodeURIComponent(game.id)}`);
    } catch (err) {
      showError(err);
    }
  }
}
