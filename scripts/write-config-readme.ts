// Writes the configuration table of README.md from src/config-table.ts (npm run docs:config).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { format, resolveConfig } from 'prettier';

import { withConfigTable } from './config-readme.ts';

const readmePath = fileURLToPath(new URL('../README.md', import.meta.url));
const generated = withConfigTable(readFileSync(readmePath, 'utf8'));
// The table is already aligned as prettier would; formatting again keeps `prettier --check` quiet whatever changed.
const options = await resolveConfig(readmePath);
writeFileSync(readmePath, await format(generated, { ...options, filepath: readmePath }));
