package e2e

import (
	"strings"
	"testing"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// TestUpsyncedPodsReadOnly writes, as the syncer of target key k1 would,
// a pod labelled upsynced into root:a, and checks with the real kubectl
// that an admin of root:a, and the syncer of another target, can neither
// change nor delete it, while its own syncer can, and that an ordinary pod
// is theirs to change.
func TestUpsyncedPodsReadOnly(t *testing.T) {
	t.Parallel()
	h, admin, pki := startHubWith(t, "a")
	users := map[string]kubectl{}
	for _, name := range []string{"alice", workloadv1alpha1.SyncerUser("k1"), workloadv1alpha1.SyncerUser("k2")} {
		users[name] = userKubeconfig(t, pki, name)
		users[name].addContexts(h, pki, name)
		admin.grantEverything("a", name)
		users[name].eventually("--context", "a", "auth", "can-i", "delete", "pods")
	}
	alice, syncer1, syncer2 := users["alice"], users[workloadv1alpha1.SyncerUser("k1")], users[workloadv1alpha1.SyncerUser("k2")]

	pod := func(name, labels string) string {
		return `apiVersion: v1
kind: Pod
metadata:
  name: ` + name + `
  namespace: default
  labels: {app: web` + labels + `}
spec:
  containers:
  - name: web
    image: nginx
`
	}
	upsynced := ", " + workloadv1alpha1.UpsyncedLabel + ": k1"
	const message = `is forbidden: the pod is a read-only copy of a pod running in a physical cluster, managed by the syncer of target k1; change its workload instead`
	refused := func(who kubectl, args ...string) {
		t.Helper()
		if _, err := who.run(append([]string{"--context", "a"}, args...)...); err == nil || !strings.Contains(err.Error(), "Forbidden") || !strings.Contains(err.Error(), message) {
			t.Errorf("kubectl %s: %v, want Forbidden: %s", strings.Join(args, " "), err, message)
		}
	}

	// Only the syncer of k1 may create the copy.
	refused(alice, "create", "-f", writeFile(t, pod("up", upsynced)))
	refused(syncer2, "create", "-f", writeFile(t, pod("up", upsynced)))
	syncer1.must("--context", "a", "create", "-f", writeFile(t, pod("up", upsynced)))
	alice.must("--context", "a", "create", "-f", writeFile(t, pod("plain", "")))

	for _, who := range []kubectl{alice, syncer2} {
		refused(who, "label", "pod", "up", "tier=front")
		refused(who, "label", "pod", "up", workloadv1alpha1.UpsyncedLabel+"-")
		refused(who, "annotate", "pod", "up", "note=mine")
		// What kubectl edit sends: a patch of the pod.
		refused(who, "patch", "pod", "up", "--type", "merge", "-p", `{"spec":{"activeDeadlineSeconds":60}}`)
		refused(who, "patch", "pod", "up", "--subresource", "status", "--type", "merge", "-p", `{"status":{"phase":"Failed"}}`)
		refused(who, "delete", "pod", "up", "--wait=false")
		// A delete of a collection asks about each pod in it.
		refused(who, "delete", "--raw", "/clusters/root:a/api/v1/namespaces/default/pods?labelSelector="+workloadv1alpha1.UpsyncedLabel)
		// Nor can an ordinary pod be passed off as a copy.
		refused(who, "label", "pod", "plain", workloadv1alpha1.UpsyncedLabel+"=k1")
	}
	if got := admin.must("--context", "a", "get", "pod", "up", "-o", "jsonpath={.metadata.labels}"); got != `{"app":"web","`+workloadv1alpha1.UpsyncedLabel+`":"k1"}` {
		t.Errorf("after the refusals, the upsynced pod has labels %s", got)
	}

	// The ordinary pod is anyone's with the rights.
	alice.must("--context", "a", "label", "pod", "plain", "tier=front")
	alice.must("--context", "a", "patch", "pod", "plain", "--type", "merge", "-p", `{"spec":{"activeDeadlineSeconds":60}}`)
	alice.must("--context", "a", "delete", "pod", "plain", "--wait=false")

	// The syncer of k1 updates its copy, status included, and deletes it.
	syncer1.must("--context", "a", "label", "pod", "up", "tier=front")
	syncer1.must("--context", "a", "patch", "pod", "up", "--subresource", "status", "--type", "merge", "-p", `{"status":{"phase":"Running"}}`)
	if got := admin.must("--context", "a", "get", "pod", "up", "-o", "jsonpath={.metadata.labels.tier} {.status.phase}"); got != "front Running" {
		t.Errorf("after the syncer's writes, the pod has tier and phase %q", got)
	}
	syncer1.must("--context", "a", "delete", "pod", "up", "--wait=false")
	if out, err := admin.run("--context", "a", "get", "pods", "-o", "name"); err != nil || strings.TrimSpace(out) != "" {
		t.Errorf("pods left in root:a: %q, %v", out, err)
	}
}
