/**
 * What serving a request costs a Weblate server, as rows and as time.
 *
 * Weblate's lists are Django REST framework's page-number pagination: every page runs a
 * COUNT(*) over the whole filtered queryset (over a SELECT DISTINCT of every unit column when
 * a unit list has `q`), skips the earlier pages with OFFSET, and then serializes the page.
 * Each answer records that work (`ServerWork`); the request log sums it, and with a cost
 * model the simulator also takes that long to answer, so that a client's wall time can be
 * compared with the server's.
 */

/** The rows one answer made the server touch. */
export interface ServerWork {
  /** Rows its COUNT(*) counted: every row the list's filter matches. */
  counted: number;
  /** Rows its OFFSET skipped to reach the page. */
  skipped: number;
  /** Units serialized into the body. */
  units: number;
  /** Other objects serialized into the body (changes, projects, statistics, …). */
  records: number;
}

export const NO_WORK: ServerWork = { counted: 0, skipped: 0, units: 0, records: 0 };

/** Milliseconds of service time per piece of work. */
export interface CostModel {
  /** Fixed cost of every request: routing, authentication, the middleware, a few queries. */
  requestMs: number;
  /** Per unit serialized. */
  unitMs: number;
  /** Per other object serialized. */
  recordMs: number;
  /** Per row counted or skipped. */
  rowMs: number;
}

/**
 * Weblate 5.14.3 on two cores, as measured by the real-Weblate tier
 * (test/real-weblate/server/measurements.test.ts, quoted in docs/performance.md):
 * - a page of 1,000 units took 1.34–1.47 s and of 10,000 units 12.7–13.1 s: about 1.24 ms
 *   per unit (5.14.3 asks each unit's pending state with a query of its own) and about
 *   230 ms per page, which is the cost of a unit page's twenty queries, not of every request;
 * - a page of 1,000 changes took 624–644 ms: about 0.6 ms per change and 25 ms per request;
 * - page 5 of the changes (OFFSET 4,000) took 11 ms more than page 1: about 2.75 µs per
 *   row skipped, which also stands for a row counted.
 */
export const WEBLATE_5_14_COSTS: CostModel = {
  requestMs: 25,
  unitMs: 1.25,
  recordMs: 0.6,
  rowMs: 0.00275,
};

/** The model with every time multiplied by `scale` (a benchmark's shorter clock). */
export function scaledCosts(model: CostModel, scale: number): CostModel {
  if (!(scale > 0) || !Number.isFinite(scale))
    throw new Error(`a cost scale must be a positive number, not ${scale}`);
  return {
    requestMs: model.requestMs * scale,
    unitMs: model.unitMs * scale,
    recordMs: model.recordMs * scale,
    rowMs: model.rowMs * scale,
  };
}

/** Milliseconds the server spends on `work` under `model`. */
export function serviceMs(model: CostModel, work: ServerWork): number {
  return (
    model.requestMs +
    work.units * model.unitMs +
    work.records * model.recordMs +
    (work.counted + work.skipped) * model.rowMs
  );
}

/** Rows touched: counted, skipped and served. */
export function rowsTouched(work: ServerWork): number {
  return work.counted + work.skipped + work.units + work.records;
}

/** The sum of the work of several answers (a fresh object). */
export function addWork(total: ServerWork, work: ServerWork): ServerWork {
  return {
    counted: total.counted + work.counted,
    skipped: total.skipped + work.skipped,
    units: total.units + work.units,
    records: total.records + work.records,
  };
}
