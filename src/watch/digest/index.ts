// What the worker and the CLI use of digests: the period, the content, its forms.
export { buildDigest, DIGEST_LIMIT, type DigestOptions, type DigestScope } from './build.ts';
export type { Digest } from './model.ts';
export { type DigestPeriod, digestPeriod } from './period.ts';
export { DIGEST_FORMAT, isQuiet, renderDigest } from './render.ts';
export { digestScopeProblem, resolveDigestScope } from './scope.ts';
