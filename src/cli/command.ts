import type { CliIo } from './io.js';

interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
  readonly short?: string;
  /** The value's placeholder in help, e.g. URL. */
  readonly value?: string;
  readonly help: string;
}

export interface CommandArgs {
  readonly values: Readonly<Record<string, string | boolean | Array<string | boolean> | undefined>>;
  readonly positionals: readonly string[];
}

/** One subcommand: how it is called, documented and run. Help text is generated from these members. */
export interface Command {
  readonly name: string;
  /** One line for the program's command list. */
  readonly summary: string;
  /** What follows the command name in the usage line. */
  readonly usage: string;
  readonly description: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  readonly positionals: { readonly names: readonly string[]; readonly min: number; readonly max: number };
  readonly examples: readonly string[];
  /** False for commands listed for the contract but not built yet. */
  readonly available: boolean;
  run(args: CommandArgs, io: CliIo): Promise<number>;
}
