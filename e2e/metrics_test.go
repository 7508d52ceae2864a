package e2e

import (
	"bufio"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// The hub's /metrics must not grow with the number of logical clusters:
// the same traffic spread over many more logical clusters leaves the set
// of series unchanged, so nothing is labelled by logical cluster.
func TestMetricsCardinality(t *testing.T) {
	t.Parallel()
	h := &hub{bin: buildHub(t), dataDir: t.TempDir(), port: freePort(t)}
	h.start(t)
	client, err := adminClient(filepath.Join(h.dataDir, "pki"))
	if err != nil {
		t.Fatal(err)
	}
	k := kubectl{t: t, kubeconfig: filepath.Join(h.dataDir, "admin.kubeconfig"), home: t.TempDir()}
	base := fmt.Sprintf("https://127.0.0.1:%d", h.port)

	traffic := func(names ...string) {
		for _, name := range names {
			k.createLogicalCluster("root", name)
			cluster := base + "/clusters/root:" + name
			cm := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"k":"v"}}`
			for _, req := range []struct{ method, path, body string }{
				{"GET", "/api/v1/namespaces", ""},
				{"POST", "/api/v1/namespaces/default/configmaps", cm},
				{"GET", "/api/v1/namespaces/default/configmaps/c", ""},
				{"GET", "/api/v1/namespaces/default/configmaps", ""},
				{"DELETE", "/api/v1/namespaces/default/configmaps/c", ""},
			} {
				r, err := http.NewRequest(req.method, cluster+req.path, strings.NewReader(req.body))
				if err != nil {
					t.Fatal(err)
				}
				r.Header.Set("Content-Type", "application/json")
				resp, err := client.Do(r)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode >= 300 {
					t.Fatalf("%s %s in root:%s: %s", req.method, req.path, name, resp.Status)
				}
			}
		}
	}
	series := func() map[string]bool {
		resp, err := client.Get(base + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		set := map[string]bool{}
		s := bufio.NewScanner(resp.Body)
		s.Buffer(make([]byte, 1<<20), 1<<20)
		for s.Scan() {
			line := s.Text()
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			// The series is everything before the value.
			set[line[:strings.LastIndexByte(line, ' ')]] = true
		}
		return set
	}

	// The warm-up goes to enough logical clusters for every watch cache
	// to have resized once, which first makes its per-resource capacity
	// series appear.
	var warm, more []string
	for i := 1; i <= 12; i++ {
		warm = append(warm, fmt.Sprintf("m%d", i))
		more = append(more, fmt.Sprintf("n%d", i))
	}
	traffic(warm...)
	before := series()
	traffic(more...)
	after := series()
	var grown []string
	for s := range after {
		// The watch cache's read-wait histogram and its capacity gauge
		// have a series per resource, made the first time a consistent
		// read of that resource waits for the cache, or the cache
		// resizes: when is timing and the objects every logical cluster
		// starts with, not the number of logical clusters.
		if !before[s] && !strings.HasPrefix(s, "apiserver_watch_cache_read_wait_seconds") && !strings.HasPrefix(s, "watch_cache_capacity") {
			grown = append(grown, s)
		}
	}
	for _, s := range grown {
		for _, name := range append(warm, more...) {
			if strings.Contains(s, "root:"+name) {
				t.Errorf("a series names a logical cluster: %s", s)
			}
		}
	}
	if len(grown) > 0 {
		t.Errorf("%d series appeared when the same traffic went to 12 more logical clusters (%d before), e.g. %s",
			len(grown), len(before), grown[0])
	}
}
