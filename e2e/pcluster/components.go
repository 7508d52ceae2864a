package pcluster

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// componentStarts bounds how often settle starts a cluster's components
// again: once the kube-apiserver serves, a component that still exits
// will exit again, and its log says why.
const componentStarts = 3

// settle waits until a cluster kwokctl made is ready for a test: pods can
// be made, since the service account controller has made the default
// service account, and, with metrics, metrics.k8s.io is served. Meanwhile
// it has kwokctl start again every component whose process is gone.
//
// kwokctl's binary runtime forks every component at once and never
// restarts one, yet two of them exit when the kube-apiserver does not
// serve soon enough, which a loaded machine makes likely:
// kube-controller-manager gives up after 10 s of failed /healthz checks,
// and metrics-server at once, unable to read the request-header CA from
// kube-system. kwokctl create still reports the cluster ready: while it
// runs, an exited process is its unreaped child, which its liveness
// check (signal 0) takes for running.
func (c *Cluster) settle(ctx context.Context, bins Binaries, metrics bool) error {
	starts := 0
	// whileRunning looks at done only once every component runs.
	whileRunning := func(done func() (bool, error)) func() (bool, error) {
		return func() (bool, error) {
			if running, err := c.running(ctx, bins, &starts); !running || err != nil {
				return false, err
			}
			return done()
		}
	}
	err := poll(ctx, "the default service account", whileRunning(func() (bool, error) {
		_, err := c.Client.CoreV1().ServiceAccounts("default").Get(ctx, "default", metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		return err == nil, err
	}))
	if err != nil || !metrics {
		return err
	}
	var last metav1.Condition
	err = poll(ctx, "APIService "+metricsAPIService+" to be Available", whileRunning(func() (bool, error) {
		var err error
		last, err = c.metricsAvailable(ctx)
		return last.Status == metav1.ConditionTrue, err
	}))
	if err != nil {
		return fmt.Errorf("%w; its Available condition last said %s: %s", err, last.Reason, last.Message)
	}
	return nil
}

// running reports whether every component of the cluster runs. When one
// is gone, it has kwokctl start it again, counting the starts, and reports
// false until the next look.
func (c *Cluster) running(ctx context.Context, bins Binaries, starts *int) (bool, error) {
	for _, name := range slices.Sorted(maps.Keys(c.PIDs)) {
		pid := c.PIDs[name]
		if Alive(pid) {
			continue
		}
		if exists(pid) {
			// A zombie until its parent reaps it, and running to kwokctl
			// till then.
			return false, nil
		}
		if *starts == componentStarts {
			return false, fmt.Errorf("%s exited again after %d starts; the end of its log: %s", name, *starts, c.componentLog(name))
		}
		*starts++
		return false, c.startExited(ctx, bins)
	}
	return true, nil
}

// exists reports whether process pid exists, running or a zombie.
func exists(pid int) bool {
	_, err := os.Stat(fmt.Sprintf("/proc/%d", pid))
	return err == nil
}

// startExited has kwokctl start the cluster's components whose processes
// are gone, and reads their new pids. kwokctl start cluster starts each
// component whose pid file names no process, not even a zombie, and
// rewrites that file, so Stop finds the new process as it finds the
// others.
func (c *Cluster) startExited(ctx context.Context, bins Binaries) error {
	if err := kwokctl(ctx, bins, c.workdir, "start", "cluster", "--name", c.Name); err != nil {
		return err
	}
	var err error
	c.PIDs, err = readPIDs(clusterDir(c.workdir, c.Name))
	return err
}

// componentLog returns the last lines of a component's log, where
// kwokctl's binary runtime writes it.
func (c *Cluster) componentLog(name string) string {
	data, err := os.ReadFile(filepath.Join(clusterDir(c.workdir, c.Name), "logs", name+".log"))
	if err != nil {
		return err.Error()
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	return string(bytes.Join(lines[max(0, len(lines)-5):], []byte("\n")))
}
