/**
 * Creates `limit` slots with a first-come-first-served line in front: what keeps the dispatcher's
 * attempts, scheduled and redeliveries alike, within one concurrency limit.
 * @param limit - how many items may hold a slot at once (`Infinity`: no limit)
 * @param admit - asked for each item as its turn comes: `false` lets it go without a slot (it was dropped meanwhile)
 * @param start - called with the items that just took a slot, in the order they waited, as one batch
 */
export function createSlotLine<T>(limit: number, admit: (item: T) => boolean, start: (batch: T[]) => void) {
  let waiting: T[] = [];
  let held = 0;

  function next(): void {
    const batch: T[] = [];
    let taken = 0;
    while (held + batch.length < limit && taken < waiting.length) {
      const item = waiting[taken++]!;
      if (admit(item)) batch.push(item);
    }
    if (taken === 0) return;
    waiting = taken === waiting.length ? [] : waiting.slice(taken);
    if (batch.length === 0) return;
    held += batch.length;
    start(batch);
  }

  return {
    /** Lines the items up behind those waiting and starts as many as there are free slots. */
    push(items: readonly T[]): void {
      for (const item of items) waiting.push(item);
      next();
    },
    /** Frees one slot (its holder has ended) and starts the next in line. */
    release(): void {
      held -= 1;
      next();
    },
    /** Takes every waiting item out of the line (they will not start). */
    clear(): T[] {
      const cleared = waiting;
      waiting = [];
      return cleared;
    },
    /** How many slots are held now. */
    held: () => held,
  };
}
