/**
 * The candidate `word` most likely stands for: a near miss by edit distance (a typo), or else the one
 * candidate it abbreviates part by part ("sig_expired" for "signature_expired"), or else the one it
 * extends or shortens ("outdir" for "out"). Undefined when none fits.
 */
export function closestWord(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(lower, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  if (bestDistance <= Math.max(2, Math.floor(word.length / 3))) return best;
  for (const fits of [abbreviates, extends_]) {
    const found = candidates.filter((c) => fits(lower, c.toLowerCase()));
    if (found.length === 1) return found[0];
  }
  return undefined;
}

/** One begins with the other ("outdir" for "out"), both at least 3 characters. */
function extends_(word: string, candidate: string): boolean {
  return Math.min(word.length, candidate.length) >= 3 && (word.startsWith(candidate) || candidate.startsWith(word));
}

/** Each part of `word` (split at _ - .) begins the corresponding part of `candidate`. */
function abbreviates(word: string, candidate: string): boolean {
  const parts = word.split(/[_.-]/);
  const full = candidate.split(/[_.-]/);
  return parts.length === full.length && parts.every((p, i) => p.length > 0 && full[i]!.startsWith(p));
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length]!;
}
