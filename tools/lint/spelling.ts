/**
 * Unknown words, through cspell's Node API (one process, dictionaries loaded once, every prose
 * view checked in turn). cspell sees only the prose view, so math, code, URLs, citation keys and
 * markup are never reported; its settings (language, dictionaries, the project word list) come
 * from cspell.config.yaml, which editors with a cspell extension read too.
 *
 * Suggestions are the slow part of cspell (about 0.1 to 0.5 s a word on this machine), so
 * documents are checked without them and suggestions are computed afterwards from the loaded
 * dictionaries, once per distinct unknown word, for at most `maxSuggestedWords` words (a file
 * full of new vocabulary still finishes quickly; the words past the limit get no suggestion).
 */
import { pathToFileURL } from "node:url";
import { CompoundWordsMethod, type CSpellSettings, getDictionary, spellCheckDocument } from "cspell-lib";

export interface SpellingHit {
  offset: number;
  length: number;
  word: string;
  suggestions: string[];
}

export interface SpellChecker {
  /** `locale` is a cspell locale list; published titles use "en-US,en-GB" so UK spellings pass. */
  check(absolutePath: string, prose: string, locale?: string): Promise<SpellingHit[]>;
}

/** A checker bound to one cspell configuration file (absolute path). */
export function createSpellChecker(configFile: string, maxSuggestedWords = 40): SpellChecker {
  const suggestionCache = new Map<string, string[]>();
  let dictionary: ReturnType<typeof getDictionary> | undefined;
  const suggest = async (word: string, settings: CSpellSettings): Promise<string[]> => {
    const cached = suggestionCache.get(word);
    if (cached) return cached;
    if (suggestionCache.size >= maxSuggestedWords) return [];
    dictionary ??= getDictionary(settings);
    const found = (await dictionary)
      .suggest(word, {
        numSuggestions: 3,
        numChanges: 2,
        includeTies: false,
        ignoreCase: true,
        compoundMethod: CompoundWordsMethod.NONE,
      })
      .map((s) => s.word)
      .filter((s) => s.toLowerCase() !== word.toLowerCase())
      .slice(0, 3);
    const adjusted = found.map((s) =>
      word[0] === word[0].toUpperCase() && s === s.toLowerCase() ? s[0].toUpperCase() + s.slice(1) : s,
    );
    suggestionCache.set(word, adjusted);
    return adjusted;
  };
  return {
    async check(absolutePath, prose, locale = "en-US") {
      const result = await spellCheckDocument(
        { uri: pathToFileURL(absolutePath).href, text: prose, languageId: "plaintext", locale },
        { generateSuggestions: false, configFile, noConfigSearch: true },
        {},
      );
      if (result.errors && result.errors.length > 0) {
        throw new Error(`cspell failed on ${absolutePath}: ${result.errors.map((e) => e.message).join("; ")}`, {
          cause: result.errors[0],
        });
      }
      if (result.configErrors && result.configErrors.length > 0) {
        throw new Error(
          `cspell could not read ${configFile}: ${result.configErrors.map((e) => e.error.message).join("; ")}`,
        );
      }
      const hits: SpellingHit[] = [];
      for (const issue of result.issues) {
        hits.push({
          offset: issue.offset,
          length: issue.length ?? issue.text.length,
          word: issue.text,
          suggestions: await suggest(issue.text, result.settingsUsed),
        });
      }
      return hits;
    },
  };
}
