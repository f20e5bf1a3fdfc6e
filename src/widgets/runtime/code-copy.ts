/**
 * "Copy code" buttons. The build wraps every fenced code block in `<div class="code-block">`
 * (src/plugins/markdown/highlight.ts); this module, imported for its effect by book.ts, adds a button
 * there, beside the `<pre>` rather than inside it, so the `<pre>` stays a plain scroll box.
 * The chapter's "Cite this book" BibTeX (`pre.bibtex`) gets a wrapper and a button too. Without
 * JavaScript there is no button at all (a button that cannot work would only mislead).
 *
 * The button's accessible name is "Copy code"; the outcome ("Copied", or how to copy by hand)
 * is announced through one polite live region shared by every button on the page.
 */

const copyIcon =
  '<svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false"><rect x="5.5" y="5.5" width="8" height="9" rx="1.5" fill="none" stroke="currentColor" stroke-width="1.4"/><path d="M10.5 3.5v-1a1 1 0 0 0-1-1h-6a1 1 0 0 0-1 1v8a1 1 0 0 0 1 1h1" fill="none" stroke="currentColor" stroke-width="1.4"/></svg>';

/** How long the button says "Copied" before it reads "Copy" again. */
const copiedMillis = 2000;

let liveRegion: HTMLElement | undefined;

function announce(message: string): void {
  if (!liveRegion) {
    liveRegion = document.createElement("div");
    liveRegion.className = "visually-hidden code-copy-status";
    liveRegion.setAttribute("role", "status");
    liveRegion.setAttribute("aria-live", "polite");
    document.body.append(liveRegion);
  }
  // Clear first so that the same message twice in a row is announced twice.
  liveRegion.textContent = "";
  const region = liveRegion;
  window.setTimeout(() => (region.textContent = message), 50);
}

/** The text a reader expects on the clipboard: the code as shown, without the final newline. */
function codeText(pre: HTMLElement): string {
  const code = pre.querySelector("code") ?? pre;
  return (code.textContent ?? "").replace(/\n$/, "");
}

async function writeClipboard(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // Pages opened from file:// or plain http have no async clipboard: copy a selection instead.
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.append(area);
  area.select();
  const ok = document.execCommand("copy");
  area.remove();
  if (!ok) throw new Error("copy command refused");
}

function addButton(block: HTMLElement, pre: HTMLElement): void {
  if (block.querySelector(":scope > .code-copy")) return;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "code-copy";
  button.innerHTML = `${copyIcon}<span class="code-copy-text">Copy</span><span class="visually-hidden"> code</span>`;
  const label = button.querySelector<HTMLElement>(".code-copy-text")!;
  let reset: number | undefined;
  const show = (state: "copied" | "failed", text: string, message: string) => {
    button.dataset.state = state;
    label.textContent = text;
    announce(message);
    window.clearTimeout(reset);
    reset = window.setTimeout(() => {
      delete button.dataset.state;
      label.textContent = "Copy";
    }, copiedMillis);
  };
  button.addEventListener("click", () => {
    writeClipboard(codeText(pre)).then(
      () => show("copied", "Copied", "Copied"),
      () => show("failed", "Failed", "Copying failed: select the code and copy it by hand"),
    );
  });
  block.append(button);
}

/** Adds a copy button to every `.code-block` under `root` that lacks one (widgets call it after a redraw). */
export function addCopyButtons(root: ParentNode = document): void {
  for (const pre of root.querySelectorAll<HTMLElement>("pre.bibtex")) {
    if (pre.parentElement?.classList.contains("code-block")) continue;
    const wrap = document.createElement("div");
    wrap.className = "code-block";
    pre.replaceWith(wrap);
    wrap.append(pre);
  }
  for (const block of root.querySelectorAll<HTMLElement>(".code-block")) {
    const pre = block.querySelector<HTMLElement>(":scope > pre");
    if (pre) addButton(block, pre);
  }
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", () => addCopyButtons());
else addCopyButtons();
