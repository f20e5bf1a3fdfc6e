/**
 * What every widget that reports memory, communication or step time for a layout shares: the
 * framework select (one profile of src/data/frameworks.ts, which fixes the state layout and the
 * overlap defaults), the one usable-memory budget of src/model/scenario.ts named and shown the same
 * way, the kernel efficiency the step model uses (KERNEL_EFFICIENCY) in words, and GB per GPU
 * printed the same way in the configuration finder's table and the memory explorer's verdict, so
 * a reader who follows a finder row into the explorer reads the same number. Pure: no DOM.
 */
import {
  AUTO_FRAMEWORK,
  FRAMEWORK_IDS,
  KERNEL_EFFICIENCY,
  findFrameworkProfile,
  gpuGeneration,
  memoryBudget,
  type FrameworkId,
  type GpuSpec,
  type ZeroStage,
} from "../../model/index.ts";
import { formatNumber } from "./format.ts";

/** The name a reader knows each framework by (the select's option text). */
export const FRAMEWORK_LABELS: Readonly<Record<FrameworkId, string>> = {
  megatron: "Megatron-LM",
  ddp: "PyTorch DDP",
  fsdp2: "PyTorch FSDP2",
  deepspeed: "DeepSpeed",
};

/** Short names for narrow places (a table cell). */
export const FRAMEWORK_SHORT: Readonly<Record<FrameworkId, string>> = {
  megatron: "Megatron",
  ddp: "DDP",
  fsdp2: "FSDP2",
  deepspeed: "DeepSpeed",
};

/** The framework select's options, [id, label], in src/data/frameworks.ts's order. */
export const frameworkOptions: readonly (readonly [FrameworkId, string])[] = FRAMEWORK_IDS.map(
  (id) => [id, FRAMEWORK_LABELS[id]] as const,
);

/** Whether `text` is a framework id. */
export function isFrameworkId(text: unknown): text is FrameworkId {
  return typeof text === "string" && (FRAMEWORK_IDS as readonly string[]).includes(text);
}

/** The ZeRO stages a framework runs, lowest first. */
export function frameworkStages(framework: FrameworkId): ZeroStage[] {
  const profile = findFrameworkProfile(framework);
  return profile
    ? (Object.keys(profile.layouts)
        .map(Number)
        .sort((a, b) => a - b) as ZeroStage[])
    : [];
}

/** The framework the configuration search pairs with a ZeRO stage (AUTO_FRAMEWORK). */
export function searchFramework(zero: ZeroStage): FrameworkId {
  return AUTO_FRAMEWORK[zero];
}

/** GB per GPU as every widget shows it, one decimal with separators: "54.0", "1,204.3". */
export function gbShown(bytes: number): string {
  return formatNumber(bytes / 1e9, { decimals: 1 });
}

/** The same number for a `data-*` attribute a test reads: "54.0", "1204.3". */
export function gbAttribute(bytes: number): string {
  return (bytes / 1e9).toFixed(1);
}

/** The budget in words: "72.0 GB usable of 80 GB (90%)" (memoryBudget's label). */
export function budgetLabel(gpu: GpuSpec): string {
  return memoryBudget(gpu).label;
}

/**
 * The kernel efficiency the step model uses on a GPU, in words: "41% of the dense bf16 peak
 * (Hopper)", or with `short` "41% of peak (Hopper)".
 */
export function efficiencyLabel(gpuId: string, short = false): string {
  const generation = gpuGeneration(gpuId);
  const name = generation[0]!.toUpperCase() + generation.slice(1);
  return `${Math.round(KERNEL_EFFICIENCY[generation] * 100)}% of ${short ? "peak" : "the dense bf16 peak"} (${name})`;
}
