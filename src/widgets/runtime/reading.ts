/**
 * Keeping one's place, in localStorage only (nothing is sent anywhere). Imported for its effect
 * by book.ts.
 *
 * - Chapter pages: a thin reading-progress bar under the top edge (decorative: `aria-hidden`,
 *   the scroll bar says the same to assistive technology); the section being read is remembered
 *   per chapter, and a chapter scrolled to its end is marked read.
 * - Opening a chapter again without a `#fragment` offers "Resume at 3.4 …" under its title.
 * - The contents page (the home page's list of chapters) marks chapters read or in progress and
 *   offers "Continue reading" at the chapter and section last read.
 *
 * `currentHeading()` is the scroll-spy's rule too (book.ts): the heading of the section that
 * fills the upper part of the viewport, so the ToC and the resume point agree.
 */

const storageKey = "scaling-out:reading";

interface ChapterPlace {
  /** Id of the section heading last read. */
  section?: string;
  /** Its text ("3.4 Bucketing"), for the resume link. */
  title?: string;
  read?: boolean;
}

interface ReadingStore {
  chapters: Record<string, ChapterPlace>;
  /** Slug of the chapter read last. */
  last?: string;
}

function load(): ReadingStore {
  try {
    const raw = JSON.parse(localStorage.getItem(storageKey) ?? "{}") as Partial<ReadingStore>;
    return {
      chapters: raw.chapters && typeof raw.chapters === "object" ? raw.chapters : {},
      last: typeof raw.last === "string" ? raw.last : undefined,
    };
  } catch {
    return { chapters: {} };
  }
}

function save(store: ReadingStore): void {
  try {
    localStorage.setItem(storageKey, JSON.stringify(store));
  } catch {
    // Storage disabled: nothing is remembered.
  }
}

function slugOf(pathname: string): string {
  return pathname.split("/").filter(Boolean).pop() ?? "";
}

/**
 * The heading of the section being read: the last heading above a line 40% down the viewport,
 * or the last heading of all once the page is scrolled to its end (the final sections may be
 * too short to ever reach that line).
 */
export function currentHeading(headings: HTMLElement[]): HTMLElement | undefined {
  const line = window.innerHeight * 0.4;
  let active: HTMLElement | undefined;
  for (const h of headings) {
    if (h.getBoundingClientRect().top <= line) active = h;
    else break;
  }
  const atEnd = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
  if (atEnd && headings.length > 0 && window.scrollY > 0) {
    // A jump to a late section ends at the bottom too: keep the section jumped to.
    const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    const top = target?.getBoundingClientRect().top ?? -1;
    active =
      target && headings.includes(target) && top >= 0 && top < window.innerHeight
        ? target
        : headings[headings.length - 1];
  }
  return active;
}

/** What the scroll-spy follows: section headings and exercises (both are listed in the ToC). */
/** Headings and exercises the scroll-spy follows: at the top of the body, or inside an h2 part (section-wrap.ts). */
export const spySelector =
  ".chapter-body > :is(h2, h3, section.exercise)[id], .chapter-body > .part > :is(h2, h3, section.exercise)[id]";

function headingText(h: HTMLElement): string {
  const clone = (h.querySelector(".exercise-title") ?? h).cloneNode(true) as HTMLElement;
  clone.querySelectorAll(".heading-anchor, .katex-html, .toc-progress").forEach((n) => n.remove());
  return (clone.textContent ?? "").replace(/\s+/g, " ").trim();
}

function setUpChapter(): void {
  const article = document.querySelector<HTMLElement>("article.chapter");
  if (!article || !document.body.classList.contains("chapter-page")) return;
  const slug = slugOf(location.pathname);
  const headings = Array.from(document.querySelectorAll<HTMLElement>(spySelector));

  const bar = document.createElement("div");
  bar.className = "reading-progress";
  bar.setAttribute("aria-hidden", "true");
  bar.innerHTML = "<span></span>";
  document.body.append(bar);
  const fill = bar.firstElementChild as HTMLElement;

  // Resume: offered when the chapter is opened at its top and a later section was read before.
  const place = load().chapters[slug];
  if (!location.hash && place?.section && place.section !== headings[0]?.id && document.getElementById(place.section)) {
    const note = document.createElement("p");
    note.className = "resume-reading";
    const link = document.createElement("a");
    link.href = `#${place.section}`;
    link.textContent = `Resume where you left off: ${place.title ?? "last section read"}`;
    const close = document.createElement("button");
    close.type = "button";
    close.className = "resume-dismiss";
    close.setAttribute("aria-label", "Dismiss");
    close.textContent = "×";
    close.addEventListener("click", () => note.remove());
    link.addEventListener("click", () => window.setTimeout(() => note.remove(), 0));
    note.append(link, " ", close);
    article.querySelector(".title-block")?.after(note);
  }

  let queued = false;
  let lastSaved = "";
  const update = () => {
    queued = false;
    const rect = article.getBoundingClientRect();
    const span = Math.max(1, rect.height - window.innerHeight);
    const fraction = Math.min(1, Math.max(0, -rect.top / span));
    fill.style.transform = `scaleX(${fraction})`;
    const h = currentHeading(headings);
    const store = load();
    const entry = (store.chapters[slug] ??= {});
    const read = entry.read || rect.bottom <= window.innerHeight + 4;
    const key = `${h?.id ?? ""}|${read}`;
    if (key === lastSaved || window.scrollY === 0) return;
    lastSaved = key;
    if (h) {
      entry.section = h.id;
      entry.title = headingText(h);
    }
    entry.read = read;
    store.last = slug;
    save(store);
  };
  window.addEventListener(
    "scroll",
    () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(update);
    },
    { passive: true },
  );
  update();
}

function setUpContents(): void {
  const items = Array.from(document.querySelectorAll<HTMLElement>(".book-toc-item"));
  if (items.length === 0) return;
  const store = load();
  for (const item of items) {
    const link = item.querySelector<HTMLAnchorElement>("a[href]");
    if (!link) continue;
    const place = store.chapters[slugOf(new URL(link.href).pathname)];
    if (!place) continue;
    const mark = document.createElement("span");
    mark.className = `book-toc-read ${place.read ? "is-read" : "is-started"}`;
    mark.textContent = place.read ? "Read" : "In progress";
    link.append(mark);
  }
  const last = store.last ? store.chapters[store.last] : undefined;
  const lastItem = items.find(
    (i) =>
      slugOf(new URL(i.querySelector<HTMLAnchorElement>("a[href]")?.href ?? location.href).pathname) === store.last,
  );
  if (last?.section && lastItem) {
    const href = new URL(lastItem.querySelector<HTMLAnchorElement>("a[href]")!.href);
    href.hash = last.section;
    const label = lastItem.querySelector(".book-toc-label")?.textContent ?? "";
    const p = document.createElement("p");
    p.className = "resume-reading";
    const a = document.createElement("a");
    a.href = href.href;
    a.textContent = `Continue reading: ${label}${label ? ", " : ""}${last.title ?? ""}`;
    p.append(a);
    document.querySelector(".book-toc-list")?.before(p);
  }
}

function start(): void {
  setUpChapter();
  setUpContents();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
