package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path"
	"strconv"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

const (
	// nonroot is the uid and gid the image runs as, distroless's nonroot.
	nonroot = 65532
	binDir  = "/usr/local/bin"
	// caBundle is where Go's crypto/x509 looks first on Linux.
	caBundle = "/etc/ssl/certs/ca-certificates.crt"
)

// entry is one file or directory of a layer; a nil data is a directory.
type entry struct {
	path string
	mode int64
	uid  int
	data []byte
}

func dir(p string, mode int64, uid int) entry {
	return entry{path: p, mode: mode, uid: uid}
}

func file(p string, mode int64, data []byte) entry {
	return entry{path: p, mode: mode, data: data}
}

// baseLayer is the layer every image shares: users, CA bundle, /tmp, and
// the directory the binaries go in.
func baseLayer(caFile string, created time.Time) (v1.Layer, []entry, error) {
	ca, err := os.ReadFile(caFile)
	if err != nil {
		return nil, nil, fmt.Errorf("the CA bundle: %w", err)
	}
	// An image trusting nobody would fail only at its first TLS handshake.
	if !bytes.Contains(ca, []byte("-----BEGIN CERTIFICATE-----")) {
		return nil, nil, fmt.Errorf("the CA bundle %s holds no PEM certificate", caFile)
	}
	uid := strconv.Itoa(nonroot)
	passwd := "root:x:0:0:root:/root:/sbin/nologin\n" +
		"nonroot:x:" + uid + ":" + uid + ":nonroot:/home/nonroot:/sbin/nologin\n"
	group := "root:x:0:\nnonroot:x:" + uid + ":\n"
	entries := []entry{
		dir("/etc", 0o755, 0),
		file("/etc/passwd", 0o644, []byte(passwd)),
		file("/etc/group", 0o644, []byte(group)),
		dir("/etc/ssl", 0o755, 0),
		dir("/etc/ssl/certs", 0o755, 0),
		file(caBundle, 0o644, ca),
		dir("/home", 0o755, 0),
		dir("/home/nonroot", 0o700, nonroot),
		dir("/tmp", 0o1777, 0),
		dir("/usr", 0o755, 0),
		dir("/usr/local", 0o755, 0),
		dir(binDir, 0o755, 0),
	}
	l, err := layer(entries, created)
	return l, entries, err
}

// commandLayer holds the binary and the volume directories, with the
// parents of those that base lacks.
func commandLayer(b binary, volumes []string, base []entry, created time.Time) (v1.Layer, error) {
	data, err := os.ReadFile(b.path)
	if err != nil {
		return nil, err
	}
	have := map[string]bool{"/": true}
	for _, e := range base {
		have[e.path] = true
	}
	entries := []entry{file(path.Join(binDir, b.name()), 0o755, data)}
	for _, v := range volumes {
		var parents []entry
		for p := path.Dir(v); !have[p]; p = path.Dir(p) {
			parents = append([]entry{dir(p, 0o755, 0)}, parents...)
			have[p] = true
		}
		entries = append(append(entries, parents...), dir(v, 0o700, nonroot))
		have[v] = true
	}
	return layer(entries, created)
}

// layer is a gzipped tar of entries, every one modified at created, so
// that the same input makes the same digest.
func layer(entries []entry, created time.Time) (v1.Layer, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		h := &tar.Header{Name: e.path[1:], Mode: e.mode, Uid: e.uid, Gid: e.uid, ModTime: created}
		if e.data == nil {
			h.Typeflag, h.Name = tar.TypeDir, h.Name+"/"
		} else {
			h.Typeflag, h.Size = tar.TypeReg, int64(len(e.data))
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	return tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil },
		tarball.WithMediaType(types.OCILayer), tarball.WithCompressionLevel(gzip.DefaultCompression), tarball.WithCompressedCaching)
}
