/**
 * Hardware and model facts of src/data as (unit, value) pairs, for the number ledger
 * (src/plugins/markdown/number-ledger.ts): a number the prose types with a unit ("989 TFLOPS", "3.35 TB/s",
 * "80 GB") that equals one of these at the precision printed fails the build naming the attribute to
 * print it by (`{=gpu.h100-sxm.bf16:0}`), so a datasheet figure lives once, in src/data.
 *
 * Values are in base units: FLOP/s, bytes, bytes per second, watts, counts. Pure.
 */
import { GPUS } from "../data/gpus.ts";
import { INTERCONNECTS } from "../data/interconnects.ts";
import { MODEL_PRESETS } from "../data/models.ts";
import { at } from "./errors.ts";
import { parseModelConfig } from "./architecture.ts";

export type FactUnit = "flops" | "bytes" | "bytesPerSecond" | "watts" | "sms" | "parameters";

export interface DataFact {
  unit: FactUnit;
  value: number;
  /**
   * Words the text must name near the number for it to be this fact ("H100", "PCIe"); none for a model's exact count.
   */
  requires: readonly string[];
  /** Where it comes from, e.g. "h100-sxm bf16 dense". */
  name: string;
  /** The value name that prints it by name (src/model/values/data.ts), e.g. "gpu.h100-sxm.bf16". */
  ref: string;
}

/** The book's reference GPU (the preface says so): its figures may appear without its name. */
export const REFERENCE_GPU = "h100-sxm";

/** "a100-sxm-80gb" → ["A100"], "h100-pcie" → ["H100", "PCIe"]: what the text must name. */
function productWords(gpuId: string): string[] {
  if (gpuId === REFERENCE_GPU) return [];
  const parts = gpuId.split("-");
  const chip = at(parts, 0, "data facts: chip of the GPU id").toUpperCase();
  return parts[1] === "pcie" ? [chip, "PCIe"] : [chip];
}

function gpuFacts(): DataFact[] {
  const out: DataFact[] = [];
  for (const g of GPUS) {
    const add = (unit: FactUnit, value: number | null, what: string, attr: string) => {
      if (value !== null && value > 0)
        out.push({ unit, value, name: `${g.id} ${what}`, requires: productWords(g.id), ref: `gpu.${g.id}.${attr}` });
    };
    add("flops", g.bf16FlopsPerSecond, "bf16 dense", "bf16");
    add("flops", 2 * g.bf16FlopsPerSecond, "bf16 with 2:4 sparsity (the headline)", "bf16Sparse");
    add("flops", g.fp8FlopsPerSecond, "fp8 dense", "fp8");
    add(
      "flops",
      g.fp8FlopsPerSecond === null ? null : 2 * g.fp8FlopsPerSecond,
      "fp8 with 2:4 sparsity (the headline)",
      "fp8Sparse",
    );
    add("flops", g.tf32FlopsPerSecond, "tf32 dense", "tf32");
    add("flops", 2 * g.tf32FlopsPerSecond, "tf32 with 2:4 sparsity (the headline)", "tf32Sparse");
    add("flops", g.fp32FlopsPerSecond, "fp32", "fp32");
    add("bytes", g.hbmBytes, "HBM capacity", "hbm");
    add("bytesPerSecond", g.hbmBytesPerSecond, "HBM bandwidth", "hbmBandwidth");
    add("bytesPerSecond", g.nvlinkBytesPerSecond, "NVLink, both directions", "nvlink");
    add("bytesPerSecond", g.nvlinkBytesPerSecond / 2, "NVLink, each direction", "nvlinkPerDirection");
    add("bytesPerSecond", g.pcieBytesPerSecond, "PCIe, both directions", "pcie");
    add("bytesPerSecond", g.pcieBytesPerSecond / 2, "PCIe, each direction", "pciePerDirection");
    add("bytes", g.l2Bytes, "L2 cache", "l2");
    add("bytes", g.sharedMemoryPerSmBytes, "shared memory per SM", "sharedMemory");
    add("watts", g.maxPowerWatts, "board power", "power");
    add("sms", g.smCount, "SMs", "sms");
  }
  for (const n of INTERCONNECTS) {
    const add = (value: number | null, what: string, attr: string) => {
      if (value !== null && value > 0)
        out.push({
          unit: "bytesPerSecond",
          value,
          name: `${n.gpuId} ${what}`,
          requires: productWords(n.gpuId),
          ref: `net.${n.gpuId}.${attr}`,
        });
    };
    add(n.nvlinkRingBusBytesPerSecond, "NVLink ring bus bandwidth (nccl-tests)", "nvlinkRingBus");
    add(n.nvlinkNvlsAllReduceBusBytesPerSecond, "NVLink SHARP all-reduce bus bandwidth (nccl-tests)", "nvlsBus");
    add(n.nicLineBytesPerSecond, "NIC line rate", "nicLine");
    add(n.nicBusBytesPerSecond, "NIC bus bandwidth", "nicBus");
  }
  return out;
}

function modelFacts(): DataFact[] {
  const out: DataFact[] = [];
  for (const m of MODEL_PRESETS) {
    const ref = `model.${m.id}`;
    out.push({
      unit: "parameters",
      value: m.publishedTotal,
      name: `${m.id} parameters (published)`,
      requires: [],
      ref: `${ref}.params`,
    });
    if (m.publishedActive !== undefined) {
      const name = `${m.id} active parameters`;
      out.push({ unit: "parameters", value: m.publishedActive, name, requires: [], ref: `${ref}.activeParams` });
    }
  }
  return out;
}

/** Every fact, once. */
export const DATA_FACTS: readonly DataFact[] = Object.freeze([...gpuFacts(), ...modelFacts()]);

/** Prose units and what one of them is in base units. */
export const FACT_UNITS: Readonly<Record<string, { unit: FactUnit; scale: number }>> = {
  PFLOPS: { unit: "flops", scale: 1e15 },
  TFLOPS: { unit: "flops", scale: 1e12 },
  "TB/s": { unit: "bytesPerSecond", scale: 1e12 },
  "GB/s": { unit: "bytesPerSecond", scale: 1e9 },
  "Gb/s": { unit: "bytesPerSecond", scale: 1.25e8 },
  TB: { unit: "bytes", scale: 1e12 },
  GB: { unit: "bytes", scale: 1e9 },
  MB: { unit: "bytes", scale: 1e6 },
  KB: { unit: "bytes", scale: 1024 },
  KiB: { unit: "bytes", scale: 1024 },
  W: { unit: "watts", scale: 1 },
  SMs: { unit: "sms", scale: 1 },
  "": { unit: "parameters", scale: 1 },
};

/**
 * The fact a printed number names, if any: `value` in `prose unit`, equal to a fact within half a
 * unit of the last printed digit (`halfUnit`), of a product the `context` (the paragraph) names.
 * Unitless numbers match only exact parameter counts.
 */
export function matchDataFact(
  value: number,
  proseUnit: string,
  halfUnit: number,
  context = "",
  near = "",
): DataFact | undefined {
  const u = FACT_UNITS[proseUnit];
  if (!u) return undefined;
  if (proseUnit === "" && (!Number.isInteger(value) || value < 1e6)) return undefined;
  const matches = DATA_FACTS.filter(
    (f) =>
      f.unit === u.unit &&
      Math.abs(f.value / u.scale - value) <= halfUnit + 1e-12 * Math.abs(value) &&
      f.requires.every((w) => context.includes(w)),
  );
  // Several facts may share a value (fp8 dense = bf16 sparse, H100 and H200 compute): name the one
  // the text is about, first by the product named just before the number.
  const words = near.toLowerCase();
  return (
    matches.find((f) => f.requires.length > 0 && f.requires.every((w) => near.includes(w))) ??
    matches.find((f) =>
      f.name
        .split(" ")
        .slice(1, 2)
        .some((w) => words.includes(w.toLowerCase())),
    ) ??
    matches[0]
  );
}

/** The book's symbols for a model's attributes (the preface's notation) and their names in src/model/values/data.ts. */
const MODEL_SYMBOLS: Readonly<Record<string, { attr: string; what: string }>> = {
  h: { attr: "hidden", what: "hidden size" },
  L: { attr: "layers", what: "layer count" },
  a: { attr: "heads", what: "query heads" },
  V: { attr: "vocab", what: "vocabulary" },
  d: { attr: "headDim", what: "head dimension" },
  f: { attr: "ffn", what: "MLP width" },
  "n_{kv}": { attr: "kvHeads", what: "KV heads" },
  "n_\\text{kv}": { attr: "kvHeads", what: "KV heads" },
  "n_{\\text{kv}}": { attr: "kvHeads", what: "KV heads" },
};

/** A model's attribute that a symbol names, given to it in the text, with the value src/data holds. */
export interface ModelAttributeMatch {
  /** The value name that prints it, "model.llama-3.1-70b.hidden". */
  ref: string;
  /** What src/data holds. */
  value: number;
  /** "Llama 3.1 70B's hidden size h". */
  label: string;
}

const normalizeName = (s: string) => s.toLowerCase().replace(/[-\s]+/g, " ");

/**
 * The model attribute a number given to a symbol names (`$h = 8192$` after "Llama-3.1-70B"): the
 * symbol is one of the book's notation for a model's shape, and the text before it, in the same
 * paragraph, last names a model preset of src/data/models.ts. Undefined when either is missing.
 */
export function matchModelAttribute(symbol: string, before: string): ModelAttributeMatch | undefined {
  const sym = MODEL_SYMBOLS[symbol.replace(/\s+/g, "")];
  if (!sym) return undefined;
  const text = normalizeName(before);
  let best: { at: number; id: string; name: string } | undefined;
  for (const m of MODEL_PRESETS) {
    const at = text.lastIndexOf(normalizeName(m.name));
    // "llama 3.1 8b" must not match inside "llama 3.1 8b instruct"-like longer names only by prefix.
    if (at >= 0 && (!best || at > best.at || (at === best.at && m.name.length > best.name.length)))
      best = { at, id: m.id, name: m.name };
  }
  if (!best) return undefined;
  const preset = MODEL_PRESETS.find((m) => m.id === best.id);
  if (!preset) return undefined;
  const a = parseModelConfig(preset.config).architecture;
  const values: Readonly<Record<string, number>> = {
    hidden: a.hiddenSize,
    layers: a.numLayers,
    heads: a.numHeads,
    vocab: a.vocabSize,
    headDim: a.headDim,
    ffn: a.intermediateSize,
    kvHeads: a.numKvHeads,
  };
  const value = values[sym.attr];
  if (value === undefined) return undefined;
  return { ref: `model.${best.id}.${sym.attr}`, value, label: `${best.name}'s ${sym.what} ${symbol}` };
}
