/** The API contract: the only part of api/ that the PWA imports. */
export * from './constants';
export * from './money';
export * from './messages';
export * from './fields';
export * from './errors';
export * from './auth';
export * from './schools';
export * from './albums';
export * from './price-lists';
export * from './photos';
export * from './dashboard';
export * from './orders';
export * from './student-codes';
export * from './students';
export * from './print-batches';
export * from './csv';
export * from './brand';
