/**
 * How the client build is cut into files. Every response costs a phone about a kilobyte of headers
 * and a request slot on a slow link, so a parent's first visit should fetch few files: the
 * libraries the entry runs (React, the router, the query cache), the app's own code the entry runs
 * (layout, home, how-it-works), and for a lazy screen one file with everything only it adds (and
 * one for what it opens later, such as the gallery's dialogs). Without these
 * groups the bundler splits every module shared with some other screen into its own small chunk
 * (twenty-odd requests for home and a gallery).
 */
interface ModuleGraph {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

/** Modules reachable from `from` through static imports, `from` included. */
export function staticClosure(from: string, graph: ModuleGraph): Set<string> {
  const seen = new Set<string>();
  const stack = [from];
  for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
    if (seen.has(id)) continue;
    const info = graph.getModuleInfo(id);
    if (!info) continue;
    seen.add(id);
    stack.push(...info.importedIds);
  }
  return seen;
}

/** A chunk of lazily loaded code: these modules and everything they import statically. */
export interface LazyChunk {
  name: string;
  /** Absolute paths of the modules the app imports lazily. */
  modules: readonly string[];
}

/**
 * Rolldown `codeSplitting.groups`: first everything the entry loads statically (the `$initial`
 * tag: the libraries in one chunk, the app's own code in another), then each lazy chunk with what
 * its modules import statically beyond that, under the chunk's name (the precache lists chunks by
 * these names). A module two lazy chunks share lands in the first: list first what a parent
 * needs first.
 */
export function appChunkGroups(chunks: readonly LazyChunk[]) {
  const closures = new WeakMap<object, Map<string, Set<string>>>();
  const closureOf = (module: string, graph: ModuleGraph & object) => {
    let perPass = closures.get(graph);
    if (!perPass) closures.set(graph, (perPass = new Map()));
    let closure = perPass.get(module);
    if (!closure) perPass.set(module, (closure = staticClosure(module, graph)));
    return closure;
  };
  return [
    // The libraries the entry runs change only when a dependency does: apart from the app's own
    // code, so a new release of the app costs a returning parent its own few kilobytes only.
    { name: 'vendor', tags: ['$initial' as const], test: /node_modules|^\0?rolldown[\\/]runtime/, priority: 3 },
    { name: 'index', tags: ['$initial' as const], priority: 2 },
    // One group each, the first the most urgent: a group takes what its modules import along with
    // them, so a module two lazy chunks share goes with the first, not with a later one.
    ...chunks.map((chunk, index) => ({
      name: (id: string, graph: ModuleGraph & object) => (chunk.modules.some((module) => closureOf(module, graph).has(id)) ? chunk.name : null),
      debugName: chunk.name,
      priority: 1 - index / chunks.length,
    })),
  ];
}
