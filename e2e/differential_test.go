package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/canopy-dev/canopy/e2e/pcluster"
	"github.com/canopy-dev/canopy/internal/difftest"
)

// The knobs of TestDifferential, environment variables, which
// bench/differential.sh sets for long runs.
const (
	// Cases per kind; 200 by default.
	differentialCasesEnv = "CANOPY_DIFFERENTIAL_CASES"
	// The seed; 1 by default.
	differentialSeedEnv = "CANOPY_DIFFERENTIAL_SEED"
	// One case to run again, as apps/v1/Deployment#17: its request and
	// both answers are logged whole.
	differentialCaseEnv = "CANOPY_DIFFERENTIAL_CASE"
	// Comma-separated kind IDs to run; all by default.
	differentialKindsEnv = "CANOPY_DIFFERENTIAL_KINDS"
)

// differentialExamples bounds the failing classes of each kind the test
// prints whole; the summary counts them all.
const differentialExamples = 3

// A logical cluster answers as kube-apiserver v1.37 does (issue 17,
// acceptance 1): the differential harness sends the same generated cases,
// valid and invalid, of every built-in kind both serve (create, update,
// each patch type, apply with and without force), a Table of each and a
// watch script to a logical cluster and to a physical cluster's
// kube-apiserver, and every difference that is not a deliberate divergence
// (internal/difftest/divergences.yaml) fails the test, as does every
// built-in kind kube-apiserver serves and the hub does not, unless listed
// there too.
func TestDifferential(t *testing.T) {
	t.Parallel()
	opts := difftest.Options{
		Seed:      int64(envInt(t, differentialSeedEnv, 1)),
		Cases:     envInt(t, differentialCasesEnv, 200),
		Only:      os.Getenv(differentialCaseEnv),
		Namespace: "difftest",
		Parallel:  8,
		Logf:      t.Logf,
	}
	if kinds := os.Getenv(differentialKindsEnv); kinds != "" {
		opts.Kinds = strings.Split(kinds, ",")
	}
	start := time.Now()
	kube, hub := startDifferentialServers(t)
	ready := time.Since(start)
	ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	report, err := difftest.Run(ctx, kube, hub, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("servers ready in %v, cases run in %v\n%s", ready.Round(time.Second), (time.Since(start) - ready).Round(time.Second), report.Summary(5))
	for _, u := range report.UnservedFailing() {
		t.Errorf("%s: %s", u.ID(), u.Why)
	}
	for _, kr := range report.Kinds() {
		failing := kr.Failing()
		for i, c := range failing {
			if i == differentialExamples {
				t.Errorf("%s: %d classes of divergence more", kr.Kind, len(failing)-i)
				break
			}
			t.Errorf("%s: %s, in %d cases; the first:\n%s", kr.Kind, c.Name, c.Count, c.Example)
		}
	}
}

// startDifferentialServers starts a physical cluster and, meanwhile, a hub
// with logical cluster root:diff, and returns the harness's servers for
// both.
func startDifferentialServers(t *testing.T) (kube, hub *difftest.Server) {
	t.Helper()
	if _, err := pcluster.EnsureBinaries(); err != nil {
		t.Fatal(err)
	}
	type started struct {
		c   *pcluster.Cluster
		err error
	}
	dir := t.TempDir()
	cluster := make(chan started, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		c, err := pcluster.Create(ctx, dir, "diff", pcluster.Options{})
		cluster <- started{c, err}
	}()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := pcluster.Stop(ctx, dir, "diff"); err != nil {
			t.Errorf("stopping the physical cluster: %v", err)
		}
	})
	h, admin := startHub(t, buildHub(t), "")
	admin.addContextAs(h, filepath.Join(h.dataDir, "pki"), "admin", "diff", "root:diff")
	admin.createLogicalCluster("root", "diff")
	hub, err := difftest.NewServer("hub", admin.restConfig("diff"))
	if err != nil {
		t.Fatal(err)
	}
	pc := <-cluster
	if pc.err != nil {
		t.Fatalf("starting the physical cluster: %v", pc.err)
	}
	kube, err = difftest.NewServer("kube-apiserver", pc.c.Config)
	if err != nil {
		t.Fatal(err)
	}
	return kube, hub
}

// envInt is the integer in environment variable name, def when unset.
func envInt(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("%s=%q: want an integer", name, v)
	}
	return n
}
