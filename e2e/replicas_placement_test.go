package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/canopy-dev/canopy/e2e/pcluster"
	"github.com/canopy-dev/canopy/internal/pgtest"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// TestReplicasPlacementTakeover runs three replicas of one hub on one
// PostgreSQL database, with physical clusters pc1 and pc2 and their
// syncers, each given every replica's URL so that it outlives the
// replica it is connected to. Placement moving of root:moving puts
// Deployment web on pc1, then, its selector changed, moves it to pc2,
// make before break. The move is held: web's pods run only on nodes
// labelled drill=on, and pc2 has none, so pc2 cannot report web
// available and pc1 cannot be released. With the move begun, the test
// kills, with SIGKILL, the replica that owns the shard of root:moving,
// whose placement controller drives the move, and only then labels a
// node of pc2. The move must finish, web assigned to pc2 alone, and
// only once pc2 runs it, and pc1's copy removed; the test logs how long
// after the kill another replica held the shard's Lease and the move
// was done.
func TestReplicasPlacementTakeover(t *testing.T) {
	t.Parallel()
	if _, err := pcluster.EnsureBinaries(); err != nil {
		t.Fatal(err)
	}
	syncerBin := buildSyncer(t)
	r := startReplicas(t, 3, pgtest.Shared(t).NewDatabase(t))
	admin := r.kubectl()
	p := logicalcluster.Name("root:moving")
	admin.createLogicalCluster("root", p.Base())
	r.addContext(admin, "moving", p)

	clusters := startClusters(t, "pc1", "pc2")
	// The syncers connect first to the replica their SyncTargets are
	// created through: another may not have seen a SyncTarget yet just
	// after, and refuse its new credential as revoked.
	servers := r.servers()
	var hubURLs []string
	for _, i := range []int{1, 0, 2} {
		hubURLs = append(hubURLs, "--hub-url", servers[i])
	}
	keys := map[string]string{}
	for name, side := range map[string]string{"pc1": "a", "pc2": "b"} {
		keys[name], _ = registerSyncer(t, r.hubs[1], syncerBin, clusters[name], name, hubURLs...)
		admin.must("--context", "root", "label", "synctarget", name, "side="+side)
	}
	labelNode(t, clusters["pc1"], "pc1-a")
	// The placement first, and web once the placement controller has it:
	// a Placement that comes after the objects it selects places none of
	// them (placeRegion reads no namespace of its region).
	admin.apply("moving", movingPlacement)
	waitFor(t, time.Minute, "placement moving's status", func() (bool, string) {
		got := admin.must("--context", "moving", "get", "placement", "moving", "-o",
			`jsonpath={range .status.targets[*]}{.name}:{.reason} {end}`)
		return got == "pc1:Eligible pc2:LabelMismatch ", got
	})
	admin.apply("moving", heldDeployment)
	placements := placed{t: t, admin: admin, keys: keys}
	placements.waitShares("moving", "shop", "web", map[string]string{"pc1": ""})
	shop := func(target string) string { return downNS(target, p.String(), "shop") }
	waitDownstream(t, clusters["pc1"], shop("pc1"), "web", 2)

	victim, err := r.owner(0, p)
	if err != nil {
		t.Fatal(err)
	}
	member := r.member(victim)
	survivor := (victim + 1) % len(r.hubs)
	t.Logf("replica %d (%s) owns the shard of %s, Lease %s", victim+1, member, p, shardLease(p))

	// Start the move, see it begin, and kill the owner while pc2 cannot
	// yet run web. pc2 is selected first, which moves nothing, web
	// staying where it is while it may, then pc1 no longer.
	admin.must("--context", "root", "label", "synctarget", "pc2", "side=a", "--overwrite")
	admin.must("--context", "root", "label", "synctarget", "pc1", "side=b", "--overwrite")
	waitFor(t, time.Minute, "web moving from pc1 to pc2", func() (bool, string) {
		got := admin.must("--context", "moving", "-n", "shop", "get", "deployment", "web", "-o",
			"jsonpath={.metadata.annotations."+jsonpathKey(workloadv1alpha1.LeavingAnnotation)+"}")
		shares := placements.shares("moving", "shop", "web")
		_, onPC2 := shares["pc2"]
		status := admin.must("--context", "moving", "get", "placement", "moving", "-o",
			`jsonpath={range .status.targets[*]}{.name}:{.reason}:{.message} {end}`)
		return got == keys["pc1"] && onPC2, fmt.Sprintf("leaving %q, assigned %v, placement moving's targets %s", got, shares, status)
	})
	r.kill(victim)
	killed := time.Now()
	if got := placements.shares("moving", "shop", "web"); len(got) != 2 {
		t.Fatalf("web is assigned %v at the kill, want both pc1 and pc2: the move was not held", got)
	}
	labelNode(t, clusters["pc2"], "pc2-a")

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	takeover := r.takeover(ctx, survivor, p, member, killed)
	pc2 := clusters["pc2"]
	var moved time.Duration
	waitFor(t, 3*time.Minute, "web moved to pc2 and pc1 released", func() (bool, string) {
		shares := placements.shares("moving", "shop", "web")
		if _, onPC1 := shares["pc1"]; onPC1 {
			return false, fmt.Sprintf("assigned %v", shares)
		}
		moved = time.Since(killed)
		// Released: pc2 must run web already.
		d, err := pc2.Client.AppsV1().Deployments(shop("pc2")).Get(context.Background(), "web", metav1.GetOptions{})
		if err != nil || *d.Spec.Replicas != 2 || d.Status.AvailableReplicas != 2 {
			t.Errorf("pc1 was released while web in pc2 is %v", describeDeployment(d, err))
		}
		if len(shares) != 1 {
			t.Errorf("web after the move is assigned %v, want pc2 alone", shares)
		}
		return true, ""
	})
	if got := admin.must("--context", "moving", "-n", "shop", "get", "deployment", "web", "-o",
		"jsonpath={.metadata.annotations."+jsonpathKey(workloadv1alpha1.LeavingAnnotation)+"}"); got != "" {
		t.Errorf("web still moving off %q after its move ended", got)
	}
	waitFor(t, time.Minute, "web in pc1 removed", func() (bool, string) {
		_, err := clusters["pc1"].Client.AppsV1().Deployments(shop("pc1")).Get(context.Background(), "web", metav1.GetOptions{})
		return apierrors.IsNotFound(err), fmt.Sprint(err)
	})
	removed := time.Since(killed)
	waitFor(t, time.Minute, "a running replica holding Lease "+shardLease(p), func() (bool, string) {
		return takeover() > 0, "no"
	})
	t.Logf("a running replica holds Lease %s %v after the kill", shardLease(p), takeover().Round(10*time.Millisecond))
	t.Logf("web is on pc2 alone %v after the kill, and its copy in pc1 removed %v after", moved.Round(100*time.Millisecond), removed.Round(100*time.Millisecond))
	// Only the shard's owner places root:moving's objects: none but the
	// replica that took the shard over may have ended the move. A second
	// is allowed for a read of the Lease that lags behind the new owner's
	// first writes.
	if took := takeover(); moved < took-time.Second {
		t.Errorf("the move ended %v after the kill, before another replica held the shard's Lease (%v): a replica that does not own the shard placed web",
			moved.Round(100*time.Millisecond), took.Round(100*time.Millisecond))
	}
}

// movingPlacement is root:moving's placement of its Deployments on a
// target labelled side=a.
const movingPlacement = `apiVersion: placement.canopy.dev/v1alpha1
kind: Placement
metadata: {name: moving}
spec:
  resources: [{group: apps, resource: deployments}]
  targets: {labelSelector: {matchLabels: {side: a}}}
`

// heldDeployment is namespace shop and its Deployment web, whose 2 pods
// run only on nodes labelled drill=on.
const heldDeployment = `apiVersion: v1
kind: Namespace
metadata: {name: shop}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {drill: "on"}
      containers: [{name: c, image: nginx:1.27}]
`
