// Writes docs/metrics.md from the metric catalogue (npm run docs:metrics).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { format, resolveConfig } from 'prettier';

import { metricsDoc } from './metrics-doc.ts';

const path = fileURLToPath(new URL('../docs/metrics.md', import.meta.url));
const options = await resolveConfig(path);
writeFileSync(path, await format(metricsDoc(), { ...options, filepath: path }));
