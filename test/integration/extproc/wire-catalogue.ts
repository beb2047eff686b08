/**
 * The messages of test/go/cmd/extproc-wire/catalogue.go, written the way our
 * TypeScript service writes them (plain objects through proto-loader). The Go
 * program decodes these with Envoy's generated types and compares each with
 * its own entry of the same name, so the two lists must describe the same
 * messages; a difference fails the wire test.
 */
import type { ProcessingRequest, ProcessingResponse } from '../../../src/extproc/proto.js';

const b = (s: string): Buffer => Buffer.from(s, 'latin1');
const hv = (key: string, raw: string) => ({ key, raw_value: b(raw) });
const set = (key: string, raw: string) => ({ header: hv(key, raw) });

export const requestCatalogue: Record<string, ProcessingRequest> = {
  request_headers_get: {
    request_headers: {
      headers: {
        headers: [
          hv(':authority', 'gw.local:8080'),
          hv(':path', '/v1/models?beta=true'),
          hv(':method', 'GET'),
          hv(':scheme', 'http'),
          hv('authorization', 'Bearer gwct_example'),
          hv('x-request-id', '3f1c'),
        ],
      },
      end_of_stream: true,
    },
    protocol_config: { request_body_mode: 'BUFFERED', response_body_mode: 'NONE' },
  },
  request_headers_post: {
    request_headers: {
      headers: {
        headers: [
          hv(':authority', 'gw.local'),
          hv(':path', '/v1/messages'),
          hv(':method', 'POST'),
          hv(':scheme', 'https'),
          hv('content-type', 'application/json'),
          hv('content-length', '57'),
          hv('anthropic-beta', 'a'),
          hv('anthropic-beta', 'b'),
          { key: 'x-latin1', raw_value: Buffer.from([0x63, 0x61, 0x66, 0xe9]) },
        ],
      },
    },
    attributes: {
      'envoy.filters.http.ext_proc': {
        fields: {
          'request.path': { stringValue: '/v1/messages' },
          'source.address': { stringValue: '10.0.0.7:51234' },
        },
      },
    },
    metadata_context: {
      filter_metadata: {
        'gw.in': { fields: { tenant: { stringValue: 'acme' }, weight: { numberValue: 2.5 } } },
      },
    },
    protocol_config: {
      request_body_mode: 'BUFFERED',
      response_body_mode: 'STREAMED',
      send_body_without_waiting_for_header_response: true,
    },
  },
  request_body_buffered: {
    request_body: {
      body: b('{"model":"claude-sonnet-4-5","max_tokens":64,"stream":true}'),
      end_of_stream: true,
    },
  },
  request_trailers: {
    request_trailers: { trailers: { headers: [hv('x-checksum', 'abc')] } },
  },
  response_headers_sse: {
    response_headers: {
      headers: {
        headers: [hv(':status', '200'), hv('content-type', 'text/event-stream'), hv('anthropic-ratelimit-unified-5h-utilization', '0.42')],
      },
    },
  },
  response_body_chunk: {
    response_body: {
      body: b('event: message_delta\ndata: {"type":"message_delta","usage":{"output_tok'),
    },
  },
  response_body_empty_final: { response_body: { body: Buffer.alloc(0), end_of_stream: true } },
  response_trailers: {
    response_trailers: { trailers: { headers: [hv('grpc-status', '0')] } },
    observability_mode: true,
  },
};

export const responseCatalogue: Record<string, ProcessingResponse> = {
  answer_request_headers_route: {
    request_headers: {
      response: {
        header_mutation: {
          set_headers: [
            set('x-gw-upstream', 'vendor'),
            { header: hv('x-api-key', 'sk-ant-example'), append: { value: false } },
            { header: hv('anthropic-beta', 'c'), append: { value: true } },
            { header: hv('x-gw-note', 'kept'), append_action: 'ADD_IF_ABSENT', keep_empty_value: true },
          ],
          remove_headers: ['authorization', 'x-gw-repo'],
        },
        clear_route_cache: true,
      },
    },
  },
  answer_request_body_rewrite: {
    request_body: {
      response: {
        header_mutation: {
          set_headers: [set('content-length', '23'), set(':path', '/v1/messages'), set('x-gw-upstream', 'provider_a')],
        },
        body_mutation: { body: b('{"model":"x","max_tokens":1}'.slice(0, 23)) },
        clear_route_cache: true,
      },
    },
  },
  answer_request_body_replace: {
    request_body: {
      response: { status: 'CONTINUE_AND_REPLACE', body_mutation: { body: b('{}') } },
    },
  },
  answer_response_headers_streamed: {
    response_headers: {
      response: {
        header_mutation: {
          set_headers: [set('x-gw-source', 'upstream'), set('x-gw-request-id', 'req_01')],
          remove_headers: ['content-length'],
        },
      },
    },
    mode_override: { response_body_mode: 'STREAMED' },
    dynamic_metadata: {
      fields: {
        'gw.usage': {
          structValue: {
            fields: {
              input_tokens: { numberValue: 12 },
              model: { stringValue: 'claude-sonnet-4-5' },
              streamed: { boolValue: true },
              tags: { listValue: { values: [{ stringValue: 'a' }, { numberValue: 1 }] } },
              nothing: { nullValue: 'NULL_VALUE' },
            },
          },
        },
      },
    },
  },
  answer_response_body_clear: {
    response_body: { response: { body_mutation: { clear_body: true } } },
  },
  answer_response_body_pass: { response_body: { response: {} } },
  answer_response_body_bare: { response_body: {} },
  answer_request_trailers: {
    request_trailers: { header_mutation: { remove_headers: ['x-checksum'] } },
  },
  immediate_forbidden: {
    immediate_response: {
      status: { code: 'Forbidden' },
      headers: {
        set_headers: [set('content-type', 'application/json'), set('x-gw-fault', 'model_not_allowed')],
      },
      body: b('{"type":"error","error":{"type":"permission_error","message":"gw: no"}}'),
      details: 'gw model not allowed',
    },
  },
  immediate_grpc_status: {
    immediate_response: { status: { code: 'ServiceUnavailable' }, grpc_status: { status: 14 } },
  },
  immediate_status_outside_enum: { immediate_response: { status: { code: 529 } } },
  override_message_timeout: { override_message_timeout: { seconds: '5', nanos: 500 } },
};
