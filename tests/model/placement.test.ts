import assert from "node:assert/strict";
import { test } from "node:test";
import { clusterShape, groupLink, groupSeconds, ModelInputError } from "../../src/model/index.ts";
import { findInterconnect } from "../../src/data/interconnects.ts";

const h100 = clusterShape("h100-sxm");
const net = findInterconnect("h100-sxm")!;

test("placement: a group inside one server runs on NVLink (SHARP for all-reduce, the ring otherwise)", () => {
  assert.equal(groupLink(h100, "all-reduce", { ranks: 8, stride: 1 }).busBytesPerSecond, 480e9);
  assert.equal(groupLink(h100, "all-gather", { ranks: 8, stride: 1 }).busBytesPerSecond, 370e9);
  assert.equal(groupLink(h100, "all-reduce", { ranks: 8, stride: 1 }, { nvls: false }).busBytesPerSecond, 370e9);
});

test("placement: every GPU of each server crosses on all eight NICs, capped by NVLink; one rank per server on one NIC", () => {
  const all = groupLink(h100, "all-reduce", { ranks: 64, stride: 1 });
  assert.equal(all.busBytesPerSecond, Math.min(370e9, 8 * net.nicBusBytesPerSecond));
  assert.equal(all.nics, 8);
  const one = groupLink(h100, "all-reduce", { ranks: 64, stride: 8 });
  assert.equal(one.busBytesPerSecond, net.nicBusBytesPerSecond);
  assert.equal(one.ranksPerDomain, 1);
  const two = groupLink(h100, "reduce-scatter", { ranks: 64, stride: 4 });
  assert.equal(two.busBytesPerSecond, 2 * net.nicBusBytesPerSecond);
});

test("placement: fewer NICs than GPUs limit a spanning group; an NVL72 domain keeps 72 GPUs on NVLink", () => {
  const fewer = clusterShape("h100-sxm", { nicsPerServer: 4 });
  assert.equal(
    groupLink(fewer, "all-gather", { ranks: 64, stride: 1 }).busBytesPerSecond,
    4 * net.nicBusBytesPerSecond,
  );
  const rack = clusterShape("b200", { gpusPerServer: 4, nvlinkDomain: 72, nicsPerServer: 4 });
  assert.equal(groupLink(rack, "all-gather", { ranks: 64, stride: 1 }).intraDomain, true);
  assert.equal(groupLink(rack, "all-gather", { ranks: 144, stride: 1 }).nics, 72);
});

test("placement: time is latency per ring step plus f·S/busbw; one rank costs nothing", () => {
  const S = 1e9;
  const t = groupSeconds(h100, "all-gather", S, { ranks: 16, stride: 1 });
  const link = groupLink(h100, "all-gather", { ranks: 16, stride: 1 });
  assert.ok(Math.abs(t - (15 * h100.interNodeHopLatencySeconds + ((15 / 16) * S) / link.busBytesPerSecond)) < 1e-12);
  assert.equal(groupSeconds(h100, "all-reduce", S, { ranks: 1, stride: 1 }), 0);
});

test("placement: a shape that does not add up is refused naming the field", () => {
  assert.throws(
    () => clusterShape("h100-sxm", { nvlinkDomain: 12 }),
    (e: unknown) => e instanceof ModelInputError && e.field === "nvlinkDomain",
  );
  assert.throws(
    () => clusterShape("no-such-gpu"),
    (e: unknown) => e instanceof ModelInputError && e.field === "gpu",
  );
});

test("placement: an all-to-all across servers goes through each member's own NIC, not eight NICs' ring", () => {
  // EP 64 over eight full servers: each GPU sends 56/64 of its buffer off its server through one NIC.
  const a2a = groupLink(h100, "all-to-all", { ranks: 64, stride: 1 });
  assert.ok(Math.abs(a2a.busBytesPerSecond - (net.nicBusBytesPerSecond * 63) / 56) < 1);
  // One rank per server: the whole 63/64 leaves through the one NIC, the ring figure.
  assert.equal(groupLink(h100, "all-to-all", { ranks: 64, stride: 8 }).busBytesPerSecond, net.nicBusBytesPerSecond);
});
