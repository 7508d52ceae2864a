package e2e

import (
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/canopy-dev/canopy/internal/pgtest"
	"github.com/canopy-dev/canopy/pkg/identity"
)

// TestDatastoreFile: hub init and two hubs take a PostgreSQL DSN holding a
// password from a file, as deploy/hub mounts it from a Secret: init by
// --datastore-file, one hub by the flag and the other by datastore-file
// in its --config file. They serve one database, under the identity init
// made there, and the password is in no process's command line.
func TestDatastoreFile(t *testing.T) {
	t.Parallel()
	bin := buildHub(t)
	// pgtest trusts local connections, so the server asks for no password;
	// the hubs are given one all the same, to show it stays in the file.
	const password = "kept-in-the-file"
	dsn, err := url.Parse(pgtest.Shared(t).NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	dsn.User = url.UserPassword(dsn.User.Username(), password)
	dir := t.TempDir()
	dsnFile := filepath.Join(dir, "dsn")
	// A file written by hand, or a Secret made with --from-file, often
	// ends in a newline.
	if err := os.WriteFile(dsnFile, []byte(dsn.String()+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(dir, "identity.key")

	initCmd := exec.Command(bin, "init", "--datastore-file", dsnFile, "--identity-key-file", keyFile, "--data-dir", t.TempDir())
	out, err := initCmd.CombinedOutput()
	if err != nil {
		t.Fatalf("hub init --datastore-file: %v\n%s", err, out)
	}
	checkArgsLack(t, "hub init", initCmd.Args, password)
	m := initFingerprint.FindSubmatch(out)
	if m == nil {
		t.Fatalf("hub init printed no CA fingerprint:\n%s", out)
	}

	byFlag := &hub{bin: bin, dataDir: t.TempDir(), port: freePort(t), flags: []string{"--datastore-file", dsnFile, "--identity-key-file", keyFile}}
	byConfig := &hub{bin: bin, dataDir: t.TempDir(), port: freePort(t), config: filepath.Join(dir, "hub.yaml")}
	config := fmt.Sprintf("data-dir: %s\nsecure-port: %d\ndatastore-file: %s\nidentity-key-file: %s\n", byConfig.dataDir, byConfig.port, dsnFile, keyFile)
	if err := os.WriteFile(byConfig.config, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, h := range []*hub{byFlag, byConfig} {
		h.launch(t)
	}
	for name, h := range map[string]*hub{"--datastore-file": byFlag, "datastore-file in --config": byConfig} {
		h.waitReady(t)
		if got := identity.Fingerprint(caOf(t, h)); got != string(m[1]) {
			t.Errorf("the hub given %s has CA %s, hub init made %s in the database", name, got, m[1])
		}
		if _, err := os.Stat(filepath.Join(h.dataDir, "canopy.db")); !os.IsNotExist(err) {
			t.Errorf("the hub given %s made the default SQLite database: %v", name, err)
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(h.cmd.Process.Pid), "cmdline"))
		if err != nil {
			t.Fatal(err)
		}
		checkArgsLack(t, "the hub given "+name, strings.Split(string(cmdline), "\x00"), password)
	}

	// What one writes, the other reads: they share the database.
	byFlag.admin(t).must("create", "configmap", "from-the-file", "--from-literal=k=v")
	if got := byConfig.admin(t).must("get", "configmap", "from-the-file", "-o", "jsonpath={.data.k}"); got != "v" {
		t.Errorf("the ConfigMap the other hub wrote holds %q, want v", got)
	}
}

// checkArgsLack checks that no argument of what's command line holds
// secret.
func checkArgsLack(t *testing.T, what string, args []string, secret string) {
	t.Helper()
	for _, arg := range args {
		if strings.Contains(arg, secret) {
			t.Errorf("the command line of %s holds the password: %q", what, arg)
		}
	}
}
