{{/*
The Envoy side of the gateway pods. There is one description of Envoy's
configuration: src/envoy/bootstrap.ts. The chart only works out the settings
of `gw envoy-config --values` for this release; an init container of the gw
image renders the bootstrap from them into an emptyDir that Envoy reads, so a
chart can never drift from the generator. test/integration/chart/envoy-bootstrap.test.ts
renders every value set, runs `gw envoy-config` on the settings the chart
publishes and validates the result with go-control-plane.
*/}}

{{/*
The `gw envoy-config --values` settings of this release: gateway.envoy.settings
plus what the chart decides (the sidecar socket, the path prefix and body limit
the processor runs with, the memory limit of the Envoy container, which sizes
the overload manager, and Envoy's tracer when otel is on).
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
{{- if not (hasKey $s "memoryLimitMb") -}}
{{- $_ := set $s "memoryLimitMb" (include "model-gateway.envoyMemoryMb" . | atoi) -}}
{{- end -}}
{{- toYaml $s -}}
{{- end -}}

{{/* The Envoy container's memory limit in MiB (1024 when none is set). */}}
{{- define "model-gateway.envoyMemoryMb" -}}
{{- $limit := dig "limits" "memory" "" .Values.gateway.envoy.resources -}}
{{- if $limit -}}{{ include "model-gateway.quantityMiB" (dict "q" $limit "at" "gateway.envoy.resources.limits.memory") }}{{- else -}}1024{{- end -}}
{{- end -}}

{{/*
Envoy's worker threads: --concurrency from the container's CPU limit (rounded
up), else its request, else 2. Without the flag Envoy starts one worker per
CPU of the node.
*/}}
{{- define "model-gateway.envoyConcurrency" -}}
{{- $r := .Values.gateway.envoy.resources -}}
{{- $cpu := dig "limits" "cpu" (dig "requests" "cpu" "" $r) $r | toString -}}
{{- if not $cpu -}}2
{{- else if hasSuffix "m" $cpu -}}{{ max 1 (ceil (divf (trimSuffix "m" $cpu | float64) 1000.0)) | int64 }}
{{- else -}}{{ max 1 (ceil ($cpu | float64)) | int64 }}
{{- end -}}
{{- end -}}
