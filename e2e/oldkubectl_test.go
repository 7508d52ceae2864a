package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Clients in the field are older than the hub: the oldest and newest
// kubectl releases on the machine drive a logical cluster through the
// basic get, apply and delete.
func TestOldKubectl(t *testing.T) {
	t.Parallel()
	path, err := exec.LookPath("kubectl")
	if err != nil {
		t.Fatalf("kubectl must be on PATH: %v", err)
	}
	resolved, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	h := &hub{bin: buildHub(t), dataDir: t.TempDir(), port: freePort(t)}
	h.start(t)
	admin := kubectl{t: t, kubeconfig: filepath.Join(h.dataDir, "admin.kubeconfig"), home: t.TempDir()}
	admin.createLogicalCluster("root", "old")

	admin.must("--server", fmt.Sprintf("https://127.0.0.1:%d/clusters/root:old", h.port), "create", "namespace", "app")
	manifest := writeFile(t, appManifest)
	for _, version := range []string{"1.27", "1.33"} {
		t.Run(version, func(t *testing.T) {
			bin := filepath.Join(filepath.Dir(resolved), "kubectl."+version)
			if _, err := os.Stat(bin); err != nil {
				t.Fatalf("kubectl %s is not beside kubectl: %v", version, err)
			}
			k := kubectl{t: t, kubeconfig: filepath.Join(t.TempDir(), "kubeconfig"), home: t.TempDir(), bin: bin}
			raw, err := os.ReadFile(admin.kubeconfig)
			if err != nil {
				t.Fatal(err)
			}
			server := fmt.Sprintf("https://127.0.0.1:%d/clusters/root:old", h.port)
			if err := os.WriteFile(k.kubeconfig, []byte(strings.ReplaceAll(string(raw),
				fmt.Sprintf("https://127.0.0.1:%d/clusters/root", h.port), server)), 0o600); err != nil {
				t.Fatal(err)
			}
			if got := k.must("version", "--client", "-o", "json"); !strings.Contains(got, `"minor": "`+strings.TrimPrefix(version, "1.")) {
				t.Fatalf("%s is not kubectl %s: %s", bin, version, got)
			}

			k.must("apply", "-f", manifest)
			if got := k.must("get", "configmap", "web-config", "-n", "app", "-o", "jsonpath={.data.mode}"); got != "initial" {
				t.Errorf("configmap data is %q after apply, want initial", got)
			}
			for resource, columns := range map[string]string{"deploy": "READY UP-TO-DATE AVAILABLE", "svc": "TYPE CLUSTER-IP EXTERNAL-IP PORT(S)"} {
				if got := k.must("get", resource, "web", "-n", "app"); !strings.Contains(strings.Join(strings.Fields(got), " "), columns) || !strings.Contains(got, "web") {
					t.Errorf("kubectl get %s printed no table with web:\n%s", resource, got)
				}
			}
			k.must("delete", "-f", manifest)
			// Namespace app keeps the root CA published in every namespace.
			if got := strings.TrimSpace(k.must("get", "deploy,svc,cm", "-n", "app", "-o", "name")); got != "configmap/kube-root-ca.crt" {
				t.Errorf("objects left after delete:\n%s", got)
			}
		})
	}
}
