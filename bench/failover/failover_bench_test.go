package failover

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/canopy-dev/canopy/bench/internal/fleet"
	"github.com/canopy-dev/canopy/bench/internal/knob"
	"github.com/canopy-dev/canopy/bench/internal/proc"
	benchreport "github.com/canopy-dev/canopy/bench/internal/report"
	"github.com/canopy-dev/canopy/internal/pgtest"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// Knobs, all optional.
const (
	envTargets     = "CANOPY_BENCH_TARGETS"           // physical clusters in region eu, each with its syncer (2)
	envDeployments = "CANOPY_BENCH_DEPLOYMENTS"       // Deployments placed (10)
	envReplicas    = "CANOPY_BENCH_REPLICAS"          // replicas of each (6)
	envHeartbeat   = "CANOPY_BENCH_HEARTBEAT_TIMEOUT" // the hub's --sync-target-heartbeat-timeout (15s)
	envGrace       = "CANOPY_BENCH_GRACE"             // the placement's failover grace period (25s)
	envTimeout     = "CANOPY_BENCH_TIMEOUT"           // wait after the kill for all to be Available elsewhere (3m)
	envHub         = "CANOPY_HUB"                     // a prebuilt hub binary; unset builds cmd/hub
	envSyncer      = "CANOPY_SYNCER"                  // a prebuilt syncer binary; unset builds cmd/syncer
	envOut         = "CANOPY_BENCH_OUT"               // directory for the logs and the physical clusters' state
)

const (
	// goalSlack is what the goal allows beyond the grace period.
	goalSlack = 30 * time.Second
	// nodes is the kwok nodes of each physical cluster.
	nodes = 2
	// rolloutTimeout bounds the Deployments' first rollout.
	rolloutTimeout = 3 * time.Minute
	// namespace is where the Deployments are, in root.
	namespace = "app"
	// lost is the physical cluster whose syncer is killed.
	lost = "pc1"
)

type config struct {
	targets, deployments, replicas int
	heartbeat, grace, timeout      time.Duration
	out                            string
}

// goal is the failover goal of issue 6.
func (c config) goal() time.Duration { return c.grace + goalSlack }

func BenchmarkFailover(b *testing.B) {
	c := config{
		targets:     knob.Int(b, envTargets, 2),
		deployments: max(1, knob.Int(b, envDeployments, 10)),
		replicas:    max(1, knob.Int(b, envReplicas, 6)),
		heartbeat:   knob.Duration(b, envHeartbeat, 15*time.Second),
		grace:       knob.Duration(b, envGrace, 25*time.Second),
		timeout:     knob.Duration(b, envTimeout, 3*time.Minute),
		out:         knob.Dir(b, envOut),
	}
	if c.targets < 2 {
		b.Fatalf("%s must be at least 2: pc1's workloads need somewhere to go", envTargets)
	}
	ctx, stop := proc.InterruptContext()
	defer stop()
	loadStart := benchreport.LoadAverage()
	for range b.N {
		r := run(ctx, b, c)
		b.ReportMetric(r.AvailableElsewhere.Max.Seconds(), "failover-max-s")
		b.ReportMetric(r.AvailableElsewhere.Max.Seconds()/c.goal().Seconds(), "failover/goal")
		printReport(os.Stdout, c, r, loadStart)
	}
}

// result holds the figures of one run.
type result struct {
	// NotReady is from the kill to SyncTarget pc1 seen NotReady, and
	// LastHeartbeat from its last heartbeat before the kill to the kill.
	NotReady, LastHeartbeat time.Duration
	// From the kill, over the Deployments.
	MoveStarted, Released, HubAvailable, DownAvailable, AvailableElsewhere benchreport.Latencies
	// MoveAfterNotReady is from NotReady to each move started.
	MoveAfterNotReady benchreport.Latencies
	// ReleasedEarly counts the Deployments released from pc1 before their
	// copies elsewhere were seen running all replicas; NotDone those not
	// Available elsewhere within the timeout.
	ReleasedEarly, NotDone int
	Logs                   []string
}

func run(ctx context.Context, b *testing.B, c config) result {
	names := make([]string, c.targets)
	for t := range names {
		names[t] = fmt.Sprintf("pc%d", t+1)
	}
	logf("starting %d physical clusters of %d kwok nodes each", c.targets, nodes)
	clusters := fleet.StartClusters(ctx, b, filepath.Join(c.out, "clusters"), names, nodes)

	hubBin := proc.Binary(b, envHub, "github.com/canopy-dev/canopy/cmd/hub")
	syncerBin := proc.Binary(b, envSyncer, "github.com/canopy-dev/canopy/cmd/syncer")
	h := proc.StartHub(b, hubBin, pgtest.Start(b).NewDatabase(b), filepath.Join(c.out, "hub.log"),
		"--sync-target-heartbeat-timeout", c.heartbeat.String())
	logf("hub ready at %s (log %s)", h.URL(), h.LogPath)
	admin, err := clientcmd.BuildConfigFromFlags("", h.AdminKubeconfig())
	if err != nil {
		b.Fatal(err)
	}
	admin.Host = h.URL() + "/clusters/root"
	admin.QPS, admin.Burst = 1000, 1000
	root, err := dynamic.NewForConfig(admin)
	if err != nil {
		b.Fatal(err)
	}

	pcs := clusters.Wait(b)
	logf("%d physical clusters ready", len(pcs))
	syncers := make([]*fleet.Syncer, len(pcs))
	logs := []string{h.LogPath}
	for i, pc := range pcs {
		syncers[i] = fleet.StartSyncer(ctx, b, h, hubBin, syncerBin, pc, c.out, "region=eu")
		logs = append(logs, syncers[i].LogPath)
	}
	for _, s := range syncers {
		s.WaitReady(ctx, b)
	}
	logf("%d syncers ready", len(syncers))

	obs := observe(ctx, b, root, pcs, c)
	defer obs.stop()
	obs.waitTargetsReady(ctx, b, names)
	create(ctx, b, root.Resource(namespaces), &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": namespace},
	}})
	create(ctx, b, root.Resource(placements), placement(c.grace))
	deploy := root.Resource(deployments).Namespace(namespace)
	for i := range c.deployments {
		// No assignment of its own: placement assigns it.
		create(ctx, b, deploy, fleet.Deployment(fmt.Sprintf("web-%d", i), namespace, c.replicas, nil))
	}
	obs.waitRolledOut(ctx, b)

	// The kill: pc1 is lost.
	syncer := syncers[0]
	if err := syncer.Cmd.Process.Signal(syscall.SIGKILL); err != nil {
		b.Fatal(err)
	}
	obs.killed(time.Now())
	logf("killed the syncer of %s; waiting up to %v for its workloads to be Available elsewhere", lost, c.timeout)
	obs.waitFailedOver(ctx, b)
	r := obs.figures()
	r.Logs = logs
	return r
}

var (
	deployments = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	namespaces  = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	placements  = schema.GroupVersionResource{Group: "placement.canopy.dev", Version: "v1alpha1", Resource: "placements"}
	syncTargets = schema.GroupVersionResource{Group: workloadv1alpha1.SchemeGroupVersion.Group, Version: workloadv1alpha1.SchemeGroupVersion.Version, Resource: "synctargets"}
)

func create(ctx context.Context, b *testing.B, client dynamic.ResourceInterface, obj *unstructured.Unstructured) {
	if _, err := client.Create(ctx, obj, metav1.CreateOptions{}); err != nil {
		b.Fatalf("creating %s %s: %v", obj.GetKind(), obj.GetName(), err)
	}
}

// placement divides the replicas of the Deployments of root over the
// targets in region eu, moving them off a target NotReady for grace.
func placement(grace time.Duration) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "placement.canopy.dev/v1alpha1",
		"kind":       "Placement",
		"metadata":   map[string]any{"name": "eu"},
		"spec": map[string]any{
			"resources": []any{map[string]any{"group": "apps", "resource": "deployments"}},
			"targets":   map[string]any{"labelSelector": map[string]any{"matchLabels": map[string]any{"region": "eu"}}},
			"strategy":  map[string]any{"type": "Divide"},
			"failover":  map[string]any{"gracePeriod": grace.String()},
		},
	}}
}

var (
	sleep = proc.Sleep
	logf  = proc.Logger("bench/failover")
)
