import { lstat, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WIDGET_MANIFEST } from '../../spec/widgets.js';

/** The folder (or file) cannot be read as a bundle; the message names the path and what is wrong. */
export class BundleReadError extends Error {
  override readonly name = 'BundleReadError';
}

/**
 * A widget folder as a map of folder-relative '/' paths to bytes. A single .html file is wrapped into a
 * one-child folder whose entry it becomes (2.5: index.html). Symbolic links and special files are left
 * out: a bundle is what the folder itself holds.
 */
export async function readBundleFolder(dir: string): Promise<ReadonlyMap<string, Uint8Array>> {
  const stat = await lstat(dir).catch((error: unknown) => {
    throw new BundleReadError(`cannot read widget folder "${dir}": ${fsWords(error)}`);
  });
  if (stat.isFile()) {
    if (!/\.html?$/i.test(dir)) throw new BundleReadError(`"${dir}" is a file; give a widget folder or a single .html file`);
    return wrapSingleHtmlFile(await readFile(dir));
  }
  if (!stat.isDirectory()) throw new BundleReadError(`"${dir}" is neither a folder nor a file`);
  const files = new Map<string, Uint8Array>();
  await walk(dir, '', files);
  return files;
}

/** A single HTML file as a one-child folder: the file is its entry, index.html. */
export function wrapSingleHtmlFile(html: Uint8Array): ReadonlyMap<string, Uint8Array> {
  return new Map([[WIDGET_MANIFEST.defaultEntry, html]]);
}

async function walk(root: string, prefix: string, files: Map<string, Uint8Array>): Promise<void> {
  const entries = await readdir(join(root, prefix), { withFileTypes: true }).catch((error: unknown) => {
    throw new BundleReadError(`cannot read folder "${join(root, prefix)}": ${fsWords(error)}`);
  });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) await walk(root, path, files);
    else if (entry.isFile()) files.set(path, await readFile(join(root, path)));
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
