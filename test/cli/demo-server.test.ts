import { describe, expect, it } from 'vitest';

import { startDemoServer } from '../../src/cli/demo-server.ts';

describe("the demo's simulated Weblate", () => {
  it('is served by a process of its own, answers like the simulator, and stops on close', async () => {
    const server = await startDemoServer({
      seed: 3,
      projects: 2,
      components: 3,
      units: 500,
      users: 2,
    });
    let closed = false;
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      // The simulated users (and Weblate's anonymous one), as the demo gives them to WEBLATE_USERS.
      expect(server.users).toEqual(['anonymous', 'alice', 'bob']);
      const answer = await fetch(`${server.url}api/projects/`);
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { count: number }).count).toBe(2);
      await server.close();
      closed = true;
      await expect(fetch(`${server.url}api/projects/`)).rejects.toThrow();
    } finally {
      if (!closed) await server.close();
    }
  });
});
