/** `npm run migrate [latest|rollback|status]`: runs the migrations against DATABASE_URL. */
import { createKnex, databaseTarget } from './knex';
import { migrationSource } from '../../../db/migrations/index';

const command = process.argv[2] ?? 'latest';
const target = databaseTarget(process.env.DATABASE_URL ?? 'sqlite:data/app.sqlite');
const knex = createKnex(target);
try {
  if (command === 'latest') {
    const [batch, names] = await knex.migrate.latest({ migrationSource });
    console.log(names.length ? `batch ${batch}: ${names.join(', ')}` : 'already up to date');
  } else if (command === 'rollback') {
    const [batch, names] = await knex.migrate.rollback({ migrationSource });
    console.log(names.length ? `rolled back batch ${batch}: ${names.join(', ')}` : 'nothing to roll back');
  } else if (command === 'status') {
    const [done, pending] = await knex.migrate.list({ migrationSource });
    console.log(`${done.length} applied, ${pending.length} pending`);
  } else {
    console.error('usage: npm run migrate [latest|rollback|status]');
    process.exitCode = 2;
  }
} finally {
  await knex.destroy();
}
