import { chmod, mkdtemp, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileKeyStore, KEY_FILE_MODE, KEY_FILES, KEYS_DIR_MODE, loadOrCreateAgentKeys } from '../../src/reference/agent/keys.js';

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe('the agent keys directory (2.1 keys_dir, 5.5)', () => {
  it('writes the Ed25519 identity and the RSA key with mode 0600 in a 0700 directory, and reads them back', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'apc-keys-')), 'keys');
    const store = createFileKeyStore(dir);
    const keys = await loadOrCreateAgentKeys(store);
    expect((await readdir(dir)).sort()).toEqual([KEY_FILES.ed25519, KEY_FILES.rsa].sort());
    expect(await modeOf(dir)).toBe(KEYS_DIR_MODE);
    for (const file of Object.values(KEY_FILES)) expect(await modeOf(join(dir, file))).toBe(KEY_FILE_MODE);
    expect([keys.ed25519.kty, keys.ed25519.crv, keys.rsa.kty]).toEqual(['OKP', 'Ed25519', 'RSA']);
    expect(typeof keys.ed25519.d).toBe('string');
    expect(await loadOrCreateAgentKeys(createFileKeyStore(dir))).toEqual(keys);
  });

  it('refuses a key file others can read, naming the file and the fix', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'apc-keys-'));
    await loadOrCreateAgentKeys(createFileKeyStore(dir));
    await chmod(join(dir, KEY_FILES.rsa), 0o644);
    await expect(createFileKeyStore(dir).load()).rejects.toThrow(/rsa\.jwk\.json has mode 644.*chmod 600/);
  });
});
