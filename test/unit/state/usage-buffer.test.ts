import { describe, expect, it } from 'vitest';
import { MemoryState } from '../../../src/state/memory.js';
import { approximateBytes, UsageBuffer } from '../../../src/state/usage-buffer.js';
import { StateUsageReader } from '../../../src/usage/state-reader.js';
import { usageRecord } from '../../support/usage-records.js';

describe('the in-memory usage buffer is bounded globally in bytes', () => {
  it('counts a record at about twice its JSON length, long strings and redaction counts included, without serializing it', () => {
    const records = [
      ...Array.from({ length: 40 }, (_, i) => usageRecord('acme', i)),
      usageRecord('acme', 1, { end_user: 'e'.repeat(2_000), repo: 'r'.repeat(500) }),
      usageRecord('acme', 2, { model: null, provider: null, provider_model: null, credential: null, fault: 'unauthenticated', status: 401, cost_usd: null, ttfb_ms: null }),
      usageRecord('acme', 3, { redactions: Object.fromEntries(Array.from({ length: 30 }, (_, k) => [`rule-number-${k}`, k + 1])) }),
    ];
    for (const r of records) {
      const json = JSON.stringify(r).length;
      expect(approximateBytes(r)).toBeGreaterThanOrEqual(1.7 * json + 100);
      expect(approximateBytes(r)).toBeLessThanOrEqual(2.3 * json + 300);
    }
  });

  it('keeps within the bound across companies, drops the oldest first and counts them per company', () => {
    const one = approximateBytes(usageRecord('acme', 1));
    const dropped: string[] = [];
    const buffer = new UsageBuffer(one * 100, (r) => dropped.push(r.request_id));
    const records = Array.from({ length: 1_000 }, (_, i) => usageRecord(i % 2 === 0 ? 'acme' : 'globex', i));
    for (const r of records) buffer.add(r);
    expect(buffer.heldBytes()).toBeLessThanOrEqual(one * 100);
    expect(buffer.size()).toBeGreaterThan(80);
    const kept = [...buffer.records()].map((r) => r.request_id);
    // The newest are kept, in order; everything else was dropped, oldest first, and counted.
    expect(kept).toEqual(records.slice(records.length - kept.length).map((r) => r.request_id));
    expect(dropped).toEqual(records.slice(0, records.length - kept.length).map((r) => r.request_id));
    expect(buffer.droppedRecords('acme') + buffer.droppedRecords('globex')).toBe(dropped.length);
    expect(buffer.droppedRecords(undefined)).toBe(dropped.length);
  });

  it('a second write of the same request id changes nothing while the record is held', () => {
    const buffer = new UsageBuffer();
    const r = usageRecord('acme', 1);
    expect(buffer.add(r)).toBe(true);
    expect(buffer.add({ ...r })).toBe(false);
    expect(buffer.size()).toBe(1);
  });

  it('records handed to the exporter leave memory once acknowledged, not before', async () => {
    const state = new MemoryState();
    for (let i = 0; i < 10; i++) await state.recordUsage(usageRecord('acme', i));
    const source = state.usageSource();
    const batch = await source.next(4);
    expect(batch?.records).toHaveLength(4);
    expect(await source.backlog()).toBe(10);
    // A write that fails (not acknowledged) hands out the same records again.
    expect((await source.next(4))?.records.map((r) => r.request_id)).toEqual(batch?.records.map((r) => r.request_id));
    await batch?.ack();
    expect(await source.backlog()).toBe(6);
    const rest = await source.next(100);
    await rest?.ack();
    expect(await source.next(100)).toBeNull();
    expect([...state.usageRecords()]).toEqual([]);
  });

  it('the usage API says when older records were dropped', async () => {
    const one = approximateBytes(usageRecord('acme', 1));
    const state = new MemoryState({ usageMemoryBytes: one * 10 });
    for (let i = 0; i < 50; i++) await state.recordUsage(usageRecord('acme', i));
    const reader = new StateUsageReader(state);
    const report = await reader.report({ company: 'acme', groupBy: 'address' });
    expect(report.droppedRecords).toBeGreaterThanOrEqual(40);
    expect(report.data.reduce((n, r) => n + r.requests, 0)).toBe(50 - report.droppedRecords);
    expect((await reader.logs({ company: 'acme', limit: 100, order: 'time' })).droppedRecords).toBe(report.droppedRecords);
  });
});
