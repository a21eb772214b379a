import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { PersistentParts, StateDataError, type ArchivingPersistent, type Persistent } from './persistent-parts.ts';

class Box implements Persistent<{ items: string[] }> {
  items: string[] = [];
  dumpState() {
    return { items: [...this.items] };
  }
  restoreState(data: { items: string[] }) {
    this.items = data.items;
  }
}

const SCHEMA = z.object({ items: z.array(z.string()) });

describe('PersistentParts', () => {
  it('restores registered parts, and parts that register later when they do', () => {
    const parts = new PersistentParts();
    const early = new Box();
    parts.register('early', SCHEMA, early);
    parts.restore({ early: { items: ['a'] }, late: { items: ['b'] } });
    expect(early.items).toEqual(['a']);
    const late = new Box();
    parts.register('late', SCHEMA, late);
    expect(late.items).toEqual(['b']);
    expect(parts.dump()).toEqual({ parts: { early: { items: ['a'] }, late: { items: ['b'] } }, put: [], drop: [] });
  });

  it('writes back the data of a part not attached in this run', () => {
    const parts = new PersistentParts();
    parts.restore({ absent: { items: ['kept'] } });
    parts.register('present', SCHEMA, new Box());
    expect(parts.dump().parts).toEqual({ absent: { items: ['kept'] }, present: { items: [] } });
  });

  it('writes each archived record once and drops it when the part lets go of it', () => {
    const log: string[] = [];
    const codes: Record<string, number> = { a: 1, b: 2, c: 3, x: 9 };
    class History implements ArchivingPersistent<{ n: number }, { v: string }, string> {
      records: string[] = [];
      restored: string[] = [];
      dumpState() {
        return { n: this.records.length };
      }
      archive(visit: (key: number, item: string) => void) {
        for (const v of this.records) visit(codes[v]!, v);
      }
      record(_key: number, v: string) {
        log.push(v);
        return { v };
      }
      restoreState(_head: { n: number }, records: readonly { v: string }[]) {
        this.restored = records.map((r) => r.v);
      }
    }
    const parts = new PersistentParts();
    const h = new History();
    parts.registerArchiving('h', z.object({ n: z.number() }), z.object({ v: z.string() }), h);
    h.records = ['a', 'b'];
    const first = parts.dump();
    expect(first.put.map((r) => r.key)).toEqual([1, 2]);
    parts.commit(first);
    h.records = ['b', 'c'];
    const second = parts.dump();
    expect([second.put.map((r) => r.key), second.drop]).toEqual([[3], [{ part: 'h', key: 1 }]]);
    expect(log).toEqual(['a', 'b', 'c']);
    // A save that failed (no commit) is written again in full by the next one.
    expect(parts.dump().put.map((r) => r.key)).toEqual([3]);

    const again = new PersistentParts();
    const restored = new History();
    again.registerArchiving('h', z.object({ n: z.number() }), z.object({ v: z.string() }), restored);
    again.restore({ h: { n: 2 } }, [
      { part: 'h', key: 2, body: { v: 'b' } },
      { part: 'h', key: 3, body: { v: 'c' } },
    ]);
    expect(restored.restored).toEqual(['b', 'c']);
    restored.records = ['b', 'c'];
    expect(again.dump()).toEqual({ parts: { h: { n: 2 } }, put: [], drop: [] });
    expect(() => new PersistentParts().restore({}, [])).not.toThrow();
    const bad = new PersistentParts();
    bad.registerArchiving('h', z.object({ n: z.number() }), z.object({ v: z.string() }), new History());
    expect(() => bad.restore({ h: { n: 1 } }, [{ part: 'h', key: 9, body: { v: 1 } }])).toThrow('part "h": record 9: v: ');
  });

  it('refuses data that does not fit the schema, naming the part and the field', () => {
    const parts = new PersistentParts();
    parts.register('box', SCHEMA, new Box());
    let caught: unknown;
    try {
      parts.restore({ box: { items: ['ok', 7] } });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(StateDataError);
    expect((caught as Error).message).toMatch(/^part "box": items\.1: /);
    expect(() => parts.register('box', SCHEMA, new Box())).toThrow(/registered twice/);
  });
});
