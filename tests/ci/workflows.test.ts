/**
 * The GitHub Actions workflows parse as YAML and do what the README and docs/reader-features.md
 * rely on: CI on pull requests and pushes in Debian 12 with Node 20, running .ci/run (the same
 * steps as local CI) and uploading the built site; deployment of main to GitHub Pages with the
 * repository's path prefix through upload-pages-artifact and deploy-pages. Every npm script a
 * workflow runs exists in package.json.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { load } from "js-yaml";

interface Step {
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  id?: string;
}
interface Job {
  "runs-on": string;
  container?: { image: string };
  steps: Step[];
  needs?: string;
  environment?: { name: string };
}
interface Workflow {
  name: string;
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}

const read = (file: string) => load(readFileSync(file, "utf8")) as Workflow;
const scripts = Object.keys(
  (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> }).scripts,
);

function npmScriptsRun(wf: Workflow): string[] {
  return Object.values(wf.jobs)
    .flatMap((j) => j.steps)
    .flatMap((s) => [...(s.run ?? "").matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]!));
}

test("ci.yml: pull requests and pushes, Debian Node 20, .ci/run, site artifact", () => {
  const wf = read(".github/workflows/ci.yml");
  assert.ok("pull_request" in wf.on && "push" in wf.on, "triggers");
  assert.equal(wf.permissions.contents, "read");
  const job = wf.jobs.test!;
  assert.equal(job.container?.image, "node:20-bookworm");
  const runs = job.steps.map((s) => s.run ?? s.uses ?? "");
  assert.ok(
    runs.some((r) => /apt-get install -y --no-install-recommends chromium/.test(r)),
    "Debian Chromium",
  );
  assert.ok(runs.includes(".ci/run"), "runs .ci/run");
  assert.ok(runs.includes("npm run audit"), "audit");
  const upload = job.steps.find((s) => s.uses?.startsWith("actions/upload-artifact@") && s.with?.name === "site");
  assert.equal(upload?.with?.path, "_site");
  for (const s of npmScriptsRun(wf)) assert.ok(scripts.includes(s), `npm run ${s} exists`);
});

test("deploy.yml: main to GitHub Pages with the path prefix", () => {
  const wf = read(".github/workflows/deploy.yml");
  assert.deepEqual((wf.on.push as { branches: string[] }).branches, ["main"]);
  assert.deepEqual(wf.permissions, { contents: "read", pages: "write", "id-token": "write" });
  const build = wf.jobs.build!;
  const uses = build.steps.map((s) => s.uses ?? "");
  assert.ok(
    build.steps.some((s) => s.run === ".ci/run"),
    "tests before publishing",
  );
  assert.ok(uses.some((u) => u.startsWith("actions/configure-pages@")));
  assert.ok(
    build.steps.some((s) => /npm run build -- --pathprefix="\$\{BASE_PATH\}\/"/.test(s.run ?? "")),
    "build with the base path",
  );
  const artifact = build.steps.find((s) => s.uses?.startsWith("actions/upload-pages-artifact@"));
  assert.equal(artifact?.with?.path, "_site");
  // The PDF edition ships with every deploy, and the published pages' links to it resolve (issue #28).
  const at = (re: RegExp) => build.steps.findIndex((s) => re.test(s.run ?? ""));
  const pdf = at(/npm run pdf/);
  const prefixed = at(/--pathprefix/);
  const linkCheck = build.steps.findIndex(
    (s) => /tests\/browser\/pdf\.test\.ts/.test(s.run ?? "") && s.env?.PDF_LINK_REQUIRED === "1",
  );
  assert.ok(pdf > 0 && pdf < prefixed, "npm run pdf before the prefixed build");
  assert.match(
    build.steps[prefixed]!.run!,
    /cp \S*book\.pdf _site\/book\.pdf[\s\S]*npm run build/,
    "the PDF is in the site folder when the pages are built",
  );
  assert.ok(
    linkCheck > prefixed && linkCheck < build.steps.indexOf(artifact!),
    "the links are checked in the tree that is uploaded",
  );
  const deploy = wf.jobs.deploy!;
  assert.equal(deploy.needs, "build");
  assert.equal(deploy.environment?.name, "github-pages");
  assert.ok(deploy.steps.some((s) => s.uses?.startsWith("actions/deploy-pages@")));
  for (const s of npmScriptsRun(wf)) assert.ok(scripts.includes(s), `npm run ${s} exists`);
});

test(".ci/run still installs with npm ci and runs npm test", () => {
  const run = readFileSync(".ci/run", "utf8");
  assert.match(run, /^npm ci /m);
  assert.match(run, /^npm test$/m);
});

test(".nvmrc names the Node of package.json's engines, and npm enforces it (.npmrc engine-strict)", () => {
  const engines = (JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string } }).engines.node;
  const minimum = /^>=\s*(\d+\.\d+)$/.exec(engines)?.[1];
  assert.ok(minimum, `engines.node is ">=major.minor", not "${engines}"`);
  assert.equal(readFileSync(".nvmrc", "utf8").trim(), minimum);
  assert.match(readFileSync(".npmrc", "utf8"), /^engine-strict\s*=\s*true$/m);
});
