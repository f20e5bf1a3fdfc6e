/** Runs the prose gate on a fixture folder and returns `line:col rule → suggestion` per file. */
import path from "node:path";
import { lintConfig, type LintConfig } from "../../tools/lint/config.ts";
import type { Finding } from "../../tools/lint/findings.ts";
import { lint } from "../../tools/lint/run.ts";

export const root = path.resolve(import.meta.dirname, "../..");
const fixtures = "tests/lint/fixtures";

export function fixtureConfig(markdownRoot: string, bibliography: string): LintConfig {
  return {
    ...lintConfig,
    markdownRoots: [`${fixtures}/${markdownRoot}`],
    // The fixture entries have no reading-list topics: the topic check has its own test (bib-topics.test.ts).
    bibliography: { ...lintConfig.bibliography, path: `${fixtures}/${bibliography}`, topics: undefined },
  };
}

/** Findings grouped by file name (without folder), each as `line:col rule → suggestion`. */
export async function lintFixtures(
  config: LintConfig,
): Promise<{ byFile: Map<string, string[]>; findings: Finding[] }> {
  const { findings } = await lint(config, root);
  const byFile = new Map<string, string[]>();
  for (const f of findings) {
    const name = path.basename(f.file);
    const list = byFile.get(name) ?? [];
    list.push(`${f.line}:${f.col} ${f.rule}${f.suggestion === undefined ? "" : ` → ${f.suggestion}`}`);
    byFile.set(name, list);
  }
  return { byFile, findings };
}
