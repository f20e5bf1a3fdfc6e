/**
 * Styles that only interactive widgets need (their controls exist only once the script runs), added
 * to the page once per widget kind. Colors are the engine's palette variables, so light and dark
 * themes follow assets/css/book.css.
 */

/** Adds `<style id="…">css</style>` to the document head unless it is already there. */
export function ensureStyle(doc: Document, id: string, css: string): void {
  if (doc.getElementById(id)) return;
  const style = doc.createElement("style");
  style.id = id;
  style.textContent = css;
  doc.head.append(style);
}

/** Control layout shared by the explorer widgets: grouped fields, check boxes, buttons, link row. */
export const explorerControlsCss = `
.explorer-controls { margin-bottom: 0.8rem; }
.widget [hidden] { display: none !important; }
.explorer-controls fieldset { border: 1px solid var(--c-border); border-radius: 6px; margin: 0 0 0.6rem; padding: 0.45rem 0.8rem 0.7rem; display: flex; flex-wrap: wrap; gap: 0.6rem 1rem; align-items: flex-start; min-width: 0; }
.explorer-controls legend { font-weight: 600; font-size: 0.85rem; padding: 0 0.3rem; color: var(--c-text); }
.explorer-controls .widget-field input[type="text"] { width: 7.5rem; }
.explorer-controls .widget-field select { max-width: 17rem; }
.explorer-controls textarea { font: 0.8rem/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; color: var(--c-text); background: var(--c-bg); border: 1px solid var(--c-border); border-radius: 5px; width: min(36rem, 100%); padding: 0.4rem; }
.explorer-controls textarea[aria-invalid="true"], .explorer-controls select[aria-invalid="true"] { border-color: var(--c-invalid); }
.explorer-controls .widget-field.wide-field { flex-basis: 100%; }
.explorer-check { display: flex; align-items: center; gap: 0.4rem; font-size: 0.85rem; font-weight: 600; min-height: 2.2rem; margin-top: 1.2rem; }
.explorer-check input { width: 1.1rem; height: 1.1rem; margin: 0; accent-color: var(--c-accent); }
.explorer-hint { font-size: 0.78rem; color: var(--c-muted); margin: 0; max-width: 22rem; }
.explorer-actions { display: flex; flex-wrap: wrap; gap: 0.5rem 0.8rem; align-items: center; margin: 0.2rem 0 0.6rem; }
.widget .explorer-button { font: inherit; font-size: 0.88rem; color: var(--c-text); background: var(--c-bg); border: 1px solid var(--c-border); border-radius: 5px; padding: 0.3rem 0.75rem; cursor: pointer; }
.widget .explorer-button:hover { border-color: var(--c-accent); color: var(--c-accent); }
.widget .explorer-button[aria-pressed="true"] { border-color: var(--c-accent); background: var(--c-accent-soft); }
.widget .explorer-button:disabled { opacity: 0.6; cursor: default; }
.explorer-status { font-size: 0.82rem; color: var(--c-muted); margin: 0; }
.explorer-link { width: min(30rem, 100%); font-size: 0.8rem !important; }
.explorer-controls [data-locked] { opacity: 0.75; }
.widget details.explorer-details { margin-top: 0.6rem; font-size: 0.85rem; }
.widget details.explorer-details summary { cursor: pointer; font-weight: 600; color: var(--c-accent); }
.widget .explorer-table { font-size: 0.8rem; margin: 0.5rem 0 0; background: var(--c-bg); }
.widget .explorer-table caption { text-align: left; color: var(--c-muted); padding-bottom: 0.3rem; }
`;
