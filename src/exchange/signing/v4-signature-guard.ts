/**
 * Legacy v4 signatures are single-use within their nonce window (protocol notes 2.4: the nonce is
 * whole seconds; the sandbox, like any venue that takes nonces seriously, refuses a signature it
 * has seen with -10324). Two identical v4 requests in one second, such as a read retried after a
 * 5xx or a poller, would carry the same nonce and so the same signature. The client remembers the
 * signatures it issued in the current nonce second and, before presenting one again, waits for the
 * next second so the nonce (and the signature) changes. Memory: one second's signatures.
 */
export class V4SignatureGuard {
  private second = -1;
  private readonly issued = new Set<string>();

  /** Milliseconds to wait before `signature` (of nonce second `nowMs`) may be sent; 0 records it as issued. */
  waitBefore(signature: string, nowMs: number): number {
    const second = Math.floor(nowMs / 1000);
    if (second !== this.second) {
      this.second = second;
      this.issued.clear();
    }
    if (this.issued.has(signature)) return (second + 1) * 1000 - nowMs;
    this.issued.add(signature);
    return 0;
  }
}
