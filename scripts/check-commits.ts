// Commit subjects of 72 characters or fewer (CONTRIBUTING.md), from the first commit that
// followed the rule; older history is left as it is.
import { execFileSync } from 'node:child_process';

const SINCE = 'fb66963b55a8a0f3d22f8deb0966305165fe9600';
const MAX = 72;

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' });
const fail = (lines: string[]) => {
  process.stderr.write(lines.map((line) => `${line}\n`).join(''));
  process.exit(1);
};

try {
  git('cat-file', '-e', `${SINCE}^{commit}`);
} catch {
  fail([`check-commits: commit ${SINCE} is not in this clone (shallow?); clone with history`]);
}
const subjects = git('log', '--format=%h %s', `${SINCE}..HEAD`).split('\n').filter(Boolean);
const long = subjects.filter((line) => [...line.slice(line.indexOf(' ') + 1)].length > MAX);
if (long.length > 0) {
  fail([
    `check-commits: subjects past ${MAX} characters; reword them, the why goes in the body:`,
    ...long.map((line) => `  ${line}`),
  ]);
}
process.stdout.write(`check-commits: ${subjects.length} subjects of ${MAX} characters or fewer\n`);
