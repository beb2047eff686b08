{{/*
The Envoy bootstrap of the gateway pods.

It is the same document `gw envoy-config` renders (src/envoy/bootstrap.ts) for
the settings in "model-gateway.envoySettings", field for field:
test/integration/chart/envoy-bootstrap.test.ts renders both and compares them,
and runs the strict go-control-plane validator on this one. A change to the
generator needs the same change here (the test says where they differ).
*/}}

{{/*
The `gw envoy-config --values` settings of this release: gateway.envoy.settings
plus what the chart decides (the sidecar socket, the path prefix and the body
limit the processor runs with). The ConfigMap carries them beside the bootstrap.
*/}}
{{- define "model-gateway.envoySettings" -}}
{{- $s := deepCopy .Values.gateway.envoy.settings -}}
{{- $_ := set $s "processorSocket" (include "model-gateway.processorSocket" .) -}}
{{- $_ := set $s "pathPrefix" .Values.gateway.pathPrefix -}}
{{- $_ := set $s "maxBodyMb" .Values.gateway.maxBodyMb -}}
{{- $otel := .Values.otel -}}
{{- if and $otel.endpoint $otel.envoy.enabled -}}
{{- $collector := $otel.envoy.collector -}}
{{- if not $collector -}}
{{- if ne $otel.protocol "grpc" -}}
{{- fail "otel.envoy.collector (host:port of the collector's OTLP/gRPC port) is needed when otel.protocol is not grpc: Envoy exports over gRPC only" -}}
{{- end -}}
{{- $u := urlParse $otel.endpoint -}}
{{- $collector = $u.host -}}
{{- if not (regexMatch ":[0-9]+$" $collector) }}{{ $collector = printf "%s:4317" $collector }}{{ end -}}
{{- end -}}
{{- $_ := set $s "tracingCollector" $collector -}}
{{- $_ := set $s "tracingCollectorTls" (hasPrefix "https://" $otel.endpoint) -}}
{{- $_ := set $s "tracingServiceName" "gw-envoy" -}}
{{- $_ := set $s "tracingSamplingPercent" (mulf $otel.sampling.ratio 100.0) -}}
{{- end -}}
{{- toYaml $s -}}
{{- end -}}

{{/* Seconds as an Envoy Duration with millisecond precision ("300s", "2.5s"). */}}
{{- define "model-gateway.duration" -}}
{{- printf "%vs" (round (float64 .) 3) -}}
{{- end -}}

{{/* IPv4 or IPv6 literal (Envoy does not resolve names for listeners). */}}
{{- define "model-gateway.isIP" -}}
{{- if or (regexMatch "^[0-9]{1,3}(\\.[0-9]{1,3}){3}$" .) (regexMatch "^[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*$" .) -}}true{{- end -}}
{{- end -}}

{{/*
The provider origins in first-seen order, as JSON (a list of objects): one
Envoy cluster per scheme + host + port, named as the processor names it
(src/upstream/cluster-name.ts).
*/}}
{{- define "model-gateway.providerOrigins" -}}
{{- $origins := list -}}
{{- $clusters := dict -}}
{{- range $base := . -}}
{{- if not (regexMatch "^[A-Za-z][A-Za-z0-9+.-]*://" $base) -}}
{{- fail (printf "gateway.envoy.settings.providers: %q is not a URL" $base) -}}
{{- end -}}
{{- $u := urlParse $base -}}
{{- $scheme := lower $u.scheme -}}
{{- if not (has $scheme (list "http" "https")) -}}
{{- fail (printf "gateway.envoy.settings.providers: %q must be an http:// or https:// URL" $base) -}}
{{- end -}}
{{- if $u.userinfo -}}
{{- fail (printf "gateway.envoy.settings.providers: %q must not carry credentials; they belong in ProviderCredentials" $base) -}}
{{- end -}}
{{- if or $u.query $u.fragment (contains "?" $base) (contains "#" $base) -}}
{{- fail (printf "gateway.envoy.settings.providers: %q must not have a query or fragment" $base) -}}
{{- end -}}
{{- $hostname := lower $u.hostname -}}
{{- if not $hostname -}}
{{- fail (printf "gateway.envoy.settings.providers: %q has no host" $base) -}}
{{- end -}}
{{- $v6 := contains ":" $hostname -}}
{{- $urlHost := $hostname -}}
{{- if $v6 }}{{ $urlHost = printf "[%s]" $hostname }}{{ end -}}
{{- $https := eq $scheme "https" -}}
{{- $port := 80 -}}
{{- if $https }}{{ $port = 443 }}{{ end -}}
{{- $defaultPort := $port -}}
{{- $explicit := regexFind ":[0-9]+$" $u.host | trimPrefix ":" -}}
{{- if $explicit }}{{ $port = atoi $explicit }}{{ end -}}
{{- if or (lt $port 0) (gt $port 65535) -}}
{{- fail (printf "gateway.envoy.settings.providers: %q has an invalid port" $base) -}}
{{- end -}}
{{- $host := $urlHost -}}
{{- if ne $port $defaultPort }}{{ $host = printf "%s:%d" $urlHost $port }}{{ end -}}
{{- $origin := printf "%s://%s" $scheme $host -}}
{{- $cluster := printf "gw_%s_%s_%d" $scheme (regexReplaceAll "[^A-Za-z0-9]" $urlHost "_") $port -}}
{{- if hasKey $clusters $cluster -}}
{{- if ne (get $clusters $cluster) $origin -}}
{{- fail (printf "gateway.envoy.settings.providers: %q and %q both map to cluster %s; use distinct hosts" (get $clusters $cluster) $origin $cluster) -}}
{{- end -}}
{{- else -}}
{{- $_ := set $clusters $cluster $origin -}}
{{- $literal := or $v6 (regexMatch "^[0-9]{1,3}(\\.[0-9]{1,3}){3}$" $hostname) -}}
{{- $origins = append $origins (dict "cluster" $cluster "https" $https "literal" $literal "bare" $hostname "host" $host "port" $port) -}}
{{- end -}}
{{- end -}}
{{- toJson $origins -}}
{{- end -}}

{{- define "model-gateway.circuitBreakers" -}}
thresholds:
  - priority: DEFAULT
    max_connections: {{ . }}
    max_pending_requests: {{ . }}
    max_requests: {{ . }}
{{- end -}}

{{- define "model-gateway.envoyBootstrap" -}}
{{- $s := include "model-gateway.envoySettings" . | fromYaml -}}
{{- $mib := 1048576.0 -}}
{{- $bufferLimit := round (mulf $s.bufferLimitMb $mib) 0 | int64 -}}
{{- $maxBody := round (mulf $s.maxBodyMb $mib) 0 | int64 -}}
{{- if le $bufferLimit $maxBody -}}
{{- fail (printf "gateway.envoy.settings.bufferLimitMb (%v MiB) must be larger than gateway.maxBodyMb (%v MiB): a body just over the gateway's limit must still reach the processor, which answers with the gateway's own 413" $s.bufferLimitMb $s.maxBodyMb) -}}
{{- end -}}
{{- if gt $bufferLimit 67043328 -}}
{{- fail (printf "gateway.envoy.settings.bufferLimitMb must be below 64 MiB, the largest message gw extproc accepts, got %v MiB" $s.bufferLimitMb) -}}
{{- end -}}
{{- range $key := list "listenAddress" "adminAddress" -}}
{{- if not (include "model-gateway.isIP" (get $s $key)) -}}
{{- fail (printf "gateway.envoy.settings.%s must be an IP address (e.g. 0.0.0.0 or ::), got %q" $key (get $s $key)) -}}
{{- end -}}
{{- end -}}
{{- if or (hasPrefix "127." $s.adminAddress) (eq $s.adminAddress "::1") -}}
{{- fail "gateway.envoy.settings.adminAddress must not be a loopback address: the kubelet probes Envoy's /ready there (the NetworkPolicy keeps other peers out)" -}}
{{- end -}}
{{- if and (eq $s.adminAddress $s.listenAddress) (eq (int64 $s.adminPort) (int64 $s.listenPort)) -}}
{{- fail "gateway.envoy.settings.adminPort and listenPort must differ on the same address" -}}
{{- end -}}
{{- $origins := include "model-gateway.providerOrigins" $s.providers | fromJsonArray -}}
{{- if not $origins -}}
{{- fail "gateway.envoy.settings.providers: at least one provider base URL is needed" -}}
{{- end -}}
{{- $idle := include "model-gateway.duration" $s.streamIdleTimeoutSeconds -}}
{{- $connect := include "model-gateway.duration" $s.connectTimeoutSeconds -}}
{{- $max := int64 $s.maxConcurrentRequests -}}
# Envoy bootstrap of the model-gateway chart: the document `gw envoy-config --values`
# renders for gw-envoy-config-values.yaml beside it in this ConfigMap.
# processor: unix:{{ $s.processorSocket }}; path prefix: {{ $s.pathPrefix | default "(none)" }}
admin:
  address:
    socket_address:
      address: {{ $s.adminAddress | toJson }}
      port_value: {{ int64 $s.adminPort }}
static_resources:
  listeners:
    - name: gw
      address:
        socket_address:
          address: {{ $s.listenAddress | toJson }}
          port_value: {{ int64 $s.listenPort }}
      # BUFFERED request bodies (and JSON responses the processor buffers) must fit here.
      per_connection_buffer_limit_bytes: {{ $bufferLimit }}
      filter_chains:
        - filters:
            - name: envoy.filters.network.http_connection_manager
              typed_config:
                "@type": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager
                stat_prefix: gw
                codec_type: AUTO
                use_remote_address: true
                generate_request_id: {{ if $s.tracingCollector }}true{{ else }}false{{ end }}
                {{- if $s.tracingCollector }}
                # Envoy's OpenTelemetry tracer; the provider gets a traceparent only from the processor.
                tracing:
                  random_sampling:
                    value: {{ $s.tracingSamplingPercent }}
                  no_context_propagation: true
                  provider:
                    name: envoy.tracers.opentelemetry
                    typed_config:
                      "@type": type.googleapis.com/envoy.config.trace.v3.OpenTelemetryConfig
                      grpc_service:
                        envoy_grpc:
                          cluster_name: gw_otel_collector
                        timeout: 5s
                      service_name: {{ $s.tracingServiceName | toJson }}
                {{- end }}
                request_timeout: 0s
                stream_idle_timeout: {{ $idle }}
                drain_timeout: {{ include "model-gateway.duration" $s.drainTimeoutSeconds }}
                route_config:
                  name: gw
                  virtual_hosts:
                    - name: gw
                      domains:
                        - "*"
                      routes:
                        # One route per provider cluster, chosen by the x-gw-upstream header the processor sets.
                        {{- range $origins }}
                        - name: {{ .cluster }}
                          match:
                            prefix: /
                            headers:
                              - name: x-gw-upstream
                                string_match:
                                  exact: {{ .cluster }}
                          route:
                            cluster: {{ .cluster }}
                            timeout: 0s
                            idle_timeout: {{ $idle }}
                            auto_host_rewrite: true
                          request_headers_to_remove:
                            - x-gw-upstream
                        {{- end }}
                        # Catch-all: reached at forwarding time only if the processor named an
                        # undeclared cluster or did not decide; fail closed.
                        - name: gw_no_upstream
                          match:
                            prefix: /
                          direct_response:
                            status: 502
                            body:
                              inline_string: "gw: no Envoy route for the upstream the gateway chose; add its base URL to gw envoy-config --provider\n"
                http_filters:
                  - name: envoy.filters.http.ext_proc
                    typed_config:
                      "@type": type.googleapis.com/envoy.extensions.filters.http.ext_proc.v3.ExternalProcessor
                      grpc_service:
                        envoy_grpc:
                          cluster_name: gw_extproc
                      failure_mode_allow: false
                      message_timeout: {{ include "model-gateway.duration" $s.messageTimeoutSeconds }}
                      # response_body_mode is switched per response with mode_override (STREAMED for SSE, BUFFERED for JSON).
                      processing_mode:
                        request_header_mode: SEND
                        request_body_mode: BUFFERED
                        response_header_mode: SEND
                        response_body_mode: NONE
                        request_trailer_mode: SKIP
                        response_trailer_mode: SKIP
                      mutation_rules:
                        disallow_is_error: true
                      allow_mode_override: true
                  - name: envoy.filters.http.router
                    typed_config:
                      "@type": type.googleapis.com/envoy.extensions.filters.http.router.v3.Router
  clusters:
    - name: gw_extproc
      type: STATIC
      connect_timeout: 1s
      typed_extension_protocol_options:
        envoy.extensions.upstreams.http.v3.HttpProtocolOptions:
          "@type": type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions
          explicit_http_config:
            http2_protocol_options: {}
      circuit_breakers:
        {{- include "model-gateway.circuitBreakers" $max | nindent 8 }}
      load_assignment:
        cluster_name: gw_extproc
        endpoints:
          - lb_endpoints:
              - endpoint:
                  address:
                    pipe:
                      path: {{ $s.processorSocket | toJson }}
    {{- range $origins }}
    - name: {{ .cluster }}
      type: {{ if .literal }}STATIC{{ else }}LOGICAL_DNS{{ end }}
      {{- if not .literal }}
      dns_lookup_family: V4_PREFERRED
      {{- end }}
      connect_timeout: {{ $connect }}
      typed_extension_protocol_options:
        envoy.extensions.upstreams.http.v3.HttpProtocolOptions:
          "@type": type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions
          {{- if .https }}
          auto_config:
            http_protocol_options: {}
            http2_protocol_options: {}
          {{- else }}
          explicit_http_config:
            http_protocol_options: {}
          {{- end }}
      circuit_breakers:
        {{- include "model-gateway.circuitBreakers" $max | nindent 8 }}
      load_assignment:
        cluster_name: {{ .cluster }}
        endpoints:
          - lb_endpoints:
              - endpoint:
                  address:
                    socket_address:
                      address: {{ .bare | toJson }}
                      port_value: {{ .port }}
                  hostname: {{ .host | toJson }}
      {{- if .https }}
      transport_socket:
        name: envoy.transport_sockets.tls
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext
          {{- if not .literal }}
          sni: {{ .bare | toJson }}
          {{- end }}
          common_tls_context:
            validation_context:
              trusted_ca:
                filename: {{ $s.upstreamCaFile | toJson }}
              match_typed_subject_alt_names:
                - san_type: {{ if .literal }}IP_ADDRESS{{ else }}DNS{{ end }}
                  matcher:
                    exact: {{ .bare | toJson }}
      {{- end }}
    {{- end }}
    {{- if $s.tracingCollector }}
    {{- $chost := regexReplaceAll ":[0-9]+$" $s.tracingCollector "" | trimPrefix "[" | trimSuffix "]" -}}
    {{- $cport := regexFind "[0-9]+$" $s.tracingCollector | atoi -}}
    {{- $cliteral := or (contains ":" $chost) (regexMatch "^[0-9]{1,3}(\\.[0-9]{1,3}){3}$" $chost) }}
    - name: gw_otel_collector
      type: {{ if $cliteral }}STATIC{{ else }}STRICT_DNS{{ end }}
      connect_timeout: {{ $connect }}
      typed_extension_protocol_options:
        envoy.extensions.upstreams.http.v3.HttpProtocolOptions:
          "@type": type.googleapis.com/envoy.extensions.upstreams.http.v3.HttpProtocolOptions
          explicit_http_config:
            http2_protocol_options: {}
      load_assignment:
        cluster_name: gw_otel_collector
        endpoints:
          - lb_endpoints:
              - endpoint:
                  address:
                    socket_address:
                      address: {{ $chost | toJson }}
                      port_value: {{ $cport }}
      {{- if $s.tracingCollectorTls }}
      transport_socket:
        name: envoy.transport_sockets.tls
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.transport_sockets.tls.v3.UpstreamTlsContext
          {{- if not $cliteral }}
          sni: {{ $chost | toJson }}
          {{- end }}
          common_tls_context:
            alpn_protocols:
              - h2
            validation_context:
              trusted_ca:
                filename: {{ $s.upstreamCaFile | toJson }}
              match_typed_subject_alt_names:
                - san_type: {{ if $cliteral }}IP_ADDRESS{{ else }}DNS{{ end }}
                  matcher:
                    exact: {{ $chost | toJson }}
      {{- end }}
    {{- end }}
{{- end -}}
