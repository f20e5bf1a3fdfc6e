/**
 * The Memory Explorer's form: raw control values (strings, checkbox booleans, the pasted
 * config.json) read into a state with one friendly message per control at fault, and a state
 * written back as control values. A combination the model refuses becomes a message on the
 * control a reader can change, never an exception in the page.
 */
import { ModelInputError } from "../../model/index.ts";
import { WidgetSettingsError } from "../widget.ts";
import { formatNumber } from "../kit/format.ts";
import {
  maxConfigChars,
  type memoryCheckboxes,
  memoryControls,
  memoryDefaults,
  parseField,
  type MemoryControl,
  type MemoryExplorerState,
} from "./state.ts";
import { computeMemoryView, controlOfModelField, type MemoryView } from "./view.ts";

/** What the form holds: select and text values as strings, checkboxes as booleans, the pasted text. */
export type MemoryControlValues = Record<Exclude<MemoryControl, (typeof memoryCheckboxes)[number]>, string> &
  Record<(typeof memoryCheckboxes)[number], boolean> & {
    configText: string;
  };

/** What went wrong with one control. */
export interface ControlProblem {
  control: MemoryControl;
  message: string;
}

export type ControlsResult =
  { ok: true; state: MemoryExplorerState; view: MemoryView } | { ok: false; problems: ControlProblem[] };

const friendly: Partial<Record<MemoryControl, string>> = {
  seqLength: "Enter a sequence length from 1 to 1,048,576 tokens, for example 4096.",
  microBatch: "Enter a micro-batch size from 1 to 1,024.",
  dp: "Enter a data-parallel degree from 1 to 65,536.",
  tp: "Enter a tensor-parallel degree from 1 to 1,024.",
  pp: "Enter a pipeline-parallel degree from 1 to 1,024.",
  cp: "Enter a context-parallel degree from 1 to 1,024.",
  ep: "Enter an expert-parallel degree from 1 to 1,024.",
  microbatches: "Enter a number of microbatches from 1 to 4,096.",
  chunks: "Enter 2 to 16 chunks per GPU.",
};

/** Reads a pasted config.json; a message (never an exception) when it is not a JSON object. */
export function readConfigText(
  text: string,
): { ok: true; config: Record<string, unknown> } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, message: "Paste the contents of a Hugging Face config.json." };
  if (trimmed.length > maxConfigChars)
    return {
      ok: false,
      message: `That is longer than a config.json (${formatNumber(maxConfigChars)} characters at most).`,
    };
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch (err) {
    return { ok: false, message: `Not valid JSON: ${(err as Error).message.split("\n")[0]}` };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { ok: false, message: "A config.json is a JSON object ({ … })." };
  }
  return { ok: true, config: parsed as Record<string, unknown> };
}

/** Validates the form; on success also computes the view (so a model rejection is a control problem). */
export function readMemoryControls(values: MemoryControlValues): ControlsResult {
  const problems: ControlProblem[] = [];
  const state = { ...memoryDefaults } as MemoryExplorerState;
  for (const key of memoryControls) {
    try {
      (state as unknown as Record<string, unknown>)[key] = parseField(key, values[key]);
    } catch (err) {
      if (!(err instanceof WidgetSettingsError)) throw err;
      problems.push({ control: key, message: friendly[key] ?? `Choose a ${key} from the list.` });
    }
  }
  if (state.preset === "custom") {
    const read = readConfigText(values.configText);
    if (read.ok) state.config = read.config;
    else problems.push({ control: "preset", message: read.message });
  } else {
    state.config = null;
  }
  if (problems.length > 0) return { ok: false, problems };
  try {
    return { ok: true, state, view: computeMemoryView(state) };
  } catch (err) {
    if (!(err instanceof ModelInputError)) throw err;
    const control = controlOfModelField(err.field);
    const message =
      control === "preset" && state.preset === "custom"
        ? `This config cannot be read: ${err.message}.`
        : `${err.message}.`;
    return { ok: false, problems: [{ control, message }] };
  }
}

/** The form values that show a state. */
export function controlValuesOf(state: MemoryExplorerState): MemoryControlValues {
  const out = {} as Record<string, unknown>;
  for (const key of memoryControls) out[key] = typeof state[key] === "boolean" ? state[key] : String(state[key]);
  out.configText = state.config ? JSON.stringify(state.config, null, 2) : "";
  return out as MemoryControlValues;
}
