package fairness

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"

	"github.com/canopy-dev/canopy/bench/internal/proc"
)

// The benchmark's load runs in processes of its own, this test binary run
// again with -fairness.role: the flood's 64 clients list 500 at a time as
// fast as they can, and in the steady client's process reading the
// answers would delay its own requests, which is the client's cost, not
// the hub's. A process of its own can also run at a lower CPU priority (nice),
// as a batch job on a shared machine would, and the burner, which spins
// a thread per CPU, is the floor: what the steady client gets from an idle
// hub while something that is not the hub takes the CPU.
var (
	role       = flag.String("fairness.role", "", "run as the benchmark's flood or burn process instead of the tests")
	kubeconfig = flag.String("fairness.kubeconfig", "", "the kubeconfig of the flooded server's admin, for its certificates")
	server     = flag.String("fairness.server", "", "the URL the flood's clients send to (a hub's names the logical cluster)")
	token      = flag.String("fairness.token", "", "the flood's bearer token")
	as         = flag.String("fairness.as", "", "the user the flood's clients impersonate, without a token")
	namespace  = flag.String("fairness.namespace", metav1.NamespaceDefault, "the namespace of the flood's ConfigMaps")
	clients    = flag.Int("fairness.clients", 64, "the flood's clients")
	chunk      = flag.Int("fairness.chunk", 500, "ConfigMaps a flood list asks for at most")
)

func TestMain(m *testing.M) {
	flag.Parse()
	switch *role {
	case "":
		os.Exit(m.Run())
	case "flood":
		if err := flood(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	case "burn":
		burn()
	default:
		fmt.Fprintf(os.Stderr, "-fairness.role=%q: want flood or burn\n", *role)
		os.Exit(2)
	}
}

// flood lists and creates ConfigMaps from *clients clients
// as fast as it can until interrupted, then prints its operations and
// errors on standard output.
func flood() error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// client-go logs every request the interrupt cuts short; the flood
	// prints its own first errors.
	klog.LogToStderr(false)
	klog.SetOutput(io.Discard)
	admin, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		return err
	}
	cs, err := clientFor(admin, *server, *token, *as)
	if err != nil {
		return err
	}
	rc := cs.CoreV1().RESTClient()
	var ops, failed atomic.Int64
	var wg sync.WaitGroup
	for c := range *clients {
		wg.Go(func() {
			for i := 0; ctx.Err() == nil; i++ {
				var err error
				if i%2 == 0 {
					err = listDiscarding(ctx, rc)
				} else {
					err = rc.Post().Namespace(*namespace).Resource("configmaps").
						Body(configMap(fmt.Sprintf("flood-%d-%d-%d", os.Getpid(), c, i))).Do(ctx).Error()
				}
				if ctx.Err() != nil {
					return
				}
				ops.Add(1)
				if err != nil && failed.Add(1) <= 3 {
					fmt.Fprintf(os.Stderr, "flood: %v\n", err)
				}
			}
		})
	}
	wg.Wait()
	fmt.Printf("%d %d\n", ops.Load(), failed.Load())
	return nil
}

// listDiscarding lists up to *chunk ConfigMaps and reads the answer whole
// without decoding it: decoding is the client's cost, which clients on
// other machines would not put on the hub's CPU.
func listDiscarding(ctx context.Context, rc rest.Interface) error {
	body, err := rc.Get().Namespace(*namespace).Resource("configmaps").
		Param("limit", strconv.Itoa(*chunk)).Stream(ctx)
	if err != nil {
		return err
	}
	defer body.Close()
	_, err = io.Copy(io.Discard, body)
	return err
}

// burn spins a thread per CPU until killed.
func burn() {
	for range runtime.NumCPU() - 1 {
		go spin()
	}
	spin()
}

func spin() {
	for x := 0; ; x++ {
		if x < 0 {
			x = 0
		}
	}
}

// loader is a flood or burn process the benchmark started.
type loader struct {
	cmd   *exec.Cmd
	out   strings.Builder
	start time.Time
}

// startLoader runs this test binary again as role, at CPU priority nice,
// with args.
func startLoader(tb testing.TB, role string, nice int, args ...string) *loader {
	tb.Helper()
	self, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	l := &loader{start: time.Now()}
	l.cmd = exec.Command("nice", append([]string{"-n", strconv.Itoa(nice), self, "-fairness.role=" + role}, args...)...)
	l.cmd.Stdout, l.cmd.Stderr = &l.out, os.Stderr
	l.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := l.cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = l.cmd.Process.Kill(); _ = l.cmd.Wait() })
	return l
}

// stop ends the process (an interrupt for a flood, which then reports)
// and returns the flood's operations a second and errors, and the CPU
// time the process used.
func (l *loader) stop(tb testing.TB) (opsPerSec float64, errors int64, cpu time.Duration) {
	tb.Helper()
	// nice execs the binary, so the process is the loader itself.
	cpu, _ = proc.CPUTime(l.cmd.Process.Pid)
	elapsed := time.Since(l.start)
	_ = l.cmd.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- l.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = l.cmd.Process.Kill()
		<-done
	}
	var ops int64
	if _, err := fmt.Sscan(l.out.String(), &ops, &errors); err != nil {
		return 0, 0, cpu
	}
	return float64(ops) / elapsed.Seconds(), errors, cpu
}
