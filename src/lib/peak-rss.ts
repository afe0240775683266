import { readFileSync } from 'node:fs';

/**
 * This process's own peak resident set size, in MiB: VmHWM of /proc/self/status on Linux.
 * `ru_maxrss` would also count the forking parent's memory (docs/performance.md#memory).
 */
export function peakRssMb(): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match !== null) return Math.round(Number(match[1]) / 1024);
  } catch {
    // not Linux
  }
  return Math.round(process.resourceUsage().maxRSS / 1024);
}
