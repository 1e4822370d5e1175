import { createKnex, databaseTarget } from '../src/db/knex';
import { createReportsRepository } from './../src/reports/reports.repository';
import { createReportsService } from '../src/reports/reports.service';
const url = process.argv[2] ?? 'sqlite:/tmp/rkeep/sqlite/bench.sqlite';
const knex = createKnex(databaseTarget(url, process.cwd()));
const repo = createReportsRepository(knex);
const ranges = [{ from: null, to: null }, { from: 20260301, to: 20260330 }];
async function t(label: string, f: () => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) { const s = performance.now(); await f(); times.push(performance.now() - s); }
  console.log(label.padEnd(40), times.map((x) => x.toFixed(0)).join(' '));
}
for (const range of ranges) {
  console.log('range', JSON.stringify(range));
  await t('schools', () => repo.schools());
  await t('classes', () => repo.classes());
  await t('rosterSizes', () => repo.rosterSizes());
  await t('paidFigures', () => repo.paidFigures(range));
  await t('itemFigures', () => repo.itemFigures(range));
  await t('opened', () => repo.opened(range));
  await t('pending', () => repo.pending(range));
  await t('refundLines', () => repo.refundLines(range));
  const service = createReportsService({ knex } as never);
  await t('service', () => service.schools({ from: range.from ? '2026-03-01' : null, to: range.to ? '2026-03-30' : null }));
}
await knex.destroy();
