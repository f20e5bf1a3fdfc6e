/**
 * The Memory Explorer's state: the controls by name, the JSON-safe state and its defaults, the
 * accepted range or choices of each control, and the one field parser that YAML settings, URL
 * values and form values all go through (so "16,384" or "abc" means the same in each of them).
 *
 * The state describes one training job the engine (src/model/scenario.ts) can evaluate: a model,
 * a GPU, a framework profile (src/data/frameworks.ts: it fixes the bytes each model state takes
 * and where it is sharded), the batch and every parallel degree. Every instance accepts every
 * control; a chapter's `hide` list only moves controls into the "More settings" disclosure.
 *
 * No DOM and no model call: src/figures/memory-explorer/view.ts computes from a state, and
 * settings.ts, url.ts and controls.ts read states from the chapter, the link and the form.
 */
import { GPUS, MODEL_PRESETS, findGpu, findModelPreset, type FrameworkId, type ZeroStage } from "../../model/index.ts";
import type { AttentionKernel, Recompute } from "../../model/index.ts";
import { WidgetSettingsError } from "../widget.ts";
import { readNumber } from "../kit/field.ts";
import { formatNumber } from "../kit/format.ts";
import { frameworkOptions, isFrameworkId } from "../kit/scenario.ts";

/** Every control of the widget, by the name used in YAML settings, `hide`, `lock` and the URL. */
export const memoryControls = [
  "preset",
  "gpu",
  "framework",
  "seqLength",
  "microBatch",
  "recompute",
  "attention",
  "zero",
  "reshard",
  "dp",
  "tp",
  "sp",
  "pp",
  "split",
  "schedule",
  "microbatches",
  "chunks",
  "cp",
  "ep",
] as const;
export type MemoryControl = (typeof memoryControls)[number];

/** The checkbox controls. */
export const memoryCheckboxes = ["reshard", "sp"] as const satisfies readonly MemoryControl[];

/** Pipeline schedules the step model (and so the explorer) knows. */
export type ExplorerSchedule = "1f1b" | "interleaved";

/**
 * How the layers are split over the pipeline stages: `even` (the first stages take any extra
 * layer) or `trimmed` (one layer fewer on each end stage, Llama 3's remedy: the configuration
 * finder tries both and ranks the faster that fits).
 */
export type ExplorerSplit = "even" | "trimmed";

/** The state the explorer computes from: JSON-safe (it travels in `data-settings` and the URL). */
export interface MemoryExplorerState {
  /** A preset id of src/data/models.ts, or `"custom"` for a pasted config. */
  preset: string;
  /** The pasted Hugging Face config when `preset` is `"custom"`, else null. */
  config: Record<string, unknown> | null;
  /** A GPU id of src/data/gpus.ts. */
  gpu: string;
  /** The framework profile: its state layout per ZeRO stage (src/data/frameworks.ts). */
  framework: FrameworkId;
  seqLength: number;
  microBatch: number;
  recompute: Recompute;
  attention: AttentionKernel;
  zero: ZeroStage;
  /** ZeRO-3 only: free the gathered weights after the forward pass (FSDP's reshard_after_forward). */
  reshard: boolean;
  dp: number;
  tp: number;
  sp: boolean;
  pp: number;
  /** The stage split (with pp > 1); the layers per stage it gives are shown beside the control. */
  split: ExplorerSplit;
  schedule: ExplorerSchedule;
  /** Microbatches per step and data-parallel rank: the global batch is dp × microBatch × microbatches. */
  microbatches: number;
  chunks: number;
  cp: number;
  ep: number;
}

/** Chapter settings: a state plus the controls the chapter shows only under "More settings" or locks. */
export interface MemoryExplorerSettings extends MemoryExplorerState {
  hide: MemoryControl[];
  lock: MemoryControl[];
}

export const memoryDefaults: MemoryExplorerState = {
  preset: "llama-3.1-8b",
  config: null,
  gpu: "h100-sxm",
  framework: "ddp",
  seqLength: 4096,
  microBatch: 1,
  recompute: "none",
  attention: "flash",
  zero: 0,
  reshard: true,
  dp: 1,
  tp: 1,
  sp: false,
  pp: 1,
  split: "even",
  schedule: "1f1b",
  microbatches: 8,
  chunks: 2,
  cp: 1,
  ep: 1,
};

/**
 * The framework a chapter's settings get when they name none: the profile whose state layout is
 * the ZeRO paper's accounting that chapters 2 to 4 teach and that runs the layout. Plain data
 * parallelism: PyTorch DDP (16 bytes per parameter, as $2 + 2 + 12$), or Megatron-LM once a model
 * dimension is split (DDP splits none); ZeRO-1 and ZeRO-2: DeepSpeed, ZeRO's own implementation;
 * ZeRO-3: DeepSpeed, or PyTorch FSDP2 with pipeline parallelism (DeepSpeed's pipeline engine runs
 * ZeRO-0 and ZeRO-1 only).
 */
export function defaultFramework(state: Pick<MemoryExplorerState, "zero" | "tp" | "pp" | "cp" | "ep">): FrameworkId {
  if (state.zero === 0) return state.tp * state.pp * state.cp * state.ep > 1 ? "megatron" : "ddp";
  if (state.zero === 3 && state.pp > 1) return "fsdp2";
  return "deepspeed";
}

/** Inclusive ranges of the integer controls (the model adds divisibility checks on top). */
const memoryIntegerRanges = {
  seqLength: [1, 1_048_576],
  microBatch: [1, 1024],
  dp: [1, 65_536],
  tp: [1, 1024],
  pp: [1, 1024],
  cp: [1, 1024],
  ep: [1, 1024],
  microbatches: [1, 4096],
  chunks: [2, 16],
} as const satisfies Partial<Record<MemoryControl, readonly [number, number]>>;
type IntegerControl = keyof typeof memoryIntegerRanges;

const memoryChoices = {
  recompute: ["none", "selective", "full"],
  attention: ["flash", "eager"],
  zero: [0, 1, 2, 3],
  schedule: ["1f1b", "interleaved"],
  split: ["even", "trimmed"],
} as const;

/** Largest pasted config accepted, in characters (a real config.json is 1–3 kB). */
export const maxConfigChars = 20_000;

function isControl(name: unknown): name is MemoryControl {
  return typeof name === "string" && (memoryControls as readonly string[]).includes(name);
}

/** Parses one field from a typed value (YAML) or text (URL, controls). Throws WidgetSettingsError. */
export function parseField(name: MemoryControl | "config", value: unknown): unknown {
  const bad = (why: string): never => {
    throw new WidgetSettingsError(name, why);
  };
  if (name in memoryIntegerRanges) {
    const [lo, hi] = memoryIntegerRanges[name as IntegerControl];
    const n = typeof value === "string" ? readNumber(value) : value;
    if (typeof n !== "number" || !Number.isInteger(n) || n < lo || n > hi) {
      bad(`must be a whole number from ${formatNumber(lo)} to ${formatNumber(hi)} (got ${JSON.stringify(value)})`);
    }
    return n;
  }
  switch (name) {
    case "preset": {
      if (value === "custom" || (typeof value === "string" && findModelPreset(value)))
        return typeof value === "string" ? value.toLowerCase() : value;
      return bad(
        `must be one of ${MODEL_PRESETS.map((p) => p.id).join(", ")} or custom (got ${JSON.stringify(value)})`,
      );
    }
    case "gpu": {
      if (typeof value === "string" && findGpu(value)) return value.toLowerCase();
      return bad(`must be one of ${GPUS.map((g) => g.id).join(", ")} (got ${JSON.stringify(value)})`);
    }
    case "framework": {
      if (isFrameworkId(value)) return value;
      return bad(`must be one of ${frameworkOptions.map(([id]) => id).join(", ")} (got ${JSON.stringify(value)})`);
    }
    case "reshard":
    case "sp": {
      if (typeof value === "boolean") return value;
      if (value === "1" || value === "true") return true;
      if (value === "0" || value === "false") return false;
      return bad(`must be true or false (got ${JSON.stringify(value)})`);
    }
    case "zero": {
      const n = typeof value === "string" ? readNumber(value) : value;
      if (n === 0 || n === 1 || n === 2 || n === 3) return n;
      return bad(`must be 0, 1, 2 or 3 (got ${JSON.stringify(value)})`);
    }
    case "recompute":
    case "attention":
    case "schedule":
    case "split": {
      const allowed = memoryChoices[name] as readonly string[];
      if (typeof value === "string" && allowed.includes(value)) return value;
      return bad(`must be one of ${allowed.join(", ")} (got ${JSON.stringify(value)})`);
    }
    case "config": {
      if (value === null) return null;
      if (typeof value !== "object" || Array.isArray(value)) return bad("must be a Hugging Face config.json object");
      return value;
    }
  }
  return bad("unknown setting");
}

/** Parses a `hide` or `lock` list (one name or a list) into known control names, without repeats. */
export function parseControlList(name: "hide" | "lock", value: unknown): MemoryControl[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  for (const item of list) {
    if (!isControl(item)) {
      throw new WidgetSettingsError(
        name,
        `unknown control ${JSON.stringify(item)} (known: ${memoryControls.join(", ")})`,
      );
    }
  }
  return [...new Set(list as MemoryControl[])];
}
