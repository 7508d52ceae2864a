package e2e

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        ports: [{containerPort: 80}]
`

// TestWorkloads applies, reads, changes and scales workloads with kubectl
// in a child logical cluster, on each datastore, as in a Kubernetes
// cluster without controllers: stored, defaulted and validated only.
func TestWorkloads(t *testing.T) {
	t.Parallel()
	onEachDatastore(t, func(t *testing.T, h *hub, k kubectl) {
		pki := filepath.Join(h.dataDir, "pki")
		k.addContexts(h, pki, "admin")
		k.createLogicalCluster("root", "a")
		k.createLogicalCluster("a", "child")
		k.must("config", "set-cluster", "child", "--server", "https://127.0.0.1:"+strconv.Itoa(h.port)+"/clusters/root:a:child",
			"--certificate-authority", filepath.Join(pki, "ca.crt"), "--embed-certs")
		k.must("config", "set-context", "child", "--cluster", "child", "--user", "admin")
		k.must("config", "use-context", "child")
		testWorkloads(t, k)
	})
}

func testWorkloads(t *testing.T, k kubectl) {
	resources := k.must("api-resources")
	for _, want := range []string{
		"deployments deploy apps/v1", "statefulsets sts apps/v1", "daemonsets ds apps/v1", "replicasets rs apps/v1",
		"jobs batch/v1", "cronjobs cj batch/v1", "pods po v1",
	} {
		if !strings.Contains(strings.Join(strings.Fields(resources), " "), want) {
			t.Errorf("kubectl api-resources lacks %q:\n%s", want, resources)
		}
	}

	k.must("apply", "-f", writeFile(t, deployment))
	table := k.must("get", "deploy", "-o", "wide")
	header := strings.Join(strings.Fields(strings.Split(table, "\n")[0]), " ")
	if header != "NAME READY UP-TO-DATE AVAILABLE AGE CONTAINERS IMAGES SELECTOR" || !strings.Contains(table, "nginx:1.27") || !strings.Contains(table, "app=web") {
		t.Errorf("kubectl get deploy -o wide printed:\n%s", table)
	}
	yaml := k.must("get", "deploy", "web", "-o", "yaml")
	for _, want := range []string{
		"replicas: 1", "revisionHistoryLimit: 10", "progressDeadlineSeconds: 600", "maxSurge: 25%", "maxUnavailable: 25%",
		"type: RollingUpdate", "imagePullPolicy: IfNotPresent", "protocol: TCP", "restartPolicy: Always", "dnsPolicy: ClusterFirst",
		"schedulerName: default-scheduler", "terminationGracePeriodSeconds: 30", "terminationMessagePath: /dev/termination-log",
	} {
		if !strings.Contains(yaml, want) {
			t.Errorf("the stored Deployment lacks the default %q:\n%s", want, yaml)
		}
	}

	// Server-side apply takes over the replicas client-side apply set;
	// kubectl diff shows what applying would change, and exits 1 for it.
	k.must("apply", "--server-side", "--force-conflicts", "-f", writeFile(t, strings.Replace(deployment, "spec:\n  selector", "spec:\n  replicas: 3\n  selector", 1)))
	if got := k.must("get", "deploy", "web", "-o", "jsonpath={.spec.replicas} {.metadata.generation}"); got != "3 2" {
		t.Errorf("after server-side apply, replicas and generation are %q", got)
	}
	diff, err := k.run("diff", "-f", writeFile(t, strings.Replace(deployment, "nginx:1.27", "nginx:1.28", 1)))
	if err == nil || !strings.Contains(err.Error(), "exit status 1") || !strings.Contains(diff, "+      - image: nginx:1.28") {
		t.Errorf("kubectl diff of a pending change printed %q, %v", diff, err)
	}

	k.must("scale", "deploy", "web", "--replicas=5")
	if got := k.must("get", "deploy", "web", "-o", "jsonpath={.spec.replicas}"); got != "5" {
		t.Errorf("after kubectl scale, replicas are %q", got)
	}
	if got := k.must("get", "--raw", "/clusters/root:a:child/apis/apps/v1/namespaces/default/deployments/web/scale"); !strings.Contains(got, `"kind":"Scale","apiVersion":"autoscaling/v1"`) ||
		!strings.Contains(got, `"selector":"app=web"`) {
		t.Errorf("deployments/web/scale is %s", got)
	}
	if out := k.must("explain", "deployment.spec.replicas"); !strings.Contains(out, "FIELD: replicas <integer>") {
		t.Errorf("kubectl explain deployment.spec.replicas printed:\n%s", out)
	}

	// Invalid workloads are refused, saying which field is wrong.
	for manifest, want := range map[string]string{
		strings.Replace(deployment, "labels: {app: web}", "labels: {app: other}", 1): "spec.template.metadata.labels: Invalid value: " +
			`{"app":"other"}: ` + "`selector` does not match template `labels`",
		strings.Replace(deployment, "        image: nginx:1.27\n", "", 1): "spec.template.spec.containers[0].image: Required value",
	} {
		out, err := k.run("apply", "-f", writeFile(t, strings.Replace(manifest, "name: web", "name: invalid", 1)))
		if err == nil || !strings.Contains(err.Error(), `The Deployment "invalid" is invalid: `+want) {
			t.Errorf("an invalid Deployment got %q, %v; want it refused with %q", out, err, want)
		}
	}
	if out, err := k.run("get", "deploy", "invalid"); err == nil {
		t.Errorf("the invalid Deployment was stored: %s", out)
	}

	k.must("apply", "-f", writeFile(t, `apiVersion: batch/v1
kind: Job
metadata:
  name: once
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: main, image: busybox, command: ["true"]}]
---
apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{name: main, image: busybox}]
---
apiVersion: v1
kind: Pod
metadata:
  name: lone
spec:
  containers: [{name: main, image: busybox}]
`))
	if got := k.must("get", "job", "once", "-o", "jsonpath={.spec.completions} {.spec.backoffLimit} {.spec.selector.matchLabels}"); !strings.HasPrefix(got, `1 6 {"batch.kubernetes.io/controller-uid":"`) {
		t.Errorf("the Job has completions, backoffLimit and selector %q", got)
	}
	if header := strings.Join(strings.Fields(strings.Split(k.must("get", "jobs"), "\n")[0]), " "); header != "NAME STATUS COMPLETIONS DURATION AGE" {
		t.Errorf("kubectl get jobs has columns %q", header)
	}
	if table := k.must("get", "cj"); !strings.Contains(strings.Join(strings.Fields(table), " "), "nightly 0 3 * * * <none> False 0 <none>") {
		t.Errorf("kubectl get cj printed:\n%s", table)
	}
	if got := k.must("get", "pod", "lone", "-o", "jsonpath={.status.phase} {.spec.enableServiceLinks} {.spec.containers[0].imagePullPolicy}"); got != "Pending true Always" {
		t.Errorf("the Pod has phase, enableServiceLinks and pull policy %q", got)
	}
	if _, err := k.run("create", "cronjob", "bad", "--image=busybox", "--schedule=61 * * * *"); err == nil || !strings.Contains(err.Error(), "spec.schedule: Invalid value") {
		t.Errorf("a CronJob with a bad schedule: %v", err)
	}
	all := k.must("get", "all")
	for _, want := range []string{"deployment.apps/web", "job.batch/once", "cronjob.batch/nightly", "pod/lone"} {
		if !strings.Contains(all, want) {
			t.Errorf("kubectl get all lacks %s:\n%s", want, all)
		}
	}

	// The status is the status subresource's to write.
	k.must("patch", "deploy", "web", "--type=merge", "-p", `{"status":{"readyReplicas":4}}`)
	if got := k.must("get", "deploy", "web", "-o", "jsonpath={.status.readyReplicas}"); got != "" {
		t.Errorf("a status written through the main resource stuck: %q", got)
	}
	k.must("patch", "deploy", "web", "--subresource=status", "--type=merge", "-p", `{"status":{"replicas":5,"readyReplicas":4}}`)
	if got := k.must("get", "deploy", "web", "-o", "jsonpath={.status.readyReplicas} {.spec.replicas}"); got != "4 5" {
		t.Errorf("after writing the status subresource, readyReplicas and replicas are %q", got)
	}
	if table := k.must("get", "deploy", "web"); !strings.Contains(table, "4/5") {
		t.Errorf("kubectl get deploy printed:\n%s", table)
	}
}
