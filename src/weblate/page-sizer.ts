export interface PageSizerOptions {
  /** The size of the first page. */
  start: number;
  /** The largest size the walk may ask for. */
  max: number;
  /** The client's timeout for an answer. */
  timeoutMs: number;
  /** Bytes of response text a page should stay under. */
  textBudget: number;
  /** The smallest size it shrinks to. */
  min: number;
}

/** What one answered page says about its size. */
export interface PageTiming {
  /** The size asked for in the request that was answered (after any retry at a smaller size). */
  answeredSize: number;
  /** The size the walk asked for first. */
  askedSize: number;
  /** Records it held. */
  records: number;
  /** Time from the answered request's start to its whole body. */
  elapsedMs: number;
  textLength: number;
}

/** How much slower per record a page may be than the best so far and still let pages grow. */
const GROWTH_SLOWDOWN = 1.5;

/**
 * The page size of one walk, adapted to how the server answers: it grows while pages stay
 * quick and small, and shrinks for good after a timeout (docs/internals.md#page-sizes).
 */
export class PageSizer {
  #size: number;
  #ceiling: number;
  #bestPerRecord = Infinity;
  readonly #options: PageSizerOptions;

  constructor(options: PageSizerOptions) {
    this.#options = { ...options, min: Math.min(options.min, options.max) };
    this.#ceiling = options.max;
    this.#size = Math.min(options.max, options.start);
  }

  /** The size to ask for next. */
  get size(): number {
    return this.#size;
  }

  /** The best time per record a page has shown so far (0 before any). */
  get msPerRecord(): number {
    return Number.isFinite(this.#bestPerRecord) ? this.#bestPerRecord : 0;
  }

  observe(page: PageTiming): void {
    const { min, textBudget, timeoutMs } = this.#options;
    if (page.answeredSize < page.askedSize) {
      // It was asked again smaller after a timeout or a gateway error: never larger again.
      this.#ceiling = Math.max(min, page.answeredSize);
      this.#size = Math.min(this.#size, this.#ceiling);
    }
    if (page.textLength > textBudget) {
      const fitting = Math.floor((page.answeredSize * textBudget) / page.textLength);
      this.#size = Math.max(min, Math.min(this.#size, fitting));
      return;
    }
    if (page.records < page.answeredSize / 2 || page.records === 0) return;
    const perRecord = page.elapsedMs / page.records;
    const isFlat = perRecord <= GROWTH_SLOWDOWN * this.#bestPerRecord;
    this.#bestPerRecord = Math.min(this.#bestPerRecord, perRecord);
    if (page.answeredSize < this.#size) return;
    if (!isFlat || page.elapsedMs >= timeoutMs / 8) return;
    // Four times as large when it took under a 32nd of the timeout, so still under an eighth,
    // and no larger than the text budget holds.
    const factor = page.elapsedMs < timeoutMs / 32 ? 4 : 2;
    const fitsText = Math.floor(textBudget / (page.textLength / page.records));
    this.#size = Math.max(this.#size, Math.min(this.#ceiling, this.#size * factor, fitsText));
  }
}
