import assert from "node:assert/strict";
import { test } from "node:test";
import {
  FRAMEWORK_IDS,
  FRAMEWORK_PROFILES,
  findFrameworkProfile,
  type FrameworkProfile,
  type ShardingMode,
  type StateLayout,
} from "../../src/data/frameworks.ts";

/** Every `source` string anywhere inside a value, with the path that leads to it. */
function sources(value: unknown, path: string): [string, string][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => sources(item, `${path}[${i}]`));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === "source" ? [[`${path}.source`, String(inner)] as [string, string]] : sources(inner, `${path}.${key}`),
  );
}

const allSources = FRAMEWORK_PROFILES.flatMap((p) => sources(p, p.id));

function profile(id: string): FrameworkProfile {
  const found = findFrameworkProfile(id);
  assert.ok(found, `no profile "${id}"`);
  return found;
}

function layout(id: string, mode: ShardingMode): StateLayout {
  const cited = profile(id).layouts[mode];
  assert.ok(cited, `${id} has no layout for mode ${mode}`);
  return cited.value;
}

/** Bytes per parameter on one rank of a sharding group of d ranks: whole parts plus sharded parts / d. */
function bytesPerParameter(l: StateLayout, d: number, extras: "none" | "always" | "all"): number {
  const states = [l.weights, l.gradients, l.master, l.moments];
  const more = extras === "none" ? [] : (l.extra ?? []).filter((e) => extras === "all" || e.during === "always");
  return [...states, ...more].reduce((sum, s) => sum + (s.sharded ? s.bytes / d : s.bytes), 0);
}

test("frameworks: every profile id is listed once, in FRAMEWORK_IDS order, and findFrameworkProfile finds it", () => {
  assert.deepEqual(
    FRAMEWORK_PROFILES.map((p) => p.id),
    [...FRAMEWORK_IDS],
  );
  for (const id of FRAMEWORK_IDS) assert.equal(findFrameworkProfile(id)?.id, id);
  assert.equal(findFrameworkProfile("jax"), undefined);
});

test("frameworks: no value is still provisional", () => {
  assert.ok(allSources.length > 50, `expected many sources, found ${allSources.length}`);
  for (const [where, text] of allSources) assert.ok(!/UNVERIFIED/i.test(text), `${where} is unverified`);
  for (const p of FRAMEWORK_PROFILES) assert.ok(!/UNVERIFIED/i.test(p.version), `${p.id}.version is unverified`);
});

test("frameworks: each source names a repository at a version and a file with a line, or an https URL", () => {
  const repoFileLine = /[\w.-]+\/[\w.-]+@[\w.-]+, [\w./-]+\.\w+ L\d+/;
  const url = /https:\/\/\S+/;
  for (const [where, text] of allSources) {
    assert.ok(repoFileLine.test(text) || url.test(text), `${where} cites no file and line: ${text}`);
    assert.ok(text.length > 40, `${where} does not say what the source says: ${text}`);
  }
});

test("frameworks: every profile has at least one layout, and each layout has a source and sane bytes", () => {
  for (const p of FRAMEWORK_PROFILES) {
    const modes = Object.keys(p.layouts);
    assert.ok(modes.length >= 1, `${p.id} has no layout`);
    for (const mode of modes) {
      const l = layout(p.id, Number(mode) as ShardingMode);
      for (const s of [l.weights, l.gradients, l.master, l.moments, ...(l.extra ?? [])]) {
        assert.ok(Number.isFinite(s.bytes) && s.bytes >= 0, `${p.id} mode ${mode}: bad bytes ${s.bytes}`);
      }
      // Adam's two fp32 moments, under every framework.
      assert.equal(l.moments.bytes, 8, `${p.id} mode ${mode}`);
    }
  }
});

test("frameworks: Megatron's distributed optimizer gives 6 + 12/d bytes per parameter, without it 18", () => {
  for (const d of [1, 8, 64]) {
    assert.equal(bytesPerParameter(layout("megatron", 1), d, "all"), 6 + 12 / d, `d = ${d}`);
    assert.equal(bytesPerParameter(layout("megatron", 0), d, "all"), 18, `d = ${d}`);
  }
  // The distributed optimizer reduce-scatters but keeps the whole fp32 gradient buffer.
  assert.equal(profile("megatron").gradReduceCollective?.[1]?.value, "reduce-scatter");
  assert.deepEqual(layout("megatron", 1).gradients, { bytes: 4, sharded: false });
  assert.deepEqual(Object.keys(profile("megatron").layouts).sort(), ["0", "1"]);
});

test("frameworks: DDP keeps 16 bytes of model state per parameter, 20 with its default bucket copy of the gradients", () => {
  const ddp = layout("ddp", 0);
  for (const d of [1, 8, 64]) {
    assert.equal(bytesPerParameter(ddp, d, "none"), 16);
    assert.equal(bytesPerParameter(ddp, d, "always"), 20);
  }
  assert.deepEqual(Object.keys(profile("ddp").layouts), ["0"]);
  assert.equal(profile("ddp").bucketBytes?.value, 25 * 2 ** 20);
});

test("frameworks: FSDP2 shards everything in mode 3; mode 2 (under a pipeline) keeps bf16 weights and fp32 gradients whole", () => {
  const full = layout("fsdp2", 3);
  assert.equal(bytesPerParameter(full, 8, "all"), 16 / 8);
  assert.ok(full.gatheredUnits && full.gatheredUnits.bytes === 2 && full.gatheredUnits.units === 2);
  const keep = layout("fsdp2", 2);
  assert.equal(bytesPerParameter(keep, 8, "always"), 16 / 8);
  // bf16 weights kept from forward to backward, and the stage's unsharded fp32 gradients accumulated
  // until the one reduction per step (torch pipelining turns gradient sync off until the last microbatch).
  assert.equal(bytesPerParameter(keep, 8, "all"), 16 / 8 + 2 + 4);
  assert.equal(profile("fsdp2").reshardAfterForward?.value, true);
  assert.equal(profile("fsdp2").gradReduceEveryMicrobatch?.[2]?.value, false);
  assert.equal(profile("fsdp2").gradReduceEveryMicrobatch?.[3]?.value, true);
});

test("frameworks: DeepSpeed ZeRO keeps bf16 gradients and shards more with each stage", () => {
  const d = 8;
  assert.equal(bytesPerParameter(layout("deepspeed", 1), d, "none"), 4 + 12 / d);
  assert.equal(bytesPerParameter(layout("deepspeed", 2), d, "none"), 2 + 14 / d);
  assert.equal(bytesPerParameter(layout("deepspeed", 3), d, "none"), 16 / d);
  assert.equal(profile("deepspeed").gradAccumDtype?.value, "bf16");
  const overlap = profile("deepspeed").overlapGradReduceByMode;
  assert.deepEqual([overlap?.[1]?.value, overlap?.[2]?.value, overlap?.[3]?.value], [false, false, true]);
  const every = profile("deepspeed").gradReduceEveryMicrobatch;
  assert.deepEqual([every?.[1]?.value, every?.[2]?.value, every?.[3]?.value], [false, true, true]);
});

test("frameworks: DeepSpeed's offload path casts to fp32 before the copy to the host and names the function", () => {
  const offload = profile("deepspeed").offload;
  assert.deepEqual(offload?.[2]?.value, { boundaryCopyDtype: "fp32", microbatchCopyDtype: "bf16" });
  assert.deepEqual(offload?.[1]?.value, { boundaryCopyDtype: "fp32", microbatchCopyDtype: null });
  assert.match(offload?.[2]?.source ?? "", /async_inplace_copy_grad_to_fp32_buffer_from_gpu/);
  assert.match(offload?.[2]?.source ?? "", /async_accumulate_grad_in_cpu_via_gpu/);
});

test("frameworks: the values the engine reads, as the sources give them", () => {
  const reduce = Object.fromEntries(FRAMEWORK_PROFILES.map((p) => [p.id, p.gradientReduceDtype.value]));
  assert.deepEqual(reduce, { megatron: "fp32", ddp: "fp32", fsdp2: "fp32", deepspeed: "bf16" });
  const overlap = Object.fromEntries(FRAMEWORK_PROFILES.map((p) => [p.id, p.overlapGradReduce.value]));
  assert.deepEqual(overlap, { megatron: false, ddp: true, fsdp2: true, deepspeed: false });
  for (const p of FRAMEWORK_PROFILES) assert.equal(p.tpCommOverlap.value, false, `${p.id} overlaps TP by default`);
  assert.equal(profile("megatron").tpCommOverlapInRecipes?.value, true);
  assert.match(profile("megatron").selectiveRecompute.value, /core_attn/);
});
