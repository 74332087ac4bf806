import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { MAIN_LAYERS } from '../../eslint.config.js';

// The house drawn from the code's own imports, type imports included (ESLint's no-cycle sees
// value imports only): TypeScript's own scanner lists each file's imports and its resolver
// finds the files they name.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = path.join(ROOT, 'src');
const MAIN = path.join(SRC, 'main');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const COMPILER_OPTIONS: ts.CompilerOptions = { moduleResolution: ts.ModuleResolutionKind.Bundler, allowJs: false };

/** Every file of src/ and the src/ files it imports (statically, dynamically, re-exports, `import type`). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .filter(({ fileName }) => fileName.startsWith('.'))
      .map(({ fileName }) => ts.resolveModuleName(fileName, file, COMPILER_OPTIONS, ts.sys).resolvedModule?.resolvedFileName)
      .filter((target): target is string => target !== undefined && target.startsWith(SRC) && !target.endsWith('.d.ts'));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components with more than one file (Tarjan): each one is an import circle. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(path.relative(ROOT, member));
    } while (member !== file);
    if (component.length > 1) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** The member of src/main a file belongs to: its top folder, or its own name for a top-level file. */
function memberOf(file: string): string {
  const [first, ...rest] = path.relative(MAIN, file).split(path.sep);
  return rest.length > 0 ? first! : first!.replace(/\.ts$/, '');
}

const layerOf = new Map<string, number>(
  MAIN_LAYERS.flatMap((layer, rank) => [...(layer.folders ?? []), ...(layer.files ?? [])].map((member) => [member, rank] as const)),
);

describe('the import graph of src/', () => {
  const graph = importGraph();

  it('has no import circle, type imports included', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(circles(graph)).toEqual([]);
  });

  it('places every folder and top-level file of src/main in a layer', () => {
    const members = readdirSync(MAIN)
      .filter((name) => statSync(path.join(MAIN, name)).isDirectory() || name.endsWith('.ts'))
      .map((name) => name.replace(/\.ts$/, ''));
    expect(members.filter((member) => !layerOf.has(member))).toEqual([]);
  });

  it('has no arrow running up or across between the layers of src/main', () => {
    const wrong: string[] = [];
    for (const [file, targets] of graph) {
      if (!file.startsWith(MAIN + path.sep)) continue;
      const from = memberOf(file);
      for (const target of targets) {
        if (!target.startsWith(MAIN + path.sep)) continue;
        const to = memberOf(target);
        if (from === to) continue;
        const [fromRank, toRank] = [layerOf.get(from)!, layerOf.get(to)!];
        const across = fromRank === toRank && !MAIN_LAYERS[fromRank]!.across;
        if (toRank > fromRank || across) wrong.push(`${path.relative(ROOT, file)} → ${path.relative(ROOT, target)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('finds a circle and an upward arrow when there is one', () => {
    const a = path.join(MAIN, 'api', 'a.ts');
    const b = path.join(MAIN, 'api', 'b.ts');
    expect(circles(new Map([[a, [b]], [b, [a]]]))).toEqual([[path.relative(ROOT, a), path.relative(ROOT, b)].sort()]);
    expect(layerOf.get(memberOf(path.join(MAIN, 'agent', 'create-agent.ts'))!)).toBeGreaterThan(layerOf.get('api')!);
  });
});
