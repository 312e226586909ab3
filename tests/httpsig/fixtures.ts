import { readFileSync } from 'node:fs';

/** Reads a JSON fixture next to the calling test (`dir` is that test's import.meta.url). */
export const loadFixture = <T>(dir: string, name: string): T => JSON.parse(readFileSync(new URL(`./fixtures/${name}`, dir), 'utf8')) as T;

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
export const fromBase64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64'));
