/**
 * Envoy ext_proc v3 protos (proto/envoy/**) loaded for @grpc/grpc-js, plus
 * TypeScript shapes for the messages as this loader decodes them.
 *
 * Loader options, and what they mean for the shapes below:
 * - keepCase: true   field names stay snake_case as on the wire
 *                    (`raw_value`, `end_of_stream`). Exception: the
 *                    google.protobuf.Value fields come from protobufjs's
 *                    bundled descriptor and are camelCase (`stringValue`).
 * - longs: String    int64 fields (Duration.seconds) decode as strings.
 * - enums: String    enums decode as their names ('STREAMED', 'Forbidden');
 *                    a number outside the enum (e.g. HTTP 529) stays a number.
 *                    Both names and numbers are accepted when encoding.
 * - defaults: false  absent fields are absent (undefined), never filled with
 *                    zero values, so "not sent" and "sent as default" are
 *                    the same thing, exactly as in proto3 on the wire.
 * - oneofs: true     each oneof also gets a string property naming the
 *                    member that is set: ProcessingRequest.request,
 *                    ProcessingResponse.response, BodyMutation.mutation,
 *                    Value.kind. Switch on it rather than probing members.
 * - bytes            decode as Buffer (proto-loader's default); encoding
 *                    accepts Buffer/Uint8Array.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';

// This file sits two levels below the package root both as
// src/extproc/proto.ts (vitest, tsc --noEmit) and as dist/extproc/proto.js,
// so one relative path serves both.
export const PROTO_ROOT = fileURLToPath(new URL('../../proto/', import.meta.url));

const SERVICE_PROTO = 'envoy/service/ext_proc/v3/external_processor.proto';

export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: false,
  oneofs: true,
  includeDirs: [PROTO_ROOT],
};

export const EXTERNAL_PROCESSOR_SERVICE = 'envoy.service.ext_proc.v3.ExternalProcessor';
export const PROCESS_METHOD_PATH = `/${EXTERNAL_PROCESSOR_SERVICE}/Process`;

// ---------------------------------------------------------------- shapes --

export type HeaderSendMode = 'DEFAULT' | 'SEND' | 'SKIP';
export type BodySendMode = 'NONE' | 'STREAMED' | 'BUFFERED' | 'BUFFERED_PARTIAL' | 'FULL_DUPLEX_STREAMED' | 'GRPC';

export interface ProcessingMode {
  request_header_mode?: HeaderSendMode;
  response_header_mode?: HeaderSendMode;
  request_body_mode?: BodySendMode;
  response_body_mode?: BodySendMode;
  request_trailer_mode?: HeaderSendMode;
  response_trailer_mode?: HeaderSendMode;
}

/** envoy.type.v3.StatusCode names; the number is the HTTP status. */
export type StatusCodeName =
  | 'Empty'
  | 'Continue'
  | 'OK'
  | 'Created'
  | 'Accepted'
  | 'NonAuthoritativeInformation'
  | 'NoContent'
  | 'ResetContent'
  | 'PartialContent'
  | 'MultiStatus'
  | 'AlreadyReported'
  | 'IMUsed'
  | 'MultipleChoices'
  | 'MovedPermanently'
  | 'Found'
  | 'SeeOther'
  | 'NotModified'
  | 'UseProxy'
  | 'TemporaryRedirect'
  | 'PermanentRedirect'
  | 'BadRequest'
  | 'Unauthorized'
  | 'PaymentRequired'
  | 'Forbidden'
  | 'NotFound'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'ProxyAuthenticationRequired'
  | 'RequestTimeout'
  | 'Conflict'
  | 'Gone'
  | 'LengthRequired'
  | 'PreconditionFailed'
  | 'PayloadTooLarge'
  | 'URITooLong'
  | 'UnsupportedMediaType'
  | 'RangeNotSatisfiable'
  | 'ExpectationFailed'
  | 'MisdirectedRequest'
  | 'UnprocessableEntity'
  | 'Locked'
  | 'FailedDependency'
  | 'UpgradeRequired'
  | 'PreconditionRequired'
  | 'TooManyRequests'
  | 'RequestHeaderFieldsTooLarge'
  | 'InternalServerError'
  | 'NotImplemented'
  | 'BadGateway'
  | 'ServiceUnavailable'
  | 'GatewayTimeout'
  | 'HTTPVersionNotSupported'
  | 'VariantAlsoNegotiates'
  | 'InsufficientStorage'
  | 'LoopDetected'
  | 'NotExtended'
  | 'NetworkAuthenticationRequired';

export interface HttpStatus {
  /** A name when the code is in Envoy's enum, the bare number otherwise. */
  code?: StatusCodeName | number;
}

export interface HeaderValue {
  key?: string;
  /** Never set together with raw_value: Envoy rejects that with a 500. */
  value?: string;
  raw_value?: Buffer;
}

export type HeaderAppendAction = 'APPEND_IF_EXISTS_OR_ADD' | 'ADD_IF_ABSENT' | 'OVERWRITE_IF_EXISTS_OR_ADD' | 'OVERWRITE_IF_EXISTS';

export interface BoolValue {
  value?: boolean;
}

export interface HeaderValueOption {
  header?: HeaderValue;
  /** The only append switch ext_proc reads; absent means overwrite. */
  append?: BoolValue;
  /** Decoded for completeness; ext_proc ignores it. */
  append_action?: HeaderAppendAction;
  keep_empty_value?: boolean;
}

export interface HeaderMap {
  headers?: HeaderValue[];
}

export type ProtoValueKind = 'nullValue' | 'numberValue' | 'stringValue' | 'boolValue' | 'structValue' | 'listValue';

/** google.protobuf.Value (camelCase: protobufjs's bundled descriptor). */
export interface ProtoValue {
  nullValue?: 'NULL_VALUE';
  numberValue?: number;
  stringValue?: string;
  boolValue?: boolean;
  structValue?: ProtoStruct;
  listValue?: { values?: ProtoValue[] };
  kind?: ProtoValueKind;
}

export interface ProtoStruct {
  fields?: Record<string, ProtoValue>;
}

export interface Metadata {
  filter_metadata?: Record<string, ProtoStruct>;
}

export interface Duration {
  seconds?: string;
  nanos?: number;
}

export interface ProtocolConfiguration {
  request_body_mode?: BodySendMode;
  response_body_mode?: BodySendMode;
  send_body_without_waiting_for_header_response?: boolean;
}

export interface HttpHeaders {
  headers?: HeaderMap;
  end_of_stream?: boolean;
}

export interface HttpBody {
  body?: Buffer;
  end_of_stream?: boolean;
}

export interface HttpTrailers {
  trailers?: HeaderMap;
}

export type ProcessingRequestKind = 'request_headers' | 'response_headers' | 'request_body' | 'response_body' | 'request_trailers' | 'response_trailers';

export interface ProcessingRequest {
  request_headers?: HttpHeaders;
  response_headers?: HttpHeaders;
  request_body?: HttpBody;
  response_body?: HttpBody;
  request_trailers?: HttpTrailers;
  response_trailers?: HttpTrailers;
  /** Which member of the `request` oneof is set (decoded messages only). */
  request?: ProcessingRequestKind;
  metadata_context?: Metadata;
  attributes?: Record<string, ProtoStruct>;
  observability_mode?: boolean;
  protocol_config?: ProtocolConfiguration;
}

export interface HeaderMutation {
  set_headers?: HeaderValueOption[];
  remove_headers?: string[];
}

export interface BodyMutation {
  body?: Buffer;
  clear_body?: boolean;
  mutation?: 'body' | 'clear_body';
}

export type ResponseStatus = 'CONTINUE' | 'CONTINUE_AND_REPLACE';

export interface CommonResponse {
  status?: ResponseStatus;
  header_mutation?: HeaderMutation;
  body_mutation?: BodyMutation;
  clear_route_cache?: boolean;
}

export interface HeadersResponse {
  response?: CommonResponse;
}

export interface BodyResponse {
  response?: CommonResponse;
}

export interface TrailersResponse {
  header_mutation?: HeaderMutation;
}

export interface GrpcStatus {
  status?: number;
}

export interface ImmediateResponse {
  status?: HttpStatus;
  headers?: HeaderMutation;
  body?: Buffer;
  grpc_status?: GrpcStatus;
  details?: string;
}

export type ProcessingResponseKind = 'request_headers' | 'response_headers' | 'request_body' | 'response_body' | 'request_trailers' | 'response_trailers' | 'immediate_response';

export interface ProcessingResponse {
  request_headers?: HeadersResponse;
  response_headers?: HeadersResponse;
  request_body?: BodyResponse;
  response_body?: BodyResponse;
  request_trailers?: TrailersResponse;
  response_trailers?: TrailersResponse;
  immediate_response?: ImmediateResponse;
  /** Which member of the `response` oneof is set (decoded messages only). */
  response?: ProcessingResponseKind;
  dynamic_metadata?: ProtoStruct;
  mode_override?: ProcessingMode;
  override_message_timeout?: Duration;
}

// ------------------------------------------------------------ definitions --

export type ProcessMethodDefinition = grpc.MethodDefinition<ProcessingRequest, ProcessingResponse>;

export interface ExternalProcessorServiceDefinition extends grpc.ServiceDefinition {
  Process: ProcessMethodDefinition;
}

/** What a processor implements; pass to `server.addService`. */
export interface ExternalProcessorHandlers extends grpc.UntypedServiceImplementation {
  Process: grpc.handleBidiStreamingCall<ProcessingRequest, ProcessingResponse>;
}

export type ProcessServerStream = grpc.ServerDuplexStream<ProcessingRequest, ProcessingResponse>;
export type ProcessClientStream = grpc.ClientDuplexStream<ProcessingRequest, ProcessingResponse>;

function loadPackageDefinition(): protoLoader.PackageDefinition {
  if (!existsSync(`${PROTO_ROOT}${SERVICE_PROTO}`)) {
    throw new Error(`ext_proc protos not found under ${PROTO_ROOT}; the proto/ folder must ship beside dist/`);
  }
  return protoLoader.loadSync(SERVICE_PROTO, LOADER_OPTIONS);
}

export const extProcPackageDefinition: protoLoader.PackageDefinition = loadPackageDefinition();

// The loader builds serializers from the protos at run time; the cast only
// attaches the hand-written shapes above to them.
export const externalProcessorService = extProcPackageDefinition[EXTERNAL_PROCESSOR_SERVICE] as unknown as ExternalProcessorServiceDefinition;

const processMethod = externalProcessorService.Process;

const encodeResponse = processMethod.responseSerialize;
const encodedOnce = new WeakMap<ProcessingResponse, Buffer>();
/** Frozen answers are constants (the empty continue sent for nearly every chunk): encoded once, not per message. */
export function serializeProcessingResponse(message: ProcessingResponse): Buffer {
  if (!Object.isFrozen(message)) return encodeResponse(message);
  let bytes = encodedOnce.get(message);
  if (bytes === undefined) encodedOnce.set(message, (bytes = encodeResponse(message)));
  // Both transports copy the bytes into their own frame, so one buffer serves every answer.
  return bytes;
}

/** The service as the processor registers it: the loader's definition with the caching response encoder. */
export const processorService: ExternalProcessorServiceDefinition = {
  ...externalProcessorService,
  Process: { ...processMethod, responseSerialize: serializeProcessingResponse },
};

/** Exactly the bytes grpc-js puts on the wire for a ProcessingRequest. */
export function encodeProcessingRequest(message: ProcessingRequest): Buffer {
  return processMethod.requestSerialize(message);
}

export function decodeProcessingRequest(bytes: Buffer): ProcessingRequest {
  return processMethod.requestDeserialize(bytes);
}

export function encodeProcessingResponse(message: ProcessingResponse): Buffer {
  return processMethod.responseSerialize(message);
}

export function decodeProcessingResponse(bytes: Buffer): ProcessingResponse {
  return processMethod.responseDeserialize(bytes);
}

/** Opens one Process stream, the way Envoy does once per HTTP request. */
export function openProcessStream(client: grpc.Client, options: grpc.CallOptions = {}, metadata: grpc.Metadata = new grpc.Metadata()): ProcessClientStream {
  return client.makeBidiStreamRequest(PROCESS_METHOD_PATH, processMethod.requestSerialize, processMethod.responseDeserialize, metadata, options);
}

const statusCodeEnum = extProcPackageDefinition['envoy.type.v3.StatusCode'] as unknown as {
  type: { value: { name: string; number: number }[] };
};
const statusNumberByName = new Map(statusCodeEnum.type.value.map((v) => [v.name, v.number]));

/** HttpStatus.code as a number, whichever form the decoder produced. */
export function statusCodeNumber(code: StatusCodeName | number | undefined): number {
  if (code === undefined) return 0;
  if (typeof code === 'number') return code;
  return statusNumberByName.get(code) ?? 0;
}
