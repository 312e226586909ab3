import type { WidgetManifest } from '../manifest/types.js';
import { injectSdkScript } from './inject-sdk.js';

/**
 * The folder resolver's answer for a bundle's HTML entry: the entry named by the manifest, with the
 * widget SDK injected. Undefined when the folder lacks the entry.
 */
export function resolveEntryHtml(files: ReadonlyMap<string, Uint8Array>, manifest: WidgetManifest): string | undefined {
  const bytes = files.get(manifest._meta.ui.resourceUri);
  return bytes === undefined ? undefined : injectSdkScript(new TextDecoder().decode(bytes));
}
