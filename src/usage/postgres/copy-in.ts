import type pg from 'pg';
import { REPLACEMENT } from './storable-text.js';

/**
 * `COPY … FROM STDIN` through pg's own protocol support: a query object pg
 * hands the connection to (its Submittable interface), which sends the
 * text, one CopyData message per chunk, when the server asks for it. Used
 * instead of a streams library because the exporter always has the batch
 * in hand. Chunks rather than one buffer: joining them first copied each
 * part once more (and pg's writer copies each message anyway).
 */
class CopyIn {
  private rows = 0;
  private settle!: { resolve: (rows: number) => void; reject: (error: unknown) => void };
  readonly done = new Promise<number>((resolve, reject) => {
    this.settle = { resolve, reject };
  });

  constructor(
    private readonly text: string,
    private readonly data: readonly Buffer[],
  ) {}

  submit(connection: CopyConnection): void {
    connection.query(this.text);
  }

  handleCopyInResponse(connection: CopyConnection): void {
    for (const chunk of this.data) if (chunk.length > 0) connection.sendCopyFromChunk(chunk);
    connection.endCopyFrom();
  }

  handleCommandComplete(message: { text?: string }): void {
    const match = /(\d+)$/.exec(message.text ?? '');
    this.rows = match ? Number(match[1]) : 0;
  }

  // pg forgets the query on an error (the ReadyForQuery after it goes to nobody), so this is the end.
  handleError(error: unknown): void {
    this.settle.reject(error);
  }

  handleReadyForQuery(): void {
    this.settle.resolve(this.rows);
  }

  // The server answers COPY FROM with none of these; pg calls them only for other statements.
  handleEmptyQuery(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}

/** The part of pg's connection a COPY uses (pg's typings do not export it). */
interface CopyConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

/** Runs `COPY table (…) FROM STDIN` on `client` with `data` (chunks of whole lines) in COPY's text format; resolves to the rows copied. */
export function copyFrom(client: pg.ClientBase, sql: string, data: readonly Buffer[]): Promise<number> {
  const copy = new CopyIn(sql, data);
  // pg runs any object with submit() as a query, in its queue like the others; its typings do not know the shape.
  (client as unknown as { query(submittable: CopyIn): void }).query(copy);
  return copy.done;
}

const SPECIAL = /[\\\n\r\t\0]/;
const SPECIALS = /[\\\n\r\t\0]/g;
/** U+0000 cannot be stored in a text column at all: it becomes U+FFFD (see storable-text.ts). */
const ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\0': REPLACEMENT };

/** One field in COPY's text format: \N for null, backslash-escaped otherwise, U+0000 replaced. */
export function copyField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  const text = typeof value === 'string' ? value : String(value);
  return SPECIAL.test(text) ? text.replace(SPECIALS, (c) => ESCAPES[c] as string) : text;
}
