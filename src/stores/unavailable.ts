/** A store named on the command line that cannot be used: not installed, not reachable, or refusing us. Serve exits 2 with the message. */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
}

/** The URL with any password hidden, for messages. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return url;
  }
}

/** Loads an optional peer dependency (package.json peerDependenciesMeta), naming the install a missing one needs. */
export async function optionalPackage<T>(name: string, load: () => Promise<T>, forWhat: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND')
      throw new StoreUnavailableError(`${forWhat} needs the ${name} package: npm install ${name}`);
    throw error;
  }
}
