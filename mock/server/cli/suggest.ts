/**
 * "Did you mean …?" for a mistyped option or command: the known words within a small edit
 * distance of the typed one, as git, commander and yargs suggest them.
 * @module
 */

/**
 * The optimal-string-alignment distance (Damerau–Levenshtein without repeated edits of a
 * substring): how many insertions, deletions, substitutions and swaps of two neighbours turn `a`
 * into `b`. `--prot` is 1 from `--port`.
 * @param a - one word
 * @param b - the other
 * @returns the number of edits
 */
export function editDistance(a: string, b: string): number {
  // rows[i][j]: the distance between the first i characters of a and the first j of b.
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The most edits a suggestion may be away from what was typed. */
const MAX_EDITS = 3;

/** How much of the longer word must survive the edits (commander's 0.4). */
const MIN_SIMILARITY = 0.4;

/** A word as compared: without its leading dashes, in lower case (`--Port` is `--port`). */
const bare = (word: string) => word.replace(/^-+/, "").toLowerCase();

/**
 * The known words closest to a typed one: those at the smallest edit distance, if it is at most 3
 * and leaves more than 40% of the longer word alike. Leading dashes and letter case are not
 * compared, and a one-letter word (`-p`) is never offered.
 * @param typed - what was typed, e.g. `--prot` or `verfy`
 * @param known - the words it may have meant, e.g. `--port`, `--quiet`
 * @returns the suggestions, sorted; empty when none is close
 */
export function closest(typed: string, known: readonly string[]): string[] {
  let best = MAX_EDITS + 1;
  let found: string[] = [];
  for (const word of new Set(known)) {
    const [a, b] = [bare(typed), bare(word)];
    if (b.length <= 1) continue;
    const distance = editDistance(a, b);
    const length = Math.max(a.length, b.length);
    if ((length - distance) / length <= MIN_SIMILARITY || distance > best) continue;
    if (distance < best) (best = distance), (found = []);
    found.push(word);
  }
  return found.sort();
}

/**
 * The sentence that offers the suggestions: ` Did you mean --port?`, ` Did you mean --data or --state?`.
 * @param typed - what was typed
 * @param known - the words it may have meant
 * @returns the sentence with a leading space, or "" when nothing is close
 */
export function didYouMean(typed: string, known: readonly string[]): string {
  const found = closest(typed, known);
  if (found.length === 0) return "";
  return ` Did you mean ${found.length === 1 ? found[0] : `${found.slice(0, -1).join(", ")} or ${found.at(-1)}`}?`;
}
