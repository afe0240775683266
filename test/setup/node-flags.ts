/**
 * Node flags of the processes the suite starts: its vitest workers and the CLI it runs as a
 * child. `--liftoff-only` keeps V8 from optimising PostgreSQL's WebAssembly, which a test's
 * short runs pay for and never earn back (docs/testing.md); what the code does is unchanged.
 * The mirror's own processes keep V8's default, which long syncs gain from.
 */
export const TEST_NODE_FLAGS: readonly string[] = ['--liftoff-only'];
