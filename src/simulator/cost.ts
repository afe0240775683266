/**
 * What serving a request costs a Weblate server, as rows and as time
 * (docs/internals.md#server-costs).
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

/** Weblate 5.14.3 on two cores, as the real-Weblate tier measured it (docs/internals.md#server-costs). */
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
