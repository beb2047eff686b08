/**
 * The harness's ProcessingMode: Envoy's six settings, restricted to the
 * values the harness reproduces. Requests: headers SEND/SKIP, body
 * NONE/BUFFERED. Responses: headers SEND/SKIP, body NONE/STREAMED/BUFFERED.
 * Trailers SEND/SKIP in both directions.
 */
import type { BodySendMode, HeaderSendMode, ProcessingMode } from '../../../src/extproc/proto.js';

export interface HarnessProcessingMode {
  request_header_mode: 'SEND' | 'SKIP';
  request_body_mode: 'NONE' | 'BUFFERED';
  response_header_mode: 'SEND' | 'SKIP';
  response_body_mode: 'NONE' | 'STREAMED' | 'BUFFERED';
  request_trailer_mode: 'SEND' | 'SKIP';
  response_trailer_mode: 'SEND' | 'SKIP';
}

/** The gateway's Envoy config (reference §3), not Envoy's proto defaults. */
export const GATEWAY_PROCESSING_MODE: HarnessProcessingMode = {
  request_header_mode: 'SEND',
  request_body_mode: 'BUFFERED',
  response_header_mode: 'SEND',
  response_body_mode: 'NONE',
  request_trailer_mode: 'SEND',
  response_trailer_mode: 'SEND',
};

export class UnsupportedModeError extends Error {}

function headerMode(current: 'SEND' | 'SKIP', next: HeaderSendMode | undefined): 'SEND' | 'SKIP' {
  // DEFAULT (or unset) in an override leaves the setting unchanged.
  return next === 'SEND' || next === 'SKIP' ? next : current;
}

function requestBodyMode(mode: BodySendMode | undefined): HarnessProcessingMode['request_body_mode'] {
  const literal = mode ?? 'NONE';
  if (literal === 'NONE' || literal === 'BUFFERED') return literal;
  throw new UnsupportedModeError(`harness: request_body_mode ${literal} is not reproduced`);
}

function responseBodyMode(mode: BodySendMode | undefined): HarnessProcessingMode['response_body_mode'] {
  const literal = mode ?? 'NONE';
  if (literal === 'NONE' || literal === 'STREAMED' || literal === 'BUFFERED') return literal;
  throw new UnsupportedModeError(`harness: response_body_mode ${literal} is not reproduced`);
}

/**
 * Current Envoy's merge of a mode_override: request_header_mode is ignored,
 * DEFAULT header/trailer modes keep the current value, and body modes are
 * taken literally (unset means NONE).
 */
export function mergeModeOverride(current: HarnessProcessingMode, override: ProcessingMode): HarnessProcessingMode {
  return {
    request_header_mode: current.request_header_mode,
    response_header_mode: headerMode(current.response_header_mode, override.response_header_mode),
    request_body_mode: requestBodyMode(override.request_body_mode),
    response_body_mode: responseBodyMode(override.response_body_mode),
    request_trailer_mode: headerMode(current.request_trailer_mode, override.request_trailer_mode),
    response_trailer_mode: headerMode(current.response_trailer_mode, override.response_trailer_mode),
  };
}
