package main

import (
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	filterv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/ext_proc/v3"
	extprocv3 "github.com/envoyproxy/go-control-plane/envoy/service/ext_proc/v3"
	typev3 "github.com/envoyproxy/go-control-plane/envoy/type/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// sample is one message kind the gateway sends or receives, built with
// Envoy's own generated types. The TypeScript side keeps a catalogue with
// the same names (test/integration/extproc/wire-catalogue.ts) so `verify`
// can compare field by field.
type sample struct {
	name string
	msg  proto.Message
}

const (
	kindRequest  = "ProcessingRequest"
	kindResponse = "ProcessingResponse"
)

func kindOf(m proto.Message) string {
	if _, ok := m.(*extprocv3.ProcessingRequest); ok {
		return kindRequest
	}
	return kindResponse
}

func hv(key, raw string) *corev3.HeaderValue {
	return &corev3.HeaderValue{Key: key, RawValue: []byte(raw)}
}

func set(key, raw string) *corev3.HeaderValueOption {
	return &corev3.HeaderValueOption{Header: hv(key, raw)}
}

func mustStruct(m map[string]any) *structpb.Struct {
	s, err := structpb.NewStruct(m)
	if err != nil {
		panic(err)
	}
	return s
}

func catalogue() []sample {
	return []sample{
		{"request_headers_get", &extprocv3.ProcessingRequest{
			Request: &extprocv3.ProcessingRequest_RequestHeaders{RequestHeaders: &extprocv3.HttpHeaders{
				Headers: &corev3.HeaderMap{Headers: []*corev3.HeaderValue{
					hv(":authority", "gw.local:8080"), hv(":path", "/v1/models?beta=true"),
					hv(":method", "GET"), hv(":scheme", "http"),
					hv("authorization", "Bearer gwct_example"), hv("x-request-id", "3f1c"),
				}},
				EndOfStream: true,
			}},
			ProtocolConfig: &extprocv3.ProtocolConfiguration{
				RequestBodyMode:  filterv3.ProcessingMode_BUFFERED,
				ResponseBodyMode: filterv3.ProcessingMode_NONE,
			},
		}},
		{"request_headers_post", &extprocv3.ProcessingRequest{
			Request: &extprocv3.ProcessingRequest_RequestHeaders{RequestHeaders: &extprocv3.HttpHeaders{
				Headers: &corev3.HeaderMap{Headers: []*corev3.HeaderValue{
					hv(":authority", "gw.local"), hv(":path", "/v1/messages"), hv(":method", "POST"),
					hv(":scheme", "https"), hv("content-type", "application/json"),
					hv("content-length", "57"), hv("anthropic-beta", "a"), hv("anthropic-beta", "b"),
					// Header bytes are not necessarily UTF-8; raw_value carries them untouched.
					{Key: "x-latin1", RawValue: []byte{0x63, 0x61, 0x66, 0xe9}},
				}},
			}},
			Attributes: map[string]*structpb.Struct{
				"envoy.filters.http.ext_proc": mustStruct(map[string]any{
					"request.path": "/v1/messages", "source.address": "10.0.0.7:51234",
				}),
			},
			MetadataContext: &corev3.Metadata{FilterMetadata: map[string]*structpb.Struct{
				"gw.in": mustStruct(map[string]any{"tenant": "acme", "weight": 2.5}),
			}},
			ProtocolConfig: &extprocv3.ProtocolConfiguration{
				RequestBodyMode:                         filterv3.ProcessingMode_BUFFERED,
				ResponseBodyMode:                        filterv3.ProcessingMode_STREAMED,
				SendBodyWithoutWaitingForHeaderResponse: true,
			},
		}},
		{"request_body_buffered", &extprocv3.ProcessingRequest{
			Request: &extprocv3.ProcessingRequest_RequestBody{RequestBody: &extprocv3.HttpBody{
				Body:        []byte(`{"model":"claude-sonnet-4-5","max_tokens":64,"stream":true}`),
				EndOfStream: true,
			}},
		}},
		{"request_trailers", &extprocv3.ProcessingRequest{
			Request: &extprocv3.ProcessingRequest_RequestTrailers{RequestTrailers: &extprocv3.HttpTrailers{
				Trailers: &corev3.HeaderMap{Headers: []*corev3.HeaderValue{hv("x-checksum", "abc")}},
			}},
		}},
		{"response_headers_sse", &extprocv3.ProcessingRequest{
			Request: &extprocv3.ProcessingRequest_ResponseHeaders{ResponseHeaders: &extprocv3.HttpHeaders{
				Headers: &corev3.HeaderMap{Headers: []*corev3.HeaderValue{
					hv(":status", "200"), hv("content-type", "text/event-stream"),
					hv("anthropic-ratelimit-unified-5h-utilization", "0.42"),
				}},
			}},
		}},
		{"response_body_chunk", &extprocv3.ProcessingRequest{
			Request: &extprocv3.ProcessingRequest_ResponseBody{ResponseBody: &extprocv3.HttpBody{
				Body: []byte("event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tok"),
			}},
		}},
		{"response_body_empty_final", &extprocv3.ProcessingRequest{
			Request: &extprocv3.ProcessingRequest_ResponseBody{ResponseBody: &extprocv3.HttpBody{EndOfStream: true}},
		}},
		{"response_trailers", &extprocv3.ProcessingRequest{
			Request: &extprocv3.ProcessingRequest_ResponseTrailers{ResponseTrailers: &extprocv3.HttpTrailers{
				Trailers: &corev3.HeaderMap{Headers: []*corev3.HeaderValue{hv("grpc-status", "0")}},
			}},
			ObservabilityMode: true,
		}},

		{"answer_request_headers_route", &extprocv3.ProcessingResponse{
			Response: &extprocv3.ProcessingResponse_RequestHeaders{RequestHeaders: &extprocv3.HeadersResponse{
				Response: &extprocv3.CommonResponse{
					HeaderMutation: &extprocv3.HeaderMutation{
						SetHeaders: []*corev3.HeaderValueOption{
							set("x-gw-upstream", "vendor"),
							{Header: hv("x-api-key", "sk-ant-example"), Append: wrapperspb.Bool(false)},
							{Header: hv("anthropic-beta", "c"), Append: wrapperspb.Bool(true)},
							{Header: hv("x-gw-note", "kept"), AppendAction: corev3.HeaderValueOption_ADD_IF_ABSENT, KeepEmptyValue: true},
						},
						RemoveHeaders: []string{"authorization", "x-gw-repo"},
					},
					ClearRouteCache: true,
				},
			}},
		}},
		{"answer_request_body_rewrite", &extprocv3.ProcessingResponse{
			Response: &extprocv3.ProcessingResponse_RequestBody{RequestBody: &extprocv3.BodyResponse{
				Response: &extprocv3.CommonResponse{
					HeaderMutation: &extprocv3.HeaderMutation{SetHeaders: []*corev3.HeaderValueOption{
						set("content-length", "23"), set(":path", "/v1/messages"), set("x-gw-upstream", "provider_a"),
					}},
					BodyMutation: &extprocv3.BodyMutation{Mutation: &extprocv3.BodyMutation_Body{
						Body: []byte(`{"model":"x","max_tokens":1}`[:23]),
					}},
					ClearRouteCache: true,
				},
			}},
		}},
		{"answer_request_body_replace", &extprocv3.ProcessingResponse{
			Response: &extprocv3.ProcessingResponse_RequestBody{RequestBody: &extprocv3.BodyResponse{
				Response: &extprocv3.CommonResponse{
					Status: extprocv3.CommonResponse_CONTINUE_AND_REPLACE,
					BodyMutation: &extprocv3.BodyMutation{Mutation: &extprocv3.BodyMutation_Body{
						Body: []byte("{}"),
					}},
				},
			}},
		}},
		{"answer_response_headers_streamed", &extprocv3.ProcessingResponse{
			Response: &extprocv3.ProcessingResponse_ResponseHeaders{ResponseHeaders: &extprocv3.HeadersResponse{
				Response: &extprocv3.CommonResponse{HeaderMutation: &extprocv3.HeaderMutation{
					SetHeaders:    []*corev3.HeaderValueOption{set("x-gw-source", "upstream"), set("x-gw-request-id", "req_01")},
					RemoveHeaders: []string{"content-length"},
				}},
			}},
			ModeOverride: &filterv3.ProcessingMode{ResponseBodyMode: filterv3.ProcessingMode_STREAMED},
			DynamicMetadata: mustStruct(map[string]any{
				"gw.usage": map[string]any{
					"input_tokens": 12.0, "model": "claude-sonnet-4-5", "streamed": true,
					"tags": []any{"a", 1.0}, "nothing": nil,
				},
			}),
		}},
		{"answer_response_body_clear", &extprocv3.ProcessingResponse{
			Response: &extprocv3.ProcessingResponse_ResponseBody{ResponseBody: &extprocv3.BodyResponse{
				Response: &extprocv3.CommonResponse{BodyMutation: &extprocv3.BodyMutation{
					Mutation: &extprocv3.BodyMutation_ClearBody{ClearBody: true},
				}},
			}},
		}},
		{"answer_response_body_pass", &extprocv3.ProcessingResponse{
			Response: &extprocv3.ProcessingResponse_ResponseBody{ResponseBody: &extprocv3.BodyResponse{
				Response: &extprocv3.CommonResponse{},
			}},
		}},
		{"answer_response_body_bare", &extprocv3.ProcessingResponse{
			Response: &extprocv3.ProcessingResponse_ResponseBody{ResponseBody: &extprocv3.BodyResponse{}},
		}},
		{"answer_request_trailers", &extprocv3.ProcessingResponse{
			Response: &extprocv3.ProcessingResponse_RequestTrailers{RequestTrailers: &extprocv3.TrailersResponse{
				HeaderMutation: &extprocv3.HeaderMutation{RemoveHeaders: []string{"x-checksum"}},
			}},
		}},
		{"immediate_forbidden", &extprocv3.ProcessingResponse{
			Response: &extprocv3.ProcessingResponse_ImmediateResponse{ImmediateResponse: &extprocv3.ImmediateResponse{
				Status: &typev3.HttpStatus{Code: typev3.StatusCode_Forbidden},
				Headers: &extprocv3.HeaderMutation{SetHeaders: []*corev3.HeaderValueOption{
					set("content-type", "application/json"), set("x-gw-fault", "model_not_allowed"),
				}},
				Body:    []byte(`{"type":"error","error":{"type":"permission_error","message":"gw: no"}}`),
				Details: "gw model not allowed",
			}},
		}},
		{"immediate_grpc_status", &extprocv3.ProcessingResponse{
			Response: &extprocv3.ProcessingResponse_ImmediateResponse{ImmediateResponse: &extprocv3.ImmediateResponse{
				Status:     &typev3.HttpStatus{Code: typev3.StatusCode_ServiceUnavailable},
				GrpcStatus: &extprocv3.GrpcStatus{Status: 14},
			}},
		}},
		// 529 is not in Envoy's StatusCode enum; open-enum decoding must keep it.
		{"immediate_status_outside_enum", &extprocv3.ProcessingResponse{
			Response: &extprocv3.ProcessingResponse_ImmediateResponse{ImmediateResponse: &extprocv3.ImmediateResponse{
				Status: &typev3.HttpStatus{Code: typev3.StatusCode(529)},
			}},
		}},
		{"override_message_timeout", &extprocv3.ProcessingResponse{
			OverrideMessageTimeout: &durationpb.Duration{Seconds: 5, Nanos: 500},
		}},
	}
}
