/**
 * The HCM's local_reply_config, applied to every local reply the harness
 * makes, as Envoy applies it (envoy/source/common/local_reply/local_reply.cc,
 * LocalReplyImpl::rewrite and ResponseMapper::matchAndRewrite; the headers and
 * content type around it in envoy/source/common/http/utility.cc,
 * Utility::prepareLocalReply):
 *
 * - mappers are tried in order and the first whose filter matches is the only
 *   one applied: its headers_to_add (every value is formatted before any is
 *   set: envoy/source/common/router/header_parser.cc evaluateHeaders), then its
 *   status_code, then its body_format_override; with no override the
 *   top-level body_format, else the plain `%LOCAL_REPLY_BODY%` as text/plain;
 * - the content type of the formatter is set only when the body changed and
 *   the mapper set no content-type, or when the reply had none;
 * - an empty body carries no content-type or content-length.
 *
 * Only the filters and format commands the generated bootstrap uses are
 * understood; anything else throws, so a config change cannot be silently
 * misread.
 */
import { randomUUID } from 'node:crypto';
import type { ProtoStruct, ProtoValue } from '../../../src/extproc/proto.js';
import type { HeaderMap } from './header-map.js';

interface RuntimeUInt {
  default_value: number;
}
interface ComparisonDoc {
  op: 'EQ' | 'GE' | 'LE';
  value: RuntimeUInt;
}
export interface AccessLogFilterDoc {
  status_code_filter?: { comparison: ComparisonDoc };
  response_flag_filter?: { flags?: string[] };
  and_filter?: { filters: AccessLogFilterDoc[] };
  or_filter?: { filters: AccessLogFilterDoc[] };
  metadata_filter?: {
    matcher: { filter: string; path: Array<{ key: string }>; value: { string_match?: { exact: string } } };
    match_if_key_not_found?: boolean;
  };
}
interface FormatDoc {
  json_format?: Record<string, unknown>;
  text_format?: string;
  content_type?: string;
}
export interface LocalReplyConfigDoc {
  mappers?: Array<{
    filter: AccessLogFilterDoc;
    status_code?: number;
    headers_to_add?: Array<{ header: { key: string; value: string }; append_action?: string }>;
    body_format_override?: FormatDoc;
  }>;
  body_format?: FormatDoc;
}

/** What Envoy knows about the stream when it makes the reply. */
export interface ReplyContext {
  details: string;
  /** Envoy's short response flags (UF, SI, ...), none for most local replies. */
  flags: readonly string[];
  /** Dynamic metadata by namespace (only what the ext_proc filter accepted). */
  metadata: Readonly<Record<string, ProtoStruct>>;
}

export interface LocalReply {
  status: number;
  headers: HeaderMap;
  body: Buffer;
}

function matches(filter: AccessLogFilterDoc, status: number, ctx: ReplyContext): boolean {
  const kinds = Object.keys(filter);
  if (kinds.length !== 1) throw new Error(`envoy-harness: a local reply filter needs exactly one kind, got ${kinds.join(', ') || 'none'}`);
  if (filter.status_code_filter) {
    const { op, value } = filter.status_code_filter.comparison;
    const want = value.default_value;
    return op === 'EQ' ? status === want : op === 'GE' ? status >= want : status <= want;
  }
  if (filter.response_flag_filter) {
    // An empty list matches any flag: envoy/source/common/access_log/access_log_impl.cc ResponseFlagFilter.
    const flags = filter.response_flag_filter.flags ?? [];
    return flags.length === 0 ? ctx.flags.length > 0 : ctx.flags.some((f) => flags.includes(f));
  }
  if (filter.and_filter) return filter.and_filter.filters.every((f) => matches(f, status, ctx));
  if (filter.or_filter) return filter.or_filter.filters.some((f) => matches(f, status, ctx));
  if (filter.metadata_filter) {
    // MetadataFilter::evaluate: a present value must match; an absent key gives match_if_key_not_found (default true).
    const { matcher, match_if_key_not_found: ifMissing } = filter.metadata_filter;
    let value: ProtoValue | undefined = { structValue: ctx.metadata[matcher.filter] };
    for (const { key } of matcher.path) value = value?.structValue?.fields?.[key];
    if (
      value === undefined ||
      (value.structValue === undefined && value.stringValue === undefined && value.numberValue === undefined && value.boolValue === undefined && value.listValue === undefined)
    ) {
      return ifMissing ?? true;
    }
    const exact = matcher.value.string_match?.exact;
    if (exact === undefined) throw new Error('envoy-harness: only string_match.exact metadata matchers are understood');
    return value.stringValue === exact;
  }
  throw new Error(`envoy-harness: local reply filter ${kinds[0]} is not understood`);
}

interface FormatInput {
  status: number;
  details: string;
  body: string;
  headers: HeaderMap;
}

/** The substitution commands the generated config uses; any other throws. */
function formatText(text: string, input: FormatInput): string {
  return text.replace(/%([A-Z_]+)(?:\(([^)]*)\))?%/g, (_whole, command: string, arg: string | undefined) => {
    switch (command) {
      case 'LOCAL_REPLY_BODY':
        return input.body;
      case 'RESPONSE_CODE':
        return String(input.status);
      case 'RESPONSE_CODE_DETAILS':
        return input.details;
      case 'UNIQUE_ID':
        return randomUUID();
      case 'RESP':
        return input.headers.getString((arg ?? '').toLowerCase()) ?? '-';
      default:
        throw new Error(`envoy-harness: format command %${command}% is not understood`);
    }
  });
}

function formatJson(value: unknown, input: FormatInput): unknown {
  if (typeof value === 'string') return formatText(value, input);
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, formatJson(v, input)]));
  }
  return value;
}

function format(doc: FormatDoc | undefined, input: FormatInput): { body: string; contentType: string } {
  if (!doc) return { body: input.body, contentType: 'text/plain' };
  // The JSON formatter ends its output with a newline (envoy/source/common/formatter).
  if (doc.json_format) return { body: `${JSON.stringify(formatJson(doc.json_format, input))}\n`, contentType: doc.content_type ?? 'application/json' };
  if (doc.text_format !== undefined) return { body: formatText(doc.text_format, input), contentType: doc.content_type ?? 'text/plain' };
  throw new Error('envoy-harness: a body format needs json_format or text_format');
}

/**
 * Rewrites a local reply in place of Envoy. `headers` are the reply's headers
 * after the sender's own changes (an immediate_response's header mutation,
 * the router's); the returned headers carry content-type and content-length.
 */
export function rewriteLocalReply(config: LocalReplyConfigDoc | undefined, reply: LocalReply, ctx: ReplyContext): LocalReply {
  let status = reply.status;
  const headers = reply.headers;
  const original = reply.body.toString('utf8');
  const contentTypeBefore = headers.getString('content-type');
  let formatDoc = config?.body_format;
  for (const mapper of config?.mappers ?? []) {
    if (!matches(mapper.filter, status, ctx)) continue;
    const input: FormatInput = { status, details: ctx.details, body: original, headers };
    const values = (mapper.headers_to_add ?? []).map((h) => [h.header.key.toLowerCase(), formatText(h.header.value, input), h.append_action] as const);
    for (const [key, value, action] of values) {
      if (value === '') continue;
      if (action === 'OVERWRITE_IF_EXISTS_OR_ADD') headers.set(key, value);
      else if (action === undefined || action === 'APPEND_IF_EXISTS_OR_ADD') headers.add(key, value);
      else throw new Error(`envoy-harness: append_action ${action} is not understood`);
    }
    if (mapper.status_code !== undefined) status = mapper.status_code;
    if (mapper.body_format_override) formatDoc = mapper.body_format_override;
    break;
  }
  const { body, contentType } = format(formatDoc, { status, details: ctx.details, body: original, headers });
  const customContentType = headers.getString('content-type') !== contentTypeBefore;
  if (body.length > 0) {
    headers.set('content-length', String(Buffer.byteLength(body)));
    if (!headers.has('content-type') || (body !== original && !customContentType)) headers.set('content-type', contentType);
  } else {
    headers.remove('content-length');
    headers.remove('content-type');
  }
  return { status, headers, body: Buffer.from(body) };
}
