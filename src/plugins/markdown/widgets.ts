/**
 * `::: widget <name>` with optional YAML settings inside. At build time the settings are
 * parsed and validated by the widget's `parseSettings` and its default state is drawn by
 * `renderStatic` into a linkedom document; the page gets
 *
 *   <div class="widget" data-widget="name" data-settings="{…json…}" id="widget-name-1" tabindex="-1">…static drawing…</div>
 *
 * which reads with JavaScript off and in print. book.js loads `/assets/js/widgets/<name>.js`
 * when the element comes within 600px of the viewport and calls its `mount(root, settings)`.
 */
import { load as loadYaml } from "js-yaml";
import { parseHTML } from "linkedom";
import type { MarkdownIt, StateCore, Token } from "markdown-it";
import { widgetRegistry } from "../../figures/index.ts";
import { WidgetSettingsError, type WidgetDefinition } from "../../figures/widget.ts";
import { docState, fail } from "./doc-state.ts";
import { didYouMean, nearestName } from "../shared/errors.ts";
import { editionAttribute, editionOf } from "./edition.ts";

export interface WidgetsOptions {
  registry?: Readonly<Record<string, WidgetDefinition<unknown>>>;
}

/**
 * Renders one widget's static markup; throws plain Errors (the caller adds file and line).
 * On /book/ (`env` with the book edition) the drawing stays static (`data-widget-static`, so
 * the lazy loader leaves it) and, once drawn, its ids and id references get the chapter prefix
 * in the DOM, before it is serialized.
 */
export function renderWidgetHtml(
  definition: WidgetDefinition<unknown>,
  name: string,
  id: string,
  settings: unknown,
  env?: unknown,
  title?: string,
): string {
  const { document } = parseHTML("<!doctype html><html><body></body></html>");
  const root = document.createElement("div");
  root.setAttribute("class", "widget");
  root.setAttribute("id", id);
  root.setAttribute(editionOf(env)?.name === "book" ? "data-widget-static" : "data-widget", name);
  root.setAttribute("data-settings", JSON.stringify(settings));
  // The target of the page's "Skip to the widget" links (src/layouts/chapter.njk): a link to the
  // widget focuses it, and the next Tab reaches its first control.
  if (editionOf(env)?.name !== "book") root.setAttribute("tabindex", "-1");
  document.body.append(root);
  if (title !== undefined) {
    // What this instance demonstrates (`::: widget name title="…"`); widgets keep it when they redraw.
    const p = document.createElement("p");
    p.setAttribute("class", "widget-title");
    p.setAttribute("id", `${id}-title`);
    p.textContent = title;
    root.setAttribute("role", "group");
    root.setAttribute("aria-labelledby", p.id);
    root.append(p);
  }
  definition.renderStatic(root, settings);
  if (editionOf(env)?.name === "book") staticFields(root);
  if (editionOf(env)?.idPrefix) {
    for (const el of [root, ...root.querySelectorAll("*")]) {
      for (const attr of [...el.attributes]) {
        const value = editionAttribute(env, attr.name, attr.value);
        if (value !== attr.value) el.setAttribute(attr.name, value);
      }
    }
  }
  return root.outerHTML;
}

/**
 * On /book/ a widget stays its drawing, so its fields, drawn disabled, never become controls:
 * each shows its value as text instead (`.widget-static-value`: a slider's `aria-valuetext` where
 * it has one), its label as text, and the buttons, which only step or play a live widget, are left
 * out, with a field they leave empty. Controls there cost more than their look: Chromium's form
 * handling measures every form control of the document once the HTML is parsed, and for a control
 * in a chapter that is being skipped (content-visibility: auto) it laid the whole chapter out:
 * every chapter with a widget, in one task of 6.7-7.0 s at 4× CPU slowdown (docs/performance-log.md,
 * "Paint", sixteenth look).
 */
function staticFields(root: Element): void {
  const doc = root.ownerDocument;
  const valueOf = (control: Element): string => {
    if (control.localName === "select") {
      const options = [...control.querySelectorAll("option")];
      const chosen = options.find((o) => o.hasAttribute("selected")) ?? options[0];
      return chosen?.textContent?.trim() ?? "";
    }
    const type = control.getAttribute("type") ?? "text";
    if (type === "checkbox" || type === "radio") return control.hasAttribute("checked") ? "on" : "off";
    // A slider says in words what its position means ("all steps", "0.1"), where the widget sets it.
    if (type === "range") return control.getAttribute("aria-valuetext") ?? control.getAttribute("value") ?? "";
    return control.localName === "textarea" ? (control.textContent ?? "") : (control.getAttribute("value") ?? "");
  };
  for (const control of [...root.querySelectorAll("input, select, textarea, button")]) {
    if (control.localName === "button") {
      control.remove();
      continue;
    }
    const text = doc.createElement("span");
    text.setAttribute("class", "widget-static-value");
    const id = control.getAttribute("id");
    if (id) text.setAttribute("id", id);
    text.textContent = valueOf(control);
    control.replaceWith(text);
  }
  for (const label of [...root.querySelectorAll("label")]) {
    const text = doc.createElement("span");
    text.setAttribute("class", "widget-static-label");
    text.append(...label.childNodes);
    label.replaceWith(text);
  }
  // Messages say what is wrong with a typed value; nothing can be typed here.
  for (const message of [...root.querySelectorAll(".widget-message")]) message.remove();
  // A field that held only buttons is empty now.
  for (const field of [...root.querySelectorAll(".widget-field")])
    if (field.children.length === 0 && !field.textContent?.trim()) field.remove();
}

/**
 * The widgets of a rendered chapter body, in order, as `{ id, title }`: the targets of the page's
 * "Skip to the widget" links (chapter.njk, filter `widgetSkipTargets`). Reaching the configuration
 * finder with Tab took 331 presses through the text's links before (issue #54).
 */
export function widgetSkipTargets(html: string): Array<{ id: string; title: string }> {
  if (!html.includes("data-widget=")) return [];
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  return [...document.querySelectorAll("[data-widget][id]")].map((root) => ({
    id: root.getAttribute("id")!,
    title: root.querySelector(".widget-title")?.textContent?.trim() || `the ${root.getAttribute("data-widget")} widget`,
  }));
}

function widgetsCoreRule(state: StateCore, registry: Readonly<Record<string, WidgetDefinition<unknown>>>): boolean {
  const doc = docState(state.env);
  const counts = new Map<string, number>();
  for (const t of state.tokens) {
    if (t.type !== "book_widget") continue;
    const line = t.map?.[0] ?? 0;
    const name = t.info.trim().split(/\s+/)[0] ?? "";
    if (name === "") fail(doc, line, `"::: widget" needs a name (known: ${Object.keys(registry).join(", ")})`);
    const rest = t.info.trim().slice(name.length).trim();
    const titleMatch = /^title="([^"]+)"$/.exec(rest);
    if (rest !== "" && !titleMatch) {
      fail(
        doc,
        line,
        `after the name "${name}" only title="…" may follow; write widget settings as YAML lines inside the block`,
      );
    }
    const definition = Object.hasOwn(registry, name) ? registry[name] : undefined;
    if (!definition) {
      // The nearest name, with what that widget draws (its `description`), so the author can tell.
      const near = nearestName(name, Object.keys(registry));
      const hint = near === undefined ? "" : `; did you mean \`${near}\` (${registry[near]!.description})?`;
      fail(doc, line, `unknown widget "${name}" (known: ${Object.keys(registry).join(", ")})${hint}`);
    }
    let raw: unknown;
    try {
      raw = t.content.trim() === "" ? {} : loadYaml(t.content);
    } catch (e) {
      const mark = (e as { mark?: { line?: number } }).mark;
      const msg = (e instanceof Error ? e.message : String(e)).split("\n")[0];
      fail(doc, line + 1 + (mark?.line ?? 0), `widget "${name}": settings are not valid YAML: ${msg}`, e);
    }
    let settings: unknown;
    try {
      settings = definition.parseSettings(raw ?? {});
    } catch (e) {
      if (!(e instanceof WidgetSettingsError)) throw e;
      const keyLine = t.content.split("\n").findIndex((l) => l.trimStart().startsWith(`${e.field}:`));
      const hint = e.known ? didYouMean(e.field, e.known) : "";
      const at = keyLine >= 0 ? line + 1 + keyLine : line;
      fail(doc, at, `widget "${name}": ${e.message}${hint}`, e, keyLine >= 0 ? `${e.field}:` : undefined);
    }
    const n = (counts.get(name) ?? 0) + 1;
    counts.set(name, n);
    t.meta = {
      ...(t.meta as object),
      html: renderWidgetHtml(definition, name, `widget-${name}-${n}`, settings, state.env, titleMatch?.[1]) + "\n",
    };
  }
  return true;
}

export function widgetsPlugin(md: MarkdownIt, options: WidgetsOptions = {}): void {
  const registry = options.registry ?? widgetRegistry;
  md.core.ruler.push("book_widgets", (state) => widgetsCoreRule(state, registry));
  md.renderer.rules.book_widget = (tokens: Token[], idx: number) => (tokens[idx]!.meta as { html: string }).html;
}
