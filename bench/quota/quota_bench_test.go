package quota

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/canopy-dev/canopy/bench/internal/knob"
	"github.com/canopy-dev/canopy/bench/internal/proc"
	benchreport "github.com/canopy-dev/canopy/bench/internal/report"
	"github.com/canopy-dev/canopy/internal/pgtest"
)

// Knobs, all optional.
const (
	envClients = "CANOPY_BENCH_CLIENTS" // concurrent clients (32)
	envCreates = "CANOPY_BENCH_CREATES" // ConfigMaps created in each namespace (3000)
	envRounds  = "CANOPY_BENCH_ROUNDS"  // rounds the creates are spread over (3)
	envHub     = "CANOPY_HUB"           // a prebuilt hub binary; unset builds cmd/hub
	envOut     = "CANOPY_BENCH_OUT"     // directory for the hub's log (a temp dir)
)

// goal is the least ratio of creates/s under a quota to creates/s without.
const goal = 0.9

// namespace is one namespace measured, and the quota it has.
type namespace struct {
	name, about string
	hard        corev1.ResourceList
	took, cpu   time.Duration
	created     int
	failed      int64
}

func BenchmarkQuota(b *testing.B) {
	clients := knob.Int(b, envClients, 32)
	creates := knob.Int(b, envCreates, 3000)
	rounds := max(knob.Int(b, envRounds, 3), 1)
	out := knob.Dir(b, envOut)
	loadStart := benchreport.LoadAverage()

	bin := proc.Binary(b, envHub, "github.com/canopy-dev/canopy/cmd/hub")
	pg := pgtest.Start(b)
	h := proc.StartHub(b, bin, pg.NewDatabase(b), out+"/hub.log")
	cfg, err := clientcmd.BuildConfigFromFlags("", h.AdminKubeconfig())
	if err != nil {
		b.Fatal(err)
	}
	cfg.QPS, cfg.Burst, cfg.Timeout = 5000, 5000, time.Minute
	cfg.Host = h.URL() + "/clusters/root"
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	namespaces := []*namespace{
		{name: "free", about: "no quota"},
		{name: "counted", about: "a quota of count/configmaps", hard: corev1.ResourceList{"count/configmaps": resource.MustParse("1000000")}},
		{name: "other", about: "a quota of requests.cpu", hard: corev1.ResourceList{corev1.ResourceRequestsCPU: resource.MustParse("100")}},
	}
	for _, ns := range namespaces {
		if _, err := kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns.name}}, metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
		if ns.hard != nil {
			q := &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Name: "q"}, Spec: corev1.ResourceQuotaSpec{Hard: ns.hard}}
			if _, err := kube.CoreV1().ResourceQuotas(ns.name).Create(ctx, q, metav1.CreateOptions{}); err != nil {
				b.Fatal(err)
			}
			waitForStatus(b, kube, ns.name)
		}
	}

	data := map[string]string{"data": strings.Repeat("x", 256)}
	perRound := creates / rounds
	for round := range rounds {
		for j := range namespaces {
			ns := namespaces[(round+j)%len(namespaces)]
			cms := kube.CoreV1().ConfigMaps(ns.name)
			cpuBefore, _ := proc.CPUTime(h.PID())
			took, failed := proc.Pool(clients, perRound, func(i int) error {
				name := fmt.Sprintf("cm-%d-%d", round, i)
				_, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: data}, metav1.CreateOptions{})
				return err
			}, logf)
			cpuAfter, _ := proc.CPUTime(h.PID())
			ns.took += took
			ns.cpu += cpuAfter - cpuBefore
			ns.created += perRound - int(failed)
			ns.failed += failed
			logf("round %d, %s: %.0f creates/s", round+1, ns.about, float64(perRound-int(failed))/took.Seconds())
		}
	}
	checkUsed(b, kube, "counted")

	base := namespaces[0].rate()
	fmt.Fprintf(os.Stdout, "\nQuota on the create path: %d ConfigMaps in each namespace, %d clients, %d rounds side by side\n", perRound*rounds, clients, rounds)
	fmt.Fprintf(os.Stdout, "load average at start %s, at end %s (2 cores)\n\n", loadStart, benchreport.LoadAverage())
	fmt.Fprintf(os.Stdout, "%-30s %10s %8s %14s %8s\n", "namespace", "creates/s", "ratio", "hub CPU ms/op", "errors")
	for _, ns := range namespaces {
		fmt.Fprintf(os.Stdout, "%-30s %10.0f %8.2f %14.2f %8d\n", ns.about, ns.rate(), ns.rate()/base,
			float64(ns.cpu.Microseconds())/1000/float64(max(ns.created, 1)), ns.failed)
	}
	for _, ns := range namespaces[1:] {
		ratio := ns.rate() / base
		fmt.Fprintf(os.Stdout, "goal: creates/s with %s at least %.1f of without: %.2f %s\n", ns.about, goal, ratio, benchreport.PassMiss(ratio >= goal))
		b.ReportMetric(ratio, ns.name+"-ratio")
	}
	b.ReportMetric(base, "creates/s")
}

func (ns *namespace) rate() float64 { return float64(ns.created) / ns.took.Seconds() }

func logf(format string, args ...any) { proc.Logger("BenchmarkQuota")(format, args...) }

// waitForStatus waits for the quota of namespace ns to have its first
// status, before which admission lets nothing in that it counts.
func waitForStatus(b *testing.B, kube kubernetes.Interface, ns string) {
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		q, err := kube.CoreV1().ResourceQuotas(ns).Get(context.Background(), "q", metav1.GetOptions{})
		if err == nil && q.Status.Used != nil {
			return
		}
		if time.Now().After(deadline) {
			b.Fatalf("quota q of namespace %s has no status after a minute: %v", ns, err)
		}
	}
}

// checkUsed fails b unless the quota of namespace ns counts, within a
// minute, as many ConfigMaps as the namespace holds.
func checkUsed(b *testing.B, kube kubernetes.Interface, ns string) {
	ctx := context.Background()
	var last string
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(time.Second) {
		list, err := kube.CoreV1().ConfigMaps(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			b.Fatal(err)
		}
		q, err := kube.CoreV1().ResourceQuotas(ns).Get(ctx, "q", metav1.GetOptions{})
		if err != nil {
			b.Fatal(err)
		}
		used := q.Status.Used["count/configmaps"]
		if used.Value() == int64(len(list.Items)) {
			logf("quota q of %s counts the %d ConfigMaps there", ns, len(list.Items))
			return
		}
		last = fmt.Sprintf("used %s, holds %d", used.String(), len(list.Items))
	}
	b.Fatalf("quota q of namespace %s: %s", ns, last)
}
