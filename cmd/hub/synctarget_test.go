package main

import (
	"reflect"
	"strings"
	"testing"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

func TestSyncTargetArgs(t *testing.T) {
	got, err := syncTarget("pc1", "root:platform", map[string]string{"region": "eu"}, []string{"deployments.apps", " configmaps"})
	if err != nil {
		t.Fatal(err)
	}
	want := []workloadv1alpha1.GroupResource{{Group: "apps", Resource: "deployments"}, {Resource: "configmaps"}}
	if got.Path() != "root:platform:pc1" || got.Labels["region"] != "eu" || !reflect.DeepEqual(got.Resources, want) {
		t.Errorf("target %+v", got)
	}
	for _, tc := range []struct {
		cluster   string
		resources []string
		want      string
	}{
		{"", nil, "--logical-cluster is required"},
		{"platform", nil, "--logical-cluster: invalid logical cluster name"},
		{"root", []string{".apps"}, "names no resource"},
	} {
		if _, err := syncTarget("pc1", tc.cluster, nil, tc.resources); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("syncTarget(%q, %q): %v, want an error saying %q", tc.cluster, tc.resources, err, tc.want)
		}
	}
}
