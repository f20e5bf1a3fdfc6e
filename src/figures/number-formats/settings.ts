/**
 * The number-formats widget's inputs: its chapter settings (YAML inside `::: widget number-formats`)
 * and the number a reader types, each read into a finite value of bounded magnitude or refused with
 * a message, so NaN, Infinity or 1e400 never reach the view model.
 *
 * Settings:
 *   value: 0.1          # the number shown by default (finite; magnitude at most 1e300)
 *   focus: fp8-e4m3     # the format whose representable values the spacing strip draws
 *   saturate: false     # overflow saturates to ±max instead of becoming ±inf (or NaN for E4M3)
 */
import type { NumberFormatId } from "../../model/index.ts";
import { numberFormatIds } from "../../data/number-formats.ts";
import { WidgetSettingsError, settingsObject } from "../widget.ts";
import { settingsUrlCodec } from "../kit/url-codec.ts";
import { looksNumeric, readNumber } from "../kit/field.ts";

export interface NumberFormatsSettings {
  value: number;
  focus: NumberFormatId;
  saturate: boolean;
}

/** Largest magnitude a reader may type; far beyond every format, far below float64 overflow. */
const maxInputMagnitude = 1e300;

export type NumberInputResult = { ok: true; value: number } | { ok: false; message: string };

/**
 * Reads what a reader typed: an optional sign, digits with an optional decimal point and exponent
 * ("-3.5", "1e-5", "65,504"). Never returns NaN or Infinity; anything else is a message.
 */
export function parseNumberInput(text: string): NumberInputResult {
  if (text.trim() === "") return { ok: false, message: "Enter a number, for example 0.1 or -3.5e-4." };
  const value = readNumber(text);
  if (!looksNumeric(text)) {
    return {
      ok: false,
      message: `"${text.trim()}" is not a number. Use digits, a point and an optional exponent, for example 6.1e-5.`,
    };
  }
  if (value === null || Math.abs(value) > maxInputMagnitude)
    return { ok: false, message: "Enter a number of magnitude at most 1e300." };
  return { ok: true, value };
}

export function parseSettings(raw: unknown): NumberFormatsSettings {
  const obj = settingsObject(raw, ["value", "focus", "saturate"]);
  const value = obj.value ?? 0.1;
  if (typeof value !== "number" || !Number.isFinite(value) || Math.abs(value) > maxInputMagnitude) {
    throw new WidgetSettingsError(
      "value",
      `must be a finite number of magnitude at most 1e300 (got ${JSON.stringify(value)})`,
    );
  }
  const focus = obj.focus ?? "fp8-e4m3";
  if (typeof focus !== "string" || !(numberFormatIds as readonly string[]).includes(focus)) {
    throw new WidgetSettingsError(
      "focus",
      `must be one of ${numberFormatIds.join(", ")} (got ${JSON.stringify(focus)})`,
    );
  }
  const saturate = obj.saturate ?? false;
  if (typeof saturate !== "boolean") {
    throw new WidgetSettingsError("saturate", `must be true or false (got ${JSON.stringify(saturate)})`);
  }
  return { value, focus: focus as NumberFormatId, saturate };
}

/** The widget's settings in a page link (`?<widget id>=key:value,…`), checked by the chapter's parser. */
export const numberFormatsUrlCodec = settingsUrlCodec(
  { value: "number", focus: "choice", saturate: "boolean" },
  parseSettings,
);
