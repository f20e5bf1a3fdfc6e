import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import {
  evaluateScenario,
  findGpu,
  findModelPreset,
  launchConfigs,
  searchConfigurations,
} from "../../src/model/index.ts";
import { assertApprox } from "../helpers/approx.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const scratch = mkdtempSync(join(tmpdir(), "model-cli-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

function run(...args: string[]) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "src/cli/model.ts", ...args], {
    cwd: root,
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * Asserts a failed run: the exit status, exactly one stderr line matching `pattern`, no stack trace, nothing on stdout.
 */
function assertOneLineError(result: ReturnType<typeof run>, status: number, pattern: RegExp): void {
  assert.equal(result.status, status, result.stderr);
  assert.equal(result.stdout, "");
  const lines = result.stderr.trimEnd().split("\n");
  assert.equal(lines.length, 1, result.stderr);
  assert.match(lines[0], pattern);
  assert.doesNotMatch(result.stderr, /\n\s+at /);
}

describe("model CLI", () => {
  test("params <preset> prints the exact total and breakdown as JSON", () => {
    const r = run("params", "llama-3.1-8b");
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.total, 8_030_261_248);
    assert.equal(out.breakdown.head, 525_336_576);
    assert.equal(out.active, undefined);
  });
  test("params <config.json> reads a file; MoE prints the active count", () => {
    const path = join(scratch, "mixtral.json");
    writeFileSync(path, JSON.stringify(findModelPreset("mixtral-8x7b")!.config));
    const out = JSON.parse(run("params", path).stdout);
    assert.equal(out.total, 46_702_792_704);
    assert.equal(out.active, 12_879_925_248);
  });
  test("memory prints perGpu bytes with the documented defaults (seq 4096, micro-batch 1, bf16, 1F1B)", () => {
    const r = run("memory", "llama-3.1-8b", "--dp", "8", "--zero", "1");
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.setup.seqLength, 4096);
    assert.equal(out.setup.precision, "bf16");
    assert.equal(out.setup.schedule, "1f1b");
    assert.equal(out.perGpu.parameters, 2 * 8_030_261_248);
    assert.equal(out.perGpu.optimizer, (12 * 8_030_261_248) / 8);
    assert.equal(
      out.perGpu.total,
      out.perGpu.parameters + out.perGpu.gradients + out.perGpu.optimizer + out.perGpu.activations,
    );
  });
  test("memory --stage-layers prices each stage with its own layers; a bad split names stageLayers", () => {
    const args = ["memory", "llama-3.1-8b", "--pp", "4", "--microbatches", "8"];
    const even = JSON.parse(run(...args).stdout);
    const r = run(...args, "--stage-layers", "7,9,9,7");
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(out.setup.stageLayers, [7, 9, 9, 7]);
    assert.deepEqual(even.setup.stageLayers, [8, 8, 8, 8]);
    assert.deepEqual(
      out.stages.map((s: { layerCount: number }) => s.layerCount),
      [7, 9, 9, 7],
    );
    // Llama 3.1 8B: 218,112,000 parameters per layer.
    assert.equal(out.stages[1].parameterCount - even.stages[1].parameterCount, 218_112_000);
    assertOneLineError(
      run(...args, "--stage-layers", "8,8,8"),
      1,
      /stageLayers must list 4 stage sizes.*\[field: stageLayers\]/,
    );
    assertOneLineError(run(...args, "--stage-layers", "8,8,8,x"), 1, /\[field: stageLayers\]/);
    assertOneLineError(run(...args, "--stage-layers", "8,8,8,7"), 1, /sum to 31.*\[field: stageLayers\]/);
  });
  test("pipeline prints the bubble, makespan, peak in flight and ops", () => {
    const r = run("pipeline", "--schedule", "1f1b", "--stages", "4", "--microbatches", "8");
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.bubbleFraction, 3 / 8);
    assert.equal(out.makespan, 33);
    assert.deepEqual(out.peakInFlight, [4, 3, 2, 1]);
    assert.equal(out.ops.length, 4 * 8 * 2);
    assert.deepEqual(Object.keys(out.ops[0]).sort(), ["chunk", "end", "kind", "microbatch", "stage", "start"]);
  });
  test("tp that does not divide the heads: exit 1, one line naming tp", () => {
    assertOneLineError(
      run("memory", "llama-3.1-8b", "--tp", "3"),
      1,
      /^error: tp \(3\) must divide the number of attention heads \(32\) \[field: tp\]$/,
    );
  });
  test("dp 0 and a non-numeric degree name their fields", () => {
    assertOneLineError(run("memory", "llama-3.1-8b", "--dp", "0"), 1, /\[field: dp\]$/);
    assertOneLineError(
      run("memory", "llama-3.1-8b", "--pp", "four"),
      1,
      /^error: pp must be a positive integer \(got "four"\) \[field: pp\]$/,
    );
  });
  test("unknown option values: --zero 4, --recompute partial, --schedule zb-h1 for memory", () => {
    assertOneLineError(run("memory", "gpt2", "--zero", "4"), 1, /\[field: zeroStage\]$/);
    assertOneLineError(
      run("memory", "gpt2", "--recompute", "partial"),
      1,
      /^error: recompute must be one of "none", "selective", "full" \(got "partial"\) \[field: recompute\]$/,
    );
    assertOneLineError(run("memory", "gpt2", "--schedule", "zb-h1"), 1, /\[field: schedule\]$/);
  });
  test("a config missing a key names the key", () => {
    const path = join(scratch, "broken.json");
    const { num_hidden_layers: _omit, ...rest } = findModelPreset("llama-2-7b")!.config as Record<string, unknown>;
    writeFileSync(path, JSON.stringify(rest));
    assertOneLineError(
      run("params", path),
      1,
      /^error: num_hidden_layers must be a positive integer \(got nothing\) \[field: num_hidden_layers\]$/,
    );
  });
  test("unknown flag, unknown command, missing preset and invalid JSON: exit 2 with one line", () => {
    assertOneLineError(run("memory", "gpt2", "--bogus"), 2, /^error: Unknown option '--bogus'$/);
    assertOneLineError(run("flops"), 2, /^error: unknown command "flops"/);
    assertOneLineError(run("params", "llama-9"), 2, /^error: no file or preset named "llama-9"/);
    const path = join(scratch, "bad.json");
    writeFileSync(path, "{ not json");
    assertOneLineError(run("params", path), 2, /^error: .*bad\.json is not valid JSON/);
  });
  test("pipeline errors: DualPipe with odd stages, missing --stages", () => {
    assertOneLineError(
      run("pipeline", "--schedule", "dualpipe", "--stages", "3", "--microbatches", "12"),
      1,
      /\[field: stages\]$/,
    );
    assertOneLineError(
      run("pipeline", "--schedule", "1f1b", "--microbatches", "12"),
      1,
      /^error: --stages is required \[field: stages\]$/,
    );
  });
  test("step <preset> prints step time, tokens/s/GPU, MFU, a breakdown that sums to the step and memory per GPU", () => {
    const r = run(
      "step",
      "llama-3.1-70b",
      "--gpu",
      "h100-sxm",
      "--gpus",
      "256",
      "--tp",
      "8",
      "--pp",
      "4",
      "--dp",
      "8",
      "--zero",
      "1",
      "--seq",
      "8192",
      "--micro-batch",
      "1",
      "--global-batch",
      "512",
      "--schedule",
      "interleaved",
      "--chunks",
      "5",
      "--grad-reduce",
      "fp32",
    );
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.ok(out.stepSeconds > 0 && out.mfu > 0 && out.mfu < 1);
    const sum = Object.values(out.breakdown as Record<string, number>).reduce((a, x) => a + x, 0);
    assertApprox(sum, out.stepSeconds, { rel: 1e-9 });
    for (const k of ["compute", "recompute", "bubble", "tp", "cp", "pp", "ep", "dp", "optimizer"])
      assert.equal(typeof out.breakdown[k], "number", k);
    assertApprox(out.tokensPerSecondPerGpu, (512 * 8192) / (out.stepSeconds * 256), { abs: 1e-6 });
    assert.ok(out.memoryPerGpu.total > 0);
    assert.equal(out.layout.chunks, 5);
  });
  test("step accepts an uneven split with --stage-layers and reports the slowest stage", () => {
    const r = run(
      "step",
      "llama-3.1-405b",
      "--gpu",
      "h100-sxm",
      "--gpus",
      "1024",
      "--tp",
      "8",
      "--pp",
      "16",
      "--dp",
      "8",
      "--zero",
      "3",
      "--no-reshard",
      "--seq",
      "8192",
      "--micro-batch",
      "1",
      "--global-batch",
      "128",
      "--stage-layers",
      "7,8,8,8,8,8,8,8,8,8,8,8,8,8,8,7",
    );
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.layout.stageLayers.length, 16);
    assert.ok(out.stageImbalance >= 1);
  });
  test("--framework and --tp-overlap: step and memory print what evaluateScenario computes, with the one budget", () => {
    const step = (...extra: string[]) =>
      run(
        "step",
        "llama-3.1-70b",
        "--gpu",
        "h100-sxm",
        "--gpus",
        "64",
        "--tp",
        "8",
        "--zero",
        "1",
        "--seq",
        "4096",
        "--micro-batch",
        "1",
        "--global-batch",
        "64",
        "--framework",
        "megatron",
        ...extra,
      );
    const plain = step();
    assert.equal(plain.status, 0, plain.stderr);
    const a = JSON.parse(plain.stdout);
    const e = evaluateScenario({
      model: "llama-3.1-70b",
      cluster: { gpu: "h100-sxm", gpuCount: 64 },
      framework: "megatron",
      layout: { tp: 8, zeroStage: 1 },
      batch: { seqLength: 4096, microBatchSize: 1, globalBatch: 64 },
    });
    assert.equal(a.stepSeconds, e.step.stepSeconds);
    assert.equal(a.memoryPerGpu.total, e.bytesPerGpu);
    assert.equal(a.budget.usableBytes, e.budget.usableBytes);
    assert.equal(a.fits, e.fits);
    assert.equal(a.layout.framework, "megatron");
    assert.equal(a.layout.tpCommOverlap, false);
    const overlapped = JSON.parse(step("--tp-overlap").stdout);
    assert.equal(overlapped.layout.tpCommOverlap, true);
    assert.ok(overlapped.breakdown.tp < a.breakdown.tp);
    const memory = run(
      "memory",
      "llama-3.1-70b",
      "--dp",
      "8",
      "--tp",
      "8",
      "--sp",
      "--zero",
      "1",
      "--framework",
      "megatron",
      "--gpu",
      "h100-sxm",
    );
    assert.equal(memory.status, 0, memory.stderr);
    const m = JSON.parse(memory.stdout);
    assert.equal(m.perGpu.total, e.bytesPerGpu);
    assert.equal(m.fits, e.fits);
    assertOneLineError(step("--zero", "3"), 1, /does not run ZeRO stage 3 .*\[field: zeroStage\]$/);
    assertOneLineError(
      run("memory", "llama-3.1-8b", "--framework", "jax"),
      1,
      /^error: unknown framework "jax" \[field: framework\]$/,
    );
    assertOneLineError(step("--tp-overlap", "--no-tp-overlap"), 2, /contradict each other/);
  });
  test("presets lists the GPU ids step accepts", () => {
    const out = JSON.parse(run("presets").stdout);
    assert.ok(out.gpus.some((g: { id: string }) => g.id === "h100-sxm"));
  });
  test("step errors: degrees that do not multiply to the GPU count, layers or batch that do not divide, unknown GPU", () => {
    const common = ["--seq", "8192", "--micro-batch", "1"];
    assertOneLineError(
      run(
        "step",
        "llama-3.1-70b",
        "--gpu",
        "h100-sxm",
        "--gpus",
        "256",
        "--tp",
        "8",
        "--pp",
        "4",
        "--dp",
        "4",
        ...common,
        "--global-batch",
        "512",
      ),
      1,
      /^error: tp × pp × cp × dp = 8 × 4 × 1 × 4 must equal the GPU count \(256\) \[field: gpuCount\]$/,
    );
    assertOneLineError(
      run(
        "step",
        "llama-3.1-70b",
        "--gpu",
        "h100-sxm",
        "--gpus",
        "24",
        "--tp",
        "8",
        "--pp",
        "3",
        ...common,
        "--global-batch",
        "8",
      ),
      1,
      /must divide the number of layers \(80\).*\[field: pp\]$/,
    );
    assertOneLineError(
      run(
        "step",
        "llama-3.1-70b",
        "--gpu",
        "h100-sxm",
        "--gpus",
        "16",
        "--tp",
        "8",
        "--dp",
        "2",
        ...common,
        "--global-batch",
        "3",
      ),
      1,
      /^error: the global batch \(3\) must be a multiple of dp × micro-batch .*\[field: globalBatch\]$/,
    );
    assertOneLineError(
      run("step", "llama-3.1-70b", "--gpu", "v100", "--gpus", "8", "--tp", "8", ...common, "--global-batch", "8"),
      1,
      /^error: unknown GPU "v100" \[field: gpu\]$/,
    );
    assertOneLineError(
      run("step", "llama-3.1-70b", "--gpus", "8", ...common, "--global-batch", "8"),
      1,
      /^error: --gpu is required \[field: gpu\]$/,
    );
  });
  test("plan: the finder's search and the rank-1 row's launch texts; --launch prints one framework's text alone", () => {
    const args = ["llama-3.1-8b", "--gpu", "h100-sxm", "--gpus", "16", "--seq", "4096", "--global-batch", "64"];
    const r = run("plan", ...args, "--top", "3");
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    const gpu = findGpu("h100-sxm")!;
    const config = findModelPreset("llama-3.1-8b")!.config;
    const search = searchConfigurations({ config, gpu, gpuCount: 16, seqLength: 4096, globalBatchSequences: 64 });
    assert.deepEqual(out.ranked, JSON.parse(JSON.stringify(search.ranked.slice(0, 3))));
    assert.equal(out.fitting, search.ranked.length);
    const launches = launchConfigs({ row: search.ranked[0]!, config, seqLength: 4096, globalBatch: 64, gpuCount: 16 });
    for (const l of launches)
      assert.deepEqual(out.launch[l.framework], l.ok ? { text: l.text, notes: l.notes } : { refused: l.reason });
    const torchtitan = launches.find((l) => l.framework === "torchtitan")!;
    assert.ok(torchtitan.ok);
    const alone = run("plan", ...args, "--launch", "torchtitan");
    assert.equal(alone.status, 0, alone.stderr);
    assert.equal(alone.stdout.trimEnd(), torchtitan.text.trimEnd());
    // Llama 3's RoPE base reaches Megatron-LM's flags (its default is 10,000).
    const megatron = run("plan", ...args, "--max-zero", "1", "--launch", "megatron");
    assert.equal(megatron.status, 0, megatron.stderr);
    assert.match(megatron.stdout, /^--rotary-base 500000 \\$/m);
  });
  test("plan errors: a framework that cannot run the row, a bad --max-zero, a batch that no layout reaches", () => {
    const args = ["llama-3.1-8b", "--gpu", "h100-sxm", "--gpus", "16", "--seq", "4096", "--global-batch", "64"];
    assertOneLineError(
      run("plan", ...args, "--framework", "fsdp2", "--launch", "megatron"),
      1,
      /^error: Megatron-LM shards optimizer states only .* \[field: launch\]$/,
    );
    assertOneLineError(
      run("plan", ...args, "--max-zero", "4"),
      1,
      /--max-zero must be 0, 1, 2 or 3 .*\[field: maxZeroStage\]$/,
    );
    assertOneLineError(
      run("plan", "llama-3.1-8b", "--gpu", "h100-sxm", "--gpus", "24", "--seq", "4096", "--global-batch", "16"),
      1,
      /^error: no configuration fits .*\[field: gpuCount\]$/,
    );
  });
  test("--precision fp8: step prints the fp8 step with MFU against the bf16 peak (and the fp8 one); plan searches in fp8", () => {
    const args = ["llama-3.1-8b", "--gpu", "h100-sxm", "--gpus", "16", "--seq", "4096"];
    const step = (...extra: string[]) =>
      run("step", ...args, "--tp", "2", "--micro-batch", "1", "--global-batch", "64", ...extra);
    const bf16 = step();
    const fp8 = step("--precision", "fp8");
    assert.equal(bf16.status, 0, bf16.stderr);
    assert.equal(fp8.status, 0, fp8.stderr);
    const a = JSON.parse(bf16.stdout);
    const b = JSON.parse(fp8.stdout);
    assert.ok(b.stepSeconds < a.stepSeconds);
    assert.equal(b.layout.precision, "fp8");
    assert.equal(a.layout.precision, "bf16");
    assert.match(b.mfuAgainst, /dense bf16 peak/);
    assertApprox(b.mfuFp8Peak, (b.mfu * 989.4) / 1978.9, { rel: 1e-9 });
    assert.equal(a.mfuFp8Peak, undefined);
    assert.match(b.memoryNote, /fp8: memory per GPU priced as bf16/);
    assertOneLineError(
      run(
        "step",
        "llama-3.1-8b",
        "--gpu",
        "a100-sxm-80gb",
        "--gpus",
        "16",
        "--seq",
        "4096",
        "--micro-batch",
        "1",
        "--global-batch",
        "64",
        "--precision",
        "fp8",
      ),
      1,
      /^error: .*A100.* has no fp8 tensor cores.* \[field: precision\]$/,
    );
    assertOneLineError(
      step("--precision", "fp16"),
      1,
      /precision must be one of "bf16", "fp8".* \[field: precision\]$/,
    );
    const planArgs = [...args, "--global-batch", "64"];
    const plan = run("plan", ...planArgs, "--precision", "fp8", "--top", "2");
    assert.equal(plan.status, 0, plan.stderr);
    const out = JSON.parse(plan.stdout);
    const gpu = findGpu("h100-sxm")!;
    const config = findModelPreset("llama-3.1-8b")!.config;
    const search = searchConfigurations({
      config,
      gpu,
      gpuCount: 16,
      seqLength: 4096,
      globalBatchSequences: 64,
      precision: "fp8",
    });
    assert.deepEqual(out.ranked, JSON.parse(JSON.stringify(search.ranked.slice(0, 2))));
    assert.equal(out.precision, "fp8");
    assert.match(out.note, /priced as bf16/);
    const launches = launchConfigs({
      row: search.ranked[0]!,
      config,
      seqLength: 4096,
      globalBatch: 64,
      gpuCount: 16,
      precision: "fp8",
    });
    for (const l of launches)
      assert.deepEqual(out.launch[l.framework], l.ok ? { text: l.text, notes: l.notes } : { refused: l.reason });
    const megatron = run("plan", ...planArgs, "--precision", "fp8", "--max-zero", "1", "--launch", "megatron");
    assert.equal(megatron.status, 0, megatron.stderr);
    assert.match(megatron.stdout, /^--fp8-format hybrid( \\)?$/m);
    assertOneLineError(
      run(
        "plan",
        "llama-3.1-8b",
        "--gpu",
        "a100-sxm-80gb",
        "--gpus",
        "16",
        "--seq",
        "4096",
        "--global-batch",
        "64",
        "--precision",
        "fp8",
      ),
      1,
      /has no fp8 tensor cores.* \[field: precision\]$/,
    );
  });
});
