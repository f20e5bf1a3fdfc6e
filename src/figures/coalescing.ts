/**
 * coalescing: the 32 threads of a warp loading one element each, at a stride, and the 32-byte
 * memory sectors those loads touch (CUDA C++ Best Practices Guide, "Coalesced Access to Global
 * Memory"). Used by the GPU-kernels chapter. The counting is `memoryTransactions` in
 * `src/model/roofline.ts`; this file validates inputs and draws.
 *
 * Settings (YAML inside `::: widget coalescing`):
 *   stride: 1        # elements between neighboring threads' addresses, 1 to 64
 *   elementBytes: 4  # 1, 2, 4 or 8
 *   offset: 0        # first element index (misalignment), 0 to 63
 */
import { memoryTransactions, SECTOR_BYTES, type WarpAccess } from "../model/index.ts";
import { WidgetSettingsError, defineWidget, settingsObject } from "./widget.ts";
import { settingsUrlCodec } from "./kit/url-codec.ts";
import { dom, figureSvg } from "./kit/dom.ts";
import { formatInteger, formatPercent } from "./kit/format.ts";
import { numberField, selectField } from "./kit/field.ts";

export interface CoalescingSettings {
  stride: number;
  elementBytes: number;
  offset: number;
}

const COALESCING_MAX_STRIDE = 64;
const COALESCING_MAX_OFFSET = 63;
const ELEMENT_SIZES = [1, 2, 4, 8] as const;
const THREADS = 32;

/** The sentence the readout prints and the live region reads. */
export function summarizeCoalescing(s: CoalescingSettings, a: WarpAccess): string {
  return `Stride ${s.stride}, ${s.elementBytes}-byte elements, offset ${s.offset}: the warp asks for ${a.requestedBytes} bytes and touches ${a.sectors} sectors of ${SECTOR_BYTES} bytes, ${formatInteger(a.movedBytes)} bytes moved, ${formatPercent(a.efficiency)} of them used.`;
}

export type CoalescingControlsResult =
  { ok: true; settings: CoalescingSettings } | { ok: false; errors: Partial<Record<"stride" | "offset", string>> };

function readInt(text: string, min: number, max: number, what: string): number | string {
  const t = text.trim();
  if (t === "") return `Enter ${what} from ${min} to ${max}.`;
  if (!/^\d+$/.test(t))
    return `${what[0]!.toUpperCase()}${what.slice(1)} must be a whole number from ${min} to ${max}.`;
  const n = Number(t);
  if (n < min || n > max) return `${what[0]!.toUpperCase()}${what.slice(1)} must be from ${min} to ${max}.`;
  return n;
}

/** Validates the controls (never throws). */
export function readCoalescingControls(raw: {
  stride: string;
  elementBytes: string;
  offset: string;
}): CoalescingControlsResult {
  const stride = readInt(raw.stride, 1, COALESCING_MAX_STRIDE, "a stride");
  const offset = readInt(raw.offset, 0, COALESCING_MAX_OFFSET, "an offset");
  const errors: Partial<Record<"stride" | "offset", string>> = {};
  if (typeof stride === "string") errors.stride = stride;
  if (typeof offset === "string") errors.offset = offset;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const eb = Number(raw.elementBytes);
  const elementBytes = (ELEMENT_SIZES as readonly number[]).includes(eb) ? eb : 4;
  return { ok: true, settings: { stride: stride as number, elementBytes, offset: offset as number } };
}

function parseSettings(raw: unknown): CoalescingSettings {
  const obj = settingsObject(raw, ["stride", "elementBytes", "offset"]);
  const int = (key: string, fallback: number, min: number, max: number): number => {
    const v = obj[key] ?? fallback;
    if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
      throw new WidgetSettingsError(key, `must be a whole number from ${min} to ${max}`);
    }
    return v;
  };
  const elementBytes = obj.elementBytes ?? 4;
  if (typeof elementBytes !== "number" || !(ELEMENT_SIZES as readonly number[]).includes(elementBytes)) {
    throw new WidgetSettingsError("elementBytes", "must be 1, 2, 4 or 8");
  }
  return {
    stride: int("stride", 1, 1, COALESCING_MAX_STRIDE),
    elementBytes,
    offset: int("offset", 0, 0, COALESCING_MAX_OFFSET),
  };
}

/**
 * Draws the warp (32 thread cells on top), the touched sectors (bottom, each with the bytes used
 * shaded) and a line from each thread to its sector. Only touched sectors are drawn, in address
 * order, with a gap mark where untouched sectors are skipped.
 */
export function drawCoalescing(container: Element, s: CoalescingSettings, idPrefix: string): WarpAccess {
  const doc = container.ownerDocument;
  const access = memoryTransactions(s.stride, s.elementBytes, s.offset, THREADS);
  const width = 640;
  const height = 190;
  const left = 8;
  const usable = width - 2 * left;
  const { svg: mk } = dom(doc);
  const svg = figureSvg(doc, {
    idPrefix,
    width,
    height,
    title: "A warp’s load and the memory sectors it touches",
    desc: summarizeCoalescing(s, access),
    attrs: { width: "100%", class: "coalescing-svg" },
  });
  const text = (x: number, y: number, t: string, style: string, anchor = "start") => {
    svg.append(mk("text", { x, y, "text-anchor": anchor, style }, t));
  };
  const label = "fill:var(--c-text);font:12px system-ui,-apple-system,'Segoe UI',sans-serif";
  const small = "fill:var(--c-muted);font:10px system-ui,-apple-system,'Segoe UI',sans-serif";
  // threads
  const tw = usable / THREADS;
  text(left, 14, "threads 0–31 of one warp", label);
  for (let i = 0; i < THREADS; i++) {
    svg.append(
      mk("rect", { x: left + i * tw + 1, y: 22, width: tw - 2, height: 18, rx: 2, style: "fill:var(--c-params)" }),
    );
  }
  // sectors (touched ones only, in order)
  const touched = [
    ...new Set(
      access.threadSectors.flatMap((sec, i) => {
        const first = (s.offset + i * s.stride) * s.elementBytes;
        const last = first + s.elementBytes - 1;
        const out: number[] = [];
        for (let k = Math.floor(first / SECTOR_BYTES); k <= Math.floor(last / SECTOR_BYTES); k++) out.push(k);
        void sec;
        return out;
      }),
    ),
  ].sort((a, b) => a - b);
  const sw = usable / Math.max(touched.length, 4);
  const sy = 120;
  text(left, sy + 44, `${touched.length} sectors of 32 bytes touched; shaded: bytes a thread asked for`, label);
  const used = new Map<number, Set<number>>();
  for (let i = 0; i < THREADS; i++) {
    const first = (s.offset + i * s.stride) * s.elementBytes;
    for (let b = first; b < first + s.elementBytes; b++) {
      const sec = Math.floor(b / SECTOR_BYTES);
      if (!used.has(sec)) used.set(sec, new Set());
      used.get(sec)!.add(b % SECTOR_BYTES);
    }
  }
  touched.forEach((sec, j) => {
    const x0 = left + j * sw;
    svg.append(
      mk("rect", {
        x: x0 + 1,
        y: sy,
        width: sw - 2,
        height: 24,
        style: "fill:var(--c-bubble);fill-opacity:.3;stroke:var(--c-text);stroke-width:1",
      }),
    );
    const bw = (sw - 2) / SECTOR_BYTES;
    for (const b of used.get(sec) ?? []) {
      svg.append(mk("rect", { x: x0 + 1 + b * bw, y: sy, width: bw, height: 24, style: "fill:var(--c-grads)" }));
    }
    if (j > 0 && sec !== touched[j - 1]! + 1 && sw > 10) text(x0, sy - 4, "…", small, "middle");
  });
  // links from threads to sectors
  for (let i = 0; i < THREADS; i++) {
    const j = touched.indexOf(access.threadSectors[i]!);
    svg.append(
      mk("line", {
        x1: left + (i + 0.5) * tw,
        y1: 40,
        x2: left + (j + 0.5) * sw,
        y2: sy,
        style: "stroke:var(--c-muted);stroke-width:1;stroke-opacity:.7",
      }),
    );
  }
  text(
    left,
    height - 6,
    `${formatInteger(access.movedBytes)} bytes moved for ${access.requestedBytes} requested: ${formatPercent(access.efficiency)} used`,
    label,
  );
  container.append(svg);
  return access;
}

function renderStatic(root: Element, settings: CoalescingSettings): void {
  const doc = root.ownerDocument;
  const idBase = root.getAttribute("id") ?? "coalescing";
  const { el } = dom(doc);
  const box = el("div", { class: "coalescing" });
  const controls = el("div", { class: "widget-controls" });
  const sizeField = selectField(doc, {
    idBase,
    name: "elementBytes",
    label: "Element size",
    options: ELEMENT_SIZES.map((b) => [String(b), `${b} byte${b === 1 ? "" : "s"}`] as const),
    value: String(settings.elementBytes),
  });
  controls.append(
    numberField(doc, { idBase, name: "stride", label: "Stride (elements)", value: settings.stride, size: 5 }),
    sizeField,
    numberField(doc, { idBase, name: "offset", label: "Offset (elements)", value: settings.offset, size: 5 }),
  );
  const figure = el("div", { class: "coalescing-figure" });
  const access = drawCoalescing(figure, settings, `${idBase}-svg`);
  const readout = el("p", { class: "coalescing-readout" }, summarizeCoalescing(settings, access));
  const live = el("p", { class: "visually-hidden", "aria-live": "polite" });
  box.append(controls, figure, readout, live);
  root.append(box);
}

export const coalescingWidget = defineWidget<CoalescingSettings>({
  description: "a warp’s 32 loads at a stride and the 32-byte memory sectors they touch",
  parseSettings,
  renderStatic,
});

/** The widget's settings in a page link (`?<widget id>=key:value,…`), checked by the chapter's parser. */
export const coalescingUrlCodec = settingsUrlCodec(
  { stride: "number", elementBytes: "number", offset: "number" },
  parseSettings,
);
