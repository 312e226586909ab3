/** `date-time` of RFC 3339 (upper- or lower-case T and Z, optional fraction, Z or a numeric offset). */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

/**
 * An RFC 3339 date-time in clock seconds; NaN when the text is not one. Date.parse reads the shape the pattern admits
 * as ECMA-262's date-time format and returns NaN for any field out of its range there (month 01-12, day 01-31, minute
 * and second 00-59, offset hours 00-23 and minutes 00-59); RFC 3339 differs from it twice: it has no hour 24
 * (T24:00:00), and it allows a leap second (second 60, its section 5.7), which is read here as POSIX time counts it:
 * the second after second 59.
 */
export function rfc3339Seconds(text: string): number {
  const m = RFC3339.exec(text);
  if (m === null || Number(m[4]) > 23) return Number.NaN;
  if (m[6] !== '60') return Date.parse(text) / 1000;
  return Date.parse(`${text.slice(0, 17)}59${text.slice(19)}`) / 1000 + 1;
}
