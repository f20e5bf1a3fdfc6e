/** `npm run lint` refuses a bibliography entry without a valid reading-list topic, at its line, listing the topics. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { checkBibTopics } from "../../tools/lint/bibliography.ts";
import { parseBibtex } from "../../tools/lint/bibtex.ts";
import { formatFinding, LineIndex } from "../../tools/lint/findings.ts";

const bib = `@misc{known2020a,
  title = {A},
  keywords = {handbooks}
}

@misc{missing2021b,
  title = {B}
}

@misc{typo2022c,
  title = {C},
  keywords = {handbook}
}

@misc{placed2019d,
  title = {D}
}
`;

test("an entry without keywords is reported at its key, a wrong topic at its value; placed entries may omit it", () => {
  const { entries } = parseBibtex(bib);
  const findings = checkBibTopics("bibliography.bib", new LineIndex(bib), entries, {
    ids: ["handbooks", "kernels"],
    placed: new Set(["placed2019d"]),
  });
  assert.deepEqual(
    findings.map((f) => formatFinding(f)),
    [
      'bibliography.bib:6:7  bib-topic  entry "missing2021b" has no keywords = {topic} (its reading-list section; one of: handbooks, kernels)',
      'bibliography.bib:12:15  bib-topic  entry "typo2022c": keywords "handbook" is not a reading-list topic (one of: handbooks, kernels)',
    ],
  );
});
