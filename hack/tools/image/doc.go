// Command image packs the statically linked Linux binaries of one Canopy
// command, one per platform, into a multi-platform container image, and
// writes it as an OCI image layout tarball: no Docker engine or registry
// is involved. hack/image.sh builds the binaries and runs it.
//
// Every platform's image has two layers. The base, the same in every image,
// holds /etc/passwd and /etc/group naming root and nonroot (65532), the
// build host's CA bundle at /etc/ssl/certs/ca-certificates.crt, so that
// endpoints with a public CA verify, and a world-writable /tmp. The
// command's layer holds its binary at /usr/local/bin/<name> and the volume
// directories, owned by nonroot. The image runs the binary as 65532:65532
// in /.
//
// Besides the layout (oci-layout, index.json naming the image index with
// both the OCI ref.name and containerd's image name annotations, blobs/),
// the tarball holds a Docker manifest.json for the build host's platform,
// so that docker load with the classic image store, which reads only that
// file, loads it too, and crane push of the tarball pushes that image.
package main
