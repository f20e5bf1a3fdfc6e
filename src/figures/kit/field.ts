/**
 * The numeric field: the one parser for numbers a reader types, the markup of a labelled field with
 * its message element, and showing or clearing a problem next to it. Every widget reads its number
 * fields through `parseNumberField`, so "16,384", "1e-5" and "−3" mean the same everywhere and
 * "abc", "", "NaN", "1e40" or an out-of-range value get a message instead of reaching a drawing.
 *
 * Accepted: an optional sign (ASCII or Unicode minus), digits with an optional point and exponent;
 * commas, underscores, spaces and thin spaces between digits are thousands separators.
 */
import { dom } from "./dom.ts";
import { formatNumber } from "./format.ts";

const numberPattern = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

function clean(text: string): string {
  return text
    .trim()
    .replace(/^[−–]/, "-")
    .replace(/(?<=\d)[,_ \u2009\u202f](?=\d)/g, "");
}

/** Whether the text is written as a number (it may still be too large to be finite, like "1e400"). */
export function looksNumeric(text: string): boolean {
  return numberPattern.test(clean(text));
}

/** The value of what a reader typed, or null when it is not a finite number. */
export function readNumber(text: string): number | null {
  const cleaned = clean(text);
  if (!numberPattern.test(cleaned)) return null;
  const n = Number(cleaned);
  if (!Number.isFinite(n)) return null;
  return Object.is(n, -0) ? 0 : n;
}

/** What a field accepts. Bounds are inclusive unless `above` is used for the lower one. */
export interface NumberRule {
  /** Smallest accepted value (inclusive). */
  min?: number;
  /** Lower bound that is itself refused ("above 0"). */
  above?: number;
  /** Largest accepted value (inclusive). */
  max?: number;
  /** Whole numbers only. */
  integer?: boolean;
  /** An empty field is accepted and reads as null (the message names what empty means). */
  optional?: boolean;
  /** A value to suggest, e.g. "1" → "… for example 1." */
  example?: string;
}

export type FieldResult<V = number> = { ok: true; value: V } | { ok: false; message: string };

const show = (x: number) =>
  Math.abs(x) >= 1e9 || (x !== 0 && Math.abs(x) < 1e-3) ? x.toExponential().replace("e+", "e") : formatNumber(x);

/** The sentence that says what a field accepts: "Enter a whole number from 1 to 1,024." */
export function ruleText(rule: NumberRule): string {
  const kind = rule.integer ? "a whole number" : "a number";
  const lower =
    rule.above !== undefined ? `above ${show(rule.above)}` : rule.min !== undefined ? `from ${show(rule.min)}` : "";
  const upper =
    rule.max !== undefined
      ? lower.startsWith("above")
        ? `and at most ${show(rule.max)}`
        : lower
          ? `to ${show(rule.max)}`
          : `of at most ${show(rule.max)}`
      : "";
  const range = [lower, upper].filter(Boolean).join(" ");
  const example = rule.example ? `, for example ${rule.example}` : "";
  return `Enter ${kind}${range ? ` ${range}` : ""}${example}.`;
}

/** Reads a field against its rule: the value, or a message to show next to the field. */
export function parseNumberField(text: string, rule: NumberRule = {}): FieldResult<number> {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, message: ruleText(rule) };
  const value = readNumber(trimmed);
  if (value === null && !looksNumeric(trimmed)) {
    // The typed text is quoted back, except words a widget must never show (issue #28's "no NaN,
    // Infinity or undefined on the page", which tests/browser/widget-fuzz.test.ts checks).
    const shown = trimmed.length > 20 ? `${trimmed.slice(0, 20)}…` : trimmed;
    const what = /\b(NaN|Infinity|undefined)\b/.test(shown) ? "That" : `“${shown}”`;
    return { ok: false, message: `${what} is not a number. ${ruleText(rule)}` };
  }
  const outside =
    value === null ||
    (rule.integer && !Number.isInteger(value)) ||
    (rule.min !== undefined && value < rule.min) ||
    (rule.above !== undefined && value <= rule.above) ||
    (rule.max !== undefined && value > rule.max);
  return outside ? { ok: false, message: ruleText(rule) } : { ok: true, value };
}

/**
 * Reads a field whose limits a model check gives (`problemOf` returns the message for a value it
 * refuses): the value, or "Enter a number.", "\"x\" is not a number." or the check's message.
 */
export function checkNumberField(
  text: string,
  problemOf: (value: number) => string | null | undefined,
): FieldResult<number> {
  const value = readNumber(text);
  if (value === null) {
    return { ok: false, message: text.trim() === "" ? "Enter a number." : `"${text.trim()}" is not a number.` };
  }
  const problem = problemOf(value);
  return problem ? { ok: false, message: problem } : { ok: true, value };
}

/** Like parseNumberField, but an empty field is accepted as null. */
export function parseOptionalNumberField(text: string, rule: NumberRule = {}): FieldResult<number | null> {
  return text.trim() === "" ? { ok: true, value: null } : parseNumberField(text, rule);
}

export interface NumberFieldOptions {
  /** The widget's element id; the input gets `${idBase}-${name}`. */
  idBase: string;
  name: string;
  label: string;
  value: string | number;
  /** "numeric" for whole numbers (the default), "decimal" otherwise. */
  inputmode?: "numeric" | "decimal";
  /** Width in characters. */
  size?: number;
  /** Enabled at once (controls a widget adds in the browser); build-time fields start disabled. */
  enabled?: boolean;
}

/**
 * `<div class="widget-field"><label/><input type="text"/><p class="widget-message" role="alert"/></div>`:
 * a text field (so thousands separators can be typed) with its label and the message element its
 * aria-describedby names.
 */
export function numberField(doc: Document, o: NumberFieldOptions): HTMLDivElement {
  const { el } = dom(doc);
  const id = `${o.idBase}-${o.name}`;
  const field = el("div", { class: "widget-field" });
  field.append(
    el("label", { for: id }, o.label),
    el("input", {
      id,
      name: o.name,
      type: "text",
      inputmode: o.inputmode ?? "numeric",
      autocomplete: "off",
      spellcheck: "false",
      size: o.size,
      value: String(o.value),
      "aria-describedby": `${id}-message`,
      disabled: !o.enabled,
    }),
    el("p", { class: "widget-message", id: `${id}-message`, role: "alert" }),
  );
  return field;
}

export interface SelectFieldOptions {
  /** The widget's element id; the select gets `${idBase}-${name}`. */
  idBase: string;
  name: string;
  label: string;
  /** Each option as [value, text]. */
  options: readonly (readonly [value: string, text: string])[];
  /** The value selected at first. */
  value: string;
  /** With a role="alert" message element that aria-describedby names (for a choice the model can refuse). */
  message?: boolean;
  /** Enabled at once; build-time fields start disabled. */
  enabled?: boolean;
}

/** `<div class="widget-field"><label/><select/></div>` (and the message element when asked for). */
export function selectField(doc: Document, o: SelectFieldOptions): HTMLDivElement {
  const { el } = dom(doc);
  const id = `${o.idBase}-${o.name}`;
  const select = el("select", {
    id,
    name: o.name,
    disabled: !o.enabled,
    "aria-describedby": o.message ? `${id}-message` : undefined,
  });
  select.append(...o.options.map(([value, text]) => el("option", { value, selected: value === o.value }, text)));
  const field = el("div", { class: "widget-field" });
  field.append(el("label", { for: id }, o.label), select);
  if (o.message) field.append(el("p", { class: "widget-message", id: `${id}-message`, role: "alert" }));
  return field;
}

/** The message element of a field: the one its aria-describedby names, created if missing. */
function messageFor(input: Element): HTMLElement {
  const id = input.getAttribute("aria-describedby")?.split(/\s+/)[0];
  const existing = id ? input.ownerDocument.getElementById(id) : null;
  if (existing) return existing;
  const msg = dom(input.ownerDocument).el("p", {
    class: "widget-message",
    role: "alert",
    id: `${input.id || "field"}-message`,
  });
  input.setAttribute("aria-describedby", msg.id);
  input.insertAdjacentElement("afterend", msg);
  return msg;
}

/**
 * Marks a field invalid (`aria-invalid="true"`) with a message in its role="alert" element, or
 * valid (message cleared) when `message` is undefined.
 */
export function setFieldProblem(input: Element, message: string | undefined): void {
  const msg = messageFor(input);
  if (message === undefined) {
    input.removeAttribute("aria-invalid");
    msg.textContent = "";
  } else {
    input.setAttribute("aria-invalid", "true");
    msg.textContent = message;
  }
}

/** The explorers' form: each control, its message element and its field (label and control). */
export interface ControlForm<K extends string> {
  controls: Record<K, Element>;
  messages: Record<K, Element>;
  fields: Record<K, HTMLElement>;
  /** Controls the chapter hid (its `hide` list): they stay hidden even with a problem. */
  hidden: ReadonlySet<K>;
}

/**
 * Shows the explorers' control problems: each problem's control is marked (`aria-invalid`, or the
 * element `targetOf` picks) and its message element holds its messages, in order; every other
 * control is unmarked and its message emptied. A problem in a field hidden by the current choices
 * (not by the chapter) would be invisible, so that field is shown.
 *
 * Only what changes is written: a key that leaves the problems as they were touches nothing, so it
 * costs the page no style recalculation or layout (rewriting an unchanged message replaced its
 * text node, which the browser lays out again: docs/performance-log.md, "Pipeline explorer: what holds
 * the paint").
 */
export function showControlProblems<K extends string>(
  form: ControlForm<K>,
  names: readonly K[],
  problems: readonly { control: K; message: string }[],
  targetOf: (control: K) => Element = (control) => form.controls[control],
): void {
  const texts = new Map<K, string>();
  for (const problem of problems) {
    const before = texts.get(problem.control);
    texts.set(problem.control, before ? `${before} ${problem.message}` : problem.message);
  }
  for (const name of names) {
    if (!texts.has(name)) {
      if (form.controls[name].hasAttribute("aria-invalid")) form.controls[name].removeAttribute("aria-invalid");
      if (form.messages[name].textContent !== "") form.messages[name].textContent = "";
    }
  }
  for (const [control, text] of texts) {
    const target = targetOf(control);
    if (target !== form.controls[control] && form.controls[control].hasAttribute("aria-invalid"))
      form.controls[control].removeAttribute("aria-invalid");
    if (target.getAttribute("aria-invalid") !== "true") target.setAttribute("aria-invalid", "true");
    if (form.messages[control].textContent !== text) form.messages[control].textContent = text;
    if (form.fields[control].hidden && !form.hidden.has(control)) form.fields[control].hidden = false;
  }
}

/**
 * Marks a widget's output as stale while a field is invalid: dimmed, with a note saying which
 * value it still shows ("Showing s = 4,096 until the field is fixed."); `note` undefined clears it.
 */
export function setStale(output: Element, note: string | undefined): void {
  const doc = output.ownerDocument;
  let badge = output.previousElementSibling?.classList.contains("widget-stale-note")
    ? (output.previousElementSibling as HTMLElement)
    : null;
  if (note === undefined) {
    output.classList.remove("widget-stale");
    badge?.remove();
    return;
  }
  output.classList.add("widget-stale");
  if (!badge) {
    badge = dom(doc).el("p", { class: "widget-stale-note" });
    output.insertAdjacentElement("beforebegin", badge);
  }
  badge.textContent = note;
}
