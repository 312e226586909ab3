/**
 * Where the spec leaves a point open (silent, "not shown", a tolerance such as "about 10 minutes", or words that
 * allow more than one reading), how the suite reads it. Each point is written here once: the spec's words, what
 * the suite accepts from a deployment, and what our reference does and why. A check that rests on a reading names
 * it; docs/readings.md is generated from this list (`npm run vectors`). The suite fails a deployment only where
 * the text leaves no choice; a deployment that chose differently from our reference passes, at most with a note.
 */
export interface ReadingRecord {
  readonly id: string;
  readonly sections: readonly string[];
  /** The point, in a few words. */
  readonly point: string;
  /** The spec's own words (quoted), or what it does not say. */
  readonly text: string;
  /** A standard the spec builds on that decides the point, judged exactly as it says. */
  readonly standard?: string;
  /** What the suite accepts from a deployment. */
  readonly accepted: string;
  /** What our reference does, and why. */
  readonly reference: string;
}

export const reading = (id: string, sections: readonly string[], point: string, fields: Omit<ReadingRecord, 'id' | 'sections' | 'point'>): ReadingRecord =>
  Object.freeze({ id, sections: Object.freeze([...sections]), point, ...fields });
