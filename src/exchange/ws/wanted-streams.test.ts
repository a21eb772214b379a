import { describe, expect, it } from 'vitest';
import { StreamRequestError } from './stream-errors.ts';
import { WantedStreams } from './wanted-streams.ts';

describe('WantedStreams', () => {
  it('keeps the order asked for; only accepted streams are confirmed; a refusal is handed to one asker', () => {
    const w = new WantedStreams(['a@trade', 'b@trade']);
    expect(w.add(['b@trade', 'c@depth', 'c@depth'])).toEqual(['c@depth']);
    expect(w.confirmedList).toEqual([]);
    w.confirm(['c@depth', 'a@trade', 'zzz@trade']);
    expect(w.confirmedList).toEqual(['a@trade', 'c@depth']);
    const refusal = new StreamRequestError('-100010', 'Invalid Symbols!');
    w.refuse(['b@trade'], refusal);
    expect(w.list).toEqual(['a@trade', 'c@depth']);
    expect(w.takeRefusal(['b@trade', 'c@depth'])).toBe(refusal);
    expect(w.takeRefusal(['b@trade'])).toBeUndefined();
    w.distrust(['a@trade']);
    expect(w.confirmedList).toEqual(['c@depth']);
    expect(w.remove(['c@depth'])).toEqual(['c@depth']);
    expect(w.list).toEqual(['a@trade']);
  });

  it('refuses bad names and more than 1024 streams', () => {
    const w = new WantedStreams();
    expect(() => w.add(['a/b'])).toThrow(`stream name "a/b": must be a non-empty name without spaces, '/', '?', '&' or '#'`);
    expect(() => w.add([''])).toThrow(/non-empty/);
    w.add(Array.from({ length: 1024 }, (_, i) => `s${i}@trade`));
    expect(() => w.add(['one@more'])).toThrow("subscribe: 1024 + 1 streams exceed the venue's 1024 per connection");
  });
});
