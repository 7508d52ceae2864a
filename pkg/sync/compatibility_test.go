package sync

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/restmapper"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
)

// served is discovery serving, per group and version, resources as "name"
// (namespaced) or "name!" (cluster-scoped), with kinds from their names.
func served(groups map[string]map[string][]string) []*restmapper.APIGroupResources {
	var out []*restmapper.APIGroupResources
	for group, versions := range groups {
		g := &restmapper.APIGroupResources{Group: metav1.APIGroup{Name: group}, VersionedResources: map[string][]metav1.APIResource{}}
		for version, resources := range versions {
			gv := metav1.GroupVersionForDiscovery{GroupVersion: strings.TrimPrefix(group+"/"+version, "/"), Version: version}
			g.Group.Versions = append(g.Group.Versions, gv)
			if g.Group.PreferredVersion.Version == "" {
				g.Group.PreferredVersion = gv
			}
			for _, r := range resources {
				name, cluster := strings.CutSuffix(r, "!")
				kind := strings.ToUpper(name[:1]) + strings.TrimSuffix(name[1:], "s")
				g.VersionedResources[version] = append(g.VersionedResources[version], metav1.APIResource{Name: name, Kind: kind, Namespaced: !cluster})
			}
		}
		out = append(out, g)
	}
	return out
}

// TestCompatibility checks which accepted resources are synced: those the
// physical cluster serves at the hub's version and namespaced; each gets
// a condition saying so, and a resource the hub cannot sync stops the
// syncer.
func TestCompatibility(t *testing.T) {
	hub := restmapper.NewDiscoveryRESTMapper(served(map[string]map[string][]string{
		"":     {"v1": {"configmaps", "widgets"}},
		"apps": {"v1": {"deployments", "statefulsets"}},
		"x":    {"v2": {"gadgets"}},
	}))
	down := restmapper.NewDiscoveryRESTMapper(served(map[string]map[string][]string{
		"":     {"v1": {"configmaps", "widgets!"}},
		"apps": {"v1": {"deployments"}},
		"x":    {"v1": {"gadgets"}},
	}))
	accepted := []workloadv1alpha1.GroupResource{
		{Group: "apps", Resource: "deployments"}, {Resource: "configmaps"}, {Group: "apps", Resource: "statefulsets"},
		{Resource: "widgets"}, {Group: "x", Resource: "gadgets"},
	}
	usable, conditions, err := compatibility(hub, down, accepted)
	if err != nil {
		t.Fatal(err)
	}
	var synced []string
	for _, m := range usable {
		synced = append(synced, m.Resource.String())
	}
	if got, want := strings.Join(synced, " "), "apps/v1, Resource=deployments /v1, Resource=configmaps"; got != want {
		t.Errorf("synced %q, want %q", got, want)
	}
	want := map[string]string{
		"deployments.apps/Compatible":  "True Served",
		"configmaps/Compatible":        "True Served",
		"statefulsets.apps/Compatible": "False NotServed",
		"widgets/Compatible":           "False ClusterScoped",
		"gadgets.x/Compatible":         "False NotServed",
	}
	if len(conditions) != len(want) {
		t.Errorf("conditions %+v", conditions)
	}
	for _, c := range conditions {
		if got := string(c.Status) + " " + c.Reason; got != want[c.Type] || c.Message == "" {
			t.Errorf("condition %s: %s (%q), want %s", c.Type, got, c.Message, want[c.Type])
		}
	}
	if _, _, err := compatibility(hub, down, []workloadv1alpha1.GroupResource{{Resource: "nothing"}}); err == nil {
		t.Error("a resource the hub does not serve is accepted")
	}
}
