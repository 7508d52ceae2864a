package e2e

import (
	"strings"
	"testing"
	"time"
)

// appManifest is what an app team applies first: a Deployment, the
// Service in front of it and its ConfigMap, in namespace app.
const appManifest = `apiVersion: v1
kind: ConfigMap
metadata:
  name: web-config
  namespace: app
data:
  mode: initial
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: app
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.25
        ports:
        - containerPort: 80
---
apiVersion: v1
kind: Service
metadata:
  name: web
  namespace: app
spec:
  selector:
    app: web
  ports:
  - port: 80
`

// testKubectlFlow is an app team's day in the logical cluster of context,
// with the real kubectl: apply, watch, server-side apply, diff, the three
// kinds of patch, explain, api-resources, can-i, wide tables, and deleting
// the namespace with everything in it.
func testKubectlFlow(t *testing.T, k kubectl, context string) {
	t.Helper()
	in := func(args ...string) string { return k.must(append([]string{"--context", context}, args...)...) }
	in("create", "namespace", "app")
	in("apply", "-f", writeFile(t, appManifest))

	wide := in("get", "deploy", "-n", "app", "-o", "wide")
	if header := strings.Join(strings.Fields(strings.Split(wide, "\n")[0]), " "); header != "NAME READY UP-TO-DATE AVAILABLE AGE CONTAINERS IMAGES SELECTOR" {
		t.Errorf("%s: kubectl get deploy -o wide printed:\n%s", context, wide)
	}
	if !strings.Contains(wide, "nginx:1.25") || !strings.Contains(wide, "app=web") {
		t.Errorf("%s: kubectl get deploy -o wide lacks the image or selector:\n%s", context, wide)
	}
	if svc := in("get", "svc", "web", "-n", "app"); !strings.Contains(svc, "ClusterIP") || !strings.Contains(svc, "80/TCP") {
		t.Errorf("%s: kubectl get svc printed:\n%s", context, svc)
	}

	// A watch sees the update a merge patch makes.
	stop := k.start("--context", context, "get", "cm", "web-config", "-n", "app", "--watch", "-o", `jsonpath={.data.mode}{"\n"}`)
	in("patch", "cm", "web-config", "-n", "app", "--type", "merge", "-p", `{"data":{"mode":"patched"}}`)
	deadline := time.Now().Add(10 * time.Second)
	var seen string
	for time.Now().Before(deadline) && !strings.Contains(seen, "patched") {
		time.Sleep(200 * time.Millisecond)
		seen = in("get", "cm", "web-config", "-n", "app", "-o", "jsonpath={.data.mode}")
	}
	if watched := stop(); !strings.Contains(watched, "initial") || !strings.Contains(watched, "patched") {
		t.Errorf("%s: kubectl get -w printed %q, want the initial value and the patched one", context, watched)
	}

	// A strategic merge patch merges containers by name; a JSON patch
	// replaces one field.
	in("patch", "deploy", "web", "-n", "app", "-p", `{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.26"}]}}}}`)
	if got := in("get", "deploy", "web", "-n", "app", "-o", `jsonpath={range .spec.template.spec.containers[*]}{.name}={.image}:{.ports[0].containerPort};{end}`); got != "web=nginx:1.26:80;" {
		t.Errorf("%s: after a strategic merge patch the containers are %q", context, got)
	}
	in("patch", "deploy", "web", "-n", "app", "--type", "json", "-p", `[{"op":"replace","path":"/spec/replicas","value":3}]`)

	// Server-side apply takes over replicas from the earlier managers.
	changed := strings.Replace(appManifest, "replicas: 2", "replicas: 4", 1)
	in("apply", "--server-side", "--force-conflicts", "-f", writeFile(t, changed))
	if got := in("get", "deploy", "web", "-n", "app", "-o", "jsonpath={.spec.replicas}"); got != "4" {
		t.Errorf("%s: after server-side apply replicas is %q", context, got)
	}
	if managers := in("get", "deploy", "web", "-n", "app", "--show-managed-fields", "-o", "jsonpath={.metadata.managedFields[*].manager}"); !strings.Contains(managers, "kubectl") {
		t.Errorf("%s: managedFields name no kubectl manager: %q", context, managers)
	}

	// kubectl diff shows a pending change, and exits 1 for it.
	pending := strings.Replace(appManifest, "replicas: 2", "replicas: 5", 1)
	diff, err := k.run("--context", context, "diff", "--server-side", "--force-conflicts", "-f", writeFile(t, pending))
	if !strings.Contains(diff, "+  replicas: 5") || err == nil || !strings.Contains(err.Error(), "exit status 1") {
		t.Errorf("%s: kubectl diff printed %q, %v", context, diff, err)
	}
	if got := in("get", "deploy", "web", "-n", "app", "-o", "jsonpath={.spec.replicas}"); got != "4" {
		t.Errorf("%s: kubectl diff changed replicas to %q", context, got)
	}

	if explain := in("explain", "deployment.spec.replicas"); !strings.Contains(explain, "replicas") || !strings.Contains(explain, "integer") {
		t.Errorf("%s: kubectl explain printed:\n%s", context, explain)
	}
	resources := in("api-resources")
	for _, want := range []string{"deployments  deploy  apps/v1  true  Deployment", "services  svc  v1  true  Service", "configmaps  cm  v1  true  ConfigMap"} {
		if !strings.Contains(strings.Join(strings.Fields(resources), "  "), want) {
			t.Errorf("%s: kubectl api-resources lacks %q:\n%s", context, want, resources)
		}
	}
	if got := strings.TrimSpace(in("auth", "can-i", "create", "deployments", "-n", "app")); got != "yes" {
		t.Errorf("%s: kubectl auth can-i create deployments: %q", context, got)
	}

	// Deleting the namespace deletes what is in it.
	in("delete", "namespace", "app", "--timeout=30s")
	if left := in("get", "deploy,svc,cm", "-n", "app", "-o", "name"); left != "" {
		t.Errorf("%s: after deleting namespace app, left: %q", context, left)
	}
}
