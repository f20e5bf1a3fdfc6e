/**
 * Command-line face of the model: `npm run -s model -- <command> …` prints one JSON object on
 * stdout; on bad input it prints one line on stderr and exits with status 1 (2 for usage errors).
 * Documented in docs/model-cli.md.
 */
import { readFileSync, existsSync } from "node:fs";
import { parseArgs } from "node:util";
import {
  countParameters,
  evaluateRuns,
  findModelPreset,
  KERNEL_EFFICIENCY,
  FP8_MEMORY_NOTE,
  MODEL_PRESETS,
  ModelInputError,
  parseRunData,
  pipelineSchedule,
  stepTime,
  summarizeErrors,
  trainingMemory,
  validationReport,
  whatIfStudies,
  GPUS,
  INTERCONNECTS,
  findGpu,
  memoryBudget,
  searchConfigurations,
  launchConfigs,
  LAUNCH_FRAMEWORKS,
  type ConfigSearchInput,
  type GpuSpec,
  type PipelineSchedule,
  type StepInput,
  type TrainingSetup,
} from "../model/index.ts";
import { FRAMEWORK_PROFILES } from "../data/frameworks.ts";

const USAGE = `usage: model <command> [options]
  params <config.json|preset>
  memory <config.json|preset> [--seq N] [--micro-batch N] [--dp N] [--tp N] [--sp] [--pp N] [--cp N] [--ep N]
         [--zero 0|1|2|3] [--recompute none|selective|full] [--precision fp32|bf16] [--fp32-grad-accum]
         [--schedule afab|1f1b|interleaved] [--microbatches N] [--chunks V] [--stage-layers a,b,…]
         [--attention flash|eager] [--framework megatron|ddp|fsdp2|deepspeed] [--no-reshard] [--gpu ID]
  pipeline --schedule afab|1f1b|interleaved|zb-h1|dualpipe --stages P --microbatches M [--chunks V]
         [--forward T] [--backward T] [--weight-grad T] [--forward-backward T]
  step <config.json|preset> --gpu ID --gpus N [--tp T] [--pp P] [--cp C] [--ep E] [--dp D] [--zero 0|1|2|3]
         [--no-reshard] [--hsdp] [--sp|--no-sp] [--recompute none|selective|full] --seq S --micro-batch B
         --global-batch G [--schedule 1f1b|interleaved] [--chunks V] [--grad-reduce fp32|bf16]
         [--stage-layers a,b,…] [--rank-order tp-cp-dp-pp|tp-cp-pp-dp] [--no-nvls] [--efficiency F]
         [--framework megatron|ddp|fsdp2|deepspeed] [--tp-overlap|--no-tp-overlap] [--no-overlap-grad-reduce]
         [--gpus-per-server N] [--nvlink-domain N] [--nics-per-server N] [--precision bf16|fp8]
  plan <config.json|preset> --gpu ID --gpus N --seq S --global-batch G [--framework auto|megatron|ddp|fsdp2|deepspeed]
         [--precision bf16|fp8] [--max-tp T] [--max-pp P] [--max-cp C] [--max-ep E] [--max-zero 0|1|2|3]
         [--gpus-per-server N] [--nvlink-domain N] [--nics-per-server N] [--top K] [--rank R]
         [--launch megatron|torchtitan|fsdp2|deepspeed]
  validate [runs.json] [--what-if]
  presets`;

class UsageError extends Error {}

/** Reads a config from a JSON file, or a preset by id when no such file exists. */
function loadConfig(arg: string | undefined): unknown {
  if (arg === undefined) throw new UsageError("missing <config.json> or preset name");
  if (existsSync(arg)) {
    let text: string;
    try {
      text = readFileSync(arg, "utf8");
    } catch (error) {
      throw new UsageError(`cannot read ${arg}: ${(error as Error).message}`);
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new UsageError(`${arg} is not valid JSON: ${(error as Error).message}`);
    }
  }
  const preset = findModelPreset(arg);
  if (preset) return preset.config;
  throw new UsageError(`no file or preset named "${arg}" (presets: ${MODEL_PRESETS.map((p) => p.id).join(", ")})`);
}

/**
 * Converts a numeric option: digits become a number; anything
 * else is passed on for validation to reject with the field name.
 */
function numeric(value: string | undefined): number | string | undefined {
  if (value === undefined) return undefined;
  return /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(value.trim()) ? Number(value) : value;
}

/** Throws for the first of `required` ([flag, model field]) that the command line leaves out. */
function requireFlags(values: Record<string, unknown>, required: ReadonlyArray<readonly [string, string]>): void {
  for (const [flag, field] of required)
    if (values[flag] === undefined) throw new ModelInputError(field, `--${flag} is required`);
}

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function runParams(positionals: string[]): void {
  const config = loadConfig(positionals[0]);
  const count = countParameters(config);
  const out: Record<string, unknown> = { total: count.total };
  if (count.architecture.moe) out.active = count.active;
  out.nonEmbedding = count.nonEmbedding;
  out.breakdown = count.breakdown;
  out.family = count.architecture.family;
  out.warnings = count.warnings;
  print(out);
}

function runMemory(args: string[]): void {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      seq: { type: "string" },
      "micro-batch": { type: "string" },
      dp: { type: "string" },
      tp: { type: "string" },
      sp: { type: "boolean" },
      pp: { type: "string" },
      cp: { type: "string" },
      ep: { type: "string" },
      zero: { type: "string" },
      recompute: { type: "string" },
      precision: { type: "string" },
      "fp32-grad-accum": { type: "boolean" },
      schedule: { type: "string" },
      microbatches: { type: "string" },
      chunks: { type: "string" },
      "stage-layers": { type: "string" },
      attention: { type: "string" },
      framework: { type: "string" },
      "no-reshard": { type: "boolean" },
      gpu: { type: "string" },
    },
  });
  if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`);
  const config = loadConfig(positionals[0]);
  const setup = {
    seqLength: numeric(values.seq),
    microBatchSize: numeric(values["micro-batch"]),
    dp: numeric(values.dp),
    tp: numeric(values.tp),
    sequenceParallel: values.sp ?? false,
    pp: numeric(values.pp),
    cp: numeric(values.cp),
    ep: numeric(values.ep),
    zeroStage: numeric(values.zero),
    recompute: values.recompute,
    precision: values.precision,
    fp32GradAccum: values["fp32-grad-accum"] ?? false,
    schedule: values.schedule,
    microbatches: numeric(values.microbatches),
    virtualStages: numeric(values.chunks),
    stageLayers: values["stage-layers"]?.split(",").map((x) => numeric(x)),
    attention: values.attention,
    framework: values.framework,
    reshardAfterForward: values["no-reshard"] ? false : undefined,
  } as unknown as TrainingSetup;
  if (values["no-reshard"] && values.zero !== "3")
    throw new ModelInputError("zeroStage", "--no-reshard applies to --zero 3 only");
  if (values.framework !== undefined && (values.precision !== undefined || values["fp32-grad-accum"]))
    throw new ModelInputError(
      "framework",
      "--framework fixes the precision and the gradient buffers; drop --precision and --fp32-grad-accum",
    );
  let gpu: GpuSpec | undefined;
  if (values.gpu !== undefined) {
    gpu = findGpu(values.gpu);
    if (!gpu) throw new ModelInputError("gpu", `unknown GPU "${values.gpu}"`);
  }
  if (values.chunks !== undefined && values.schedule !== "interleaved") {
    throw new ModelInputError("chunks", "--chunks applies to --schedule interleaved only");
  }
  const result = trainingMemory(config, setup);
  const budget = gpu ? memoryBudget(gpu) : null;
  print({
    perGpu: result.perGpu,
    ...(budget ? { budget, fits: result.perGpu.total <= budget.usableBytes } : {}),
    peakStage: result.peakStage,
    gpuCount: result.gpuCount,
    setup: result.setup,
    stages: result.stages,
    layerActivations: result.layer,
    warnings: result.warnings,
  });
}

function runPipeline(args: string[]): void {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      schedule: { type: "string" },
      stages: { type: "string" },
      microbatches: { type: "string" },
      chunks: { type: "string" },
      forward: { type: "string" },
      backward: { type: "string" },
      "weight-grad": { type: "string" },
      "forward-backward": { type: "string" },
    },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  requireFlags(values, [
    ["schedule", "schedule"],
    ["stages", "stages"],
    ["microbatches", "microbatches"],
  ]);
  const result = pipelineSchedule({
    schedule: values.schedule as PipelineSchedule,
    stages: numeric(values.stages) as number,
    microbatches: numeric(values.microbatches) as number,
    chunks: numeric(values.chunks) as number | undefined,
    forward: numeric(values.forward) as number | undefined,
    backward: numeric(values.backward) as number | undefined,
    weightGrad: numeric(values["weight-grad"]) as number | undefined,
    forwardBackward: numeric(values["forward-backward"]) as number | undefined,
  });
  print({
    schedule: result.schedule,
    stages: result.stages,
    microbatches: result.microbatches,
    chunks: result.chunks,
    bubbleFraction: result.bubbleFraction,
    bubbleRate: result.bubbleRate,
    makespan: result.makespan,
    busyPerStage: result.busyPerStage,
    idlePerStage: result.idlePerStage,
    peakInFlight: result.peakInFlight,
    ops: result.ops,
  });
}

function runStep(args: string[]): void {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      gpu: { type: "string" },
      gpus: { type: "string" },
      tp: { type: "string" },
      pp: { type: "string" },
      cp: { type: "string" },
      ep: { type: "string" },
      dp: { type: "string" },
      zero: { type: "string" },
      "no-reshard": { type: "boolean" },
      hsdp: { type: "boolean" },
      sp: { type: "boolean" },
      "no-sp": { type: "boolean" },
      recompute: { type: "string" },
      seq: { type: "string" },
      "micro-batch": { type: "string" },
      "global-batch": { type: "string" },
      schedule: { type: "string" },
      chunks: { type: "string" },
      "grad-reduce": { type: "string" },
      "stage-layers": { type: "string" },
      "rank-order": { type: "string" },
      "no-nvls": { type: "boolean" },
      efficiency: { type: "string" },
      framework: { type: "string" },
      "tp-overlap": { type: "boolean" },
      "no-tp-overlap": { type: "boolean" },
      "no-overlap-grad-reduce": { type: "boolean" },
      precision: { type: "string" },
      "gpus-per-server": { type: "string" },
      "nvlink-domain": { type: "string" },
      "nics-per-server": { type: "string" },
    },
  });
  if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`);
  const config = loadConfig(positionals[0]);
  requireFlags(values, [
    ["gpu", "gpu"],
    ["gpus", "gpuCount"],
    ["seq", "seqLength"],
    ["micro-batch", "microBatchSize"],
    ["global-batch", "globalBatch"],
  ]);
  if (values.sp && values["no-sp"]) throw new UsageError("--sp and --no-sp contradict each other");
  if (values["tp-overlap"] && values["no-tp-overlap"])
    throw new UsageError("--tp-overlap and --no-tp-overlap contradict each other");
  if (values.chunks !== undefined && values.schedule !== "interleaved") {
    throw new ModelInputError("chunks", "--chunks applies to --schedule interleaved only");
  }
  if (values["no-reshard"] && values.zero !== "3")
    throw new ModelInputError("zeroStage", "--no-reshard applies to --zero 3 only");
  const stageLayers = values["stage-layers"]?.split(",").map((x) => numeric(x));
  const input = {
    config,
    gpu: values.gpu,
    gpuCount: numeric(values.gpus),
    tp: numeric(values.tp),
    pp: numeric(values.pp),
    cp: numeric(values.cp),
    ep: numeric(values.ep),
    dp: numeric(values.dp),
    zeroStage: numeric(values.zero),
    reshardAfterForward: values["no-reshard"] ? false : undefined,
    hsdp: values.hsdp ?? false,
    sequenceParallel: values.sp ? true : values["no-sp"] ? false : undefined,
    recompute: values.recompute,
    seqLength: numeric(values.seq),
    microBatchSize: numeric(values["micro-batch"]),
    globalBatch: numeric(values["global-batch"]),
    schedule: values.schedule,
    chunks: numeric(values.chunks),
    gradReduce: values["grad-reduce"],
    stageLayers,
    rankOrder: values["rank-order"],
    nvls: values["no-nvls"] ? false : undefined,
    kernelEfficiency: numeric(values.efficiency),
    framework: values.framework,
    tpCommOverlap: values["tp-overlap"] ? true : values["no-tp-overlap"] ? false : undefined,
    overlapGradReduce: values["no-overlap-grad-reduce"] ? false : undefined,
    precision: values.precision,
    cluster: clusterFlags(values),
  } as unknown as StepInput;
  const r = stepTime(input);
  const gpuSpec = findGpu(String(values.gpu));
  print({
    stepSeconds: r.stepSeconds,
    tokensPerSecondPerGpu: r.tokensPerSecondPerGpu,
    mfu: r.mfu,
    mfuAgainst: "the dense bf16 peak (the book's definition, in fp8 too)",
    ...(r.mfuFp8Peak !== null ? { mfuFp8Peak: r.mfuFp8Peak } : {}),
    breakdown: r.breakdown,
    memoryPerGpu: r.memory,
    memoryNote: r.memoryNote,
    ...(gpuSpec && r.memory
      ? { budget: memoryBudget(gpuSpec), fits: r.memory.total <= memoryBudget(gpuSpec).usableBytes }
      : {}),
    microbatches: r.microbatches,
    slowestStage: r.slowestStage,
    stageImbalance: r.stageImbalance,
    kernelEfficiency: r.kernelEfficiency,
    ...(r.fp8KernelEfficiency !== null ? { fp8KernelEfficiency: r.fp8KernelEfficiency } : {}),
    layout: r.layout,
    stages: r.stages,
    dpTransfers: r.dpTransfers,
  });
}

/** The cluster-shape flags of `step`, as overrides of the GPU system's record. */
function clusterFlags(values: Record<string, string | boolean | undefined>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [flag, field] of [
    ["gpus-per-server", "gpusPerServer"],
    ["nvlink-domain", "nvlinkDomain"],
    ["nics-per-server", "nicsPerServer"],
  ] as const) {
    const value = values[flag];
    if (typeof value === "string") out[field] = numeric(value);
  }
  return out;
}

/**
 * `plan`: the configuration finder's search (searchConfigurations) for a model on a cluster, the
 * `--top` fastest layouts that fit, and the launch configurations of the `--rank`-th (default the
 * first) for Megatron-LM, torchtitan, FSDP2 and DeepSpeed (src/model/launch.ts). With `--launch`,
 * prints only that framework's text, to write to a file; a framework that cannot run the layout
 * is an error naming why.
 */
function runPlan(args: string[]): void {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      gpu: { type: "string" },
      gpus: { type: "string" },
      seq: { type: "string" },
      "global-batch": { type: "string" },
      framework: { type: "string" },
      precision: { type: "string" },
      "max-tp": { type: "string" },
      "max-pp": { type: "string" },
      "max-cp": { type: "string" },
      "max-ep": { type: "string" },
      "max-zero": { type: "string" },
      "gpus-per-server": { type: "string" },
      "nvlink-domain": { type: "string" },
      "nics-per-server": { type: "string" },
      top: { type: "string" },
      rank: { type: "string" },
      launch: { type: "string" },
    },
  });
  if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`);
  const config = loadConfig(positionals[0]);
  requireFlags(values, [
    ["gpu", "gpu"],
    ["gpus", "gpuCount"],
    ["seq", "seqLength"],
    ["global-batch", "globalBatch"],
  ]);
  const gpu = findGpu(String(values.gpu));
  if (!gpu) throw new ModelInputError("gpu", `unknown GPU "${values.gpu}" (GPUs: ${GPUS.map((g) => g.id).join(", ")})`);
  const count = (flag: string, field: string, fallback?: number): number | undefined => {
    const raw = values[flag as keyof typeof values];
    if (raw === undefined) return fallback;
    const n = numeric(String(raw));
    if (typeof n !== "number" || !Number.isInteger(n) || n < 1)
      throw new ModelInputError(field, `--${flag} must be a positive whole number (got "${String(raw)}")`);
    return n;
  };
  const maxZero = values["max-zero"];
  if (maxZero !== undefined && !["0", "1", "2", "3"].includes(maxZero))
    throw new ModelInputError("maxZeroStage", `--max-zero must be 0, 1, 2 or 3 (got "${maxZero}")`);
  const launch = values.launch;
  if (launch !== undefined && !(LAUNCH_FRAMEWORKS as readonly string[]).includes(launch))
    throw new UsageError(`--launch must be one of ${LAUNCH_FRAMEWORKS.join(", ")} (got "${launch}")`);
  const gpuCount = count("gpus", "gpuCount")!;
  const seqLength = count("seq", "seqLength")!;
  const globalBatch = count("global-batch", "globalBatch")!;
  const input = {
    config,
    gpu,
    gpuCount,
    seqLength,
    globalBatchSequences: globalBatch,
    framework: values.framework ?? "auto",
    precision: values.precision,
    maxTp: count("max-tp", "maxTp"),
    maxPp: count("max-pp", "maxPp"),
    maxCp: count("max-cp", "maxCp"),
    maxEp: count("max-ep", "maxEp"),
    maxZeroStage: maxZero === undefined ? undefined : Number(maxZero),
    cluster: clusterFlags(values),
  } as unknown as ConfigSearchInput;
  const top = count("top", "top", 5)!;
  const rank = count("rank", "rank", 1)!;
  const result = searchConfigurations(input);
  if (result.ranked.length === 0)
    throw new ModelInputError(
      "gpuCount",
      `no configuration fits (${result.configsTried} tried: ${result.ruledOutBatch} cannot reach the global batch, ` +
        `${result.ruledOutMemory} need more than the usable memory); the configuration finder names the nearest batch and GPU count that work`,
    );
  if (rank > result.ranked.length)
    throw new ModelInputError("rank", `--rank ${rank} is past the ${result.ranked.length} configurations that fit`);
  const row = result.ranked[rank - 1]!;
  const precision = values.precision === "fp8" ? "fp8" : "bf16";
  const launches = launchConfigs({ row, config, seqLength, globalBatch, gpuCount, precision });
  if (launch !== undefined) {
    const chosen = launches.find((l) => l.framework === launch)!;
    if (!chosen.ok) throw new ModelInputError("launch", chosen.reason);
    process.stdout.write(chosen.text.endsWith("\n") ? chosen.text : `${chosen.text}\n`);
    return;
  }
  print({
    budget: memoryBudget(gpu),
    precision,
    ...(precision === "fp8" ? { note: `${FP8_MEMORY_NOTE}; MFU against the dense bf16 peak` } : {}),
    configsTried: result.configsTried,
    fitting: result.ranked.length,
    ranked: result.ranked.slice(0, top),
    rank,
    launch: Object.fromEntries(
      launches.map((l) => [l.framework, l.ok ? { text: l.text, notes: l.notes } : { refused: l.reason }]),
    ),
  });
}

/**
 * `validate`: the step model against the published runs (src/data/published-runs.ts), or against
 * the runs of a data file (`{ "sources": [...], "runs": [...] }` or a list of runs, in the shape of
 * PublishedRun). Prints the in-sample and leave-one-source-out errors, overall and by GPU
 * generation, layout class and source; for a file, also the errors at the efficiencies fitted on
 * the book's own runs (a true out-of-sample test of the file's runs). `--what-if` adds the what-if
 * studies of validation.ts.
 */
function runValidate(args: string[]): void {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: { "what-if": { type: "boolean" } },
  });
  if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`);
  const file = positionals[0];
  if (file === undefined) {
    const report = validationReport();
    print(values["what-if"] ? { ...report, whatIf: whatIfStudies() } : report);
    return;
  }
  if (!existsSync(file)) throw new UsageError(`no data file ${file}`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new UsageError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  const { runs, sources } = parseRunData(json);
  const report = validationReport(runs, sources);
  // The book's own constants (KERNEL_EFFICIENCY, which every chapter and tool uses), not a refit.
  const bookFit = { ...KERNEL_EFFICIENCY };
  const atBookFit = summarizeErrors(evaluateRuns(runs, bookFit));
  print({
    ...report,
    atBookEfficiencies: {
      kernelEfficiency: bookFit,
      median: atBookFit.median,
      worst: atBookFit.worst,
      worstRun: atBookFit.worstRun,
    },
    ...(values["what-if"] ? { whatIf: whatIfStudies(runs) } : {}),
  });
}

function runPresets(): void {
  print({
    frameworks: FRAMEWORK_PROFILES.map((f) => ({
      id: f.id,
      name: f.name,
      zeroStages: Object.keys(f.layouts).map(Number),
    })),
    presets: MODEL_PRESETS.map((p) => ({ id: p.id, name: p.name, hfRepo: p.hfRepo, publishedTotal: p.publishedTotal })),
    gpus: GPUS.filter((g) => INTERCONNECTS.some((i) => i.gpuId === g.id)).map((g) => ({ id: g.id, name: g.name })),
  });
}

/** Runs the CLI on `argv` (without node and script); returns the exit status. */
function main(argv: string[]): number {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "params":
        if (rest.length !== 1) throw new UsageError("params takes exactly one <config.json> or preset name");
        runParams(rest);
        return 0;
      case "memory":
        runMemory(rest);
        return 0;
      case "pipeline":
        runPipeline(rest);
        return 0;
      case "step":
        runStep(rest);
        return 0;
      case "plan":
        runPlan(rest);
        return 0;
      case "validate":
        runValidate(rest);
        return 0;
      case "presets":
        runPresets();
        return 0;
      case undefined:
      case "help":
      case "--help":
        process.stderr.write(`${USAGE}\n`);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(
          `unknown command "${command}" (commands: params, memory, pipeline, step, plan, validate, presets)`,
        );
    }
  } catch (error) {
    if (error instanceof ModelInputError) {
      process.stderr.write(`error: ${error.message} [field: ${error.field}]\n`);
      return 1;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`error: ${error.message}\n`);
      return 2;
    }
    const code = (error as { code?: string }).code;
    if (typeof code === "string" && code.startsWith("ERR_PARSE_ARGS")) {
      // Node's messages run on ("… To specify a positional argument …"); keep the first sentence.
      const first = (error as Error).message.split("\n")[0].split(". ")[0].replace(/\.$/, "");
      process.stderr.write(`error: ${first}\n`);
      return 2;
    }
    process.stderr.write(`error: internal error: ${(error as Error).message}\n`);
    return 1;
  }
}

process.exitCode = main(process.argv.slice(2));
