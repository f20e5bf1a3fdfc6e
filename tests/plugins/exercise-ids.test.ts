/**
 * Stable exercise ids (issue #54): an exercise's id, its table-of-contents link and its answer
 * box's storage key come from its title (or its `{#id}`), not its position, so inserting an
 * exercise leaves every other one's id as it was; a box whose positional key differs carries it,
 * and answers saved under it move to the stable key once per chapter
 * (src/widgets/runtime/exercise-progress.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { parseHTML } from "linkedom";
import { render, renderError } from "../helpers/book-markdown.ts";
import { exerciseIdFromTitle } from "../../src/plugins/markdown/containers.ts";
import { migrateLegacyKeys, type ProgressStore } from "../../src/widgets/runtime/exercise-progress.ts";

const file = "tests/plugins/fixtures/02-one-gpu.md"; // not on disk: lines count from the snippet
const exercise = (title: string, answer = true) => `::: exercise ${title}
A question.
${answer ? "\n::: answer\n- label: States\n  value: ch2.llama2StatesGB\n  tolerance: 0.01\n:::\n" : ""}
::: solution
It is {=ch2.llama2StatesGB} GB.
:::
:::
`;

function boxes(markdown: string) {
  const { document } = parseHTML(`<main>${render(`## Exercises\n\n${markdown}`, file)}</main>`);
  return [...document.querySelectorAll("section.exercise")].map((section) => {
    const form = section.querySelector("template")?.content.querySelector("form");
    return {
      id: section.id,
      key: form?.getAttribute("data-exercise-key") ?? undefined,
      legacy: form?.getAttribute("data-exercise-legacy-key") ?? undefined,
    };
  });
}

test("an exercise's id comes from its title, cut at a word after 60 characters", () => {
  assert.equal(exerciseIdFromTitle("How many parameters fit in 80 GB?"), "exercise-how-many-parameters-fit-in-80-gb");
  assert.equal(
    exerciseIdFromTitle("Bytes for {=ch2.llama2StatesGB} and {:8} GPUs"),
    "exercise-bytes-for-ch2-llama2statesgb-and-8-gpus",
  );
  const long = exerciseIdFromTitle(
    "Estimate: can you fine-tune Llama 2 7B on one GPU with Adam in bf16 mixed precision and an fp32 buffer?",
  )!;
  assert.equal(long, "exercise-estimate-can-you-fine-tune-llama-2-7b-on-one-gpu-with-adam");
  assert.equal(exerciseIdFromTitle("$$"), undefined);
});

test("inserting an exercise changes no other exercise's id or key", () => {
  const before = boxes(exercise("First one") + "\n" + exercise("Second one"));
  const after = boxes(exercise("Inserted", false) + "\n" + exercise("First one") + "\n" + exercise("Second one"));
  assert.deepEqual(
    before.map((b) => [b.id, b.key]),
    [
      ["exercise-first-one", "one-gpu/exercise-first-one"],
      ["exercise-second-one", "one-gpu/exercise-second-one"],
    ],
  );
  assert.deepEqual(
    after.slice(1).map((b) => [b.id, b.key]),
    before.map((b) => [b.id, b.key]),
  );
  assert.equal(before[1]!.legacy, "one-gpu/exercise-2", "the key as it was, to move saved answers");
  const explicit = boxes(exercise("Named {#exercise-mine}"));
  assert.deepEqual(explicit, [{ id: "exercise-mine", key: "one-gpu/exercise-mine", legacy: undefined }]);
});

test("two exercises with the same id fail the build, naming both lines", () => {
  const e = renderError(`${exercise("Same title")}\n${exercise("Same title!", false)}`, file);
  assert.equal(e.line, 15);
  assert.match(e.rawMessage, /^exercise id "exercise-same-title" is taken by the exercise on line 1 /);
});

test("answers saved under positional keys move to the stable keys, once per chapter", () => {
  const store: ProgressStore = {
    solved: { "one-gpu/exercise-1": ["107.8"], "one-gpu/exercise-2": ["5e9"], "roofline/exercise-1": ["3"] },
    totals: { "one-gpu": 2 },
    migrated: [],
  };
  const page: Array<[string, string | undefined]> = [
    ["one-gpu/exercise-first-one", "one-gpu/exercise-1"],
    ["one-gpu/exercise-second-one", "one-gpu/exercise-2"],
    ["one-gpu/exercise-mine", undefined],
  ];
  assert.equal(migrateLegacyKeys(store, page), true);
  assert.deepEqual(store.solved, {
    "one-gpu/exercise-first-one": ["107.8"],
    "one-gpu/exercise-second-one": ["5e9"],
    "roofline/exercise-1": ["3"],
  });
  assert.deepEqual(store.migrated, ["one-gpu"]);
  // Later, an exercise is inserted: positions shift, but the chapter has moved its answers already.
  const solved: Record<string, string[]> = store.solved;
  solved["one-gpu/exercise-2"] = ["stale"];
  assert.equal(migrateLegacyKeys(store, [["one-gpu/exercise-inserted", "one-gpu/exercise-2"]]), false);
  assert.deepEqual(solved["one-gpu/exercise-2"], ["stale"], "not moved a second time");
});
