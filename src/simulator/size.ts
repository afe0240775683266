/** How big a generated instance is; see generate.ts for how each number maps to data. */
export interface SimulatorSize {
  projects: number;
  components: number;
  languages: number;
  units: number;
  changes: number;
  users: number;
}

export const DEFAULT_SIZE: SimulatorSize = Object.freeze({
  projects: 3,
  components: 10,
  languages: 10,
  units: 20_000,
  changes: 10_000,
  users: 3,
});
