/**
 * Runs tasks concurrently; the first failure aborts `controller` so the others stop early.
 * `settle` waits for every task (nothing keeps running or writing behind the caller's
 * back) and then throws the first failure.
 */
export class TaskGroup {
  readonly #controller: AbortController;
  readonly #tasks: Array<Promise<void>> = [];
  #firstError: unknown = undefined;
  #failed = false;

  constructor(controller: AbortController) {
    this.#controller = controller;
  }

  add(task: Promise<unknown>): void {
    this.#tasks.push(
      task.then(
        () => undefined,
        (err: unknown) => {
          if (!this.#failed) {
            this.#failed = true;
            this.#firstError = err;
            this.#controller.abort(err);
          }
        },
      ),
    );
  }

  async settle(): Promise<void> {
    await Promise.all(this.#tasks);
    if (this.#failed) throw this.#firstError;
  }
}

/** Runs `fn` over `items` concurrently (bounded by whatever `fn` awaits), failing fast. */
export async function forEachConcurrently<T>(
  items: readonly T[],
  controller: AbortController,
  fn: (item: T) => Promise<unknown>,
): Promise<void> {
  const group = new TaskGroup(controller);
  for (const item of items) group.add(fn(item));
  await group.settle();
}

/**
 * Runs `fn` over `items` with at most `limit` running at a time, started in order. After
 * the first failure no further item starts; the running ones finish, then it is thrown.
 */
export async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (failure === null && next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  const workers = Math.max(1, Math.min(limit, items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
}
