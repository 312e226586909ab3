/**
 * A store named on the command line that cannot be used: not installed, not reachable, or refusing us. `unreachable`
 * says nothing answered (connection refused, timed out, closed): serve exits 3 then, as for a target that does not
 * answer, and 2 for the rest, whose fix is in the command (a package to install, a URL, a password).
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  readonly unreachable: boolean;

  constructor(message: string, options: { readonly cause?: unknown; readonly unreachable?: boolean } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.unreachable = options.unreachable ?? false;
  }
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
