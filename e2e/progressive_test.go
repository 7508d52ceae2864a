package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/canopy-dev/canopy/e2e/pcluster"
)

// progressivePlacement duplicates root:org:team's Deployments on every
// target, rolling a change out to pc1 first and then to the others, each
// wave after the one before is healthy for 10 s; a wave not healthy in
// 45 s rolls back.
const progressivePlacement = `apiVersion: placement.canopy.dev/v1alpha1
kind: Placement
metadata: {name: waves}
spec:
  resources: [{group: apps, resource: deployments}]
  strategy: {type: Duplicate}
  rollout:
    waves:
    - name: canary
      targets: {expression: "name == 'pc1'"}
    - name: rest
    soakTime: 10s
    progressDeadline: 45s
    onFailure: Rollback
`

// TestProgressiveRollout (issue 20, acceptance 1, 2, 3 and 5) rolls a
// Deployment out across three physical clusters, pc1, pc2 and pc3, with
// waves [pc1], [pc2, pc3] and a soak of 10 s:
//
//  1. a good image reaches pc1 first, and pc2 and pc3 only once pc1 ran
//     it available for 10 s; hub rollout status shows the revision each
//     target runs; the rollout completes;
//  2. a bad image (pcluster.PullFailingImage: its pods stay Pending in
//     ImagePullBackOff, never ready) stops after pc1: pc2 and pc3 are
//     never touched, their Deployments keep their resourceVersion, pc1
//     returns to the previous spec, and a Warning Event RolloutFailed
//     says why;
//  5. the hub is killed with SIGKILL while pc1 soaks, and restarted: the
//     rollout goes on from where it was, pc2 and pc3 still after the soak;
//  3. hub rollout pause holds pc2 and pc3 on the old image past the
//     soak, resume finishes the rollout, and undo returns every target to
//     the image before.
func TestProgressiveRollout(t *testing.T) {
	t.Parallel()
	if _, err := pcluster.EnsureBinaries(); err != nil {
		t.Fatal(err)
	}
	syncerBin := buildSyncer(t)
	h, admin, pki := startTeamHub(t, placementHeartbeatTimeout)
	names := []string{"pc1", "pc2", "pc3"}
	clusters := startClusters(t, names...)
	_, syncers := registerTargets(t, h, admin, syncerBin, clusters, map[string]string{"pc1": "eu", "pc2": "eu", "pc3": "eu"})
	for _, name := range names {
		syncers[name].waitReady(2 * time.Minute)
	}
	admin.apply("team", progressivePlacement)
	admin.apply("team", "apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n---\n"+placedDeployment("web", "shop", 2))
	r := rollout{t: t, h: h, admin: admin, clusters: clusters, namespace: func(target string) string { return downNS(target, "root:org:team", "shop") }}
	r.waitAll("nginx:1.27", names...)
	r.waitPhase("Complete")

	// 1. A good rollout.
	admin.must("--context", "team", "-n", "shop", "set", "image", "deployment/web", "c=nginx:1.28")
	seen := r.watch("nginx:1.28", 3*time.Minute)
	// Only once pc2 and pc3 run the new image is the rollout's phase
	// surely its own: before placement's first look at the change, it is
	// the previous rollout's Complete.
	times := seen()
	r.waitPhase("Complete")
	for _, name := range []string{"pc2", "pc3"} {
		if !times[name].first.After(times["pc1"].available.Add(9 * time.Second)) {
			t.Errorf("%s got nginx:1.28 at %s, less than the 10s soak after pc1 ran it available at %s",
				name, times[name].first.Format(time.RFC3339Nano), times["pc1"].available.Format(time.RFC3339Nano))
		}
	}
	status := r.status()
	for _, w := range []string{"Phase:", "Complete", "TARGET KEY"} {
		if !strings.Contains(status, w) {
			t.Errorf("hub rollout status does not say %q:\n%s", w, status)
		}
	}

	// 2. A bad rollout, rolled back after pc1.
	before := map[string]string{"pc2": r.object("pc2"), "pc3": r.object("pc3")}
	admin.must("--context", "team", "-n", "shop", "set", "image", "deployment/web", "c="+pcluster.PullFailingImage)
	r.waitImage("pc1", pcluster.PullFailingImage)
	r.waitPhase("RolledBack")
	r.waitAll("nginx:1.28", "pc1")
	for name, was := range before {
		// Not a write: the same resourceVersion, so the same spec and
		// the same ReplicaSet revision.
		if got := r.object(name); got != was {
			t.Errorf("%s's Deployment changed during the bad rollout: was\n%s\nnow\n%s", name, was, got)
		}
		if got := r.image(name); got != "nginx:1.28" {
			t.Errorf("%s runs %s, want nginx:1.28", name, got)
		}
	}
	if got := admin.must("--context", "team", "-n", "shop", "get", "events", "--field-selector", "reason=RolloutFailed", "-o", "jsonpath={.items[*].message}"); !strings.Contains(got, "not healthy within 45s") {
		t.Errorf("no RolloutFailed Event saying why: %q", got)
	}
	// Fixing the spec rolls out from the last good revision.
	admin.must("--context", "team", "-n", "shop", "set", "image", "deployment/web", "c=nginx:1.29")

	// 5. Killed while pc1 soaks, the hub goes on from where it was.
	r.waitAll("nginx:1.29", "pc1")
	pc1Available := time.Now()
	_ = h.cmd.Process.Kill()
	_ = h.cmd.Wait()
	h.cmd = nil
	if r.image("pc2") != "nginx:1.28" {
		t.Errorf("pc2 has nginx:1.29 before pc1 soaked")
	}
	h.start(t)
	// The hub writes its admin kubeconfig anew when it starts.
	admin.addContexts(h, pki, "admin")
	admin.addContext(h, pki, "org", "root:org")
	admin.addContext(h, pki, "team", "root:org:team")
	seen = r.watch("nginx:1.29", 3*time.Minute)
	r.waitPhase("Complete")
	times = seen()
	if !times["pc2"].first.After(pc1Available.Add(9 * time.Second)) {
		t.Errorf("after the restart, pc2 got nginx:1.29 at %s, before pc1 soaked from %s", times["pc2"].first, pc1Available)
	}

	// 3. Pause, resume and undo from the CLI.
	admin.must("--context", "team", "-n", "shop", "set", "image", "deployment/web", "c=nginx:1.30")
	r.waitPhase("Progressing")
	r.hub("pause")
	r.waitAll("nginx:1.30", "pc1")
	time.Sleep(15 * time.Second) // past the soak: paused, the next wave does not start
	for _, name := range []string{"pc2", "pc3"} {
		if got := r.image(name); got != "nginx:1.29" {
			t.Errorf("paused, %s runs %s, want nginx:1.29", name, got)
		}
	}
	if s := r.status(); !strings.Contains(s, "Paused") {
		t.Errorf("hub rollout status of a paused rollout:\n%s", s)
	}
	r.hub("resume")
	r.waitAll("nginx:1.30", names...)
	r.waitPhase("Complete")
	r.hub("undo")
	r.waitAll("nginx:1.29", names...)
	r.waitPhase("RolledBack")
}

// rollout reads a Deployment web's rollout across physical clusters.
type rollout struct {
	t         *testing.T
	h         *hub
	admin     kubectl
	clusters  map[string]*pcluster.Cluster
	namespace func(target string) string
}

// image is web's image in physical cluster name, or the error reading it.
func (r rollout) image(name string) string {
	d, err := r.clusters[name].Client.AppsV1().Deployments(r.namespace(name)).Get(context.Background(), "web", metav1.GetOptions{})
	if err != nil {
		return err.Error()
	}
	return d.Spec.Template.Spec.Containers[0].Image
}

// available is whether web runs image in physical cluster name, every
// replica updated and available.
func (r rollout) available(name, image string) (bool, string) {
	d, err := r.clusters[name].Client.AppsV1().Deployments(r.namespace(name)).Get(context.Background(), "web", metav1.GetOptions{})
	if err != nil {
		return false, err.Error()
	}
	ok := d.Spec.Template.Spec.Containers[0].Image == image && d.Status.ObservedGeneration == d.Generation &&
		d.Status.UpdatedReplicas == *d.Spec.Replicas && d.Status.AvailableReplicas == *d.Spec.Replicas && d.Status.Replicas == *d.Spec.Replicas
	return ok, fmt.Sprintf("%s: %s, %d updated, %d available", name, d.Spec.Template.Spec.Containers[0].Image, d.Status.UpdatedReplicas, d.Status.AvailableReplicas)
}

// object is web's resourceVersion, generation and spec in physical
// cluster name, and the ReplicaSet revision its controller runs it as,
// as JSON.
func (r rollout) object(name string) string {
	d, err := r.clusters[name].Client.AppsV1().Deployments(r.namespace(name)).Get(context.Background(), "web", metav1.GetOptions{})
	if err != nil {
		return err.Error()
	}
	data, _ := json.Marshal(map[string]any{"resourceVersion": d.ResourceVersion, "generation": d.Generation,
		"revision": d.Annotations["deployment.kubernetes.io/revision"], "spec": d.Spec})
	return string(data)
}

func (r rollout) waitImage(name, image string) {
	r.t.Helper()
	waitFor(r.t, 2*time.Minute, name+" to get "+image, func() (bool, string) {
		got := r.image(name)
		return got == image, got
	})
}

// waitAll waits until web runs image available in each physical cluster
// of names.
func (r rollout) waitAll(image string, names ...string) {
	r.t.Helper()
	for _, name := range names {
		waitFor(r.t, 3*time.Minute, name+" running "+image, func() (bool, string) { return r.available(name, image) })
	}
}

// hub runs hub rollout verb on web.
func (r rollout) hub(verb string) string {
	r.t.Helper()
	return runHub(r.t, r.h, "rollout", verb, "deployment/web", "-n", "shop", "--logical-cluster", "root:org:team", "--data-dir", r.h.dataDir)
}

func (r rollout) status() string { return r.hub("status") }

// waitPhase waits until web's rollout is in phase.
func (r rollout) waitPhase(phase string) {
	r.t.Helper()
	waitFor(r.t, 3*time.Minute, "rollout phase "+phase, func() (bool, string) {
		out, err := hubCommand(r.h, "rollout", "status", "deployment/web", "-n", "shop", "--logical-cluster", "root:org:team", "--data-dir", r.h.dataDir)
		if err != nil {
			return false, err.Error()
		}
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) == 2 && f[0] == "Phase:" {
				return f[1] == phase, out
			}
		}
		return false, out
	})
}

// seenAt is when a physical cluster first had an image, and first ran it
// available.
type seenAt struct{ first, available time.Time }

// watch polls the physical clusters until each runs image available, or
// for timeout, and returns a function waiting for that and telling when
// each first had it and ran it available.
func (r rollout) watch(image string, timeout time.Duration) func() map[string]seenAt {
	out := map[string]seenAt{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
			all := true
			for name := range r.clusters {
				s := out[name]
				now := time.Now()
				if s.first.IsZero() && r.image(name) == image {
					s.first = now
				}
				if ok, _ := r.available(name, image); ok && s.available.IsZero() {
					s.available = now
				}
				out[name] = s
				all = all && !s.available.IsZero()
			}
			if all {
				return
			}
		}
	}()
	return func() map[string]seenAt {
		<-done
		for name, s := range out {
			if s.available.IsZero() {
				r.t.Fatalf("%s never ran %s available", name, image)
			}
		}
		return out
	}
}
