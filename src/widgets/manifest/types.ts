import type { WidgetExpose, WidgetVisibility } from '../../spec/widgets.js';

/** _meta.ui.csp: four lists of bare domains (2.5); absent lists are empty. */
export interface WidgetCsp {
  readonly connectDomains: readonly string[];
  readonly resourceDomains: readonly string[];
  readonly frameDomains: readonly string[];
  readonly redirectDomains: readonly string[];
}

export interface WidgetBilling {
  readonly currency: string;
  readonly amountNanocents: number;
}

/** A tool object of 2.5, with its defaults applied. */
export interface WidgetTool {
  readonly name: string;
  readonly description?: string;
  /** A JSON Schema object for the arguments, as written. */
  readonly inputSchema?: Readonly<Record<string, unknown>>;
  readonly _meta: {
    readonly ui: {
      /** Default [app]. */
      readonly visibility: readonly WidgetVisibility[];
    };
    readonly platform: {
      /** Folder-relative source path; default tools/<name>.js. */
      readonly file: string;
      /** Default node20. */
      readonly runtime: string;
      /** Default [] (neither custom HTTP endpoint nor custom tool). */
      readonly expose: readonly WidgetExpose[];
      /** Present: the tool is billable. */
      readonly billing?: WidgetBilling;
    };
  };
}

/** widget.json as 2.5 describes it, with defaults applied; members 2.5 does not name are dropped. */
export interface WidgetManifest {
  readonly name: string;
  readonly version: string;
  readonly description?: string;
  readonly _meta: {
    readonly ui: {
      /** Folder-relative path of the HTML entry; default index.html. */
      readonly resourceUri: string;
      /** Always text/html; default text/html. */
      readonly mimeType: string;
      readonly csp: WidgetCsp;
      /** Browser permission names such as clipboard-write; default []. */
      readonly permissions: readonly string[];
    };
    readonly platform: {
      /** Schema version; default and only value 1. */
      readonly v: number;
      readonly iconRef?: string;
      readonly themeRef?: string;
      /** Informational only: the catalog's remix columns hold the authoritative lineage. */
      readonly remixOf?: string;
    };
  };
  /** Default []. */
  readonly tools: readonly WidgetTool[];
}
