import { reading } from './record.js';

/**
 * READING-FUNCTION-SOURCE-KB: 8 gives the function source limit as "64 KB", which is 64,000 bytes (SI) or 65,536
 * (binary). A source of this many bytes is within the limit on either reading...
 */
export const FUNCTION_SOURCE_WITHIN_BYTES = 64_000;
/** ...and one of this many is over it on either reading. Between the two, a deployment may do either. */
export const FUNCTION_SOURCE_OVER_BYTES = 64 * 1024 + 1;

/** Sections 2.5, 4.4-4.6 and 7.1: widget bundles, publishing, MCP Apps and the host bridge. */
export const WIDGET_READINGS = {
  catalogShape: reading('READING-CATALOG-SHAPE', ['4.4', '4.5'], 'The shape of the catalog of published widgets, and how an entry is found in it', {
    text: '4.4: "GET | /.well-known/mcp/widgets.json | Catalog of published widgets"; 2.5: "Fields of catalog row and post row beyond those named in the publish pipeline: not shown". 4.5: "no duplicate listing results". The document\'s shape and its entries\' members are not shown.',
    accepted:
      'Any JSON document: a bare array, an object holding the list under any member ({widgets:[...]}, {items:[...]}, nested deeper), or an object keyed by id. An entry is an object of the shallowest such list that names the published widget anywhere inside it: its post id, the catalog id the publish answer named (if any), or its MCP endpoint as an absolute URL or a path; in an object keyed by id, the value under the post or catalog id. The listing check fails when no entry names the widget, or more than one does; the checks that count entries (a refused publish adds none) first publish a widget of their own and count the entries of the list it sits in, and are not-run when the catalog names it nowhere, rather than counting a list they cannot see.',
    reference:
      '{ "widgets": [ ... ] }, each entry with id, type, name, version, description, authorId, agentSlug, postId, mcp (absolute URL), resourceUri, iconRef, remixOf and updatedAt.',
  }),
  toolVisibility: reading('READING-TOOL-VISIBILITY', ['2.5', '4.4'], 'How an app-only tool is kept from a model', {
    text: '2.5: "_meta.ui.visibility | list, subset of app, model, user; default [app] (only the widget UI may invoke; model adds programmatic agent invocation; user adds human tool palettes)"; 4.4: every published widget is exposed as an MCP App.',
    standard:
      'MCP Apps (SEP-1865): a server lists its tools with _meta.ui.visibility, default [model, app]; "hosts MUST NOT list tools that lack model to the agent" and "MUST reject an app\'s tools/call for a tool that lacks app". A server cannot tell a host proxying a view\'s call from a model\'s.',
    accepted:
      "To an MCP client that does not announce MCP Apps (a model's host), a tool whose visibility lacks model is either not listed, or listed with _meta.ui.visibility written out, holding app and not model (listed without it, MCP Apps' default would hand it to the model); a tool with model is listed. Whether tools/call of an app-only tool from such a client answers is not judged: the view's calls reach it through a host the same way. In the host page, the widget's bridge.callTool of a tool whose visibility lacks app ([model]) rejects with a 7.1 code (permission, \"Authorization denied\", or another), and its answer never reaches the widget.",
    reference:
      "Lists every tool to every client with its visibility written out (2.5's default [app] included), and answers tools/call from any client; the reference host page proxies the view's calls, and refuses with permission the widget's call of a tool whose visibility lacks app.",
  }),
  missingFunctionCode: reading('READING-MISSING-FUNCTION-CODE', ['7.1'], 'Which code a call of a function never published carries', {
    text: '7.1: not_found "A referenced key, app, function or liveId does not exist"; "host.fn calls can also surface CODE_TOO_LARGE (function source over 64 KB at publish) and then FN_NOT_FOUND at call time".',
    accepted:
      'A host.fn call of a function never published rejects with not_found or FN_NOT_FOUND; one refused at publish with CODE_TOO_LARGE rejects with FN_NOT_FOUND, as 7.1 says.',
    reference: 'FN_NOT_FOUND for any function not published, whatever the reason.',
  }),
  catalogIcon: reading('READING-CATALOG-ICON', ['2.5', '4.4'], "How the catalog shows a widget's icon and description", {
    text: '2.5: "_meta.platform.iconRef | path to the icon shown on post cards and in the catalog"; "description | string, short summary shown in the catalog"; 4.4 shows no field of the catalog.',
    accepted:
      "The description as a string anywhere in the widget's catalog entry (found as READING-CATALOG-SHAPE says). The icon shown either by its path as the manifest writes it (a string equal to it, or a path or URL ending in it), or by a URL in the entry (absolute, a path on the deployment, or a data: URL) whose content is the icon file's bytes. An entry that shows neither fails; a catalog that names the widget nowhere leaves the check not-run.",
    reference: "The entry's description and iconRef members: the manifest's description and the icon's folder path as written.",
  }),
  functionSourceKb: reading(
    'READING-FUNCTION-SOURCE-KB',
    ['8', '7.1', '4.5'],
    'How many bytes "64 KB" of function source is, and what an oversized tool source refuses',
    {
      text: '8: "Function source size | 64 KB | host.fn publish"; 7.1: "host.fn calls can also surface CODE_TOO_LARGE (function source over 64 KB at publish) and then FN_NOT_FOUND at call time". KB is not defined: 64,000 bytes (SI) or 65,536 (binary). For a widget\'s tool source 4.5 step 3 says "Materialise a function source record for each tool", without saying whether an oversized one refuses the publish.',
      standard: 'IEC 80000-13: kB is 1000 bytes and KiB 1024; section 8 writes KiB and MiB elsewhere ("64 KiB", "4 MiB"), and KB only here.',
      accepted:
        'A source of 64,000 bytes is within the limit: a widget tool of that size publishes and runs, and host.fn publishes it. A source of 65,537 bytes is over it: a widget holding such a tool is refused at publish (any 4xx but 401), or publishes with that tool answering FN_NOT_FOUND when called while its other tools run; host.fn refuses it with CODE_TOO_LARGE and a later call answers FN_NOT_FOUND. Between 64,001 and 65,536 bytes, either.',
      reference:
        "65,536 bytes (64 KiB); a widget with an oversized tool publishes, and that tool answers FN_NOT_FOUND (its refusal, CODE_TOO_LARGE, is reported in the publish answer's functions step).",
    },
  ),
  mcpAppPlatformMeta: reading('READING-MCP-APP-PLATFORM-META', ['9', '4.4', '2.5'], "Where a widget's MCP App carries _meta.platform.v", {
    text: '2.5: the manifest is "Shaped as an MCP Apps manifest (SEP-1865) with a platform extension under _meta"; 9: "_meta.platform.v is the schema version, current value 1"; 4.4: "Every published widget is exposed here as an MCP App". Which object of the App carries the extension is not said.',
    accepted:
      'An App that carries no _meta.platform at all (9 makes v a field of widget.json, not of the App): the check is then not-run. Where the ui:// resource carries _meta.platform.v, as resources/list lists it or as resources/read returns it, it is the integer 1.',
    reference: "The published manifest's _meta.platform (v, iconRef, themeRef, remixOf) on the resource in both answers.",
  }),
  widgetPublishObserved: reading('READING-WIDGET-PUBLISH-OBSERVED', ['4.5', '4.4', '2.5'], 'How the records of publish steps 2 to 4 are observed', {
    text: '4.4: the publish "Request and response body: not shown"; "Fields of catalog row and post row beyond those named in the publish pipeline: not shown"; 4.5 names the agent slug, the function source records and the stamped configuration (functions, custom HTTP endpoints, custom tools) without saying where any is shown; 2.5: "Billable tools write payment charges through the platform\'s payment-token settlement", free tools "only attribution rows"; 4.1: "an agent named <name> is reached as /agents/<name>/<declared_path>".',
    accepted:
      "The agent's slug from the publish answer's agentSlug member, else from the catalog entry's, and the stamped HTTP endpoints (path and method) from the publish answer's reported configuration: a deployment that names them nowhere gets those checks not-run, saying so. A function per tool is judged on the wire: each tool answers tools/call on the widget's MCP endpoint. An exposed tool is judged on the wire: it answers at /agents/<slug>/<path>. The agent's custom tools and the charge or attribution row a tool call writes are shown by no public surface: they are checked only against the embedded reference, through its own records (not-run on a live deployment). The entry's manifest link and the assets a manifest names (iconRef, themeRef) change nothing a deployment is said to do: check-widget judges them in a bundle, no run judges them on a deployment.",
    reference:
      'The publish answer carries postId, catalogId, agentSlug, mcp and the steps of 4.5 as they ran (the configure step holds the stamped configuration); the catalog entry carries agentSlug; an exposed tool answers POST /agents/<slug>/tools/<name> with its JSON value; a tool call that answered writes a charge (billable) or an attribution row (free) to an in-memory ledger, debiting no balance.',
  }),
  singleFileManifest: reading('READING-SINGLE-FILE-MANIFEST', ['2.5', '4.5'], 'What a single HTML file publishes as', {
    text: '2.5: "A single HTML file is auto-wrapped into a one-child folder on publish." Which manifest the wrapped folder gets, and how a single file is handed to the publish route (4.4 names only folders), is not said.',
    accepted:
      'A folder holding one HTML file and nothing else publishes (2xx with a post id) and its MCP App serves that file as its entry; any manifest the platform writes for it.',
    reference:
      "The file becomes the folder's index.html; the platform writes a manifest naming the page's title (else the file's name), version 1.0.0, _meta.platform.v 1 and no tools.",
  }),
  manifestParses: reading('READING-MANIFEST-PARSES', ['4.5', '2.5'], 'What "widget.json parses" refuses', {
    text: '4.5 step 1: "Validate that the caller owns the folder and that widget.json parses"; 2.5 gives the manifest\'s fields and their types.',
    accepted:
      'A refusal (any 4xx but 401) and no new catalog entry for a folder of several files without widget.json, for a widget.json that is not JSON, and for one whose fields contradict the types and values 2.5 gives: tools not a list, _meta.ui.mimeType other than text/html, _meta.platform.v not an integer ("1", 1.5), a visibility outside app, model and user, an expose outside http and tool, a billing object without a string currency and an integer amountNanocents. A v that is an integer other than 1 (0, 2) is a schema version 9 does not define ("current value 1"): refusing it is checked at SHOULD level, a warning. A manifest the suite sends is otherwise conformant, so a deployment that checks more than the types passes too.',
    reference: 'Refuses with 422 and the widget problem code (manifest_missing, manifest_not_json, manifest_invalid), each problem at its JSON pointer.',
  }),
  bundleProblemsAtPublish: reading('READING-BUNDLE-PROBLEMS-AT-PUBLISH', ['2.5', '4.5', '7.1'], 'A bundle missing its entry or a tool source', {
    text: '2.5: the folder layout is "an HTML entry (default index.html) ... optional tools/<name>.js (one file per declared tool)"; 4.5 step 3: "Materialise a function source record for each tool"; 7.1: "FN_NOT_FOUND at call time". Whether a publish refuses such a bundle is not said.',
    accepted:
      'Either a refusal (any 4xx but 401), or a published widget that serves no entry content for the missing entry (resources/read fails) and answers FN_NOT_FOUND for the tool without a source. Serving another page as the entry, or running a tool from nothing, fails.',
    reference:
      'A missing tool source refuses the publish (422 tool_source_missing); a missing entry publishes, and resources/read answers the MCP resource-not-found error.',
  }),
  bridgeWire: reading('READING-BRIDGE-WIRE', ['4.6', '7.1', '2.5'], 'How the widget SDK and its host talk, and where the three call surfaces live', {
    text: '4.6: "Three equivalent call surfaces exist in the widget iframe and all resolve to one transport: bridge.callTool(name, args); a ChatGPT-style shim global exposing callTool(name, args); and an App class with connect()"; 2.5: "Shaped as an MCP Apps manifest (SEP-1865)"; 7.1: "Every host bridge error carries a .code; the SDK rejects the promise with an Error whose .code mirrors it. Status codes of bridge errors: not shown." The wire, the name of the shim global and the other operations\' signatures are not shown.',
    standard:
      "MCP Apps (SEP-1865, @modelcontextprotocol/ext-apps): the view talks JSON-RPC 2.0 to its host over postMessage (ui/initialize, tools/call, ui/open-link); JSON-RPC's method not found (-32601) is a request no handler answers.",
    accepted:
      "The surfaces as window.bridge.callTool, window.App, and as the shim any global other than bridge whose value exposes a callTool function (else a global function callTool), whatever its name: each such global must reach the one transport, and reject a call of a tool that does not exist with the .code bridge.callTool rejects it with. The SDK checks (run by any deployment's /widgets/sdk.v2.js in a host the run plays with ext-apps' AppBridge) observe the SDK only when it speaks MCP Apps' JSON-RPC: an SDK that never makes MCP Apps' handshake (ui/initialize) uses another wire, and those checks are not-run, saying so; one that makes it reads a bridge error as a JSON-RPC error whose data.code is the 7.1 code (data.retryAfter the Retry-After in seconds). Attempts are judged by 7.1's handling column: 1 for a code to surface, exactly 2 for timeout, 1 or 2 for internal, at least 2 with Retry-After between them for rate_limited, 4 to 6 with growing waits for service_unavailable (\"about 5\"). The host checks that call host.* operations, rely on a query member of the host page (user, bridge, content, detached), a reserved KV scope name or a threshold of 8 (a 1 MiB value over the KV cap, 2000 calls over the rate window, 64 attaches over the live cap), or on a host page that speaks MCP Apps to a widget's own ext-apps App, run on the reference's own host page only (in-process, or live when --widget-host-url names serve's /_reference/widgets/{postId}/host) and are not-run on any other page, naming what they assume. The checks of bridge.callTool, bridge.openLink, the CSP, the permissions and the folder's assets run on any host page run --widget-host-url names.",
    reference:
      "The SDK is a browser bundle of ext-apps' App with the pure retry policy (src/widgets/bridge/); host.* operations are custom JSON-RPC methods of their own name; a v1 app's method unknown to the host (method not found) is unknown_op. The host page is ext-apps' AppBridge; what 8 leaves open it decides as docs/widget-host.md says (no risk tier granted, no collaboration server, caps by option).",
  }),
  openLinkGate: reading('READING-OPEN-LINK-GATE', ['2.5', '4.6', '7.1'], 'What bridge.openLink does with a domain redirectDomains does not list', {
    text: '2.5: "_meta.ui.csp.redirectDomains | list of bare domains; gated allowlist for bridge.openLink"; 7.1: "permission | Authorization denied". What the gate does, and which code a refused link carries, are not shown.',
    standard:
      'MCP Apps: ui/open-link asks the host to open a URL; the host may refuse (a JSON-RPC error) or ask the user first. HTML: window.open opens a new browsing context.',
    accepted:
      'A link on a listed domain is opened: the call resolves and the browser loads the URL (a new page or the same one). A link on an unlisted domain is not loaded while the check watches; the call may reject, stay pending (a confirmation the headless run never gives) or resolve after the gate, and a rejection\'s .code must be permission (7.1: "Authorization denied") or invalid_args (7.1: "per-operation argument validation failed", where the host judges the URL against the allowlist).',
    reference:
      'The host page opens a listed https URL with window.open; anything else needs a confirmation it has no UI for, and it refuses with permission (docs/widget-host.md).',
  }),
  folderAssets: reading('READING-FOLDER-ASSETS', ['2.5', '4.5'], "How a rendered widget reaches its folder's static assets", {
    text: '2.5: "Folder layout: an HTML entry (default index.html) that links the manifest ..., widget.json, optional tools/<name>.js (one file per declared tool) and static assets"; the default policy has "script-src self plus unsafe-inline"; _meta.platform.iconRef and themeRef are paths in the folder. Where a host serves the files is not shown.',
    accepted:
      'Wherever the host serves them (beside the entry, or inlined into it): a script the entry loads by a relative src runs and a stylesheet it links by a relative href applies. Whether the host serves the tool sources is not judged.',
    reference:
      "The render route serves the folder as published at /_reference/widgets/{postId}/render/<folder path>, the entry at its own path (so its relative URLs resolve beside it), each file typed by its extension under the entry's CSP; tools/ and the declared tool sources, server-side functions, answer 404.",
  }),
  widgetPermissions: reading('READING-WIDGET-PERMISSIONS', ['2.5'], 'What _meta.ui.permissions does', {
    text: '2.5: "_meta.ui.permissions | list of string (a browser permission name such as clipboard-write)"; it does not say how a host grants them.',
    standard: "MCP Apps: the host maps the view's permissions to the sandbox iframe's allow attribute (Permissions Policy).",
    accepted: "Each listed permission is allowed in the widget's iframe (its allow attribute and document.featurePolicy); one not listed is not.",
    reference: 'The host page writes the valid names into the iframe\'s allow attribute, joined with "; ".',
  }),
};
