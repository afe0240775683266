import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ROOT, sourceFiles } from './source-files.ts';

/** The relative modules a file imports or re-exports, type-only ones and dynamic ones included. */
function importsOf(file: string, known: Set<string>): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+'(\.[^']+)'/gms),
    ...text.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g),
  ].map((match) => resolve(dirname(file), match[1]!));
  return specifiers.filter((path) => known.has(path));
}

/** The import cycles among `files` (Tarjan's strongly connected components of more than one file). */
function importCycles(files: string[]): string[][] {
  const known = new Set(files);
  const graph = new Map(files.map((file) => [file, importsOf(file, known)]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file)!) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(relative(ROOT, member));
    } while (member !== file);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return cycles;
}

describe('module imports', () => {
  it('form no cycle, type-only imports included', () => {
    const files = ['src', 'jobs', 'migrations', 'test']
      .flatMap((folder) => sourceFiles(join(ROOT, folder)))
      .filter((file) => !file.includes('/test/fixtures/'));
    expect(importCycles(files)).toEqual([]);
  });

  it('run downward: configuration and webhooks import nothing that uses them', () => {
    const files = sourceFiles(join(ROOT, 'src'));
    const known = new Set(files);
    const arrows = (from: (file: string) => boolean, to: RegExp) =>
      files.filter(from).flatMap((file) =>
        importsOf(file, known)
          .map((target) => relative(ROOT, target))
          .filter((target) => to.test(target))
          .map((target) => `${relative(ROOT, file)} -> ${target}`),
      );
    // The worker starts the webhook receiver; the receiver knows jobs (src/job.ts), not the worker.
    expect(arrows((f) => f.includes('/src/webhooks/'), /^src\/worker\//)).toEqual([]);
    // Every part reads its settings; the settings read no part.
    expect(
      arrows(
        (f) => f.endsWith('/src/config.ts') || f.endsWith('/src/config-table.ts'),
        /^src\/(cli|report|simulator|sync|webhooks|weblate|worker)\//,
      ),
    ).toEqual([]);
  });

  it('are seen by the check: a cycle made of two test fixtures is found', () => {
    const folder = join(ROOT, 'test/fixtures/import-cycle');
    expect(importCycles(sourceFiles(folder))).toEqual([
      ['test/fixtures/import-cycle/a.ts', 'test/fixtures/import-cycle/b.ts'],
    ]);
  });
});
