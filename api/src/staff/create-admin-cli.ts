/**
 * `npm run create-admin -- --email you@studio.bw --first-name Neo --last-name Kgosi`: makes an
 * administrator on the server (docs/accounts.md, "The first administrator"). The password is read
 * from standard input (typed without echo, or piped), never from the command line, where it would
 * stay in the shell's history and the process list.
 */
import { parseArgs } from 'node:util';
import { staffRegisterSchema } from '../../contract/auth';
import { createKnex, databaseTarget } from '../db/knex';
import { migrate } from '../db/migrate';
import { createLogger } from '../logger';
import { AppError } from '../http/errors';
import { createAdminAccount } from './staff.service';
import { createStaffRepository } from './staff.repository';

const USAGE = 'usage: npm run create-admin -- --email <address> --first-name <name> --last-name <name>  (the password is read from standard input)';

/** One line from standard input: typed without echo on a terminal, else the first line piped in. */
async function readPassword(): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    let text = '';
    for await (const chunk of stdin) text += String(chunk);
    return text.split(/\r?\n/)[0] ?? '';
  }
  process.stdout.write('Password (at least 6 characters): ');
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  return new Promise((resolve, reject) => {
    let typed = '';
    const onData = (key: string) => {
      for (const char of key) {
        if (char === '\r' || char === '\n') {
          done();
          resolve(typed);
          return;
        }
        if (char === '\u0003') {
          done();
          reject(new Error('cancelled'));
          return;
        }
        typed = char === '\u007f' ? typed.slice(0, -1) : typed + char;
      }
    };
    const done = () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stdout.write('\n');
    };
    stdin.on('data', onData);
  });
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { email: { type: 'string' }, 'first-name': { type: 'string' }, 'last-name': { type: 'string' } } });
  if (!values.email || !values['first-name'] || !values['last-name']) {
    console.error(USAGE);
    return 2;
  }
  const password = await readPassword();
  const parsed = staffRegisterSchema.safeParse({ email: values.email, password, firstName: values['first-name'], lastName: values['last-name'] });
  if (!parsed.success) {
    console.error(parsed.error.issues.map((issue) => issue.message).join('; '));
    return 1;
  }
  const knex = createKnex(databaseTarget(process.env.DATABASE_URL ?? 'sqlite:data/app.sqlite'));
  try {
    await migrate(knex, createLogger('warn'));
    const admin = await createAdminAccount(createStaffRepository(knex), parsed.data);
    process.stdout.write(`Administrator ${admin.email} created. Sign in on the staff page.\n`);
    return 0;
  } catch (err) {
    if (err instanceof AppError) {
      console.error(err.message);
      return 1;
    }
    throw err;
  } finally {
    await knex.destroy();
  }
}

process.exitCode = await main();
