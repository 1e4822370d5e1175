import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { Plugin, Rolldown } from 'vite';

type OutputBundle = Rolldown.OutputBundle;
type OutputAsset = Rolldown.OutputAsset;

export interface PrerenderRoute {
  /** The client route, e.g. `/how-it-works`. */
  path: string;
  /** The page it is written to in the build, e.g. `how-it-works.html`. */
  file: string;
  title: string;
}

export interface PrerenderOptions {
  /** The SSR build of `src/entry-server.tsx` (exports `render(url)`). */
  serverEntry: string;
  routes: PrerenderRoute[];
  /** The page for every other client route: the layout around a loading main, rendered over by the client. */
  shellFile: string;
  /**
   * Lazy screens whose code the shell asks for at once (modulepreload), beside the entry: a parent
   * arriving on a link to a school gallery should not wait for the entry to run before its screen's
   * code is even requested.
   */
  shellPreload?: string[];
}

const STYLESHEET = /<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g;

/**
 * Writes the prerendered pages into the client build while it is still a bundle, so the service
 * worker's precache (built from the output afterwards) lists them with their real revisions.
 * Each page is index.html with the route's markup in #root (marked with the path it belongs to,
 * so the client hydrates only there) and the entry stylesheet inlined: the first screen paints
 * with the HTML alone, before any script or stylesheet arrives. The shell gets the same inlined
 * styles and the layout around a loading main, which the client replaces.
 */
export function prerender(options: PrerenderOptions): Plugin {
  return {
    name: 'school-photos:prerender',
    apply: 'build',
    enforce: 'post',
    async generateBundle(_output, bundle) {
      const index = bundle['index.html'] as OutputAsset | undefined;
      if (!index || typeof index.source !== 'string' && !(index.source instanceof Uint8Array)) throw new Error('prerender: the build has no index.html');
      if (!fs.existsSync(options.serverEntry)) throw new Error(`prerender: ${options.serverEntry} is missing; run the SSR build first (npm run build)`);
      const template = inlineStyles(String(typeof index.source === 'string' ? index.source : Buffer.from(index.source).toString('utf8')), bundle);
      if (!template.includes('<div id="root"></div>')) throw new Error('prerender: index.html has no empty #root');

      const { render, renderShell } = (await import(pathToFileURL(options.serverEntry).href)) as {
        render(url: string): Promise<string>;
        renderShell(): Promise<string>;
      };
      // The shell's markup is painted, then replaced by the client's first render (no data-prerendered).
      const shell = template.replace('<div id="root"></div>', `<div id="root">${await renderShell()}</div>`);
      this.emitFile({ type: 'asset', fileName: options.shellFile, source: withPreloads(shell, bundle, options.shellPreload ?? []) });
      for (const route of options.routes) {
        const markup = await render(route.path);
        const page = template
          .replace(/<title>[^<]*<\/title>/, `<title>${route.title}</title>`)
          .replace('<div id="root"></div>', `<div id="root" data-prerendered="${route.path}">${markup}</div>`);
        if (route.file === 'index.html') index.source = page;
        else this.emitFile({ type: 'asset', fileName: route.file, source: page });
      }
    },
  };
}

/** modulepreload links for the given source modules' chunks and everything they import statically. */
function withPreloads(html: string, bundle: OutputBundle, modules: string[]): string {
  const chunks = Object.values(bundle).filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
  const files = new Set<string>();
  const visit = (fileName: string) => {
    if (files.has(fileName) || html.includes(`/${fileName}"`)) return;
    files.add(fileName);
    chunks.find((chunk) => chunk.fileName === fileName)?.imports.forEach(visit);
  };
  for (const module of modules) {
    // A screen is its chunk's facade, or one of its modules when the build groups it with others.
    const isModule = (id: string | null) => id?.replaceAll('\\', '/').endsWith(`/${module}`) ?? false;
    const chunk = chunks.find((item) => isModule(item.facadeModuleId)) ?? chunks.find((item) => item.moduleIds.some(isModule));
    if (!chunk) throw new Error(`prerender: no chunk for ${module}`);
    visit(chunk.fileName);
  }
  const links = [...files].map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('\n    ');
  return links ? html.replace('</head>', `    ${links}\n  </head>`) : html;
}

/** The entry's stylesheets become <style> elements: no render-blocking request before first paint. */
function inlineStyles(html: string, bundle: OutputBundle): string {
  return html.replace(STYLESHEET, (tag, fileName: string) => {
    const asset = bundle[fileName];
    if (!asset || asset.type !== 'asset') return tag;
    const css = typeof asset.source === 'string' ? asset.source : Buffer.from(asset.source).toString('utf8');
    // Every page carries it now; as a file it would only be downloaded again by the precache. No
    // chunk may ask for it either: code imported lazily from a lazy chunk lists the stylesheets of
    // what it imports, and would try to fetch a file that is not there.
    Reflect.deleteProperty(bundle, fileName);
    for (const item of Object.values(bundle)) if (item.type === 'chunk') item.viteMetadata?.importedCss.delete(fileName);
    return `<style>${css.replaceAll('</style', '<\\/style')}</style>`;
  });
}
