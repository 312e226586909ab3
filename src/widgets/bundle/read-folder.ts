import { lstat, readdir, readFile, stat as statOf } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { WIDGET_MANIFEST } from '../../spec/widgets.js';

/** The folder (or file) cannot be read as a bundle; the message names the path and what is wrong. */
export class BundleReadError extends Error {
  override readonly name = 'BundleReadError';
}

/**
 * The most a bundle read from disk may hold, all files together, and how many files: far above any widget, and a
 * folder holding a disk image or a runaway log is refused by name instead of read until memory runs out.
 */
const BUNDLE_READ_LIMITS = Object.freeze({ bytes: 64 * 1024 * 1024, files: 10_000 });

/**
 * A widget folder as a map of folder-relative '/' paths to bytes. A single .html file is read as a one-child
 * folder holding it under its own name (checkBundle and the publish wrap it, 2.5). The path given may be a symbolic link to the
 * folder or file; inside the folder, symbolic links and special files are left out: a bundle is what the folder
 * itself holds.
 */
export async function readBundleFolder(dir: string, limits = BUNDLE_READ_LIMITS): Promise<ReadonlyMap<string, Uint8Array>> {
  const stat = await statOf(dir).catch((error: unknown) => {
    throw new BundleReadError(`cannot read widget folder "${dir}": ${fsWords(error)}`);
  });
  if (stat.isFile()) {
    if (!/\.html?$/i.test(dir)) throw new BundleReadError(`"${dir}" is a file; give a widget folder or a single .html file`);
    if (stat.size > limits.bytes) throw new BundleReadError(tooLarge(dir, limits));
    return new Map([[basename(dir), await readFile(dir)]]);
  }
  if (!stat.isDirectory()) throw new BundleReadError(`"${dir}" is neither a folder nor a file`);
  const files = new Map<string, Uint8Array>();
  await walk(dir, '', files, { bytes: 0, limits });
  return files;
}

function tooLarge(path: string, limits: typeof BUNDLE_READ_LIMITS): string {
  return `"${path}" takes the widget past ${limits.bytes / 1024 / 1024} MiB; a widget bundle is read whole, and none is that large`;
}

/** A single HTML file as a one-child folder: the file is its entry, index.html. */
export function wrapSingleHtmlFile(html: Uint8Array): ReadonlyMap<string, Uint8Array> {
  return new Map([[WIDGET_MANIFEST.defaultEntry, html]]);
}

interface Budget {
  bytes: number;
  readonly limits: typeof BUNDLE_READ_LIMITS;
}

async function walk(root: string, prefix: string, files: Map<string, Uint8Array>, budget: Budget): Promise<void> {
  const entries = await readdir(join(root, prefix), { withFileTypes: true }).catch((error: unknown) => {
    throw new BundleReadError(`cannot read folder "${join(root, prefix)}": ${fsWords(error)}`);
  });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) await walk(root, path, files, budget);
    else if (entry.isFile()) {
      const full = join(root, path);
      budget.bytes += (await lstat(full)).size;
      if (budget.bytes > budget.limits.bytes) throw new BundleReadError(tooLarge(full, budget.limits));
      if (files.size >= budget.limits.files)
        throw new BundleReadError(`"${root}" holds more than ${budget.limits.files} files; a widget bundle is read whole, and none has that many`);
      files.set(path, await readFile(full));
    }
  }
}

function fsWords(error: unknown): string {
  const code = (error as { code?: string }).code;
  const words: Record<string, string> = {
    ENOENT: 'no such folder or file',
    EACCES: 'permission denied',
    EPERM: 'permission denied',
    ENOTDIR: 'a parent is not a folder',
  };
  return (code && words[code]) ?? (error instanceof Error ? error.message : String(error));
}
