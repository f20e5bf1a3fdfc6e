/**
 * Eleventy 3 ships no TypeScript declarations (its package.json points "types" at the JSDoc'd
 * src/UserConfig.js). These are the parts of Eleventy's `UserConfig` (the `eleventyConfig` a
 * plugin receives) and of its API that the book uses, with Eleventy's own names and
 * signatures (node_modules/@11ty/eleventy/src/UserConfig.js).
 */
declare module "@11ty/eleventy" {
  /** What an `eleventy.before` handler receives. */
  export interface EleventyEventArguments {
    directories: { input: string; output: string; includes: string; data: string };
    runMode: "build" | "watch" | "serve";
  }

  /** What an `eleventy.after` handler receives: also every page written. */
  export interface EleventyAfterArguments extends EleventyEventArguments {
    results: { inputPath: string; outputPath: string | false; url: string; content: string }[];
  }

  /** `this` in a filter, shortcode or transform. */
  export interface EleventyContext {
    page: { inputPath: string; outputPath?: string | false; url: string; fileSlug?: string };
  }

  /** A collection item: a page with its data and rendered content. */
  export interface CollectionItem {
    url: string;
    inputPath: string;
    outputPath: string | false;
    page: { inputPath: string; url: string; date: Date };
    data: Record<string, unknown>;
    content: string;
  }

  export interface CollectionApi {
    getFilteredByGlob(glob: string | string[]): CollectionItem[];
    getAll(): CollectionItem[];
  }

  // Eleventy's filters, shortcodes and data functions take any arguments a template passes.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type Callback = (this: EleventyContext, ...args: any[]) => unknown;

  export interface UserConfig {
    /** The --pathPrefix ("/" unless the site lives in a sub-path). */
    pathPrefix?: string;
    /** The resolved input, output and other folders (Eleventy 3), once the configuration is read. */
    directories?: { input?: string; output?: string; includes?: string; data?: string };
    addPlugin<Options>(plugin: (eleventyConfig: UserConfig, options: Options) => void, options?: Options): void;
    addPlugin(plugin: (eleventyConfig: UserConfig) => void): void;
    addFilter(name: string, callback: Callback): void;
    addShortcode(name: string, callback: Callback): void;
    addTransform(name: string, callback: (this: EleventyContext, content: string) => string | Promise<string>): void;
    addPreprocessor(
      name: string,
      fileExtensions: string,
      callback: (data: { page: { inputPath: string } }, content: string) => unknown,
    ): void;
    addCollection(name: string, callback: (api: CollectionApi) => unknown): void;
    addGlobalData(name: string, data: unknown): void;
    addTemplate(virtualInputPath: string, content: string, data?: Record<string, unknown>): void;
    addPassthroughCopy(fileOrDir: string | Record<string, string>, copyOptions?: Record<string, unknown>): void;
    addWatchTarget(target: string, options?: Record<string, unknown>): void;
    amendLibrary<Library>(engineName: "md", callback: (library: Library) => void): void;
    on(eventName: "eleventy.before", callback: (args: EleventyEventArguments) => unknown): void;
    on(eventName: "eleventy.after", callback: (args: EleventyAfterArguments) => unknown): void;
  }

  export const HtmlBasePlugin: (eleventyConfig: UserConfig, options?: Record<string, unknown>) => void;

  export default class Eleventy {
    constructor(input?: string, output?: string, options?: Record<string, unknown>, eleventyConfig?: unknown);
    write(): Promise<unknown>;
    toJSON(): Promise<{ url: string; inputPath: string; outputPath: string; content: string }[]>;
  }
}
