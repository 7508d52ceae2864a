package syncerdeploy

import (
	"strings"

	"sigs.k8s.io/yaml"
)

// chartValues are the values of the Helm chart deploy/syncer that set
// what Manifest is made of; the chart's README describes them.
type chartValues struct {
	SyncTarget struct {
		LogicalCluster string   `json:"logicalCluster"`
		Name           string   `json:"name"`
		Resources      []string `json:"resources"`
	} `json:"syncTarget"`
	HubKubeconfig struct {
		Kubeconfig string `json:"kubeconfig"`
	} `json:"hubKubeconfig"`
	HubURLs []string   `json:"hubURLs,omitempty"`
	Image   chartImage `json:"image"`
}

type chartImage struct {
	Repository string `json:"repository"`
	Tag        string `json:"tag,omitempty"`
	Digest     string `json:"digest,omitempty"`
}

// Values is the YAML of the values of the Helm chart deploy/syncer that
// make, installed in namespace canopy-syncer, the objects of Manifest for
// the same arguments but its Namespace: what `hub synctarget create
// --output values` prints. The chart renders the names, labels and RBAC
// rules itself from the target's path and resources, as Manifest does;
// e2e's TestCharts checks that the two agree.
func Values(t Target, image string, hubKubeconfig []byte, hubURLs ...string) ([]byte, error) {
	var v chartValues
	v.SyncTarget.LogicalCluster = string(t.Cluster)
	v.SyncTarget.Name = t.Name
	for _, r := range t.resources() {
		v.SyncTarget.Resources = append(v.SyncTarget.Resources, r.String())
	}
	v.HubKubeconfig.Kubeconfig = string(hubKubeconfig)
	v.HubURLs = hubURLs
	v.Image = splitImage(image)
	return yaml.Marshal(v)
}

// splitImage is image as the chart takes it: its repository, and its tag
// or digest. A reference with neither is tagged latest, as a container
// runtime reads it.
func splitImage(image string) chartImage {
	if repository, digest, ok := strings.Cut(image, "@"); ok {
		return chartImage{Repository: repository, Digest: digest}
	}
	// A colon after the last slash starts the tag; one before it is a
	// registry's port.
	if i := strings.LastIndex(image, ":"); i > strings.LastIndex(image, "/") {
		return chartImage{Repository: image[:i], Tag: image[i+1:]}
	}
	return chartImage{Repository: image, Tag: "latest"}
}
