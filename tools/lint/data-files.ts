/**
 * Prose inside data files (a glossary, figure captions kept as data): the string values of the
 * configured property names are kept, everything else blanked, and the result is masked like
 * Markdown (so math and code inside a definition are skipped). Works on JSON, YAML and TypeScript
 * object literals alike because it reads `name: "value"` pairs from the raw text, which also keeps
 * every offset exact.
 */
import { TOKEN_FILL, maskMarkdown } from "./mask-markdown.ts";

/** `yaml` enables unquoted values (plain scalars); in JSON and TypeScript only string literals count. */
export function dataProseView(text: string, fields: readonly string[], yaml = false): string {
  const out = text.replace(/[^\n]/g, TOKEN_FILL).split("");
  const keep = (start: number, value: string) => {
    // Escapes (\" \n \u00e9) are syntax: blank them.
    const cleaned = value.replace(/\\(?:u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (s) => " ".repeat(s.length));
    for (let k = 0; k < cleaned.length; k++) if (value[k] !== "\n") out[start + k] = cleaned[k];
  };
  const names = fields.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
  const pair = new RegExp(`(?<![\\w$])(["']?)(?:${names})\\1[ \\t]*:[ \\t]*`, "g");
  for (const m of text.matchAll(pair)) {
    const at = m.index + m[0].length;
    const q = text[at];
    if (q === '"' || q === "'" || q === "`") {
      let k = at + 1;
      while (k < text.length && text[k] !== q) k += text[k] === "\\" ? 2 : 1;
      keep(at + 1, text.slice(at + 1, k));
    } else if (yaml) {
      // A YAML plain scalar: to the end of the line or a comment.
      const eol = text.indexOf("\n", at);
      const line = text.slice(at, eol === -1 ? text.length : eol);
      const value = line.replace(/\s+#.*$/, "").trimEnd();
      if (value !== "" && !/^[>|[{&*!]/.test(value)) keep(at, value);
    }
  }
  return maskMarkdown(out.join(""), { frontMatterProseKeys: [] });
}
