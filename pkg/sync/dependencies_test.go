package sync

import (
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// TestDependencies checks that every kind of reference a pod template
// makes to a ConfigMap, Secret or ServiceAccount is found, once each, and
// that the default ServiceAccount is not.
func TestDependencies(t *testing.T) {
	for name, tc := range map[string]struct {
		manifest string
		want     []string
	}{
		"deployment": {`
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ns1}
spec:
  template:
    spec:
      serviceAccountName: runner
      imagePullSecrets: [{name: pull}]
      volumes:
      - {name: a, configMap: {name: cm-vol}}
      - {name: b, secret: {secretName: s-vol}}
      - name: c
        projected:
          sources:
          - configMap: {name: cm-proj}
          - secret: {name: s-proj}
          - serviceAccountToken: {path: token}
      initContainers:
      - name: init
        envFrom: [{secretRef: {name: s-envfrom}}]
      containers:
      - name: web
        envFrom: [{configMapRef: {name: cm-envfrom}}, {configMapRef: {name: cm-vol}}]
        env:
        - {name: A, valueFrom: {configMapKeyRef: {name: cm-env, key: a}}}
        - {name: B, valueFrom: {secretKeyRef: {name: s-env, key: b}}}
        - {name: C, value: plain}
`, []string{
			"serviceaccounts root:a/ns1/runner", "secrets root:a/ns1/pull",
			"configmaps root:a/ns1/cm-vol", "secrets root:a/ns1/s-vol", "configmaps root:a/ns1/cm-proj", "secrets root:a/ns1/s-proj",
			"secrets root:a/ns1/s-envfrom", "configmaps root:a/ns1/cm-envfrom", "configmaps root:a/ns1/cm-env", "secrets root:a/ns1/s-env",
		}},
		"cronjob, default service account": {`
apiVersion: batch/v1
kind: CronJob
metadata: {name: job, namespace: ns2}
spec:
  jobTemplate:
    spec:
      template:
        spec:
          serviceAccountName: default
          containers: [{name: c, envFrom: [{configMapRef: {name: cfg}}]}]
`, []string{"configmaps root:a/ns2/cfg"}},
		"no pod template": {`
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg, namespace: ns1}
data: {spec: x}
`, nil},
	} {
		t.Run(name, func(t *testing.T) {
			obj := &unstructured.Unstructured{}
			if err := yaml.Unmarshal([]byte(tc.manifest), &obj.Object); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, k := range dependencies(obj, "root:a") {
				got = append(got, k.String())
			}
			slices.Sort(got)
			slices.Sort(tc.want)
			if !slices.Equal(got, tc.want) {
				t.Errorf("dependencies\n got %v\nwant %v", got, tc.want)
			}
		})
	}
}
