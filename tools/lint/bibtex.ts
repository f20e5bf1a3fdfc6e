/**
 * A BibTeX reader that keeps positions: every entry and every field value knows its offset in
 * the file, so the bibliography checks and the prose checks on titles and notes report
 * `bibliography.bib:line:col`. It reads what the book's entries use (braced or quoted values,
 * bare numbers and macros, `#` concatenation) and skips @comment, @preamble and @string blocks.
 */

export interface BibField {
  /** Lower-case field name. */
  name: string;
  /** The value without its outer braces or quotes (concatenated parts joined). */
  value: string;
  /** Offset of the first character of the value (inside the braces or quotes). */
  valueOffset: number;
  /** Offset of the field name. */
  nameOffset: number;
  /** Where each part of the value lies, for blanking: [start, end) inside the delimiters. */
  parts: Array<[number, number]>;
}

export interface BibEntry {
  type: string;
  key: string;
  /** Offset of the `@`. */
  offset: number;
  keyOffset: number;
  /** Offset just past the closing brace. */
  end: number;
  fields: BibField[];
}

export interface BibError {
  offset: number;
  message: string;
}

const skipped = new Set(["comment", "preamble", "string"]);

export function parseBibtex(text: string): { entries: BibEntry[]; errors: BibError[] } {
  const entries: BibEntry[] = [];
  const errors: BibError[] = [];
  let i = 0;
  const n = text.length;
  const ws = () => {
    while (i < n && /\s/.test(text[i])) i++;
  };
  /** Skips a balanced {…} or (…) group starting at i; returns false if unbalanced. */
  const skipGroup = (): boolean => {
    const open = text[i];
    const close = open === "(" ? ")" : "}";
    let depth = 0;
    for (; i < n; i++) {
      if (text[i] === open) depth++;
      else if (text[i] === close && --depth === 0) {
        i++;
        return true;
      }
    }
    return false;
  };
  /** Skips to the next line that starts with @ (error recovery). */
  const recover = () => {
    const next = text.slice(i).search(/\n\s*@/);
    i = next === -1 ? n : i + next + 1;
  };

  while (i < n) {
    const at = text.indexOf("@", i);
    if (at === -1) break;
    i = at + 1;
    const typeMatch = /^[A-Za-z]+/.exec(text.slice(i, i + 40));
    if (!typeMatch) {
      errors.push({ offset: at, message: "an @ outside an entry that does not start one" });
      continue;
    }
    const type = typeMatch[0].toLowerCase();
    i += typeMatch[0].length;
    ws();
    if (text[i] !== "{" && text[i] !== "(") {
      errors.push({ offset: at, message: `@${typeMatch[0]} is not followed by "{"` });
      recover();
      continue;
    }
    if (skipped.has(type)) {
      if (!skipGroup()) errors.push({ offset: at, message: `unbalanced braces in @${type}` });
      continue;
    }
    const closer = text[i] === "(" ? ")" : "}";
    i++;
    ws();
    const keyStart = i;
    while (i < n && text[i] !== "," && text[i] !== closer && !/\s/.test(text[i])) i++;
    const key = text.slice(keyStart, i);
    ws();
    if (key === "" || text[i] !== ",") {
      errors.push({
        offset: keyStart,
        message: key === "" ? "entry without a key" : `entry "${key}": expected "," after the key`,
      });
      recover();
      continue;
    }
    i++;
    const fields: BibField[] = [];
    let ok = true;
    for (;;) {
      ws();
      while (text[i] === ",") {
        i++;
        ws();
      }
      if (text[i] === closer) {
        i++;
        break;
      }
      if (i >= n) {
        errors.push({ offset: at, message: `entry "${key}" is not closed` });
        ok = false;
        break;
      }
      const nameMatch = /^[A-Za-z][\w:.+-]*/.exec(text.slice(i, i + 100));
      if (!nameMatch) {
        errors.push({ offset: i, message: `entry "${key}": expected a field name, found "${text[i]}"` });
        ok = false;
        break;
      }
      const nameOffset = i;
      i += nameMatch[0].length;
      ws();
      if (text[i] !== "=") {
        errors.push({ offset: i, message: `entry "${key}": expected "=" after field "${nameMatch[0]}"` });
        ok = false;
        break;
      }
      i++;
      const parts: Array<[number, number]> = [];
      let value = "";
      for (;;) {
        ws();
        if (text[i] === "{") {
          const start = i + 1;
          if (!skipGroup()) {
            i = start; // resume the search for the next entry from here
            errors.push({ offset: start - 1, message: `entry "${key}": unbalanced braces in field "${nameMatch[0]}"` });
            ok = false;
            break;
          }
          parts.push([start, i - 1]);
          value += text.slice(start, i - 1);
        } else if (text[i] === '"') {
          const start = i + 1;
          let depth = 0;
          let k = start;
          for (; k < n; k++) {
            if (text[k] === "{") depth++;
            else if (text[k] === "}") depth--;
            else if (text[k] === '"' && depth === 0 && text[k - 1] !== "\\") break;
          }
          if (k >= n) {
            errors.push({ offset: i, message: `entry "${key}": unterminated quoted value in field "${nameMatch[0]}"` });
            ok = false;
            break;
          }
          parts.push([start, k]);
          value += text.slice(start, k);
          i = k + 1;
        } else {
          const bare = /^[\w.:+-]+/.exec(text.slice(i, i + 200));
          if (!bare) {
            errors.push({ offset: i, message: `entry "${key}": field "${nameMatch[0]}" has no value` });
            ok = false;
            break;
          }
          parts.push([i, i + bare[0].length]);
          value += bare[0];
          i += bare[0].length;
        }
        ws();
        if (text[i] === "#") {
          i++;
          continue;
        }
        break;
      }
      if (!ok) break;
      fields.push({ name: nameMatch[0].toLowerCase(), value, valueOffset: parts[0][0], nameOffset, parts });
      ws();
      if (text[i] !== "," && text[i] !== closer) {
        errors.push({
          offset: i,
          message: `entry "${key}": expected "," or "${closer}" after field "${nameMatch[0]}"`,
        });
        ok = false;
        break;
      }
    }
    if (!ok) {
      recover();
      continue;
    }
    entries.push({ type, key, offset: at, keyOffset: keyStart, end: i, fields });
  }
  return { entries, errors };
}
