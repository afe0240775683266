export interface ResourceRequestStats {
  requests: number;
  retries: number;
  bytes: number;
  /** Sum of response times, for averages. */
  elapsedMs: number;
  byStatus: Record<string, number>;
}

/** Counts requests per resource (the names the sync summary uses). */
export class RequestStats {
  readonly #byResource = new Map<string, ResourceRequestStats>();
  #total = 0;

  get total(): number {
    return this.#total;
  }

  recordResponse(resource: string, status: number, bytes: number, elapsedMs: number): void {
    const entry = this.#entry(resource);
    entry.requests++;
    entry.bytes += bytes;
    entry.elapsedMs += elapsedMs;
    entry.byStatus[status] = (entry.byStatus[status] ?? 0) + 1;
    this.#total++;
  }

  recordRetry(resource: string): void {
    this.#entry(resource).retries++;
  }

  get(resource: string): ResourceRequestStats {
    return this.#entry(resource);
  }

  #entry(resource: string): ResourceRequestStats {
    let entry = this.#byResource.get(resource);
    if (!entry) {
      entry = { requests: 0, retries: 0, bytes: 0, elapsedMs: 0, byStatus: {} };
      this.#byResource.set(resource, entry);
    }
    return entry;
  }
}
