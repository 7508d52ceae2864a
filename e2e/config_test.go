package e2e

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigFile starts a hub from a config file alone, which must set
// flags of every kind, and checks that the command line still wins.
func TestConfigFile(t *testing.T) {
	t.Parallel()
	bin := buildHub(t)
	h := &hub{bin: bin, dataDir: t.TempDir(), port: freePort(t), config: filepath.Join(t.TempDir(), "hub.yaml")}
	config := fmt.Sprintf("data-dir: %s\nsecure-port: %d\nbind-address: 127.0.0.1\nexternal-hostname: localhost\ntls-san:\n- hub.example.com\n- 10.1.2.3\n", h.dataDir, h.port)
	if err := os.WriteFile(h.config, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	h.start(t)

	kubeconfig, err := os.ReadFile(filepath.Join(h.dataDir, "admin.kubeconfig"))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("server: https://localhost:%d/clusters/root", h.port); !strings.Contains(string(kubeconfig), want) {
		t.Errorf("the admin kubeconfig lacks %q:\n%s", want, kubeconfig)
	}
	serving := readCert(t, filepath.Join(h.dataDir, "pki", "serving.crt"))
	for _, name := range []string{"localhost", "hub.example.com", "10.1.2.3", "127.0.0.1"} {
		if err := serving.VerifyHostname(name); err != nil {
			t.Errorf("the serving certificate does not name %s: %v", name, err)
		}
	}
	k := kubectl{t: t, kubeconfig: filepath.Join(h.dataDir, "admin.kubeconfig"), home: t.TempDir()}
	k.must("get", "namespaces")
	h.stop(t)

	// A flag on the command line overrides the file, and a new name gets
	// a serving certificate that names it, under the same CA.
	h.config = ""
	h.cmd = nil
	h.start(t)
	if err := readCert(t, filepath.Join(h.dataDir, "pki", "serving.crt")).VerifyHostname("127.0.0.1"); err != nil {
		t.Error(err)
	}

	// A key that is no flag is refused, naming the flags there are.
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(bad, []byte("secure-prot: 7443\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "start", "--config", bad).CombinedOutput()
	if err == nil || !strings.Contains(string(out), `secure-prot\" is not a flag of this command; the flags are`) || !strings.Contains(string(out), "secure-port") {
		t.Errorf("hub start with a misspelt config key: %v\n%s", err, out)
	}
}

func readCert(t *testing.T, path string) *x509.Certificate {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(data)
	if block == nil {
		t.Fatalf("%s holds no PEM", path)
	}
	c, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
