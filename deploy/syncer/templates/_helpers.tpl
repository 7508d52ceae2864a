{{/* path is the SyncTarget as the syncer's --sync-target names it. */}}
{{- define "canopy-syncer.path" -}}
{{- required "syncTarget.logicalCluster must name the SyncTarget's logical cluster, as root:platform" .Values.syncTarget.logicalCluster -}}
:{{- required "syncTarget.name must name the SyncTarget" .Values.syncTarget.name -}}
{{- end -}}

{{/* key is the SyncTarget's key, as workloadv1alpha1.TargetKey makes it:
the first 16 hex digits of the SHA-256 of its path. */}}
{{- define "canopy-syncer.key" -}}
{{- include "canopy-syncer.path" . | sha256sum | trunc 16 -}}
{{- end -}}

{{/* name is the name of the syncer's objects, after the target's key, so
that the syncers of several targets share a physical cluster. */}}
{{- define "canopy-syncer.name" -}}
syncer-{{ include "canopy-syncer.key" . }}
{{- end -}}

{{/* meta is the metadata every object made for the target carries, as
pkg/syncerdeploy makes it. */}}
{{- define "canopy-syncer.annotations" -}}
workload.canopy.dev/sync-target: {{ include "canopy-syncer.path" . }}
{{- end -}}

{{- define "canopy-syncer.labels" -}}
app.kubernetes.io/instance: {{ include "canopy-syncer.name" . }}
app.kubernetes.io/name: canopy-syncer
{{- end -}}

{{- define "canopy-syncer.secretName" -}}
{{- default (printf "%s-hub-kubeconfig" (include "canopy-syncer.name" .)) .Values.hubKubeconfig.existingSecret -}}
{{- end -}}

{{- define "canopy-syncer.image" -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ default .Chart.AppVersion .Values.image.tag }}
{{- end -}}
{{- end -}}
