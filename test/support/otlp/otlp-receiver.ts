/**
 * A real OTLP receiver for the tests: OTLP/gRPC (TraceService and
 * MetricsService Export over HTTP/2) and OTLP/HTTP (POST /v1/traces and
 * /v1/metrics, protobuf or JSON, optionally gzip) on loopback free ports,
 * decoding with the OTLP subset in this folder. Everything received is kept,
 * normalised to one shape, with the raw request bytes and headers for leak checks.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';

const DIR = import.meta.dirname;
const TRACE_REQUEST = 'opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest';
const METRICS_REQUEST = 'opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest';

export type AttributeValue = string | number | boolean;

export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: Record<string, AttributeValue>;
  readonly events: Array<{ name: string; attributes: Record<string, AttributeValue> }>;
  readonly status: { code: number; message: string };
  readonly resource: Record<string, AttributeValue>;
  readonly startNs: bigint;
  readonly endNs: bigint;
}

export interface ReceivedPoint {
  readonly metric: string;
  readonly unit: string;
  readonly attributes: Record<string, AttributeValue>;
  readonly count: number;
  readonly sum: number;
}

export interface OtlpReceiver {
  readonly grpcEndpoint: string;
  readonly httpEndpoint: string;
  readonly spans: ReceivedSpan[];
  readonly points: ReceivedPoint[];
  /** Every export as it arrived (bytes as text, headers/metadata), for secret scans. */
  readonly raw: string[];
  /** Transport of each export: grpc, http/protobuf, http/json. */
  readonly transports: Set<string>;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

function hex(value: unknown): string {
  if (typeof value === 'string') {
    // OTLP/JSON carries ids as hex; protobuf (decoded with bytes: String) as base64.
    return /^[0-9a-f]*$/i.test(value) && (value.length === 32 || value.length === 16 || value.length === 0) ? value.toLowerCase() : Buffer.from(value, 'base64').toString('hex');
  }
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  return '';
}

function anyValue(v: Json | undefined): AttributeValue {
  if (!v) return '';
  const get = (snake: string, camel: string): unknown => v[snake] ?? v[camel];
  const s = get('string_value', 'stringValue');
  if (s !== undefined) return s as string;
  const b = get('bool_value', 'boolValue');
  if (b !== undefined) return b as boolean;
  const i = get('int_value', 'intValue');
  if (i !== undefined) return Number(i);
  const d = get('double_value', 'doubleValue');
  if (d !== undefined) return Number(d);
  return '';
}

function attributes(list: unknown): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const kv of (list as Json[] | undefined) ?? []) out[kv.key as string] = anyValue(kv.value as Json | undefined);
  return out;
}

function field(o: Json, snake: string): unknown {
  const camel = snake.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
  return o[snake] ?? o[camel];
}

function collectSpans(request: Json, into: ReceivedSpan[]): void {
  for (const rs of (field(request, 'resource_spans') as Json[] | undefined) ?? []) {
    const resource = attributes(field((rs.resource as Json | undefined) ?? {}, 'attributes'));
    for (const ss of (field(rs, 'scope_spans') as Json[] | undefined) ?? []) {
      for (const s of (ss.spans as Json[] | undefined) ?? []) {
        const status = (s.status as Json | undefined) ?? {};
        into.push({
          traceId: hex(field(s, 'trace_id')),
          spanId: hex(field(s, 'span_id')),
          parentSpanId: hex(field(s, 'parent_span_id')),
          name: String(s.name ?? ''),
          kind: Number(s.kind ?? 0),
          attributes: attributes(s.attributes),
          events: ((s.events as Json[] | undefined) ?? []).map((e) => ({ name: String(e.name ?? ''), attributes: attributes(e.attributes) })),
          status: { code: Number(status.code ?? 0), message: String(status.message ?? '') },
          resource,
          startNs: BigInt(String(field(s, 'start_time_unix_nano') ?? '0')),
          endNs: BigInt(String(field(s, 'end_time_unix_nano') ?? '0')),
        });
      }
    }
  }
}

function collectPoints(request: Json, into: ReceivedPoint[]): void {
  for (const rm of (field(request, 'resource_metrics') as Json[] | undefined) ?? []) {
    for (const sm of (field(rm, 'scope_metrics') as Json[] | undefined) ?? []) {
      for (const m of (sm.metrics as Json[] | undefined) ?? []) {
        const histogram = m.histogram as Json | undefined;
        if (!histogram) continue;
        for (const p of (field(histogram, 'data_points') as Json[] | undefined) ?? []) {
          into.push({ metric: String(m.name), unit: String(m.unit ?? ''), attributes: attributes(p.attributes), count: Number(p.count ?? 0), sum: Number(p.sum ?? 0) });
        }
      }
    }
  }
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const points: ReceivedPoint[] = [];
  const raw: string[] = [];
  const transports = new Set<string>();

  const root = await protobuf.load([join(DIR, 'otlp-trace.proto'), join(DIR, 'otlp-metrics.proto')]);
  const traceType = root.lookupType(TRACE_REQUEST);
  const metricsType = root.lookupType(METRICS_REQUEST);
  const toObject = { longs: String, bytes: String, defaults: false } as const;

  const definition = protoLoader.loadSync(['otlp-trace.proto', 'otlp-metrics.proto'], { includeDirs: [DIR], keepCase: true, longs: String, bytes: String, defaults: false });
  const loaded = grpc.loadPackageDefinition(definition) as unknown as {
    opentelemetry: { proto: { collector: { trace: { v1: { TraceService: grpc.ServiceClientConstructor } }; metrics: { v1: { MetricsService: grpc.ServiceClientConstructor } } } } };
  };
  const grpcServer = new grpc.Server();
  const note = (call: grpc.ServerUnaryCall<Json, Json>): void => {
    transports.add('grpc');
    raw.push(JSON.stringify(call.metadata.toJSON()) + JSON.stringify(call.request));
  };
  grpcServer.addService(loaded.opentelemetry.proto.collector.trace.v1.TraceService.service, {
    Export: (call: grpc.ServerUnaryCall<Json, Json>, callback: grpc.sendUnaryData<Json>) => {
      note(call);
      collectSpans(call.request, spans);
      callback(null, {});
    },
  });
  grpcServer.addService(loaded.opentelemetry.proto.collector.metrics.v1.MetricsService.service, {
    Export: (call: grpc.ServerUnaryCall<Json, Json>, callback: grpc.sendUnaryData<Json>) => {
      note(call);
      collectPoints(call.request, points);
      callback(null, {});
    },
  });
  const grpcPort = await new Promise<number>((resolve, reject) =>
    grpcServer.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, port) => (error ? reject(error) : resolve(port))),
  );

  const http: Server = createServer((req, res) => {
    void (async () => {
      let body = await readAll(req);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const json = (req.headers['content-type'] ?? '').includes('json');
      transports.add(json ? 'http/json' : 'http/protobuf');
      const isTraces = req.url === '/v1/traces';
      if (req.method !== 'POST' || (!isTraces && req.url !== '/v1/metrics')) {
        res.writeHead(404).end();
        return;
      }
      let request: Json;
      try {
        request = json ? (JSON.parse(body.toString('utf8')) as Json) : ((isTraces ? traceType : metricsType).toObject((isTraces ? traceType : metricsType).decode(body), toObject) as Json);
      } catch {
        res.writeHead(400).end();
        return;
      }
      raw.push(JSON.stringify(req.headers) + JSON.stringify(request));
      if (isTraces) collectSpans(request, spans);
      else collectPoints(request, points);
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      res.end(json ? '{}' : Buffer.alloc(0));
    })();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));

  return {
    grpcEndpoint: `http://127.0.0.1:${grpcPort}`,
    httpEndpoint: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    spans,
    points,
    raw,
    transports,
    async close() {
      await new Promise<void>((resolve) => grpcServer.tryShutdown(() => resolve()));
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}

/** Poll until `check` passes (exports are batched and periodic); the last failure is rethrown. */
export async function eventually<T>(check: () => T, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
