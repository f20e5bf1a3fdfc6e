/**
 * The URL-state codec of every widget: a widget's settings that differ from the chapter's,
 * written `key:value,key:value` (readable in a link, `?widget-memory-explorer-1=dp:8,zero:3`), and
 * read back with every value validated and the link refused as a whole when one is bad. Pure, so
 * tests run it without a browser; src/widgets/runtime/url-state.ts reads and writes the URL.
 */
import { WidgetSettingsError } from "../widget.ts";

export interface UrlCodec<S, K extends string> {
  /** The keys a link may carry, in the order they are written. */
  keys: readonly K[];
  /** Whether a value equals the page's (then it is left out); default `===`. */
  same?: (key: K, value: unknown, base: unknown) => boolean;
  /** Text of one value, or undefined to leave it out; default {@link urlText}. */
  write?: (key: K, value: unknown) => string | undefined;
  /** Parses one value; throws WidgetSettingsError naming the key when it is bad. */
  read: (key: K, text: string) => unknown;
  /** Checks the whole state once every value is read (throws WidgetSettingsError). */
  check: (state: S) => void;
  /** Longest accepted link value, in characters. */
  maxLength: number;
}

/** Booleans as 1/0, null as "auto", anything else as String(value). */
export const urlText = (value: unknown): string =>
  typeof value === "boolean"
    ? value
      ? "1"
      : "0"
    : value === null
      ? "auto"
      : Object.is(value, -0)
        ? "-0" // String(-0) is "0": the sign of a zero is a value in its own right (number formats)
        : String(value);

/** The `key:value` pairs of `state` that differ from `base`, joined by commas ("" when none). */
export function encodeUrlState<S, K extends string>(codec: UrlCodec<S, K>, state: S, base: S): string {
  const parts: string[] = [];
  for (const key of codec.keys) {
    const v = (state as Record<string, unknown>)[key];
    const b = (base as Record<string, unknown>)[key];
    if (codec.same ? codec.same(key, v, b) : Object.is(v, b)) continue;
    const text = codec.write ? codec.write(key, v) : urlText(v);
    if (text !== undefined) parts.push(`${key}:${text}`);
  }
  return parts.join(",");
}

export type UrlDecodeResult<S> = { ok: true; state: S; ignored: string[] } | { ok: false; message: string };

/**
 * Restores a state from a link over `base` (the page's settings). Keys in `fixed` (hidden or
 * locked by the chapter) are ignored and listed; any bad value or combination rejects the link.
 */
export function decodeUrlState<S, K extends string>(
  codec: UrlCodec<S, K>,
  text: string,
  base: S,
  fixed: readonly string[] = [],
): UrlDecodeResult<S> {
  if (text.length > codec.maxLength) return { ok: false, message: "The link’s settings are too long." };
  const state = { ...base } as S;
  const ignored: string[] = [];
  try {
    for (const part of text.split(",")) {
      if (part === "") continue;
      const colon = part.indexOf(":");
      const key = colon < 0 ? part : part.slice(0, colon);
      const value = colon < 0 ? "" : part.slice(colon + 1);
      if (!(codec.keys as readonly string[]).includes(key)) throw new WidgetSettingsError(key, "unknown setting");
      if (fixed.includes(key)) {
        ignored.push(key);
        continue;
      }
      (state as Record<string, unknown>)[key] = codec.read(key as K, value);
    }
    codec.check(state);
  } catch (err) {
    if (err instanceof WidgetSettingsError)
      return { ok: false, message: `The settings in this page’s link were not used: ${err.message}.` };
    throw err;
  }
  return { ok: true, state, ignored };
}

/**
 * How one setting is written in a link: a number as JavaScript prints it (so it reads back
 * exactly), a boolean as 1/0, a choice (a preset id, a unit) as its id, and a number that may be
 * absent as the word the chapter's YAML uses for "absent" ("number|none" → `none`, "number|all" →
 * `all`).
 */
export type UrlValueKind = "number" | "number|none" | "number|all" | "boolean" | "choice";

const numberText = /^-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const choiceText = /^[A-Za-z0-9._-]{1,64}$/;

function readValue(key: string, kind: UrlValueKind, text: string): unknown {
  if ((kind === "number|none" && text === "none") || (kind === "number|all" && text === "all")) return null;
  if (kind === "boolean") {
    if (text === "1" || text === "0") return text === "1";
    throw new WidgetSettingsError(key, "must be 1 or 0");
  }
  if (kind === "choice") {
    if (choiceText.test(text)) return text;
    throw new WidgetSettingsError(key, "is not one of the choices");
  }
  const n = numberText.test(text) ? Number(text) : Number.NaN;
  // The reader's text is not quoted back: a link may carry anything, NaN or a script included.
  if (!Number.isFinite(n)) throw new WidgetSettingsError(key, "is not a number");
  return n; // "-0" reads back as -0, which the number-formats widget shows with its sign bit
}

/**
 * The link codec of a widget whose settings are all its controls hold (the chapter's YAML keys):
 * each value written by its {@link UrlValueKind}, and the state a link gives checked as a whole
 * by `parse`, the parser the build runs on the chapter's YAML, so a link is held to the rules of
 * the page itself. Whatever `parse` throws rejects the link with its message; nothing escapes.
 */
export function settingsUrlCodec<S, K extends string & keyof S>(
  kinds: Readonly<Record<K, UrlValueKind>>,
  parse: (raw: unknown) => S,
  maxLength = 400,
): UrlCodec<S, K> {
  const keys = Object.keys(kinds) as K[];
  const absent = (kind: UrlValueKind) => (kind === "number|all" ? "all" : "none");
  return {
    keys,
    write: (key, value) => (value === null ? absent(kinds[key]) : urlText(value)),
    read: (key, text) => readValue(key, kinds[key], text),
    check(state) {
      // The YAML spelling of an absent number, which is what the parser accepts.
      const raw: Record<string, unknown> = { ...(state as Record<string, unknown>) };
      for (const key of keys) if (raw[key] === null) raw[key] = absent(kinds[key]);
      try {
        parse(raw);
      } catch (err) {
        if (err instanceof WidgetSettingsError) throw err;
        const field = (err as { field?: unknown }).field;
        const message = err instanceof Error ? err.message : String(err);
        throw new WidgetSettingsError(typeof field === "string" ? field : "settings", message);
      }
    },
    maxLength,
  };
}
