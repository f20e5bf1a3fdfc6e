/** Prose fields of data files: only the named string values are kept, at their offsets. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dataProseView } from "../../tools/lint/data-files.ts";
import { TOKEN_FILL } from "../../tools/lint/mask-markdown.ts";

const show = (s: string) => s.replaceAll(TOKEN_FILL, "#");

describe("dataProseView", () => {
  it("keeps TypeScript and JSON string values of the named fields, blanking escapes and math", () => {
    const ts = 'export const g = { term: "ZeRO", definition: "Shards \\"state\\" over $d$ ranks", id: "zero" };';
    assert.equal(
      show(dataProseView(ts, ["term", "definition"])),
      "##########################ZeRO################Shards   state   over ### ranks################",
    );
    assert.equal(show(dataProseView('{"definition": "A word"}', ["definition"])), "################A word##");
  });

  it("reads plain YAML scalars only in YAML files, never a TypeScript type annotation", () => {
    assert.equal(
      show(dataProseView("title: Plain words # comment\n", ["title"], true)),
      "#######Plain words##########\n",
    );
    assert.equal(show(dataProseView("  title: string;\n", ["title"])), "################\n");
  });
});
