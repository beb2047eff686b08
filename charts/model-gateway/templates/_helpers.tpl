{{/*
Names, labels and the small values every template shares.
*/}}

{{- define "model-gateway.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* <release>-<chart>, or just <release> when the release name already contains the chart name. */}}
{{- define "model-gateway.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "model-gateway.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels of every resource; call with (dict "ctx" $ "component" "gateway"). */}}
{{- define "model-gateway.labels" -}}
helm.sh/chart: {{ include "model-gateway.chart" .ctx }}
{{ include "model-gateway.selectorLabels" . }}
app.kubernetes.io/version: {{ .ctx.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .ctx.Release.Service }}
app.kubernetes.io/part-of: model-gateway
{{- with .ctx.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{- define "model-gateway.selectorLabels" -}}
app.kubernetes.io/name: {{ include "model-gateway.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
{{- if .component }}
app.kubernetes.io/component: {{ .component }}
{{- end }}
{{- end -}}

{{/* image reference; call with (dict "image" .Values.x.image "default" "tag"). */}}
{{- define "model-gateway.imageRef" -}}
{{- $tag := .image.tag | default .default -}}
{{- if .image.digest -}}
{{- printf "%s:%s@%s" .image.repository $tag .image.digest -}}
{{- else -}}
{{- printf "%s:%s" .image.repository $tag -}}
{{- end -}}
{{- end -}}

{{- define "model-gateway.image" -}}
{{- include "model-gateway.imageRef" (dict "image" .Values.image "default" .Chart.AppVersion) -}}
{{- end -}}

{{- define "model-gateway.gatewayName" -}}{{ include "model-gateway.fullname" . }}-gateway{{- end -}}
{{- define "model-gateway.operatorName" -}}{{ include "model-gateway.fullname" . }}-operator{{- end -}}
{{- define "model-gateway.redisName" -}}{{ include "model-gateway.fullname" . }}-redis{{- end -}}

{{- define "model-gateway.gatewayServiceAccount" -}}
{{- if .Values.gateway.serviceAccount.create -}}
{{- .Values.gateway.serviceAccount.name | default (include "model-gateway.gatewayName" .) -}}
{{- else -}}
{{- .Values.gateway.serviceAccount.name | default "default" -}}
{{- end -}}
{{- end -}}

{{- define "model-gateway.operatorServiceAccount" -}}
{{- if .Values.operator.serviceAccount.create -}}
{{- .Values.operator.serviceAccount.name | default (include "model-gateway.operatorName" .) -}}
{{- else -}}
{{- .Values.operator.serviceAccount.name | default "default" -}}
{{- end -}}
{{- end -}}

{{- define "model-gateway.leaseName" -}}
{{- .Values.operator.leaseName | default (include "model-gateway.operatorName" .) -}}
{{- end -}}

{{/* The Unix socket shared by Envoy and the processor (an emptyDir mounted in both). */}}
{{- define "model-gateway.socketDir" -}}/var/run/gw{{- end -}}
{{- define "model-gateway.processorSocket" -}}/var/run/gw/extproc.sock{{- end -}}

{{/* Secret names and keys (ours when generated, the user's when existingSecret is set). */}}
{{- define "model-gateway.encryptionKeySecret" -}}
{{- .Values.encryptionKey.existingSecret | default (printf "%s-encryption-key" (include "model-gateway.fullname" .)) -}}
{{- end -}}
{{- define "model-gateway.encryptionKeySecretKey" -}}
{{- if .Values.encryptionKey.existingSecret }}{{ .Values.encryptionKey.existingSecretKey }}{{ else }}key{{ end -}}
{{- end -}}

{{- define "model-gateway.adminTokenSecret" -}}
{{- .Values.gateway.processor.adminToken.existingSecret | default (printf "%s-admin-token" (include "model-gateway.fullname" .)) -}}
{{- end -}}
{{- define "model-gateway.adminTokenSecretKey" -}}
{{- if .Values.gateway.processor.adminToken.existingSecret }}{{ .Values.gateway.processor.adminToken.existingSecretKey }}{{ else }}token{{ end -}}
{{- end -}}

{{- define "model-gateway.redisPasswordSecret" -}}
{{- .Values.redis.bundled.auth.existingSecret | default (printf "%s-redis-password" (include "model-gateway.fullname" .)) -}}
{{- end -}}
{{- define "model-gateway.redisPasswordSecretKey" -}}
{{- if .Values.redis.bundled.auth.existingSecret }}{{ .Values.redis.bundled.auth.existingSecretKey }}{{ else }}password{{ end -}}
{{- end -}}

{{- define "model-gateway.redisUrlSecret" -}}
{{- .Values.redis.external.existingSecret | default (printf "%s-redis-url" (include "model-gateway.fullname" .)) -}}
{{- end -}}
{{- define "model-gateway.redisUrlSecretKey" -}}
{{- if .Values.redis.external.existingSecret }}{{ .Values.redis.external.existingSecretKey }}{{ else }}url{{ end -}}
{{- end -}}

{{/*
A Secret's data value that survives upgrades: the value already in the cluster
when there is one (lookup), a fresh random one otherwise. `helm template` has no
cluster, so it always renders a fresh value.
Call with (dict "ctx" $ "name" NAME "key" KEY "value" FRESH_PLAINTEXT).
*/}}
{{- define "model-gateway.keptSecretData" -}}
{{- $existing := lookup "v1" "Secret" .ctx.Release.Namespace .name -}}
{{- if and $existing $existing.data (hasKey $existing.data .key) -}}
{{- index $existing.data .key -}}
{{- else -}}
{{- .value | b64enc -}}
{{- end -}}
{{- end -}}

{{/*
Environment shared by the processor and the operator: Redis, its CA, the encryption key.
*/}}
{{- define "model-gateway.stateEnv" -}}
{{- if .Values.redis.bundled.enabled }}
- name: GW_REDIS_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ include "model-gateway.redisPasswordSecret" . }}
      key: {{ include "model-gateway.redisPasswordSecretKey" . }}
# Kubernetes expands $(GW_REDIS_PASSWORD) from the variable above.
- name: GW_REDIS_URL
  value: {{ printf "redis://:$(GW_REDIS_PASSWORD)@%s.%s.svc:6379/0" (include "model-gateway.redisName" .) .Release.Namespace | quote }}
{{- else }}
- name: GW_REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ include "model-gateway.redisUrlSecret" . }}
      key: {{ include "model-gateway.redisUrlSecretKey" . }}
{{- if .Values.redis.external.tls.caSecret }}
- name: GW_REDIS_TLS_CA_FILE
  value: /etc/gw/redis-ca/ca.crt
{{- end }}
{{- end }}
- name: GW_ENCRYPTION_KEY_FILE
  value: /etc/gw/encryption/key
{{- end -}}

{{/*
The standard OpenTelemetry SDK variables for one component (dict: ctx, service).
Nothing at all while otel.endpoint is empty: the SDK is then never loaded.
*/}}
{{- define "model-gateway.otelEnv" -}}
{{- $o := .ctx.Values.otel -}}
{{- if $o.endpoint }}
- name: OTEL_EXPORTER_OTLP_ENDPOINT
  value: {{ $o.endpoint | quote }}
- name: OTEL_EXPORTER_OTLP_PROTOCOL
  value: {{ $o.protocol | quote }}
- name: OTEL_SERVICE_NAME
  value: {{ .service | quote }}
- name: OTEL_TRACES_SAMPLER
  value: {{ $o.sampling.sampler | quote }}
- name: OTEL_TRACES_SAMPLER_ARG
  value: {{ $o.sampling.ratio | toString | quote }}
{{- with $o.resourceAttributes }}
- name: OTEL_RESOURCE_ATTRIBUTES
  value: {{ . | quote }}
{{- end }}
{{- if $o.headers.existingSecret }}
- name: OTEL_EXPORTER_OTLP_HEADERS
  valueFrom:
    secretKeyRef:
      name: {{ $o.headers.existingSecret }}
      key: {{ $o.headers.existingSecretKey }}
{{- end }}
{{- if $o.tls.caSecret }}
- name: OTEL_EXPORTER_OTLP_CERTIFICATE
  value: /etc/gw/otel-ca/ca.crt
{{- end }}
{{- end }}
{{- end -}}

{{- define "model-gateway.stateVolumeMounts" -}}
- name: encryption-key
  mountPath: /etc/gw/encryption
  readOnly: true
{{- if and (not .Values.redis.bundled.enabled) .Values.redis.external.tls.caSecret }}
- name: redis-ca
  mountPath: /etc/gw/redis-ca
  readOnly: true
{{- end }}
{{- if and .Values.otel.endpoint .Values.otel.tls.caSecret }}
- name: otel-ca
  mountPath: /etc/gw/otel-ca
  readOnly: true
{{- end }}
{{- end -}}

{{- define "model-gateway.stateVolumes" -}}
- name: encryption-key
  secret:
    secretName: {{ include "model-gateway.encryptionKeySecret" . }}
    defaultMode: 288 # 0440: owner and group (fsGroup) read
    items:
      - key: {{ include "model-gateway.encryptionKeySecretKey" . }}
        path: key
{{- if and (not .Values.redis.bundled.enabled) .Values.redis.external.tls.caSecret }}
- name: redis-ca
  secret:
    secretName: {{ .Values.redis.external.tls.caSecret }}
    defaultMode: 292 # 0444
    items:
      - key: {{ .Values.redis.external.tls.caSecretKey }}
        path: ca.crt
{{- end }}
{{- if and .Values.otel.endpoint .Values.otel.tls.caSecret }}
- name: otel-ca
  secret:
    secretName: {{ .Values.otel.tls.caSecret }}
    defaultMode: 292 # 0444
    items:
      - key: {{ .Values.otel.tls.caSecretKey }}
        path: ca.crt
{{- end }}
{{- end -}}

{{/* Topology spread constraints with the component's pods as the default labelSelector. */}}
{{- define "model-gateway.topologySpread" -}}
{{- $selector := include "model-gateway.selectorLabels" (dict "ctx" .ctx "component" .component) | fromYaml -}}
{{- range .constraints }}
{{- $c := deepCopy . }}
{{- if not (hasKey $c "labelSelector") }}
{{- $_ := set $c "labelSelector" (dict "matchLabels" $selector) }}
{{- end }}
- {{ toYaml $c | nindent 2 | trim }}
{{- end }}
{{- end -}}

{{/* A PodDisruptionBudget's rule: minAvailable when given, maxUnavailable otherwise. */}}
{{- define "model-gateway.pdbRule" -}}
{{- if and (hasKey . "minAvailable") (ne (toString .minAvailable) "") -}}
minAvailable: {{ .minAvailable }}
{{- else -}}
maxUnavailable: {{ .maxUnavailable | default 1 }}
{{- end -}}
{{- end -}}

{{/* Refuse value combinations the schema cannot express. */}}
{{- define "model-gateway.validate" -}}
{{- if and (not .Values.redis.bundled.enabled) (not .Values.redis.external.url) (not .Values.redis.external.existingSecret) -}}
{{- fail "redis: turn on redis.bundled.enabled, or give redis.external.url or redis.external.existingSecret" -}}
{{- end -}}
{{- if and .Values.redis.bundled.enabled (or .Values.redis.external.url .Values.redis.external.existingSecret) -}}
{{- fail "redis: redis.bundled.enabled and redis.external are exclusive; set redis.bundled.enabled=false to use your own Redis" -}}
{{- end -}}
{{- if and .Values.redis.external.url (not (regexMatch "^rediss?://" .Values.redis.external.url)) -}}
{{- fail "redis.external.url must start with redis:// or rediss://" -}}
{{- end -}}
{{- $stream := add .Values.gateway.shutdown.endpointDrainSeconds .Values.gateway.shutdown.maxStreamSeconds .Values.gateway.processor.shutdownGraceSeconds -}}
{{- if le (int64 .Values.gateway.terminationGracePeriodSeconds) (int64 $stream) -}}
{{- fail (printf "gateway.terminationGracePeriodSeconds (%v) must exceed shutdown.endpointDrainSeconds + shutdown.maxStreamSeconds + processor.shutdownGraceSeconds (%v)" .Values.gateway.terminationGracePeriodSeconds $stream) -}}
{{- end -}}
{{- if and .Values.httpRoute.enabled (not .Values.httpRoute.parentRefs) -}}
{{- fail "httpRoute.parentRefs: name the Gateway the route attaches to" -}}
{{- end -}}
{{- end -}}

{{/*
PostgreSQL for Usage and Logs (usageStore.postgres): GW_POSTGRES_URL and PGPASSWORD
for the processor and the exporter. Nothing while it is off.
*/}}
{{- define "model-gateway.postgresName" -}}{{ include "model-gateway.fullname" . }}-postgres{{- end -}}
{{- define "model-gateway.postgresEnv" -}}
{{- $p := .Values.usageStore.postgres -}}
{{- if $p.enabled }}
{{- if $p.bundled.enabled }}
- name: PGPASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ include "model-gateway.postgresName" . }}-password
      key: password
- name: GW_POSTGRES_URL
  value: {{ printf "postgres://gw@%s.%s.svc:5432/gw" (include "model-gateway.postgresName" .) .Release.Namespace | quote }}
{{- else }}
- name: GW_POSTGRES_URL
  valueFrom:
    secretKeyRef:
      name: {{ $p.external.existingSecret | default (printf "%s-postgres-url" (include "model-gateway.fullname" .)) }}
      key: {{ if $p.external.existingSecret }}{{ $p.external.existingSecretKey }}{{ else }}url{{ end }}
{{- if $p.external.passwordSecret }}
- name: PGPASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $p.external.passwordSecret }}
      key: {{ $p.external.passwordSecretKey }}
{{- end }}
{{- end }}
- name: GW_USAGE_RETENTION_DAYS
  value: {{ .Values.usageStore.retentionDays | quote }}
- name: GW_USAGE_BACKLOG_MAX
  value: {{ .Values.usageStore.backlogMax | quote }}
{{- end }}
{{- end -}}

{{/* A Kubernetes memory quantity ("1Gi", "512Mi", "1G", "1073741824") in whole MiB; call with (dict "q" <quantity> "at" "<its values path>"). */}}
{{- define "model-gateway.quantityMiB" -}}
{{- $q := toString .q -}}
{{- if not (regexMatch "^[0-9]+(\\.[0-9]+)?(Ki|Mi|Gi|Ti|k|M|G|T)?$" $q) -}}
{{- fail (printf "%s: %q is not a memory quantity" .at $q) -}}
{{- end -}}
{{- $n := regexReplaceAll "^([0-9.]+).*$" $q "${1}" | float64 -}}
{{- $unit := regexReplaceAll "^[0-9.]+" $q "" -}}
{{- $factor := dict "" 0.00000095367431640625 "Ki" 0.0009765625 "Mi" 1.0 "Gi" 1024.0 "Ti" 1048576.0 "k" 0.00095367431640625 "M" 0.95367431640625 "G" 953.67431640625 "T" 953674.31640625 -}}
{{- mulf $n (get $factor $unit) | floor | int64 -}}
{{- end -}}

{{/*
NODE_OPTIONS of a gw container: V8's old space sized from the container's memory limit
(heapPercentOfLimit of it), so V8 collects harder as it nears the limit instead of sizing its heap
from the node's memory and being killed by the kernel first. Empty without a memory limit.
Call with (dict "resources" <the container's resources> "percent" <heapPercentOfLimit> "at" "<resources' values path>").
*/}}
{{- define "model-gateway.nodeOptions" -}}
{{- $limit := dig "limits" "memory" "" .resources -}}
{{- if $limit -}}
{{- $mib := include "model-gateway.quantityMiB" (dict "q" $limit "at" (printf "%s.limits.memory" .at)) | int64 -}}
--max-old-space-size={{ div (mul $mib (int64 .percent)) 100 }}
{{- end -}}
{{- end -}}
