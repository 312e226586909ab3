/**
 * The content type of a folder file, by its extension: what a browser needs to run a script, apply a stylesheet or
 * show an image (with nosniff, a script or a stylesheet of another type is refused). Anything else is bytes.
 */
const CONTENT_TYPES: Readonly<Record<string, string>> = Object.freeze({
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json',
  map: 'application/json',
  txt: 'text/plain; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  wasm: 'application/wasm',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  webm: 'video/webm',
});
const BYTES = 'application/octet-stream';

export function contentTypeOf(path: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  return (extension !== undefined && CONTENT_TYPES[extension]) || BYTES;
}

/** A segment no folder path holds: empty (// or a leading /), . or .., or one that decoded to a separator or a control character. */
const BAD_SEGMENT = /^\.{0,2}$|[/\\\u0000-\u001f]/;

/**
 * The folder path a URL path's tail names, or null when it names none: each segment is decoded on its own, so an
 * encoded slash (%2F) never joins two segments, and a path that climbs (..), is absolute or empty names no file.
 */
export function folderPath(tail: string): string | null {
  const segments: string[] = [];
  for (const raw of tail.split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (BAD_SEGMENT.test(segment)) return null;
    segments.push(segment);
  }
  return segments.join('/');
}

/** A folder path as a URL path's tail (each segment encoded), the inverse of folderPath. */
export const folderPathUrl = (path: string): string => path.split('/').map(encodeURIComponent).join('/');
