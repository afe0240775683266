import { readFileSync } from 'node:fs';

/**
 * This process's own peak resident set size, in MiB. On Linux it is VmHWM of
 * /proc/self/status, the high-water mark of this program's memory. `ru_maxrss`
 * (process.resourceUsage().maxRSS) would also count the memory of the process that started
 * this one as it was when it forked: a sync spawned by a process holding 2 GB reported
 * 1,911 MB there, against 202 MB of its own.
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
