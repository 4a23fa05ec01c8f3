/**
 * Store semantics the platform relies on, on whichever engine this run uses (SQLite by default; PostgreSQL with
 * SVCPP_TEST_DB=postgres): transactions and savepoints, exact 64-bit ids, text kept byte for byte, outbox claiming.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open.js';
import type { OutboxRecord, Store } from '../../src/store/types.js';
import { testDatabase } from '../support/database.js';

describe('store on this run’s engine', () => {
  const open: Store[] = [];
  const store = (): Store => {
    const opened = openStore(testDatabase());
    open.push(opened);
    return opened;
  };
  afterEach(() => {
    while (open.length) open.pop()!.close();
  });

  const entry = (id: string, nextAttemptAt = 0): OutboxRecord => ({
    id,
    applicationId: '1574630423345098752',
    body: '{"event":{}}',
    attempts: 0,
    nextAttemptAt,
    status: 'pending',
    lastError: null,
    createdAt: 1,
    deliveredAt: null,
  });

  it('commits a transaction as a whole and undoes it as a whole', () => {
    const s = store();
    s.transaction(() => s.meta.set('kept', '1'));
    expect(() =>
      s.transaction(() => {
        s.meta.set('undone', '1');
        throw new Error('abort');
      }),
    ).toThrow('abort');
    expect(s.meta.get('kept')).toBe('1');
    expect(s.meta.get('undone')).toBeUndefined();
  });

  it('undoes only the inner part when a nested transaction fails and the outer one goes on', () => {
    const s = store();
    s.transaction(() => {
      s.meta.set('outer', '1');
      try {
        s.transaction(() => {
          s.meta.set('inner', '1');
          throw new Error('inner');
        });
      } catch {
        // the outer transaction carries on
      }
      s.meta.set('after', '1');
    });
    expect([s.meta.get('outer'), s.meta.get('inner'), s.meta.get('after')]).toEqual(['1', undefined, '1']);
  });

  it('keeps 64-bit ids and text exactly', () => {
    const s = store();
    const id = '18446744073709551615'; // past 2^63: only text keeps it
    s.outbox.insert({ ...entry(id), body: '{"é":"🎮","nul":"\\u0000"}' });
    expect(s.outbox.get(id)).toMatchObject({
      id,
      body: '{"é":"🎮","nul":"\\u0000"}',
      nextAttemptAt: 0,
      deliveredAt: null,
    });
  });

  it('hands each due outbox entry to one claimant until its lease ends', () => {
    const s = store();
    for (const id of ['101', '102', '103']) s.outbox.insert(entry(id));
    s.outbox.insert(entry('104', 50)); // not due yet at 10
    const first = s.outbox.claimDue(10, 2, 1000);
    expect(first.map((record) => record.id)).toEqual(['101', '102']);
    expect(first.every((record) => record.nextAttemptAt === 1000)).toBe(true);
    expect(s.outbox.claimDue(10, 10, 1000).map((record) => record.id)).toEqual(['103']);
    expect(s.outbox.claimDue(10, 10, 1000)).toEqual([]);
    // After the lease: claimable again (the claimant died before recording an outcome).
    expect(s.outbox.claimDue(1000, 10, 2000).map((record) => record.id)).toEqual(['101', '102', '103', '104']);
  });
});
