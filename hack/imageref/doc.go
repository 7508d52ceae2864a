// Command imageref prints the image reference a Canopy binary is
// published under (package release), read from the binary's build
// information, for hack/image.sh to tag the image it packs it in:
//
//	go run ./hack/imageref _output/bin/linux_amd64/syncer
//	ghcr.io/canopy-dev/syncer:latest
//
// It reads binaries of any platform, so it needs no emulator.
package main
