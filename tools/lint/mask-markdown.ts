/**
 * The prose view of a Markdown chapter: the same text, character for character, with everything
 * that is not prose replaced by spaces (newlines kept). Every prose check runs on this view, so a
 * finding's offset is an offset into the original file and `line:col` is exact.
 *
 * Blanked: front matter except the prose keys (title, description, …), fenced code, display and
 * inline math (`$$…$$`, `$…$`, with the delimiter rules of @mdit/plugin-tex), inline code, HTML
 * tags and comments, URLs and link destinations, citation groups `[@…]`, footnote labels `[^…]`,
 * attribute blocks `{#…}`/`{.…}`/`{k=v}`, cross-references `@eq:…`, HTML entities, `::: widget`/`::: answer`
 * blocks (settings are YAML, not prose), container markers (`::: note` keeps its title), and
 * link reference definitions. Indented code blocks are not recognized (list continuations look
 * the same); the book uses fenced code.
 *
 * The guard: a typo in a chapter must be found at the right place, and nothing in code, math or
 * markup may be reported as a typo or a casing error.
 */

/**
 * Fills code, math, URLs and other masked tokens that a reader sees as a word of their own, so
 * that "of $Y$ of" is not a doubled word. Tags, comments, link destinations and entities read
 * as nothing (or a space) and are filled with spaces, so "the <em>the</em>" is still caught.
 * It is not a letter, so the spell checker and the phrase rules treat it like a space.
 */
export const TOKEN_FILL = "\u00b6";

export interface MarkdownMaskOptions {
  /** Front-matter keys whose values are prose and are checked (e.g. `title`, `description`). */
  frontMatterProseKeys: readonly string[];
}

const isSpace = (c: string | undefined): boolean => c === " " || c === "\t" || c === "\n" || c === "\r";
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";
const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}_]/u.test(c);
const asciiPunctuation = /[!-/:-@[-`{-~]/;

interface Line {
  start: number;
  /** Offset of the newline ending the line, or the text length. */
  end: number;
  text: string;
}

function splitLines(src: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start <= src.length) {
    let end = src.indexOf("\n", start);
    if (end === -1) end = src.length;
    lines.push({ start, end, text: src.slice(start, end) });
    if (end === src.length) break;
    start = end + 1;
  }
  return lines;
}

class Masker {
  readonly out: string[];
  /** 1 where a block-level construct was blanked: inline constructs never cross these. */
  readonly blocked: Uint8Array;

  constructor(readonly src: string) {
    this.out = src.split("");
    this.blocked = new Uint8Array(src.length);
  }

  blank(from: number, to: number, block = false, fill = " "): void {
    for (let k = Math.max(0, from); k < Math.min(to, this.src.length); k++) {
      if (this.src[k] !== "\n") this.out[k] = fill;
      if (block) this.blocked[k] = 1;
    }
  }

  result(): string {
    return this.out.join("");
  }
}

/** Returns the prose view of `src` (same length, non-prose blanked). */
export function maskMarkdown(src: string, options: MarkdownMaskOptions): string {
  const m = new Masker(src);
  const lines = splitLines(src);
  const i = maskFrontMatter(m, lines, options);
  maskBlocks(m, lines, i);
  maskInline(m);
  return m.result();
}

/** Blanks the front matter except the values of prose keys; returns the first line after it. */
function maskFrontMatter(m: Masker, lines: Line[], options: MarkdownMaskOptions): number {
  if (lines.length === 0 || lines[0].text.trimEnd() !== "---") return 0;
  let close = -1;
  for (let k = 1; k < lines.length; k++) {
    const t = lines[k].text.trimEnd();
    if (t === "---" || t === "...") {
      close = k;
      break;
    }
  }
  if (close === -1) return 0;
  m.blank(lines[0].start, lines[0].end, true, TOKEN_FILL);
  m.blank(lines[close].start, lines[close].end, true, TOKEN_FILL);
  let blockIndent = -1; // > -1 while inside a folded/literal block scalar of a prose key
  for (let k = 1; k < close; k++) {
    const line = lines[k];
    const indent = line.text.length - line.text.trimStart().length;
    if (blockIndent >= 0 && (line.text.trim() === "" || indent > blockIndent)) continue;
    blockIndent = -1;
    const kv = /^(\s*)([A-Za-z_][\w-]*)(\s*:\s*)(.*)$/.exec(line.text);
    if (kv && options.frontMatterProseKeys.includes(kv[2])) {
      const valueStart = line.start + kv[1].length + kv[2].length + kv[3].length;
      const value = kv[4];
      if (/^[>|][+-]?\s*$/.test(value)) {
        blockIndent = kv[1].length;
        m.blank(line.start, line.end, true, TOKEN_FILL);
        continue;
      }
      m.blank(line.start, valueStart, true, TOKEN_FILL);
      // Quotes around a YAML string are syntax, not prose.
      const q = value[0];
      if ((q === '"' || q === "'") && value.trimEnd().endsWith(q)) {
        m.blank(valueStart, valueStart + 1, true);
        const last = valueStart + value.trimEnd().length - 1;
        m.blank(last, last + 1, true);
      }
      continue;
    }
    m.blank(line.start, line.end, true, TOKEN_FILL);
  }
  return close + 1;
}

function maskBlocks(m: Masker, lines: Line[], first: number): void {
  const blockquote = /^\s*(?:>\s?)*/;
  let k = first;
  while (k < lines.length) {
    const line = lines[k];
    const prefix = blockquote.exec(line.text)![0].length;
    const body = line.text.slice(prefix);

    const fence = /^(\s*)(`{3,}|~{3,})/.exec(body);
    if (fence) {
      const marker = fence[2];
      const closing = new RegExp(`^\\s*(?:>\\s?)*\\s*${marker[0] === "`" ? "`" : "~"}{${marker.length},}\\s*$`);
      let end = k + 1;
      while (end < lines.length && !closing.test(lines[end].text)) end++;
      const last = Math.min(end, lines.length - 1);
      m.blank(line.start, lines[last].end, true, TOKEN_FILL);
      k = last + 1;
      continue;
    }

    const display = /^\s*\$\$/.exec(body);
    if (display) {
      const open = line.start + prefix + display[0].length - 2;
      const sameLine = line.text.indexOf("$$", prefix + display[0].length);
      if (sameLine !== -1) {
        m.blank(open, line.start + sameLine + 2, true, TOKEN_FILL);
        k++;
        continue;
      }
      let end = k + 1;
      while (end < lines.length && lines[end].text.indexOf("$$") === -1) end++;
      if (end >= lines.length) {
        m.blank(open, lines[lines.length - 1].end, true, TOKEN_FILL);
        break;
      }
      m.blank(open, lines[end].start + lines[end].text.indexOf("$$") + 2, true, TOKEN_FILL);
      k = end + 1;
      continue;
    }

    if (/^\s*:{3,}\s*(?:widget|answer)\b/.test(body)) {
      let end = k + 1;
      while (end < lines.length && !/^\s*(?:>\s?)*\s*:{3,}\s*$/.test(lines[end].text)) end++;
      const last = Math.min(end, lines.length - 1);
      m.blank(line.start, lines[last].end, true, TOKEN_FILL);
      k = last + 1;
      continue;
    }

    const container = /^(\s*)(:{3,})(\s*[\w-]*)/.exec(body);
    if (container) {
      // `::: note Title`: the marker and the container name go, the title stays.
      m.blank(line.start + prefix, line.start + prefix + container[0].length, true);
      k++;
      continue;
    }

    const footnoteDef = /^\s{0,3}\[\^[^\]\s]+\]:/.exec(body);
    if (footnoteDef) {
      m.blank(line.start + prefix, line.start + prefix + footnoteDef[0].length, true);
      k++;
      continue;
    }

    if (/^\s{0,3}\[[^\]^][^\]]*\]:\s*\S/.test(body)) {
      m.blank(line.start, line.end, true); // link reference definition
      k++;
      continue;
    }
    k++;
  }
}

/** End (exclusive) of the inline run starting at `from`: a blank line or a blanked block. */
function paragraphEnd(m: Masker, from: number): number {
  const src = m.src;
  for (let k = from; k < src.length; k++) {
    if (m.blocked[k]) return k;
    if (src[k] === "\n") {
      let j = k + 1;
      while (j < src.length && (src[j] === " " || src[j] === "\t" || src[j] === "\r")) j++;
      if (j >= src.length || src[j] === "\n") return k;
    }
  }
  return src.length;
}

function isEscaped(src: string, at: number): boolean {
  let n = 0;
  for (let k = at - 1; k >= 0 && src[k] === "\\"; k--) n++;
  return n % 2 === 1;
}

function maskInline(m: Masker): void {
  const src = m.src;
  const n = src.length;
  let i = 0;
  const sticky = (re: RegExp, at: number): RegExpExecArray | null => {
    re.lastIndex = at;
    return re.exec(src);
  };
  const attrBlock = /\{[#.][^{}\n]*\}|\{[^{}\n=]*=[^{}\n]*\}/y;
  const crossRef = /@(?:eq|fig|sec|tbl):[A-Za-z0-9_-]+(?:[.:][A-Za-z0-9_-]+)*/y;
  const entity = /&(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#[xX][0-9a-fA-F]+);/y;
  const url =
    /(?:https?:\/\/|www\.)[^\s<>"`]+|(?:[a-z0-9-]+\.)+(?:org|com|io|ai|net|dev|edu|gov)(?:\/[^\s<>"`]*)?(?![\w-])/y;

  while (i < n) {
    if (m.blocked[i]) {
      i++;
      continue;
    }
    const c = src[i];

    if (c === "\\" && asciiPunctuation.test(src[i + 1] ?? "")) {
      i += 2;
      continue;
    }

    if (c === "<" && src.startsWith("<!--", i)) {
      const close = src.indexOf("-->", i + 4);
      const end = close === -1 ? n : close + 3;
      m.blank(i, end);
      i = end;
      continue;
    }

    if (c === "`") {
      let k = i;
      while (src[k] === "`") k++;
      const run = k - i;
      const limit = paragraphEnd(m, k);
      let j = k;
      let found = -1;
      while (j < limit) {
        if (src[j] === "`") {
          let e = j;
          while (src[e] === "`") e++;
          if (e - j === run) {
            found = e;
            break;
          }
          j = e;
        } else j++;
      }
      if (found !== -1 && found <= limit) {
        m.blank(i, found, false, TOKEN_FILL);
        i = found;
      } else i = k;
      continue;
    }

    if (c === "$") {
      if (isEscaped(src, i)) {
        i++;
        continue;
      }
      if (src[i + 1] === "$") {
        i += 2;
        continue;
      }
      if (isSpace(src[i + 1])) {
        i++;
        continue;
      }
      const limit = paragraphEnd(m, i + 1);
      let j = i + 1;
      let close = -1;
      while (j < limit) {
        const d = src.indexOf("$", j);
        if (d === -1 || d >= limit) break;
        if (!isEscaped(src, d)) {
          close = d;
          break;
        }
        j = d + 1;
      }
      if (close === -1 || isSpace(src[close - 1]) || isDigit(src[close + 1])) {
        i++;
        continue;
      }
      m.blank(i, close + 1, false, TOKEN_FILL);
      i = close + 1;
      continue;
    }

    if (c === "<" && /[A-Za-z/!?]/.test(src[i + 1] ?? "")) {
      const limit = paragraphEnd(m, i + 1);
      const gt = src.indexOf(">", i + 1);
      if (gt !== -1 && gt < limit) {
        m.blank(i, gt + 1);
        i = gt + 1;
        continue;
      }
      i++;
      continue;
    }

    if (c >= "a" && c <= "z" && !isWordChar(src[i - 1]) && src[i - 1] !== "." && src[i - 1] !== "@") {
      const u = sticky(url, i);
      if (u) {
        let end = i + u[0].length;
        while (end > i && /[.,;:!?'")\]*_]/.test(src[end - 1])) {
          // Keep a closing parenthesis that belongs to the URL, as in Wikipedia links.
          if (src[end - 1] === ")") {
            const inner = src.slice(i, end - 1);
            if ((inner.match(/\(/g) ?? []).length > (inner.match(/\)/g) ?? []).length) break;
          }
          end--;
        }
        m.blank(i, end, false, TOKEN_FILL);
        i = end;
        continue;
      }
    }

    if (c === "]" && src[i + 1] === "(") {
      // Link or image destination; a quoted title after it stays (it is a caption).
      const limit = paragraphEnd(m, i + 1);
      let k = i + 2;
      while (k < limit && (src[k] === " " || src[k] === "\t")) k++;
      if (src[k] === "<") {
        const gt = src.indexOf(">", k);
        k = gt === -1 || gt >= limit ? k : gt + 1;
      } else {
        let depth = 0;
        while (k < limit && !isSpace(src[k])) {
          if (src[k] === "(") depth++;
          if (src[k] === ")") {
            if (depth === 0) break;
            depth--;
          }
          k++;
        }
      }
      m.blank(i + 1, k);
      i = k;
      continue;
    }

    if (c === "]" && src[i + 1] === "[") {
      const close = src.indexOf("]", i + 2);
      if (close !== -1 && close < paragraphEnd(m, i + 1) && !src.slice(i + 2, close).includes("\n")) {
        m.blank(i + 1, close + 1);
        i = close + 1;
        continue;
      }
    }

    if (c === "[" && (src[i + 1] === "@" || src[i + 1] === "^" || (src[i + 1] === "-" && src[i + 2] === "@"))) {
      const limit = paragraphEnd(m, i + 1);
      const close = src.indexOf("]", i + 1);
      if (close !== -1 && close < limit) {
        m.blank(i, close + 1, false, TOKEN_FILL);
        i = close + 1;
        continue;
      }
    }

    if (c === "{") {
      const a = sticky(attrBlock, i);
      if (a) {
        m.blank(i, i + a[0].length, false, TOKEN_FILL);
        i += a[0].length;
        continue;
      }
    }

    if (c === "@" && !isWordChar(src[i - 1])) {
      const r = sticky(crossRef, i);
      if (r) {
        m.blank(i, i + r[0].length, false, TOKEN_FILL);
        i += r[0].length;
        continue;
      }
    }

    if (c === "&") {
      const e = sticky(entity, i);
      if (e) {
        m.blank(i, i + e[0].length);
        i += e[0].length;
        continue;
      }
    }

    i++;
  }
}
