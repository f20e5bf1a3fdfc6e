/**
 * The Memory Explorer's link state: the fields that differ from the page's settings, written
 * `key:value,key:value` by the kit's URL codec, with a pasted config carried as base64url JSON.
 * Reading a link validates every value and the combination; any problem rejects the whole link.
 */
import { WidgetSettingsError } from "../widget.ts";
import { decodeUrlState, encodeUrlState, urlText, type UrlCodec, type UrlDecodeResult } from "../kit/url-codec.ts";
import { maxConfigChars, memoryControls, parseField, type MemoryControl, type MemoryExplorerState } from "./state.ts";
import { checkWithModel } from "./settings.ts";

const urlKeys = [...memoryControls, "config"] as const;

function base64UrlEncode(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function base64UrlDecode(text: string): string {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("not base64url");
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  const bin = atob(b64);
  return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}

const memoryUrlCodec: UrlCodec<MemoryExplorerState, (typeof urlKeys)[number]> = {
  keys: urlKeys,
  same: (key, v, b) => (key === "config" ? JSON.stringify(v) === JSON.stringify(b) : v === b),
  write: (key, v) => (key !== "config" ? urlText(v) : v ? base64UrlEncode(JSON.stringify(v)) : undefined),
  read(key, value) {
    if (key !== "config") return parseField(key, value);
    let parsed: unknown;
    try {
      parsed = JSON.parse(base64UrlDecode(value));
    } catch {
      throw new WidgetSettingsError("config", "is not an encoded config.json");
    }
    return parseField("config", parsed);
  },
  check(state) {
    if (state.preset === "custom" && !state.config)
      throw new WidgetSettingsError("config", "preset custom needs a config");
    if (state.preset !== "custom") state.config = null;
    checkWithModel(state);
  },
  maxLength: 4 * maxConfigChars,
};

/** Encodes the fields of `state` that differ from `base` ("" when none). */
export function encodeMemoryState(state: MemoryExplorerState, base: MemoryExplorerState): string {
  return encodeUrlState(memoryUrlCodec, state.preset === "custom" ? state : { ...state, config: null }, base);
}

/**
 * Encodes every field of `state`, so the link sets the same state on any page's memory explorer
 * whatever that page's settings are (the configuration finder's "open in the memory explorer").
 */
export function encodeMemoryStateFull(state: MemoryExplorerState): string {
  return encodeUrlState(
    memoryUrlCodec,
    state.preset === "custom" ? state : { ...state, config: null },
    {} as MemoryExplorerState,
  );
}

export type DecodeResult = UrlDecodeResult<MemoryExplorerState>;

/**
 * Restores a state from the URL string over `base` (the page's settings). Controls in `fixed`
 * (locked by the chapter) are ignored; every other control, hidden under "More settings" or not,
 * is honored. Every value is validated, and so is the
 * combination; any problem rejects the whole link with a message.
 */
export function decodeMemoryState(
  text: string,
  base: MemoryExplorerState,
  fixed: readonly MemoryControl[] = [],
): DecodeResult {
  return decodeUrlState(memoryUrlCodec, text, base, fixed);
}
