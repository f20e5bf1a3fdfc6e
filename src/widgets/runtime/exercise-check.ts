/**
 * Answer boxes of checkable exercises, and the reader's exercise progress. Imported for its
 * effect by book.ts.
 *
 * The build renders each box as `<form class="exercise-check" hidden>` inside a `<template>` (src/
 * plugins/markdown/exercise-check.ts): without JavaScript it is never shown and the page reads as before.
 * Here the box is put in place once the browser renders its block (mountExerciseChecks) and
 * revealed; Enter or the Check button judges every input (answer-check.ts), sets the form's
 * `data-state` (correct, close, wrong or invalid; several inputs are correct only when
 * all are) and says the verdict in words in the form's live region.
 *
 * Progress lives in localStorage under one key (nothing is sent anywhere): the answers of each
 * solved exercise, by `<chapter slug>/<exercise id>`, so a solved box shows its answers and
 * `data-state="correct"` again after a reload, on the chapter page and on /book/ alike; and the
 * number of checkable exercises per chapter, recorded when a chapter is opened, for the counts
 * on the contents page. The exercises heading of each chapter says "2 of 5 solved" with a Reset
 * button; the page's table of contents and the book's contents list show the same count.
 *
 * An exercise id comes from its title (src/plugins/markdown/containers.ts). It used to be its position
 * ("one-gpu/exercise-3"), so inserting an exercise moved saved answers to the next one. A box
 * whose positional key differs carries it as `data-exercise-legacy-key`; the first time a chapter
 * is opened (on its page or on /book/), answers saved under those keys move to the stable ones,
 * once per chapter (`migrated`).
 */
import { combineVerdicts, judgeAnswer, type AnswerHint, type Verdict } from "./answer-check.ts";
import { onBlockRendered, outsideSkippedBlocks } from "./skipped-blocks.ts";
import { chapterOf, migrateLegacyKeys, type ProgressStore } from "./exercise-progress.ts";

const storageKey = "scaling-out:exercises";

function loadProgress(): ProgressStore {
  try {
    const raw = JSON.parse(localStorage.getItem(storageKey) ?? "{}") as Partial<ProgressStore>;
    return {
      solved: raw.solved && typeof raw.solved === "object" ? raw.solved : {},
      totals: raw.totals && typeof raw.totals === "object" ? raw.totals : {},
      migrated: Array.isArray(raw.migrated) ? raw.migrated.filter((c) => typeof c === "string") : [],
    };
  } catch {
    return { solved: {}, totals: {}, migrated: [] };
  }
}

function saveProgress(store: ProgressStore): void {
  try {
    localStorage.setItem(storageKey, JSON.stringify(store));
  } catch {
    // Storage full or disabled: the check still works, it is just not remembered.
  }
}

/** Solved exercises of one chapter. */
function solvedIn(store: ProgressStore, chapter: string): number {
  return Object.keys(store.solved).filter((k) => k.startsWith(`${chapter}/`)).length;
}

function hintsOf(input: HTMLInputElement): AnswerHint[] {
  try {
    const hints = JSON.parse(input.dataset.hints ?? "[]") as AnswerHint[];
    return Array.isArray(hints) ? hints : [];
  } catch {
    return [];
  }
}

function labelText(input: HTMLInputElement): string {
  return (input.labels?.[0]?.textContent ?? "").trim();
}

function setState(form: HTMLFormElement, state: Verdict | undefined, message: string): void {
  if (state) form.dataset.state = state;
  else delete form.dataset.state;
  form.closest("section.exercise")?.classList.toggle("is-solved", state === "correct");
  const status = form.querySelector<HTMLElement>("[role=status]");
  if (status) status.textContent = message;
}

function check(form: HTMLFormElement): Verdict {
  const inputs = Array.from(form.querySelectorAll<HTMLInputElement>("input[data-answer]"));
  const results = inputs.map((input) => {
    const result = judgeAnswer(input.value, {
      answer: Number(input.dataset.answer),
      tolerance: Number(input.dataset.tolerance),
      unit: input.dataset.unit ?? "",
      hints: hintsOf(input),
    });
    input.dataset.verdict = result.verdict;
    if (result.verdict === "invalid" || result.verdict === "wrong") input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
    return result;
  });
  const state = combineVerdicts(results.map((r) => r.verdict));
  let message: string;
  if (inputs.length === 1) message = results[0]!.message;
  else if (state === "correct") message = `Correct: all ${inputs.length} answers.`;
  else message = results.map((r, i) => `${labelText(inputs[i]!)}: ${r.message}`).join(" ");
  setState(form, state, message);
  return state;
}

function updateCounts(store: ProgressStore): void {
  for (const heading of document.querySelectorAll<HTMLElement>("[data-exercise-chapter][data-exercise-count]")) {
    const chapter = heading.dataset.exerciseChapter!;
    const total = Number(heading.dataset.exerciseCount);
    if (!(total > 0)) continue;
    let box = heading.nextElementSibling as HTMLElement | null;
    if (!box?.classList.contains("exercise-progress")) {
      box = document.createElement("p");
      box.className = "exercise-progress";
      box.innerHTML =
        '<span class="exercise-progress-count"></span> <button type="button" class="exercise-progress-reset">Reset</button>';
      box.querySelector("button")!.addEventListener("click", () => resetChapter(chapter));
      heading.after(box);
    }
    const solved = solvedIn(store, chapter);
    box.querySelector(".exercise-progress-count")!.textContent = `${solved} of ${total} checkable exercises solved`;
    box.querySelector<HTMLButtonElement>("button")!.hidden = solved === 0;
    box.querySelector("button")!.setAttribute("aria-label", `Reset solved exercises of this chapter`);
    // The same count beside the heading's entry in the page's table of contents.
    const tocLink = document.querySelector<HTMLAnchorElement>(`.toc-nav a[href="#${CSS.escape(heading.id)}"]`);
    if (tocLink) {
      let badge = tocLink.querySelector<HTMLElement>(".toc-progress");
      if (!badge) {
        badge = document.createElement("span");
        badge.className = "toc-progress";
        tocLink.append(badge);
      }
      badge.textContent = ` ${solved}/${total}`;
      badge.title = `${solved} of ${total} checkable exercises solved`;
    }
  }
  // Solved marks on the exercises' own entries in the table of contents.
  for (const form of document.querySelectorAll<HTMLFormElement>("form.exercise-check")) {
    const id = form.closest("section.exercise")?.id;
    const link = id ? document.querySelector(`.toc-nav a[href="#${CSS.escape(id)}"]`) : null;
    link?.classList.toggle(
      "toc-solved",
      form.dataset.state === "correct" && Boolean(store.solved[form.dataset.exerciseKey ?? ""]),
    );
  }
  // A box still in its template (mountExerciseChecks): solved when answers are stored for all its
  // inputs, as only correct answers are (setUpForm judges them again once it is put in place).
  for (const template of document.querySelectorAll<HTMLTemplateElement>("template.exercise-check-template")) {
    const form = template.content.querySelector<HTMLFormElement>("form.exercise-check");
    const saved = store.solved[form?.dataset.exerciseKey ?? ""];
    const solved = Boolean(saved && saved.length === form?.querySelectorAll("input[data-answer]").length);
    const exercise = template.closest("section.exercise");
    exercise?.classList.toggle("is-solved", solved);
    const link = exercise?.id ? document.querySelector(`.toc-nav a[href="#${CSS.escape(exercise.id)}"]`) : null;
    link?.classList.toggle("toc-solved", solved);
  }
  // The book's contents list (home page): "2 of 5 solved" for chapters with progress.
  for (const item of document.querySelectorAll<HTMLElement>(".book-toc-item")) {
    const link = item.querySelector<HTMLAnchorElement>("a[href]");
    if (!link) continue;
    const slug = new URL(link.href).pathname.split("/").filter(Boolean).pop() ?? "";
    const total = store.totals[slug];
    const solved = solvedIn(store, slug);
    let mark = item.querySelector<HTMLElement>(".book-toc-exercises");
    if (!total || solved === 0) {
      mark?.remove();
      continue;
    }
    if (!mark) {
      mark = document.createElement("span");
      mark.className = "book-toc-exercises";
      link.append(mark);
    }
    mark.textContent = `${solved} of ${total} exercises solved`;
  }
}

function resetChapter(chapter: string): void {
  const store = loadProgress();
  for (const key of Object.keys(store.solved)) if (chapterOf(key) === chapter) delete store.solved[key];
  saveProgress(store);
  for (const form of document.querySelectorAll<HTMLFormElement>("form.exercise-check")) {
    if (chapterOf(form.dataset.exerciseKey ?? "") !== chapter) continue;
    form.reset();
    for (const input of form.querySelectorAll<HTMLInputElement>("input")) {
      delete input.dataset.verdict;
      input.removeAttribute("aria-invalid");
    }
    setState(form, undefined, "");
  }
  updateCounts(store);
}

/** Restores a box's solved answers and judges it on submit; then shows it. */
function setUpForm(form: HTMLFormElement, store: ProgressStore): void {
  const key = form.dataset.exerciseKey ?? "";
  const inputs = Array.from(form.querySelectorAll<HTMLInputElement>("input[data-answer]"));
  const saved = store.solved[key];
  if (saved && saved.length === inputs.length) {
    inputs.forEach((input, i) => (input.value = saved[i] ?? ""));
    if (check(form) === "correct")
      form.querySelector<HTMLElement>("[role=status]")!.textContent = "Solved: your answer was correct.";
  }
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const state = check(form);
    const current = loadProgress();
    if (state === "correct") current.solved[key] = inputs.map((i) => i.value);
    saveProgress(current);
    updateCounts(current);
  });
  form.hidden = false;
}

/**
 * Puts in place the boxes under `root` that the build left in templates, once the browser
 * renders the block that holds them. A shown form control in a block that is being skipped
 * (`content-visibility: auto`, book.css: a chapter page's parts until the load, /book/'s chapters
 * while off screen) is what the template avoids: Chromium's form handling measures each control
 * of the document after `DOMContentLoaded`, and lays the skipped block out for it. On /book/,
 * revealing every box at `DOMContentLoaded`, as this did before, cost 4.7-5.5 s of blocking time
 * at 4× CPU slowdown (docs/performance-log.md, "Paint", sixteenth look). So a box waits, like a wide
 * box's Tab stop (scroll-regions.ts): setUpExerciseChecks below puts in place those already
 * rendered and each block's as the browser renders it (on /book/ when a chapter comes near the
 * screen), and book.ts calls this at the load, when a chapter page's skipping ends. So on /book/
 * a box in a chapter not yet rendered is not yet in the Tab order or a screen reader's list of
 * form fields; it is once the chapter has come near the screen.
 */
export function mountExerciseChecks(root: ParentNode = document): void {
  // Asked of the element before the template (the question), not of its parent: checkVisibility
  // says whether an ancestor is skipping, and the parent may be a skipped block itself (the build
  // marks blocks of a page's first screens, src/plugins/site/critical-css.ts: /book/'s preface exercise).
  const ready = outsideSkippedBlocks(
    root.querySelectorAll<HTMLTemplateElement>("template.exercise-check-template"),
    (t) => t.previousElementSibling ?? t.parentElement,
  );
  if (ready.length === 0) return;
  const store = loadProgress();
  for (const template of ready) {
    const form = template.content.querySelector<HTMLFormElement>("form.exercise-check");
    template.replaceWith(template.content);
    if (form) setUpForm(form, store);
  }
  updateCounts(store);
}

/** Every box on the page, put in place or not. */
function exerciseForms(): HTMLFormElement[] {
  const forms = Array.from(document.querySelectorAll<HTMLFormElement>("form.exercise-check"));
  const waiting = Array.from(document.querySelectorAll<HTMLTemplateElement>("template.exercise-check-template")).map(
    (t) => t.content.querySelector<HTMLFormElement>("form.exercise-check"),
  );
  return [...forms, ...waiting].filter((f): f is HTMLFormElement => Boolean(f?.dataset.exerciseKey));
}

/** The exercise key of every box on the page, put in place or not. */
function exerciseKeys(): string[] {
  return exerciseForms().map((f) => f.dataset.exerciseKey!);
}

function setUpExerciseChecks(): void {
  const store = loadProgress();
  const boxes = exerciseForms().map((f): [string, string | undefined] => [
    f.dataset.exerciseKey!,
    f.dataset.exerciseLegacyKey,
  ]);
  if (migrateLegacyKeys(store, boxes)) saveProgress(store);
  if (document.body.classList.contains("chapter-page")) {
    const totals = new Map<string, number>();
    for (const key of exerciseKeys()) totals.set(chapterOf(key), (totals.get(chapterOf(key)) ?? 0) + 1);
    for (const [chapter, n] of totals) store.totals[chapter] = n;
    saveProgress(store);
  }
  updateCounts(store);
  mountExerciseChecks();
  onBlockRendered((block) => mountExerciseChecks(block));
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUpExerciseChecks);
else setUpExerciseChecks();
