/**
 * Widget settings in the page URL, one query parameter per widget instance (named after the
 * widget's element id, e.g. `?widget-memory-explorer-1=dp:8,zero:3`), so two widgets on one page
 * never collide and a link restores both. The widget encodes and validates its own value; this
 * module only reads, writes (history.replaceState, throttled) and copies links, and builds the
 * link controls: the explorers place theirs, every other widget gets them from {@link widgetLink}.
 */
import { dom } from "../../figures/kit/dom.ts";
import { decodeUrlState, encodeUrlState, type UrlCodec } from "../../figures/kit/url-codec.ts";
import { ensureStyle, explorerControlsCss } from "./widget-style.ts";

/** The raw value of this widget's parameter in the current URL, or null. */
export function readUrlParam(win: Window, id: string): string | null {
  return new URL(win.location.href).searchParams.get(id);
}

/** The current URL with this widget's parameter set to `value` (removed when empty). */
function urlWith(win: Window, id: string, value: string): string {
  const url = new URL(win.location.href);
  if (value === "") url.searchParams.delete(id);
  else url.searchParams.set(id, value);
  // ":" and "," are legal in a query; keep them readable instead of %3A and %2C.
  url.search = url.searchParams.toString().replace(/%3A/gi, ":").replace(/%2C/gi, ",");
  return url.href;
}

/**
 * The link to share: the current URL with this widget's parameter, and `#id` so that the page
 * opens at the widget (runtime/widget-links.ts scrolls there again once it has mounted).
 */
export function shareLink(win: Window, id: string, value: string): string {
  const url = new URL(urlWith(win, id, value));
  url.hash = id;
  return url.href;
}

/**
 * Returns a function that records `value` in the URL after `delayMs` without new calls, so that
 * holding an arrow key does not flood the history API (browsers throttle it).
 */
export function urlWriter(win: Window, id: string, delayMs = 250): (value: string) => void {
  let timer: number | undefined;
  return (value: string) => {
    win.clearTimeout(timer);
    timer = win.setTimeout(() => {
      const next = urlWith(win, id, value);
      if (next !== win.location.href) win.history.replaceState(win.history.state, "", next);
    }, delayMs);
  };
}

/**
 * Copies `text` to the clipboard. Where the clipboard is unavailable (insecure origin, permission
 * denied) the text is shown, selected, in `fallback` for the reader to copy. Returns the message
 * to show.
 */
export async function copyLink(win: Window, text: string, fallback: HTMLInputElement): Promise<string> {
  try {
    await win.navigator.clipboard.writeText(text);
    fallback.hidden = true;
    return "Link copied to the clipboard.";
  } catch {
    fallback.hidden = false;
    fallback.value = text;
    fallback.focus();
    fallback.select();
    return "Copy the selected link.";
  }
}

/** The explorers' link controls: "Copy link", "Reset", a status line and the hidden fallback box. */
export interface LinkActions {
  copy: HTMLButtonElement;
  reset: HTMLButtonElement;
  status: HTMLParagraphElement;
  linkBox: HTMLInputElement;
}

/** Builds the link controls; `message` is the status line's first text (why a link was refused). */
export function linkActions(doc: Document, message: string): LinkActions {
  const { el } = dom(doc);
  const linkBox = el("input", {
    type: "text",
    class: "explorer-link",
    readonly: "",
    "aria-label": "Link to these settings",
  });
  linkBox.hidden = true;
  return {
    copy: el("button", { type: "button", class: "explorer-button" }, "Copy link"),
    reset: el("button", { type: "button", class: "explorer-button" }, "Reset"),
    status: el("p", { class: "explorer-status", role: "status" }, message),
    linkBox,
  };
}

/** What {@link widgetLink} gives a widget. */
export interface WidgetLink<S> {
  /**
   * The state the page's link carries for this widget, validated, or null (no link, a link equal
   * to the page's settings, or a refused one, whose message the status line shows): the widget
   * sets its controls to it and redraws.
   */
  restored: S | null;
  /** Records a state the widget has drawn: the URL follows it, and "Copy link" copies it. */
  show(state: S): void;
}

/**
 * The link of a widget with no explorer form of its own: reads and validates this widget's
 * parameter (the codec's `check` runs the widget's own settings parser), appends a row with
 * "Copy link", "Reset" (calls `reset`, which sets the chapter's settings back and redraws), a
 * status line and the fallback box, in the explorers' style, and keeps the URL in step with
 * {@link WidgetLink.show}. Without an element id a widget cannot be linked: no row, no restore.
 */
export function widgetLink<S, K extends string>(
  root: HTMLElement,
  codec: UrlCodec<S, K>,
  base: S,
  reset: () => void,
): WidgetLink<S> {
  const doc = root.ownerDocument;
  const win = doc.defaultView;
  const id = root.id;
  if (!win || !id) return { restored: null, show: () => {} };
  ensureStyle(doc, "explorer-controls-style", explorerControlsCss);
  let restored: S | null = null;
  let message = "";
  const text = readUrlParam(win, id);
  if (text !== null) {
    const decoded = decodeUrlState(codec, text, base);
    if (!decoded.ok) message = decoded.message;
    else if (encodeUrlState(codec, decoded.state, base) !== "") restored = decoded.state;
  }
  const { copy, reset: resetButton, status, linkBox } = linkActions(doc, message);
  const row = dom(doc).el("div", { class: "explorer-actions widget-share" });
  row.append(copy, resetButton, status, linkBox);
  root.append(row);
  const writeUrl = urlWriter(win, id);
  let current = restored ?? base;
  copy.addEventListener("click", async () => {
    status.textContent = await copyLink(win, shareLink(win, id, encodeUrlState(codec, current, base)), linkBox);
  });
  resetButton.addEventListener("click", () => {
    reset();
    status.textContent = "Back to this example’s settings.";
  });
  return {
    restored,
    show(state) {
      current = state;
      writeUrl(encodeUrlState(codec, state, base));
    },
  };
}
