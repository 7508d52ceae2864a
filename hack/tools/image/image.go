package main

import (
	"archive/tar"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// write builds the image index of o.binaries and writes it to o.out.
func write(o options) error {
	base, baseEntries, err := baseLayer(o.caBundle, o.created)
	if err != nil {
		return err
	}
	var adds []mutate.IndexAddendum
	var host v1.Image
	for i, b := range o.binaries {
		img, err := platformImage(o, b, base, baseEntries)
		if err != nil {
			return fmt.Errorf("the %s/%s image: %w", b.platform.OS, b.platform.Architecture, err)
		}
		adds = append(adds, mutate.IndexAddendum{Add: img, Descriptor: v1.Descriptor{Platform: &b.platform}})
		if i == 0 || b.platform.OS == runtime.GOOS && b.platform.Architecture == runtime.GOARCH {
			host = img
		}
	}
	index := mutate.AppendManifests(mutate.IndexMediaType(empty.Index, types.OCIImageIndex), adds...)
	return writeArchive(o, index, host)
}

// platformImage is the image of one platform's binary on base.
func platformImage(o options, b binary, base v1.Layer, baseEntries []entry) (v1.Image, error) {
	command, err := commandLayer(b, o.volumes, baseEntries, o.created)
	if err != nil {
		return nil, err
	}
	var volumes map[string]struct{}
	for _, v := range o.volumes {
		if volumes == nil {
			volumes = map[string]struct{}{}
		}
		volumes[v] = struct{}{}
	}
	created := v1.Time{Time: o.created}
	img, err := mutate.ConfigFile(mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON), &v1.ConfigFile{
		Created:      created,
		OS:           b.platform.OS,
		Architecture: b.platform.Architecture,
		Config: v1.Config{
			Entrypoint: []string{path.Join(binDir, b.name())},
			Cmd:        o.cmd,
			Env:        []string{"PATH=" + binDir},
			User:       fmt.Sprintf("%d:%d", nonroot, nonroot),
			WorkingDir: "/",
			Labels:     o.labels,
			Volumes:    volumes,
		},
		RootFS: v1.RootFS{Type: "layers"},
	})
	if err != nil {
		return nil, err
	}
	return mutate.Append(img,
		mutate.Addendum{Layer: base, History: v1.History{Created: created, CreatedBy: "hack/image.sh: users, CA bundle, /tmp"}},
		mutate.Addendum{Layer: command, History: v1.History{Created: created, CreatedBy: "hack/image.sh: " + b.name()}})
}

// dockerManifest is an entry of the manifest.json of docker save.
type dockerManifest struct {
	Config   string
	RepoTags []string
	Layers   []string
}

// writeArchive writes index as an OCI image layout tarball to o.out, with
// a Docker manifest.json naming host, through a file renamed into place.
func writeArchive(o options, index v1.ImageIndex, host v1.Image) error {
	out := o.out
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	dir, err := os.MkdirTemp(filepath.Dir(out), ".image-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	p, err := layout.Write(dir, empty.Index)
	if err != nil {
		return err
	}
	// podman, skopeo and buildah name the loaded image by the OCI
	// annotation; containerd, and docker with its containerd store, by
	// containerd's.
	if err := p.AppendIndex(index, layout.WithAnnotations(map[string]string{
		"org.opencontainers.image.ref.name": o.ref.String(),
		"io.containerd.image.name":          o.ref.String(),
	})); err != nil {
		return err
	}
	manifest, err := dockerManifestOf(host, o.ref)
	if err != nil {
		return err
	}
	if err := p.WriteFile("manifest.json", manifest, 0o644); err != nil {
		return err
	}
	tmp := out + ".tmp"
	if err := tarDir(dir, tmp, o.created); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, out)
}

func dockerManifestOf(img v1.Image, ref name.Tag) ([]byte, error) {
	config, err := img.ConfigName()
	if err != nil {
		return nil, err
	}
	m := dockerManifest{Config: blobPath(config), RepoTags: []string{ref.String()}}
	layers, err := img.Layers()
	if err != nil {
		return nil, err
	}
	for _, l := range layers {
		d, err := l.Digest()
		if err != nil {
			return nil, err
		}
		m.Layers = append(m.Layers, blobPath(d))
	}
	return json.Marshal([]dockerManifest{m})
}

func blobPath(h v1.Hash) string {
	return path.Join("blobs", h.Algorithm, h.Hex)
}

// tarDir writes the tree under dir to the tarball out, in lexical order
// and with created as every time, so that the same image makes the same
// tarball.
func tarDir(dir, out string, created time.Time) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	tw := tar.NewWriter(f)
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		h := &tar.Header{Name: filepath.ToSlash(rel), ModTime: created, Typeflag: tar.TypeDir, Mode: 0o755}
		if d.IsDir() {
			h.Name += "/"
			return tw.WriteHeader(h)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		h.Typeflag, h.Mode, h.Size = tar.TypeReg, 0o644, info.Size()
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		src, err := os.Open(p)
		if err != nil {
			return err
		}
		defer src.Close()
		_, err = io.Copy(tw, src)
		return err
	})
	if err != nil {
		return err
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return f.Close()
}
