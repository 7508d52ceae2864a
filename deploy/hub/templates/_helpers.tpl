{{/* fullname is the name of the release's objects. */}}
{{- define "canopy-hub.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* selectorLabels pick the release's hub pods. */}}
{{- define "canopy-hub.selectorLabels" -}}
app.kubernetes.io/name: {{ default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "canopy-hub.labels" -}}
{{ include "canopy-hub.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{- end -}}

{{- define "canopy-hub.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "canopy-hub.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* serviceHost is the Service's DNS name within the cluster. */}}
{{- define "canopy-hub.serviceHost" -}}
{{- printf "%s.%s.svc" (include "canopy-hub.fullname" .) .Release.Namespace -}}
{{- end -}}

{{- define "canopy-hub.externalHostname" -}}
{{- default (include "canopy-hub.serviceHost" .) .Values.externalHostname -}}
{{- end -}}

{{- define "canopy-hub.datastoreSecret" -}}
{{- default (printf "%s-datastore" (include "canopy-hub.fullname" .)) .Values.datastore.existingSecret -}}
{{- end -}}

{{- define "canopy-hub.identitySecret" -}}
{{- default (printf "%s-identity" (include "canopy-hub.fullname" .)) .Values.identity.existingSecret -}}
{{- end -}}

{{/* auditLogPath is audit.logPath, a relative one under the data volume. */}}
{{- define "canopy-hub.auditLogPath" -}}
{{- $p := .Values.audit.logPath -}}
{{- if or (eq $p "-") (hasPrefix "/" $p) -}}
{{- $p -}}
{{- else -}}
{{- printf "/var/lib/canopy/%s" $p -}}
{{- end -}}
{{- end -}}
