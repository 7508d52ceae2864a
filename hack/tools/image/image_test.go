package main

import (
	"archive/tar"
	"bytes"
	"crypto/x509"
	"debug/buildinfo"
	"debug/elf"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// root is the repository's root, from this package's directory.
const root = "../../.."

var machines = map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}

// TestSyncerImage builds the syncer image as a release does, with
// hack/image.sh, and checks what running it in a cluster relies on: its
// name is the one hub synctarget create puts in the manifest, each
// platform's image runs a static binary of its architecture as nonroot,
// trusts public CAs, and docker load finds the host's image. A second
// build makes the same bytes.
func TestSyncerImage(t *testing.T) {
	archive := buildImage(t)
	dir := t.TempDir()
	untar(t, archive, dir)
	lp, err := layout.FromPath(dir)
	if err != nil {
		t.Fatal(err)
	}
	top, err := lp.ImageIndex()
	if err != nil {
		t.Fatal(err)
	}
	tm, err := top.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	if len(tm.Manifests) != 1 {
		t.Fatalf("index.json has %d entries, want the image index alone", len(tm.Manifests))
	}
	ref := tm.Manifests[0].Annotations["org.opencontainers.image.ref.name"]
	// pkg/release's names: the release version, or latest for a work tree.
	if !regexp.MustCompile(`^ghcr\.io/canopy-dev/syncer:(latest|v\d+\.\d+\.\d+)$`).MatchString(ref) {
		t.Errorf("image named %q, want ghcr.io/canopy-dev/syncer:<release or latest>", ref)
	}
	if got := tm.Manifests[0].Annotations["io.containerd.image.name"]; got != ref {
		t.Errorf("containerd's name %q, want %q", got, ref)
	}
	index, err := top.ImageIndex(tm.Manifests[0].Digest)
	if err != nil {
		t.Fatal(err)
	}
	im, err := index.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	var arches []string
	configs := map[string]v1.Hash{}
	for _, desc := range im.Manifests {
		if desc.Platform == nil || desc.Platform.OS != "linux" {
			t.Fatalf("index entry %s has platform %v, want linux", desc.Digest, desc.Platform)
		}
		arch := desc.Platform.Architecture
		arches = append(arches, arch)
		img, err := index.Image(desc.Digest)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(arch, func(t *testing.T) { checkImage(t, img, arch) })
		if configs[arch], err = img.ConfigName(); err != nil {
			t.Fatal(err)
		}
	}
	if slices.Sort(arches); !slices.Equal(arches, []string{"amd64", "arm64"}) {
		t.Errorf("platforms %v, want amd64 and arm64", arches)
	}

	tag, err := name.NewTag(ref)
	if err != nil {
		t.Fatal(err)
	}
	docker, err := tarball.ImageFromPath(archive, &tag)
	if err != nil {
		t.Fatalf("manifest.json, which docker load and crane push read: %v", err)
	}
	if got, err := docker.ConfigName(); err != nil || got != configs[runtime.GOARCH] {
		t.Errorf("manifest.json names config %s (%v), want the %s image's %s", got, err, runtime.GOARCH, configs[runtime.GOARCH])
	}

	first, err := os.ReadFile(archive)
	if err != nil {
		t.Fatal(err)
	}
	second, err := os.ReadFile(buildImage(t))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first, second) {
		t.Error("a second build of the same commit made a different tarball")
	}
}

// buildImage runs hack/image.sh syncer with an output directory of its
// own, and returns the tarball it printed.
func buildImage(t *testing.T) string {
	t.Helper()
	out := t.TempDir()
	cmd := exec.Command("bash", filepath.Join(root, "hack/image.sh"), "syncer")
	cmd.Env = append(os.Environ(), "CANOPY_OUTPUT="+out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("hack/image.sh syncer: %v\n%s", err, stderr.String())
	}
	if got, want := strings.TrimSpace(string(stdout)), filepath.Join(out, "images/syncer.tar"); got != want {
		t.Fatalf("hack/image.sh syncer printed %q, want %q", got, want)
	}
	return filepath.Join(out, "images/syncer.tar")
}

func checkImage(t *testing.T, img v1.Image, arch string) {
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	c := cf.Config
	if cf.OS != "linux" || cf.Architecture != arch {
		t.Errorf("config platform %s/%s, want linux/%s", cf.OS, cf.Architecture, arch)
	}
	if !slices.Equal(c.Entrypoint, []string{"/usr/local/bin/syncer"}) || len(c.Cmd) != 0 {
		t.Errorf("entrypoint %q cmd %q, want /usr/local/bin/syncer alone", c.Entrypoint, c.Cmd)
	}
	if c.User != "65532:65532" || c.WorkingDir != "/" {
		t.Errorf("user %q in %q, want 65532:65532 in /", c.User, c.WorkingDir)
	}
	head, err := exec.Command("git", "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{
		"org.opencontainers.image.source":   "https://github.com/canopy-dev/canopy",
		"org.opencontainers.image.revision": strings.TrimSpace(string(head)),
		"org.opencontainers.image.title":    "Canopy syncer",
	} {
		if got := c.Labels[k]; got != want {
			t.Errorf("label %s = %q, want %q", k, got, want)
		}
	}
	if c.Labels["org.opencontainers.image.version"] == "" {
		t.Error("no label org.opencontainers.image.version")
	}

	files := extract(t, img)
	bin, ok := files["usr/local/bin/syncer"]
	if !ok || bin.header.Typeflag != tar.TypeReg || bin.header.Mode != 0o755 {
		t.Fatalf("/usr/local/bin/syncer is %+v, want a file with mode 0755", bin.header)
	}
	f, err := elf.NewFile(bytes.NewReader(bin.data))
	if err != nil {
		t.Fatalf("/usr/local/bin/syncer is no ELF binary: %v", err)
	}
	if f.Machine != machines[arch] || f.Class != elf.ELFCLASS64 {
		t.Errorf("/usr/local/bin/syncer is for %v %v, want %v", f.Class, f.Machine, machines[arch])
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Error("/usr/local/bin/syncer is dynamically linked: it has no loader in the image")
		}
	}
	info, err := buildinfo.Read(bytes.NewReader(bin.data))
	if err != nil {
		t.Fatal(err)
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if info.Path != "github.com/canopy-dev/canopy/cmd/syncer" || settings["CGO_ENABLED"] != "0" || settings["-trimpath"] != "true" || settings["GOARCH"] != arch {
		t.Errorf("/usr/local/bin/syncer is %s built with %v, want cmd/syncer, CGO_ENABLED=0, -trimpath, GOARCH=%s", info.Path, settings, arch)
	}

	if p := string(files["etc/passwd"].data); !strings.Contains(p, "\nnonroot:x:65532:65532:") {
		t.Errorf("/etc/passwd names no nonroot 65532:\n%s", p)
	}
	if g := string(files["etc/group"].data); !strings.Contains(g, "\nnonroot:x:65532:") {
		t.Errorf("/etc/group names no nonroot 65532:\n%s", g)
	}
	ca := files["etc/ssl/certs/ca-certificates.crt"].data
	host, err := os.ReadFile("/etc/ssl/certs/ca-certificates.crt")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ca, host) || !x509.NewCertPool().AppendCertsFromPEM(ca) {
		t.Errorf("/etc/ssl/certs/ca-certificates.crt (%d bytes) is not the build host's CA bundle (%d bytes)", len(ca), len(host))
	}
	if tmp := files["tmp"].header; tmp == nil || tmp.Typeflag != tar.TypeDir || tmp.Mode != 0o1777 {
		t.Errorf("/tmp is %+v, want a directory with mode 1777", tmp)
	}
}

type content struct {
	header *tar.Header
	data   []byte
}

// extract is the image's file system, by path without a leading or
// trailing slash.
func extract(t *testing.T, img v1.Image) map[string]content {
	rc := mutate.Extract(img)
	defer rc.Close()
	files := map[string]content{}
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files
		}
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		files[strings.Trim(h.Name, "/")] = content{header: h, data: data}
	}
}

// untar unpacks the tarball archive into dir.
func untar(t *testing.T, archive, dir string) {
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.FromSlash(h.Name))
		if h.Typeflag == tar.TypeDir {
			err = os.MkdirAll(p, 0o755)
		} else {
			var data []byte
			if data, err = io.ReadAll(tr); err == nil {
				err = os.WriteFile(p, data, 0o644)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}
