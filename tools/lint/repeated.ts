/**
 * Doubled words ("the the", "is is") through retext-repeated-words, on the prose view so that
 * positions are exact. The text is lower-cased first (ASCII only, so the length is unchanged):
 * the plugin skips capitalized pairs to spare names like "Duran Duran", which would also hide
 * "The the" at the start of a sentence, the commonest doubled word in practice. Legitimate
 * repeats ("that that", "had had") are an explicit list in the lint configuration; the plugin
 * itself also lets "had", "that" and "can" repeat.
 */
import { retext } from "retext";
import retextEnglish from "retext-english";
import retextRepeatedWords from "retext-repeated-words";

export interface RepeatHit {
  offset: number;
  length: number;
  word: string;
}

const processor = retext().use(retextEnglish).use(retextRepeatedWords);

export async function checkRepeatedWords(prose: string, allowed: readonly string[]): Promise<RepeatHit[]> {
  const lowered = prose.replace(/[A-Z]/g, (c) => c.toLowerCase());
  const file = await processor.process(lowered);
  const allow = new Set(allowed.map((w) => w.toLowerCase()));
  const hits: RepeatHit[] = [];
  for (const message of file.messages) {
    const start = message.place && "start" in message.place ? message.place.start : undefined;
    const end = message.place && "end" in message.place ? message.place.end : undefined;
    if (start?.offset === undefined || end?.offset === undefined) continue;
    const word = prose.slice(start.offset, end.offset).split(/\s+/)[0];
    if (allow.has(word.toLowerCase())) continue;
    hits.push({ offset: start.offset, length: end.offset - start.offset, word });
  }
  return hits;
}
