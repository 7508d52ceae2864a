package pcluster

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// metricsAPIService is the APIService metrics-server's manifests register.
const metricsAPIService = "v1beta1.metrics.k8s.io"

// metricsServerStarts bounds how often serveMetrics starts metrics-server
// again: once the kube-apiserver serves, a start that still fails will
// fail again, and its log says why.
const metricsServerStarts = 3

// serveMetrics waits until the kube-apiserver serves metrics.k8s.io,
// starting metrics-server again whenever its process is gone.
//
// kwokctl's binary runtime forks every component at once and never
// restarts one. A metrics-server that starts before the kube-apiserver
// listens cannot read the request-header CA from kube-system and exits,
// and kwokctl create still reports the cluster ready: while it runs, the
// exited process is its unreaped child, which its liveness check (signal
// 0) takes for running. kwokctl start cluster starts each component whose
// pid file names no process, not even a zombie, and rewrites that file,
// so Stop finds the new process as it finds the others.
func (c *Cluster) serveMetrics(ctx context.Context, bins Binaries) error {
	starts := 0
	var last metav1.Condition
	err := poll(ctx, "APIService "+metricsAPIService+" to be Available", func() (bool, error) {
		pid := c.PIDs["metrics-server"]
		if !Alive(pid) {
			if exists(pid) {
				// A zombie until its parent reaps it, and running to
				// kwokctl till then.
				return false, nil
			}
			if starts == metricsServerStarts {
				return false, fmt.Errorf("metrics-server exited again after %d starts; the end of its log: %s", starts, c.metricsServerLog())
			}
			starts++
			return false, c.startExited(ctx, bins)
		}
		var err error
		last, err = c.metricsAvailable(ctx)
		return last.Status == metav1.ConditionTrue, err
	})
	if err != nil {
		return fmt.Errorf("%w; its Available condition last said %s: %s", err, last.Reason, last.Message)
	}
	return nil
}

// exists reports whether process pid exists, running or a zombie.
func exists(pid int) bool {
	_, err := os.Stat(fmt.Sprintf("/proc/%d", pid))
	return err == nil
}

// startExited has kwokctl start the cluster's components whose processes
// are gone, and reads their new pids.
func (c *Cluster) startExited(ctx context.Context, bins Binaries) error {
	if err := kwokctl(ctx, bins, c.workdir, "start", "cluster", "--name", c.Name); err != nil {
		return err
	}
	var err error
	c.PIDs, err = readPIDs(clusterDir(c.workdir, c.Name))
	return err
}

// metricsAvailable returns the Available condition of metrics-server's
// APIService, read raw: the aggregator's typed client is one module more
// for one field.
func (c *Cluster) metricsAvailable(ctx context.Context) (metav1.Condition, error) {
	raw, err := c.Client.Discovery().RESTClient().Get().
		AbsPath("/apis/apiregistration.k8s.io/v1/apiservices", metricsAPIService).DoRaw(ctx)
	if err != nil {
		return metav1.Condition{}, fmt.Errorf("reading APIService %s: %w", metricsAPIService, err)
	}
	var apiService struct {
		Status struct {
			Conditions []metav1.Condition `json:"conditions"`
		} `json:"status"`
	}
	if err := json.Unmarshal(raw, &apiService); err != nil {
		return metav1.Condition{}, fmt.Errorf("decoding APIService %s: %w", metricsAPIService, err)
	}
	for _, cond := range apiService.Status.Conditions {
		if cond.Type == "Available" {
			return cond, nil
		}
	}
	return metav1.Condition{Reason: "NoCondition", Message: "the aggregator has not checked it yet"}, nil
}

// metricsServerLog returns the last lines of metrics-server's log, where
// kwokctl's binary runtime writes it.
func (c *Cluster) metricsServerLog() string {
	data, err := os.ReadFile(filepath.Join(clusterDir(c.workdir, c.Name), "logs", "metrics-server.log"))
	if err != nil {
		return err.Error()
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	return string(bytes.Join(lines[max(0, len(lines)-5):], []byte("\n")))
}
