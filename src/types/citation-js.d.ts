/** Minimal types for the parts of citation-js 0.8 the build uses. */
declare module "@citation-js/core" {
  export interface CslName {
    family?: string;
    given?: string;
    literal?: string;
  }
  export interface CslData {
    id: string;
    type?: string;
    title?: string;
    author?: CslName[];
    editor?: CslName[];
    issued?: { "date-parts"?: (number | string)[][]; literal?: string };
    "container-title"?: string;
    publisher?: string;
    URL?: string;
    DOI?: string;
    note?: string;
    [field: string]: unknown;
  }
  export class Cite {
    constructor(data: unknown, options?: Record<string, unknown>);
    data: CslData[];
    format(style: string, options?: Record<string, unknown>): string;
  }
  export const plugins: {
    input: {
      chain(data: unknown, options?: Record<string, unknown>): unknown;
    };
  };
}
declare module "@citation-js/plugin-bibtex";
declare module "@citation-js/plugin-csl";
