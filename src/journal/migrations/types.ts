/** A numbered schema step. Applied once, in order, inside one transaction; never edited after release. */
export interface Migration {
  /** 1, 2, 3 ...: contiguous; the journal's schema version is the highest applied. */
  readonly version: number;
  /** Short kebab-case name, recorded next to the version. */
  readonly name: string;
  readonly sql: string;
}
