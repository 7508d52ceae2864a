package pcluster

// streamSimulations are the kwok resources that make the simulated
// kubelet answer exec, attach and port-forward as a real one would, for
// every container of every pod (no selector): an exec runs its command on
// this machine, as the test's own process, and a port-forward to any port
// is connected to `cat`, which sends back every byte it is sent, so a test
// sees bytes cross both ways. An attach follows podLogs from its end, as
// attaching to a running container shows what it writes from then on.
func streamSimulations(podLogs string) []map[string]any {
	return []map[string]any{{
		"apiVersion": "kwok.x-k8s.io/v1alpha1",
		"kind":       "ClusterExec",
		"metadata":   map[string]any{"name": "exec-locally"},
		"spec":       map[string]any{"execs": []map[string]any{{"local": map[string]any{}}}},
	}, {
		"apiVersion": "kwok.x-k8s.io/v1alpha1",
		"kind":       "ClusterAttach",
		"metadata":   map[string]any{"name": "attach-to-logs"},
		"spec":       map[string]any{"attaches": []map[string]any{{"logsFile": podLogs}}},
	}, {
		"apiVersion": "kwok.x-k8s.io/v1alpha1",
		"kind":       "ClusterPortForward",
		"metadata":   map[string]any{"name": "echo"},
		"spec":       map[string]any{"forwards": []map[string]any{{"command": []string{"cat"}}}},
	}}
}
