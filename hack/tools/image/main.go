package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
)

const usage = `usage: image --ref NAME:TAG --out FILE --binary OS/ARCH=PATH... [flags]

Writes the image of the binaries to FILE as an OCI image layout tarball.
`

// options are what the command line asks for, checked.
type options struct {
	ref      name.Tag
	out      string
	binaries []binary
	cmd      []string
	volumes  []string
	labels   map[string]string
	created  time.Time
	caBundle string
}

// binary is one platform's build of the command.
type binary struct {
	platform v1.Platform
	path     string
}

// name is the command's name, the binary's file name.
func (b binary) name() string {
	return path.Base(b.path)
}

// list collects a repeatable flag.
type list []string

func (l *list) String() string { return strings.Join(*l, ",") }

func (l *list) Set(v string) error {
	*l = append(*l, v)
	return nil
}

func main() {
	o, err := parseFlags(os.Args[1:])
	if errors.Is(err, flag.ErrHelp) {
		return
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "image: %v\n%s", err, usage)
		os.Exit(2)
	}
	if err := write(o); err != nil {
		fmt.Fprintf(os.Stderr, "image: %v\n", err)
		os.Exit(1)
	}
}

func parseFlags(args []string) (options, error) {
	fs := flag.NewFlagSet("image", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	var o options
	var ref string
	var binaries, labels list
	var created int64
	fs.StringVar(&ref, "ref", "", "the image's name and tag, as ghcr.io/canopy-dev/syncer:latest")
	fs.StringVar(&o.out, "out", "", "the tarball to write")
	fs.Var(&binaries, "binary", "OS/ARCH=PATH: the command's statically linked binary for one platform; repeatable, the same file name for all")
	fs.Var((*list)(&o.cmd), "cmd", "an argument of the default command line, after the binary; repeatable")
	fs.Var((*list)(&o.volumes), "volume", "absolute path of a volume, created owned by nonroot; repeatable")
	fs.Var(&labels, "label", "KEY=VALUE label of the image's config; repeatable")
	fs.Int64Var(&created, "created", 0, "creation time in seconds since the epoch (SOURCE_DATE_EPOCH), also every file's modification time, so that the same input makes the same image")
	fs.StringVar(&o.caBundle, "ca-bundle", "/etc/ssl/certs/ca-certificates.crt", "PEM bundle of the certificate authorities the image trusts")
	if err := fs.Parse(args); err != nil {
		return options{}, err
	}
	if fs.NArg() > 0 {
		return options{}, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	tag, err := name.NewTag(ref, name.StrictValidation)
	if err != nil {
		return options{}, fmt.Errorf("--ref %q must be a name with a tag: %w", ref, err)
	}
	o.ref = tag
	if o.out == "" {
		return options{}, errors.New("--out is required")
	}
	o.created = time.Unix(created, 0).UTC()
	if o.binaries, err = parseBinaries(binaries); err != nil {
		return options{}, err
	}
	for _, v := range o.volumes {
		if !path.IsAbs(v) || path.Clean(v) != v || v == "/" {
			return options{}, fmt.Errorf("--volume %q must be a clean absolute path below /", v)
		}
	}
	o.labels = map[string]string{}
	for _, l := range labels {
		k, v, ok := strings.Cut(l, "=")
		if !ok || k == "" {
			return options{}, fmt.Errorf("--label %q must be KEY=VALUE", l)
		}
		o.labels[k] = v
	}
	return o, nil
}

func parseBinaries(flags []string) ([]binary, error) {
	if len(flags) == 0 {
		return nil, errors.New("--binary is required")
	}
	var bs []binary
	seen := map[string]bool{}
	for _, f := range flags {
		platform, file, ok := strings.Cut(f, "=")
		goos, arch, ok2 := strings.Cut(platform, "/")
		if !ok || !ok2 || goos == "" || arch == "" || file == "" {
			return nil, fmt.Errorf("--binary %q must be OS/ARCH=PATH, as linux/amd64=_output/bin/linux_amd64/hub", f)
		}
		if seen[platform] {
			return nil, fmt.Errorf("--binary names platform %s twice", platform)
		}
		seen[platform] = true
		b := binary{platform: v1.Platform{OS: goos, Architecture: arch}, path: file}
		if len(bs) > 0 && b.name() != bs[0].name() {
			return nil, fmt.Errorf("--binary %s and %s must be the same command, with the same file name", bs[0].path, file)
		}
		bs = append(bs, b)
	}
	return bs, nil
}
