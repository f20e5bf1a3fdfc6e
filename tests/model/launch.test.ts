/**
 * Launch configurations of configuration-finder rows (src/model/launch.ts): every flag and key
 * written is one the framework's source defines at the vendored version (src/data/launch-flags.ts),
 * the values are the row's (degrees multiply to the GPU count, DP × b × m is the global batch, the
 * stage split is the row's), and a framework that cannot run a row says why instead.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  findGpu,
  findModelPreset,
  searchConfigurations,
  launchConfigs,
  megatronLaunch,
  torchtitanLaunch,
  fsdp2Launch,
  deepspeedLaunch,
  vendoredNames,
  LAUNCH_NAME_LISTS,
  ModelInputError,
  type LaunchConfig,
  type LaunchInput,
  type LaunchRow,
} from "../../src/model/index.ts";

const llama70 = findModelPreset("llama-3.1-70b")!.config;
const mixtral = findModelPreset("mixtral-8x7b")!.config;
const gpt2 = findModelPreset("gpt2")!.config;

const row = (r: Partial<LaunchRow>): LaunchRow => ({
  dp: 8,
  tp: 1,
  pp: 1,
  cp: 1,
  ep: 1,
  zeroStage: 1,
  recompute: "none",
  framework: "megatron",
  microBatchSize: 1,
  microbatches: 4,
  stageLayers: [80],
  ...r,
});
const input = (r: LaunchRow, extra: Partial<LaunchInput> = {}): LaunchInput => ({
  row: r,
  config: llama70,
  seqLength: 8192,
  globalBatch: r.dp * r.microBatchSize * r.microbatches,
  gpuCount: r.dp * r.tp * r.pp * r.cp,
  ...extra,
});

function text(c: LaunchConfig): string {
  assert.ok(c.ok, c.ok ? "" : `${c.framework} refused: ${c.reason}`);
  return c.text;
}

/** Megatron-LM: "--flag value" pairs of the non-comment lines. */
function megatronFlags(t: string): Map<string, string | true> {
  const out = new Map<string, string | true>();
  for (const line of t.split("\n")) {
    if (line.startsWith("#")) continue;
    const m = /^(--[a-z0-9-]+)(?: (.+?))?(?: \\)?$/.exec(line);
    assert.ok(m, `not a flag line: ${line}`);
    out.set(m[1], m[2] === undefined ? true : m[2]);
  }
  return out;
}

/** torchtitan TOML: "section.key" → raw value; arrays over several lines are joined. */
function tomlKeys(t: string): Map<string, string> {
  const out = new Map<string, string>();
  let section = "";
  let open: { key: string; value: string } | null = null;
  for (const line of t.split("\n")) {
    if (open) {
      open.value += line.trim();
      if (line.trim() === "]") {
        out.set(open.key, open.value);
        open = null;
      }
      continue;
    }
    if (line.startsWith("#") || line.trim() === "") continue;
    const s = /^\[([a-z0-9_.]+)\]$/.exec(line);
    if (s) {
      section = s[1];
      continue;
    }
    const kv = /^([a-z0-9_]+) = (.+)$/.exec(line);
    assert.ok(kv, `not a TOML line: ${line}`);
    if (kv[2] === "[") open = { key: `${section}.${kv[1]}`, value: "[" };
    else out.set(`${section}.${kv[1]}`, kv[2]);
  }
  return out;
}

/** DeepSpeed JSON: every key path, "a" and "a.b". */
function jsonKeys(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([k, v]) => [`${prefix}${k}`, ...jsonKeys(v, `${prefix}${k}.`)]);
}

/** FSDP2: the PyTorch names a snippet calls or passes by keyword (comments left out). */
function fsdp2Names(t: string): string[] {
  const code = t
    .split("\n")
    .filter((l) => !l.trimStart().startsWith("#"))
    .join("\n");
  const names = new Set<string>();
  for (const m of code.matchAll(/from ([a-z_.]+) import ([A-Za-z_, ]+)/g)) {
    names.add(m[1]);
    for (const n of m[2].split(",")) names.add(n.trim());
  }
  for (const m of code.matchAll(/\b([a-z_]+)=/g)) names.add(m[1]);
  for (const m of code.matchAll(/\b([A-Za-z_]+)\(/g)) names.add(m[1]);
  for (const builtin of ["torch", "print", "range"]) names.delete(builtin);
  return [...names];
}

function assertVendored(c: LaunchConfig): void {
  const t = text(c);
  const known = vendoredNames(c.framework);
  const used =
    c.framework === "megatron"
      ? [...megatronFlags(t).keys()]
      : c.framework === "torchtitan"
        ? [
            ...tomlKeys(t).keys(),
            ...[...t.matchAll(/"(tok_embeddings|norm|output|layers)(?:\.\d+)?"/g)].map((m) => `module:${m[1]}`),
          ]
        : c.framework === "deepspeed"
          ? jsonKeys(JSON.parse(t))
          : fsdp2Names(t);
  assert.ok(used.length > 3, `${c.framework}: names found`);
  for (const name of used) assert.ok(known.has(name), `${c.framework}: "${name}" is not in the vendored list`);
}

// Rows from the search itself, so the texts cover what the finder shows.
const searched = searchConfigurations({
  config: llama70,
  gpu: findGpu("h100-sxm")!,
  gpuCount: 256,
  seqLength: 8192,
  globalBatchSequences: 512,
}).ranked.slice(0, 40);

describe("launch configurations", () => {
  it("the vendored lists name their repository, version and source paths", () => {
    for (const [framework, list] of Object.entries(LAUNCH_NAME_LISTS)) {
      assert.equal(list.framework, framework);
      assert.match(list.repo, /^[\w-]+\/[\w-]+$/);
      assert.ok(list.version.length >= 6, `${framework} version`);
      assert.ok(list.sources.length > 0 && list.sources.every((s) => /\.py$/.test(s.path)), `${framework} paths`);
      for (const where of Object.values(list.names)) assert.match(where, /\.py/);
    }
    assert.equal(LAUNCH_NAME_LISTS.megatron.version, "core_v0.19.0");
    assert.equal(LAUNCH_NAME_LISTS.torchtitan.version, "v0.2.2");
    assert.equal(LAUNCH_NAME_LISTS.deepspeed.version, "v0.16.4");
    // Complete, not hand-picked: the Megatron-LM list holds hundreds of flags, literal and generated.
    const megatron = Object.entries(LAUNCH_NAME_LISTS.megatron.names);
    assert.ok(megatron.length > 800, `${megatron.length} Megatron-LM flags`);
    assert.ok(megatron.some(([, w]) => w.startsWith("megatron/training/arguments.py")));
    assert.ok(megatron.some(([, w]) => w.startsWith("megatron/core/model_parallel_config.py")));
  });

  it("every flag and key written for the finder's rows is in the framework's vendored list", () => {
    assert.ok(searched.length >= 20);
    let written = 0;
    for (const r of searched) {
      for (const precision of ["bf16", "fp8"] as const) {
        for (const c of launchConfigs(input(r, { precision }))) {
          if (!c.ok) continue;
          assertVendored(c);
          written++;
        }
      }
    }
    assert.ok(written > 40, `${written} texts`);
  });

  it("a mutated name fails the check", () => {
    const c = megatronLaunch(input(row({ tp: 8, dp: 4, pp: 2, stageLayers: [40, 40], microbatches: 8 })));
    assert.ok(c.ok);
    assertVendored(c);
    const bad = { ...c, text: c.text.replace("--tensor-model-parallel-size", "--tensor-parallel-size") };
    assert.throws(() => assertVendored(bad), /--tensor-parallel-size/);
    const t = torchtitanLaunch(input(row({ zeroStage: 3, framework: "fsdp2" })));
    assert.ok(t.ok);
    const badT = { ...t, text: t.text.replace("data_parallel_shard_degree", "data_parallel_shard") };
    assert.throws(() => assertVendored(badT), /data_parallel_shard"/);
    const d = deepspeedLaunch(input(row({ zeroStage: 2, framework: "deepspeed" })));
    assert.ok(d.ok);
    assert.throws(() => assertVendored({ ...d, text: d.text.replace("overlap_comm", "overlap_com") }), /overlap_com/);
    const f = fsdp2Launch(input(row({ zeroStage: 3, framework: "fsdp2" })));
    assert.ok(f.ok);
    assert.throws(
      () => assertVendored({ ...f, text: f.text.replace("reshard_after_forward=", "reshard_after_fwd=") }),
      /reshard_after_fwd/,
    );
  });

  it("Megatron-LM flags carry the row: degrees, batch, shape, recomputation, split", () => {
    for (const r of searched.filter((c) => c.zeroStage <= 1)) {
      const f = megatronFlags(text(megatronLaunch(input(r))));
      const tp = Number(f.get("--tensor-model-parallel-size"));
      const pp = Number(f.get("--pipeline-model-parallel-size"));
      const cp = Number(f.get("--context-parallel-size"));
      const b = Number(f.get("--micro-batch-size"));
      const batch = Number(f.get("--global-batch-size"));
      assert.deepEqual([tp, pp, cp], [r.tp, r.pp, r.cp]);
      assert.equal((256 / (tp * pp * cp)) * b * r.microbatches, batch, "DP × b × m = B");
      assert.equal(batch, 512);
      assert.equal(f.has("--sequence-parallel"), r.tp > 1);
      assert.equal(f.has("--use-distributed-optimizer"), r.zeroStage === 1);
      assert.equal(f.get("--recompute-granularity"), r.recompute === "none" ? undefined : r.recompute);
      assert.equal(f.get("--num-layers"), "80");
      assert.equal(f.get("--num-query-groups"), "8");
      assert.equal(f.get("--seq-length"), "8192");
      // The split: nothing when even, first and last stage sizes when the middle stages are equal,
      // Megatron-LM's layout string (E embedding, t layers, L loss) otherwise.
      const middle = r.stageLayers.slice(1, -1);
      if (r.pp === 1 || r.stageLayers.every((n) => n === 80 / r.pp)) {
        assert.equal(f.has("--decoder-first-pipeline-num-layers"), false);
        assert.equal(f.has("--pipeline-model-parallel-layout"), false);
      } else if (middle.every((n) => n === middle[0])) {
        assert.equal(f.get("--decoder-first-pipeline-num-layers"), String(r.stageLayers[0]));
        assert.equal(f.get("--decoder-last-pipeline-num-layers"), String(r.stageLayers[r.pp - 1]));
      } else {
        const layout = String(f.get("--pipeline-model-parallel-layout"));
        assert.deepEqual(
          [...layout.matchAll(/t\*(\d+)/g)].map((m) => Number(m[1])),
          r.stageLayers,
        );
      }
    }
  });

  it("an uneven split whose middle stages differ is written as Megatron-LM's layout string", () => {
    const c = megatronLaunch(input(row({ pp: 4, dp: 2, stageLayers: [19, 20, 21, 20], microbatches: 8 })));
    const f = megatronFlags(text(c));
    assert.equal(f.get("--pipeline-model-parallel-layout"), '"Et*19|t*20|t*21|t*20L"');
  });

  it("torchtitan TOML carries the row: degrees, batch, reshard policy, split", () => {
    for (const r of searched.filter((c) => c.zeroStage >= 2)) {
      const k = tomlKeys(text(torchtitanLaunch(input(r))));
      const num = (key: string) => Number(k.get(key));
      const degrees = [
        "data_parallel_replicate_degree",
        "data_parallel_shard_degree",
        "tensor_parallel_degree",
        "context_parallel_degree",
        "pipeline_parallel_degree",
      ].map((d) => num(`parallelism.${d}`));
      assert.equal(
        degrees.reduce((a, b) => a * b, 1),
        256,
        "the degrees multiply to the GPU count",
      );
      assert.equal(num("parallelism.data_parallel_shard_degree"), r.dp);
      assert.equal(num("parallelism.tensor_parallel_degree"), r.tp);
      assert.equal(num("parallelism.context_parallel_degree"), r.cp);
      assert.equal(num("parallelism.pipeline_parallel_degree"), r.pp);
      assert.equal(k.get("model.flavor"), '"70B"');
      const local = num("training.local_batch_size");
      const accumulation = num("training.global_batch_size") / (local * r.dp);
      assert.equal(local * r.dp * accumulation, 512);
      assert.equal(
        r.pp > 1 ? local / num("parallelism.pipeline_parallel_microbatch_size") : accumulation,
        r.microbatches,
      );
      assert.equal(k.get("parallelism.fsdp_reshard_after_forward"), r.zeroStage === 3 ? '"default"' : '"never"');
      if (r.pp > 1) {
        const parts = JSON.parse(k.get("parallelism.module_fqns_per_model_part")!.replace(/,\]/g, "]")) as string[][];
        assert.deepEqual(
          parts.map((p) => p.filter((n) => n.startsWith("layers.")).length),
          r.stageLayers,
        );
      }
    }
  });

  it("the FSDP2 snippet's mesh has the row's degrees and reshards as the profile says", () => {
    for (const r of searched.filter((c) => c.zeroStage >= 2 && c.ep === 1)) {
      const t = text(fsdp2Launch(input(r)));
      const m =
        /init_device_mesh\("cuda", \((\d+), (\d+), (\d+), (\d+)\), mesh_dim_names=\("pp", "dp", "cp", "tp"\)\)/.exec(t);
      assert.ok(m);
      assert.deepEqual(m.slice(1).map(Number), [r.pp, r.dp, r.cp, r.tp]);
      assert.match(t, new RegExp(`reshard_after_forward=${r.zeroStage === 3 && r.pp === 1 ? "True" : "False"}`));
    }
  });

  it("DeepSpeed JSON for data parallelism; a refusal naming the reason otherwise", () => {
    const r = row({
      dp: 64,
      zeroStage: 2,
      framework: "deepspeed",
      microBatchSize: 2,
      microbatches: 4,
      stageLayers: [32],
    });
    const j = JSON.parse(text(deepspeedLaunch(input(r, { config: findModelPreset("llama-3.1-8b")!.config }))));
    assert.equal(j.train_batch_size, j.train_micro_batch_size_per_gpu * j.gradient_accumulation_steps * 64);
    assert.equal(j.zero_optimization.stage, 2);
    assert.equal(j.zero_optimization.overlap_comm, false);
    assert.equal(j.bf16.enabled, true);
    const z3 = JSON.parse(
      text(
        deepspeedLaunch(
          input(row({ zeroStage: 3, stageLayers: [32] }), { config: findModelPreset("llama-3.1-8b")!.config }),
        ),
      ),
    );
    assert.equal(z3.zero_optimization.overlap_comm, true, "ZeRO-3 overlaps by default");
    const tp = deepspeedLaunch(input(row({ tp: 8, dp: 1, microbatches: 32 })));
    assert.ok(!tp.ok && /TP/.test(tp.reason));
    const both = deepspeedLaunch(input(row({ tp: 2, cp: 2, dp: 2, microbatches: 16 })));
    assert.ok(!both.ok && /TP and CP/.test(both.reason));
    const pipe = deepspeedLaunch(input(row({ pp: 2, dp: 4, zeroStage: 2, stageLayers: [40, 40], microbatches: 8 })));
    assert.ok(!pipe.ok && /pipeline engine refuses ZeRO-2/.test(pipe.reason));
    const fp8 = deepspeedLaunch(input(row({}), { precision: "fp8" }));
    assert.ok(!fp8.ok && /fp8/.test(fp8.reason));
  });

  it("other refusals name the framework's limit", () => {
    const z3 = megatronLaunch(input(row({ zeroStage: 3, framework: "fsdp2" })));
    assert.ok(!z3.ok && /ZeRO-3/.test(z3.reason));
    const z1 = torchtitanLaunch(input(row({ zeroStage: 1 })));
    assert.ok(!z1.ok && /ZeRO-1/.test(z1.reason));
    const ddp = torchtitanLaunch(input(row({ zeroStage: 0, tp: 2, dp: 4, microbatches: 8 })));
    assert.ok(!ddp.ok && /sole parallelism/.test(ddp.reason));
    const f0 = fsdp2Launch(input(row({ zeroStage: 0 })));
    assert.ok(!f0.ok && /ZeRO-0/.test(f0.reason));
    const ep = fsdp2Launch(input(row({ zeroStage: 3, ep: 8, stageLayers: [32] }), { config: mixtral }));
    assert.ok(!ep.ok && /Expert parallelism/.test(ep.reason));
  });

  it("MoE, GPT-2 and fp8 texts use vendored names and the model's shape", () => {
    const moe = megatronFlags(text(megatronLaunch(input(row({ ep: 8, stageLayers: [32] }), { config: mixtral }))));
    assert.equal(moe.get("--num-experts"), "8");
    assert.equal(moe.get("--expert-model-parallel-size"), "8");
    assertVendored(megatronLaunch(input(row({ ep: 8, stageLayers: [32] }), { config: mixtral })));
    const g = megatronLaunch(input(row({ stageLayers: [12] }), { config: gpt2, seqLength: 1024 }));
    const gf = megatronFlags(text(g));
    assert.equal(gf.get("--position-embedding-type"), "learned_absolute");
    assert.equal(gf.get("--normalization"), "LayerNorm");
    assert.equal(gf.has("--swiglu"), false);
    assertVendored(g);
    const titan = torchtitanLaunch(input(row({ zeroStage: 3, stageLayers: [12] }), { config: gpt2, seqLength: 1024 }));
    assert.match(text(titan), /No llama3 flavor/);
    const fp8Launch = torchtitanLaunch(input(row({ zeroStage: 3 }), { precision: "fp8" }));
    const fp8 = tomlKeys(text(fp8Launch));
    assert.equal(fp8.get("model.converters"), '["quantize.linear.float8"]');
    // The LM head stays bf16, as the step model prices it (torchtitan's default filter would convert it).
    assert.equal(fp8.get("quantize.linear.float8.filter_fqns"), '["output"]');
    assertVendored(fp8Launch);
    assert.ok(fp8Launch.ok && fp8Launch.notes.some((n) => /float8 all-gather/.test(n)));
    const bf16Keys = tomlKeys(text(torchtitanLaunch(input(row({ zeroStage: 3 }), { precision: "bf16" }))));
    assert.equal(bf16Keys.has("quantize.linear.float8.filter_fqns"), false);
    assert.equal(
      megatronFlags(text(megatronLaunch(input(row({}), { precision: "fp8" })))).get("--fp8-format"),
      "hybrid",
    );
  });

  it("rejects a row that is not a layout of the scenario, naming the field", () => {
    const r = row({});
    assert.throws(
      () => launchConfigs({ ...input(r), gpuCount: 16 }),
      (e: unknown) => e instanceof ModelInputError && e.field === "gpuCount",
    );
    assert.throws(
      () => launchConfigs({ ...input(r), globalBatch: 64 }),
      (e: unknown) => e instanceof ModelInputError && e.field === "globalBatch",
    );
    assert.throws(
      () => launchConfigs(input(row({ pp: 2, dp: 4, stageLayers: [40, 41] }))),
      (e: unknown) => e instanceof ModelInputError && e.field === "stageLayers",
    );
  });
});
