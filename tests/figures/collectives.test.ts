import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import { collectivesWidget } from "../../src/figures/collectives.ts";
import {
  cellLabel,
  summarizeCollectives,
  transferLines,
  scheduleFor,
  validateCollectivesControls,
} from "../../src/figures/collectives-state.ts";
import { WidgetSettingsError } from "../../src/figures/widget.ts";

function root(): Element {
  const { document } = parseHTML("<!doctype html><html><body><div id='widget-collectives-1'></div></body></html>");
  return document.getElementById("widget-collectives-1") as unknown as Element;
}

describe("collectives settings", () => {
  it("defaults to a 4-GPU ring all-reduce of 64 MB at step 1", () => {
    assert.deepEqual(collectivesWidget.parseSettings({}), {
      collective: "all-reduce",
      ranks: 4,
      messageMB: 64,
      step: 1,
    });
  });
  it("rejects bad settings naming the field", () => {
    const bad: [unknown, string][] = [
      [{ collective: "allreduce" }, "collective"],
      [{ ranks: 1 }, "ranks"],
      [{ ranks: 17 }, "ranks"],
      [{ ranks: "4" }, "ranks"],
      [{ messageMB: 0 }, "messageMB"],
      [{ messageMB: 1e40 }, "messageMB"],
      [{ step: 7 }, "step"],
      [{ colour: "red" }, "colour"],
    ];
    for (const [raw, field] of bad) {
      assert.throws(
        () => collectivesWidget.parseSettings(raw),
        (e: unknown) => e instanceof WidgetSettingsError && e.message.includes(field),
        JSON.stringify(raw),
      );
    }
  });
});

describe("collectives controls", () => {
  it("hostile input gives messages, never a state", () => {
    for (const ranks of ["", "-3", "0", "1", "17", "1e40", "four", "2.5"]) {
      const r = validateCollectivesControls({ collective: "all-reduce", ranks, messageMB: "64" }, 1);
      assert.equal(r.ok, false, ranks);
      if (!r.ok) assert.match(r.errors.ranks!, /from 2 to 16/);
    }
    for (const messageMB of ["", "-1", "0", "1e40", "abc", "NaN", "Infinity"]) {
      const r = validateCollectivesControls({ collective: "all-reduce", ranks: "4", messageMB }, 1);
      assert.equal(r.ok, false, messageMB);
    }
  });
  it("clamps the step to the new schedule", () => {
    const r = validateCollectivesControls({ collective: "broadcast", ranks: "8", messageMB: "1,000" }, 9);
    assert.deepEqual(r, { ok: true, settings: { collective: "broadcast", ranks: 8, messageMB: 1000, step: 3 } });
  });
});

describe("collectives drawing and text", () => {
  it("draws n × n cells, outlines the 4 sent and 4 received chunks of step 1, and lists the messages", () => {
    const r = root();
    collectivesWidget.renderStatic(r, { collective: "all-reduce", ranks: 4, messageMB: 64, step: 1 });
    const svg = r.querySelector("svg")!;
    assert.equal(svg.querySelectorAll("rect:not(.coll-send):not(.coll-recv)").length, 16);
    assert.equal(svg.querySelectorAll("rect.coll-send").length, 4);
    assert.equal(svg.querySelectorAll("rect.coll-recv").length, 4);
    const items = [...r.querySelectorAll(".coll-transfers li")].map((li) => li.textContent);
    assert.deepEqual(items, [
      "GPU 0 → GPU 1: chunk 3 (16 MB); GPU 1 adds it in.",
      "GPU 1 → GPU 2: chunk 0 (16 MB); GPU 2 adds it in.",
      "GPU 2 → GPU 3: chunk 1 (16 MB); GPU 3 adds it in.",
      "GPU 3 → GPU 0: chunk 2 (16 MB); GPU 0 adds it in.",
    ]);
    assert.equal(r.querySelector(".coll-step")!.textContent, "Step 1 of 6");
    const html = r.innerHTML;
    assert.doesNotMatch(html, /NaN|undefined|Infinity/);
  });
  it("summary states the busiest GPU's bytes and the nccl-tests factor", () => {
    assert.equal(
      summarizeCollectives({ collective: "all-reduce", ranks: 4, messageMB: 64, step: 1 }),
      "All-reduce (ring) on 4 GPUs, ring, 6 steps. Step 1 of 6: 4 messages, the busiest GPU link carries 16 MB. Over the whole collective the busiest GPU sends 96 MB of an S = 64 MB message. That is 1.5 × S, the nccl-tests bus-bandwidth factor.",
    );
    assert.match(
      summarizeCollectives({ collective: "barrier", ranks: 5, messageMB: 64, step: 0 }),
      /^Barrier on 5 GPUs, dissemination, 3 steps\. Step 0 of 3\./,
    );
  });
  it("labels and byte formats", () => {
    assert.equal(cellLabel("all-reduce", 4, { chunk: 2, sources: [0, 3] }), "c2 2/4");
    assert.equal(cellLabel("all-to-all", 4, { chunk: 1, sources: [3] }), "3→1");
    assert.equal(
      transferLines(scheduleFor({ collective: "gather", ranks: 3, messageMB: 3 }), 1)[0],
      "GPU 1 → GPU 0: chunk 1 (1 MB); GPU 0 stores it.",
    );
    // The kit's byte formatter: 999.9 kB rounds to "1 MB", not "1,000 kB"; an empty message is "0 B".
    assert.equal(
      transferLines(scheduleFor({ collective: "gather", ranks: 4, messageMB: 3.9996 }), 1)[0],
      "GPU 1 → GPU 0: chunk 1 (1 MB); GPU 0 stores it.",
    );
    assert.match(transferLines(scheduleFor({ collective: "barrier", ranks: 4, messageMB: 1 }), 1)[0]!, /\(0 B\)/);
  });
});
