import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runProgress } from './run-progress.ts';

function sink(): { stream: NodeJS.WritableStream; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

describe('runProgress', () => {
  it('draws the runs done on a terminal, with the fold as a label', () => {
    const out = sink();
    const p = runProgress(true, out.stream);
    p.update(0, 4, 'fold 1/2');
    p.update(3, 4, 'fold 1/2');
    p.update(1, 6, 'fold 2/2');
    p.stop();
    expect(out.text()).toMatch(/fold 1\/2 \[.*\] 0\/4 runs/);
    expect(out.text()).toMatch(/fold 2\/2 \[.*\] 1\/6 runs/);
  });

  it('draws nothing off a terminal', () => {
    const out = sink();
    const p = runProgress(false, out.stream);
    p.update(1, 2);
    p.stop();
    expect(out.text()).toBe('');
  });
});
