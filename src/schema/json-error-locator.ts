/**
 * Finds where and why a JSON text (RFC 8259) first goes wrong. JSON.parse does not always give a
 * position (V8 omits it for some errors), so this small recognizer is used only after it fails.
 */
export function locateJsonError(text: string): { position: number; problem: string } {
  const scanner = new Scanner(text);
  try {
    scanner.value();
    scanner.space();
    if (scanner.at < text.length) scanner.fail('unexpected text after the JSON value');
  } catch (error) {
    if (error instanceof Located) return { position: error.position, problem: error.message };
    throw error;
  }
  return { position: text.length, problem: 'syntax error' };
}

class Located extends Error {
  constructor(
    readonly position: number,
    message: string,
  ) {
    super(message);
  }
}

class Scanner {
  at = 0;
  constructor(private readonly text: string) {}

  fail(problem: string): never {
    throw new Located(this.at, this.at >= this.text.length ? 'unexpected end of the text' : problem);
  }

  space(): void {
    while (this.at < this.text.length && ' \t\n\r'.includes(this.text[this.at]!)) this.at++;
  }

  value(): void {
    this.space();
    const c = this.text[this.at];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    for (const word of ['true', 'false', 'null']) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return;
      }
    }
    this.fail(`expected a value (object, array, string, number, true, false or null), found ${this.found()}`);
  }

  private object(): void {
    this.at++;
    this.space();
    if (this.text[this.at] === '}') {
      this.at++;
      return;
    }
    for (;;) {
      this.space();
      if (this.text[this.at] !== '"') this.fail(`expected a member name in double quotes, found ${this.found()}`);
      this.string();
      this.space();
      if (this.text[this.at] !== ':') this.fail(`expected ':' after the member name, found ${this.found()}`);
      this.at++;
      this.value();
      this.space();
      const c = this.text[this.at];
      if (c !== ',' && c !== '}') this.fail(`expected ',' or '}' after a member, found ${this.found()}`);
      this.at++;
      if (c === '}') return;
    }
  }

  private array(): void {
    this.at++;
    this.space();
    if (this.text[this.at] === ']') {
      this.at++;
      return;
    }
    for (;;) {
      this.value();
      this.space();
      const c = this.text[this.at];
      if (c !== ',' && c !== ']') this.fail(`expected ',' or ']' after an element, found ${this.found()}`);
      this.at++;
      if (c === ']') return;
    }
  }

  private string(): void {
    const start = this.at;
    this.at++;
    while (this.at < this.text.length) {
      const c = this.text[this.at]!;
      if (c === '"') {
        this.at++;
        return;
      }
      if (c === '\\') {
        const e = this.text[this.at + 1];
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(this.text.slice(this.at + 2, this.at + 6))) this.at += 6;
        else if (e !== undefined && '"\\/bfnrt'.includes(e)) this.at += 2;
        else this.fail('invalid escape in a string');
      } else if (c < ' ') {
        this.fail('control character (such as a line break) inside a string');
      } else {
        this.at++;
      }
    }
    throw new Located(start, 'string not closed');
  }

  private number(): void {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.at));
    if (!match) this.fail('invalid number');
    this.at += match[0].length;
  }

  private found(): string {
    const c = this.text[this.at];
    if (c === undefined) return 'the end of the text';
    return c === '\n' || c === '\r' ? 'a line break' : `'${c}'`;
  }
}
