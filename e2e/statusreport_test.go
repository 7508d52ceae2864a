package e2e

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestStatusReportUpgrade checks the hub's upgrade path and the
// StatusReports' attack matrix, with the real kubectl and two targets'
// syncer credentials and no syncer running: a Deployment assigned to
// part-a and part-b whose targets report in the status annotation, as
// syncers of an earlier release do, gets the sum of their reports as its
// status; a StatusReport of part-a then takes the place of its
// annotation. A tenant may read the reports, but neither a tenant nor
// the other target's syncer may create, change or delete one, nor may a
// syncer report on an object not assigned to it: each is a 403 saying
// why.
func TestStatusReportUpgrade(t *testing.T) {
	t.Parallel()
	h, admin := startHub(t, buildHub(t), "")
	pki := filepath.Join(h.dataDir, "pki")
	admin.addContexts(h, pki, "admin")
	admin.createLogicalCluster("root", "a")
	keys := map[string]string{}
	for _, name := range []string{"part-a", "part-b"} {
		admin.apply("root", "apiVersion: workload.canopy.dev/v1alpha1\nkind: SyncTarget\nmetadata:\n  name: "+name+"\n")
		keys[name] = workloadv1alpha1.TargetKey("root", name)
	}
	ka, kb := keys["part-a"], keys["part-b"]
	admin.apply("a", sharedDeployment(ka, kb, "nginx:1.27"))
	// other is part-b's alone.
	admin.apply("a", fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: other, namespace: ns1, labels: {%s: Sync}}
spec:
  selector: {matchLabels: {app: other}}
  template:
    metadata: {labels: {app: other}}
    spec: {containers: [{name: c, image: nginx}]}
`, workloadv1alpha1.StateLabel(kb)))
	alice := userKubeconfig(t, pki, "alice")
	alice.addContexts(h, pki, "alice")
	admin.grantEverything("a", "alice")
	syncers := map[string]kubectl{}
	for name, key := range keys {
		syncers[key] = syncerKubeconfig(t, h, "root", name)
	}
	// beat reports both targets Ready, as their syncers' heartbeats do,
	// so that their reports count.
	beat := func() {
		t.Helper()
		now := time.Now().UTC().Format(time.RFC3339)
		for name, key := range keys {
			syncers[key].must("--context", "root", "patch", "synctarget", name, "--subresource", "status", "--type", "merge", "-p",
				fmt.Sprintf(`{"status":{"lastHeartbeatTime":%q,"conditions":[{"type":"Ready","status":"True","reason":"Heartbeat","message":"","lastTransitionTime":%q}]}}`, now, now))
		}
	}
	report := func(available int) string {
		return fmt.Sprintf(`{"observedGeneration":1,"replicas":%d,"updatedReplicas":%d,"readyReplicas":%d,"availableReplicas":%d}`, available, available, available, available)
	}
	aggregated := func(want string) {
		t.Helper()
		waitFor(t, time.Minute, "web's aggregated availableReplicas "+want, func() (bool, string) {
			beat()
			got := admin.must("--context", "a", "-n", "ns1", "get", "deployment", "web", "-o", "jsonpath={.status.availableReplicas}")
			return got == want, got
		})
	}

	// Syncers of an earlier release report in the annotation.
	for key, available := range map[string]int{ka: 1, kb: 2} {
		syncers[key].eventually("--context", "a", "-n", "ns1", "annotate", "deployment", "web", "--overwrite", workloadv1alpha1.StatusAnnotation(key)+"="+report(available))
	}
	aggregated("3")

	// part-a's syncer, upgraded, reports in a StatusReport, which the hub
	// reads in place of its annotation.
	uid := admin.must("--context", "a", "-n", "ns1", "get", "deployment", "web", "-o", "jsonpath={.metadata.uid}")
	otherUID := admin.must("--context", "a", "-n", "ns1", "get", "deployment", "other", "-o", "jsonpath={.metadata.uid}")
	statusReport := func(key, object, uid string, available int) string {
		return fmt.Sprintf(`{"apiVersion":"workload.canopy.dev/v1alpha1","kind":"StatusReport","metadata":{"name":%q,"namespace":"ns1","labels":{%q:%q},`+
			`"ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","name":%q,"uid":%q}]},"spec":{"resource":"deployments.apps","name":%q,"target":%q,"status":%s}}`,
			workloadv1alpha1.StatusReportName("deployments.apps", object, key), workloadv1alpha1.ReportedByLabel, key, object, uid, object, key, report(available))
	}
	syncers[ka].must("--context", "a", "create", "-f", writeFile(t, statusReport(ka, "web", uid, 5)))
	aggregated("7")
	reportOfA := workloadv1alpha1.StatusReportName("deployments.apps", "web", ka)
	if got := alice.must("--context", "a", "-n", "ns1", "get", "statusreports", "-o", "jsonpath={.items[*].metadata.name}"); got != reportOfA {
		t.Errorf("the StatusReports alice reads: %q, want %s", got, reportOfA)
	}

	const tenants, stolen = "which only that syncer writes; read it", "not assigned"
	cases := []struct {
		what string
		as   kubectl
		args []string
		why  string
	}{
		{"a tenant's report for part-a", alice, []string{"create", "-f", writeFile(t, statusReport(kb, "web", uid, 9))}, tenants},
		{"a tenant changing part-a's report", alice, []string{"patch", "statusreport", reportOfA, "--type", "merge", "-p", `{"spec":{"status":{"availableReplicas":9}}}`}, tenants},
		{"a tenant labelling part-a's report", alice, []string{"label", "statusreport", reportOfA, "stolen=yes"}, tenants},
		{"a tenant applying part-a's report", alice, []string{"apply", "--server-side", "--force-conflicts", "-f", writeFile(t, statusReport(ka, "web", uid, 9))}, tenants},
		{"a tenant deleting part-a's report", alice, []string{"delete", "statusreport", reportOfA, "--wait=false"}, tenants},
		{"part-b's syncer writing part-a's report", syncers[kb], []string{"create", "-f", writeFile(t, statusReport(ka, "web", uid, 9))}, tenants},
		{"part-b's syncer changing part-a's report", syncers[kb], []string{"patch", "statusreport", reportOfA, "--type", "merge", "-p", `{"spec":{"status":{"availableReplicas":9}}}`}, stolen},
		{"part-b's syncer deleting part-a's report", syncers[kb], []string{"delete", "statusreport", reportOfA, "--wait=false"}, stolen},
		{"part-a's syncer reporting on an object not assigned to it", syncers[ka], []string{"create", "-f", writeFile(t, statusReport(ka, "other", otherUID, 9))}, "reports only on objects assigned to it"},
		{"part-a's syncer listing part-b's reports", syncers[ka], []string{"get", "statusreports", "-l", workloadv1alpha1.ReportedByLabel + "=" + kb}, "list"},
		{"a tenant forging part-b's annotation", alice, []string{"annotate", "deployment", "web", "--overwrite", workloadv1alpha1.StatusAnnotation(kb) + "=" + report(9)}, "which only that syncer writes"},
		{"part-a's syncer forging part-b's annotation", syncers[ka], []string{"annotate", "deployment", "web", "--overwrite", workloadv1alpha1.StatusAnnotation(kb) + "=" + report(9)}, "which only that syncer writes"},
	}
	for _, c := range cases {
		out, err := c.as.run(append([]string{"--context", "a", "-n", "ns1"}, c.args...)...)
		checkRefusal(t, c.what, out, err, c.why)
	}
	aggregated("7")
}

// statusReport is what the syncer of target key reports, in its
// StatusReport, of the status of resource's object name in namespace ns
// of context's logical cluster: "" while it has none.
func statusReport(admin kubectl, context, ns, resource, name, key string) string {
	out, err := admin.run("--context", context, "-n", ns, "get", "statusreports.workload.canopy.dev",
		workloadv1alpha1.StatusReportName(resource, name, key), "-o", "jsonpath={.spec.status}")
	if err != nil {
		return ""
	}
	return out
}
