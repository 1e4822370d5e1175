/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4), for the metrics tests:
 * it throws on any line a scraper would refuse, so "it parses" means something.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  /** Each family's TYPE. */
  types: Map<string, string>;
  /** The sum of the samples of this name whose labels include these; undefined when there is none. */
  sum(name: string, labels?: Record<string, string>): number | undefined;
  /** Every label value of every sample. */
  labelValues(): string[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/** As Prometheus reads a value (Go's ParseFloat): NaN and Inf in any case, prom-client writes `Nan`. */
function parseValue(text: string, line: string): number {
  const word = text.toLowerCase();
  if (word === '+inf' || word === 'inf') return Infinity;
  if (word === '-inf') return -Infinity;
  if (word === 'nan') return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`bad value in: ${line}`);
  return Number(text);
}

/** Reads `{a="x",b="y"}` from `text` at `at` (the brace); returns the labels and where it ended. */
function parseLabels(text: string, at: number, line: string): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = at + 1;
  for (;;) {
    if (text[i] === '}') return { labels, end: i + 1 };
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new Error(`bad labels in: ${line}`);
    const name = text.slice(i, eq);
    if (!LABEL.test(name) || name in labels) throw new Error(`bad label name ${name} in: ${line}`);
    if (text[eq + 1] !== '"') throw new Error(`unquoted label value in: ${line}`);
    let value = '';
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] === '\\') {
        const next = text[++j];
        if (next === 'n') value += '\n';
        else if (next === '\\' || next === '"') value += next;
        else throw new Error(`bad escape in: ${line}`);
      } else value += text[j];
    }
    if (j >= text.length) throw new Error(`unterminated label value in: ${line}`);
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i++;
    else if (text[i] !== '}') throw new Error(`bad label separator in: ${line}`);
  }
}

export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  const helps = new Set<string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const match = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!match) continue; // a plain comment
      const [, keyword, name = '', rest = ''] = match;
      if (!NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
      if (keyword === 'TYPE') {
        if (!TYPES.has(rest)) throw new Error(`bad type in: ${line}`);
        if (types.has(name)) throw new Error(`second TYPE for ${name}`);
        types.set(name, rest);
      } else {
        if (helps.has(name)) throw new Error(`second HELP for ${name}`);
        helps.add(name);
      }
      continue;
    }
    const nameEnd = line.search(/[{ ]/);
    if (nameEnd <= 0) throw new Error(`bad sample: ${line}`);
    const name = line.slice(0, nameEnd);
    if (!NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
    let labels: Record<string, string> = {};
    let i = nameEnd;
    if (line[i] === '{') ({ labels, end: i } = parseLabels(line, i, line));
    if (line[i] !== ' ') throw new Error(`no value in: ${line}`);
    const [valueText = '', timestamp, extra] = line.slice(i + 1).split(' ');
    if (extra !== undefined || (timestamp !== undefined && !/^-?\d+$/.test(timestamp))) throw new Error(`bad sample tail in: ${line}`);
    const family = types.has(name) ? name : name.replace(/_(bucket|sum|count)$/, '');
    const type = types.get(family);
    if (!type) throw new Error(`sample before its TYPE: ${line}`);
    if (family !== name && type !== 'histogram' && type !== 'summary') throw new Error(`suffix on a ${type}: ${line}`);
    if (name.endsWith('_bucket') && type === 'histogram' && labels.le === undefined) throw new Error(`bucket without le: ${line}`);
    samples.push({ name, labels, value: parseValue(valueText, line) });
  }
  const matches = (sample: Sample, labels: Record<string, string>) => Object.entries(labels).every(([k, v]) => sample.labels[k] === v);
  return {
    samples,
    types,
    sum(name, labels = {}) {
      const found = samples.filter((sample) => sample.name === name && matches(sample, labels));
      return found.length === 0 ? undefined : found.reduce((total, sample) => total + sample.value, 0);
    },
    labelValues: () => samples.flatMap((sample) => Object.values(sample.labels)),
  };
}
