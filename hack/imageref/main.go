package main

import (
	"debug/buildinfo"
	"fmt"
	"os"
	"path"

	"github.com/canopy-dev/canopy/pkg/release"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: imageref BINARY")
		os.Exit(2)
	}
	info, err := buildinfo.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "imageref: %v\n", err)
		os.Exit(1)
	}
	fmt.Println(release.Image(path.Base(info.Path), info.Main.Version))
}
