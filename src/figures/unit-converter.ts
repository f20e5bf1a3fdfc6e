/**
 * unit-converter: an amount of memory in bytes, GB (10^9 B), GiB (2^30 B), TB (10^12 B) and
 * TiB (2^40 B) side by side. Used by the preface's units section.
 *
 * Settings (YAML inside `::: widget unit-converter`):
 *   value: 80      # the amount shown by default (a number ≥ 0)
 *   unit: GB       # its unit: bytes, GB, GiB, TB or TiB
 */
import { WidgetSettingsError, defineWidget, settingsObject } from "./widget.ts";
import { settingsUrlCodec } from "./kit/url-codec.ts";
import { dom } from "./kit/dom.ts";
import { looksNumeric, numberField, readNumber, selectField } from "./kit/field.ts";
import { formatInteger, formatNumber, superscript } from "./kit/format.ts";

export const byteUnits = ["bytes", "GB", "GiB", "TB", "TiB"] as const;
export type ByteUnit = (typeof byteUnits)[number];

/** Bytes in one of each unit. GB/TB are decimal (SI), GiB/TiB binary (IEC). */
const bytesPerUnit: Readonly<Record<ByteUnit, number>> = {
  bytes: 1,
  GB: 1e9,
  GiB: 2 ** 30,
  TB: 1e12,
  TiB: 2 ** 40,
};

/** Largest amount accepted, in bytes (a yottabyte is 1e24 B; this leaves room and stays exact enough). */
const maxBytes = 1e30;

export interface UnitConverterSettings {
  value: number;
  unit: ByteUnit;
}

/** Converts `value` in `from` to every unit. */
export function convertBytes(value: number, from: ByteUnit): Record<ByteUnit, number> {
  const bytes = value * bytesPerUnit[from];
  const out = {} as Record<ByteUnit, number>;
  for (const u of byteUnits) out[u] = bytes / bytesPerUnit[u];
  return out;
}

export type AmountResult = { ok: true; value: number } | { ok: false; message: string };

/**
 * Reads what a reader typed: digits with an optional decimal point and exponent; commas,
 * underscores and spaces between digits are ignored ("80,000" is 80000). Never returns NaN or
 * Infinity: anything else is a message saying what to type.
 */
export function parseAmount(text: string, unit: ByteUnit): AmountResult {
  if (text.trim() === "") return { ok: false, message: "Enter an amount, for example 80." };
  const value = readNumber(text);
  if (!looksNumeric(text) || text.trim().startsWith("-")) {
    return { ok: false, message: `"${text.trim()}" is not a number. Use digits, for example 80 or 1.5e3.` };
  }
  const limit = maxBytes / bytesPerUnit[unit];
  if (value === null || value > limit) {
    return { ok: false, message: `Enter at most ${formatAmount(limit)} ${unit} (10³⁰ bytes).` };
  }
  return { ok: true, value };
}

/** Up to 6 significant digits with thousands separators; "1.5 × 10²⁴" beyond 10^15 or below 10^-6. */
export function formatAmount(x: number): string {
  if (x === 0) return "0";
  if (x >= 1e15 || x < 1e-6) {
    const [mantissa, exp] = x.toExponential(5).split("e") as [string, string];
    return `${mantissa.replace(/\.?0+$/, "")} × 10${superscript(Number(exp))}`;
  }
  return formatNumber(x, { significant: 6 });
}

/** Bytes are whole numbers: shown exactly (with separators) below 10^15, else like formatAmount. */
export function formatBytes(x: number): string {
  if (x >= 1 && x < 1e15) return formatInteger(x);
  return formatAmount(x);
}

function parseSettings(raw: unknown): UnitConverterSettings {
  const obj = settingsObject(raw, ["value", "unit"]);
  const unit = obj.unit ?? "GB";
  if (typeof unit !== "string" || !(byteUnits as readonly string[]).includes(unit)) {
    throw new WidgetSettingsError("unit", `must be one of ${byteUnits.join(", ")} (got ${JSON.stringify(unit)})`);
  }
  const value = obj.value ?? 80;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new WidgetSettingsError("value", `must be a number ≥ 0 (got ${JSON.stringify(value)})`);
  }
  if (value * bytesPerUnit[unit as ByteUnit] > maxBytes) {
    throw new WidgetSettingsError("value", `must be at most 10³⁰ bytes`);
  }
  return { value, unit: unit as ByteUnit };
}

/** Fills the result table body for an amount (used at build time and by the browser entry). */
export function fillTable(tbody: Element, value: number, unit: ByteUnit): void {
  const { el } = dom(tbody.ownerDocument);
  const rows = convertBytes(value, unit);
  tbody.textContent = "";
  for (const u of byteUnits) {
    const tr = el("tr", { class: u === unit ? "uc-current" : undefined });
    tr.append(
      el("th", { scope: "row" }, u),
      el("td", {}, u === "bytes" ? formatBytes(rows[u]) : formatAmount(rows[u])),
    );
    tbody.append(tr);
  }
}

/** Sentence read by screen readers after each change. */
export function summary(value: number, unit: ByteUnit): string {
  const r = convertBytes(value, unit);
  return `${formatAmount(value)} ${unit} is ${formatBytes(r.bytes)} bytes, ${formatAmount(r.GB)} GB, ${formatAmount(r.GiB)} GiB, ${formatAmount(r.TB)} TB or ${formatAmount(r.TiB)} TiB.`;
}

function renderStatic(root: Element, settings: UnitConverterSettings): void {
  const doc = root.ownerDocument;
  const idBase = root.getAttribute("id") ?? "unit-converter";
  const { el } = dom(doc);
  const box = el("div", { class: "unit-converter" });
  const controls = el("div", { class: "widget-controls" });

  const amountField = numberField(doc, {
    idBase,
    name: "amount",
    label: "Amount",
    value: settings.value,
    inputmode: "decimal",
  });
  const unitField = selectField(doc, {
    idBase,
    name: "unit",
    label: "Unit",
    options: byteUnits.map((u) => [u, u] as const),
    value: settings.unit,
  });
  controls.append(amountField, unitField);

  const table = el("table", { class: "uc-table" });
  table.append(el("caption", {}, "The same amount in each unit"));
  const thead = el("thead");
  const headRow = el("tr");
  headRow.append(el("th", { scope: "col" }, "Unit"), el("th", { scope: "col" }, "Amount"));
  thead.append(headRow);
  const tbody = el("tbody");
  fillTable(tbody, settings.value, settings.unit);
  table.append(thead, tbody);

  const live = el("p", { class: "visually-hidden", "aria-live": "polite" });
  const note = el(
    "p",
    { class: "uc-note" },
    "1 GB = 10⁹ bytes and 1 GiB = 2³⁰ bytes = 1.073741824 GB; 1 TB = 10¹² bytes and 1 TiB = 2⁴⁰ bytes ≈ 1.0995 TB.",
  );
  box.append(controls, table, note, live);
  root.append(box);
}

export const unitConverterWidget = defineWidget<UnitConverterSettings>({
  description: "converts an amount of memory between bytes, GB, GiB, TB and TiB",
  parseSettings,
  renderStatic,
});

/** The widget's settings in a page link (`?<widget id>=key:value,…`), checked by the chapter's parser. */
export const unitConverterUrlCodec = settingsUrlCodec({ value: "number", unit: "choice" }, parseSettings);
