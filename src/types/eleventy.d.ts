/** The parts of Eleventy's programmatic API this project uses (Eleventy ships no types). */
declare module "@11ty/eleventy" {
  export interface EleventyOptions {
    quietMode?: boolean;
    configPath?: string;
    runMode?: "build" | "watch" | "serve";
    pathPrefix?: string;
    // biome-ignore lint/suspicious/noExplicitAny: Eleventy's config API is untyped
    config?: (eleventyConfig: any) => void | Promise<void>;
  }

  export default class Eleventy {
    constructor(input?: string, output?: string, options?: EleventyOptions);
    init(): Promise<void>;
    write(): Promise<unknown>;
    toJSON(): Promise<{ url: string; inputPath: string; outputPath: string; content: string }[]>;
    watch(): Promise<void>;
    serve(port?: number): Promise<void>;
    stopWatch(): Promise<void>;
    /** Where Eleventy prints; `overrideLogger` takes a console-like object, or false for none. */
    readonly logger: { overrideLogger(logger: Partial<Console> | false): void };
  }
}
