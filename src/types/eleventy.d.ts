/** Eleventy 3 ships no TypeScript types; the build uses this much of it. */
declare module "@11ty/eleventy" {
  export const HtmlBasePlugin: (eleventyConfig: any, options?: Record<string, unknown>) => void;
  export default class Eleventy {
    constructor(input?: string, output?: string, options?: Record<string, unknown>, eleventyConfig?: unknown);
    write(): Promise<unknown>;
    toJSON(): Promise<{ url: string; inputPath: string; outputPath: string; content: string }[]>;
  }
}
