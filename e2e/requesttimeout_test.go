package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestRequestTimeout starts a hub with --request-timeout=3s: a create
// whose body comes 5 s after its headers gets 504 Timeout as a Status and
// is not stored, one sent at once is created, and a hub started with a
// timeout of 0 refuses to start, saying which flag is wrong.
func TestRequestTimeout(t *testing.T) {
	t.Parallel()
	bin := buildHub(t)
	bad := &hub{bin: bin, dataDir: t.TempDir(), port: freePort(t), flags: []string{"--request-timeout=0s"}}
	bad.launch(t)
	if out := bad.waitExit(t); !strings.Contains(out, "--request-timeout 0s must be more than 0") {
		t.Errorf("hub start --request-timeout=0s printed:\n%s\nwant it to say the flag must be more than 0", out)
	}

	h, _ := startHub(t, bin, "", "--request-timeout=3s")
	client, err := adminClient(filepath.Join(h.dataDir, "pki"))
	if err != nil {
		t.Fatal(err)
	}
	// Over HTTP/1.1, Go's server reads what is left of a body before it
	// sends the answer, so the 504 comes with the body, after 5 s: more
	// than the admin client's own timeout.
	client.Timeout = 30 * time.Second
	configMaps := hubURL(h, "root") + "/api/v1/namespaces/default/configmaps"
	post := func(name string, after time.Duration) (int, metav1.Status) {
		body, w := io.Pipe()
		go func() {
			time.Sleep(after)
			_, _ = io.WriteString(w, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"`+name+`"}}`)
			_ = w.Close()
		}()
		req, err := http.NewRequest(http.MethodPost, configMaps, body)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var status metav1.Status
		_ = json.NewDecoder(resp.Body).Decode(&status)
		return resp.StatusCode, status
	}
	if code, status := post("slow", 5*time.Second); code != http.StatusGatewayTimeout || status.Reason != metav1.StatusReasonTimeout {
		t.Errorf("a create whose body came 5s after its headers, with --request-timeout=3s: %d %s %q; want 504 Timeout", code, status.Reason, status.Message)
	}
	if code, status := post("quick", 0); code != http.StatusCreated {
		t.Errorf("a create sent at once, with --request-timeout=3s: %d %s %q; want 201", code, status.Reason, status.Message)
	}
	time.Sleep(3 * time.Second)
	resp, err := client.Get(configMaps + "/slow")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("the create that timed out: GET answers %d; want 404, nothing stored", resp.StatusCode)
	}
}
