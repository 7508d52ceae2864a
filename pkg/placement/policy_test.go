package placement

import (
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	placementv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/placement/v1alpha1"
	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

func TestCheckExpression(t *testing.T) {
	for _, tc := range []struct {
		expression string
		want       string
	}{
		{"labels['region'] == 'eu'", ""},
		{"name.startsWith('pc')", ""},
		{"'gpu' in allocatable && allocatable['gpu'].isGreaterThan(quantity('0'))", ""},
		{"labels.region == 'eu'", ""},
		{"allocatable['cpu'] > 2", "no matching overload"},
		{"labels['region']", "must be a bool"},
		{"labels['region'] ==", "Syntax error"},
		{"spec.replicas > 2", "undeclared reference to 'spec'"},
		{strings.Repeat("x", MaxExpressionLength+1), "more than the 4096 allowed"},
	} {
		err := CheckExpression(tc.expression)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%.40s: %v", tc.expression, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%.40s: error %v, want one saying %q", tc.expression, err, tc.want)
		}
	}
}

func TestCompileErrors(t *testing.T) {
	bad := &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "region", Operator: "Near"}}}
	for _, tc := range []struct {
		name        string
		spec        placementv1alpha1.PlacementSpec
		constraints []Constraint
		want        string
	}{
		{"namespace selector", placementv1alpha1.PlacementSpec{NamespaceSelector: bad}, nil, "spec.namespaceSelector"},
		{"target expression", placementv1alpha1.PlacementSpec{Targets: placementv1alpha1.TargetSelection{TargetSelector: placementv1alpha1.TargetSelector{Expression: "1"}}}, nil, "spec.targets: expression"},
		{"preference group", placementv1alpha1.PlacementSpec{Targets: placementv1alpha1.TargetSelection{PreferenceGroups: []placementv1alpha1.PreferenceGroup{{Name: "eu", TargetSelector: placementv1alpha1.TargetSelector{LabelSelector: bad}}}}}, nil, "preference group eu: labelSelector"},
		{"weight", divideSpec(placementv1alpha1.DivideStrategy{Weights: []placementv1alpha1.TargetWeight{{LabelSelector: bad, Weight: 1}}}), nil, "spec.strategy.divide.weights[0]"},
		{"constraint", placementv1alpha1.PlacementSpec{}, []Constraint{{Cluster: "root", PlacementConstraint: &placementv1alpha1.PlacementConstraint{
			ObjectMeta: metav1.ObjectMeta{Name: "c"},
			Spec:       placementv1alpha1.PlacementConstraintSpec{AllowedTargets: placementv1alpha1.TargetSelector{Expression: "nope"}},
		}}}, "PlacementConstraint root/c: expression"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compile(placement(tc.spec), tc.constraints)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one naming %q", err, tc.want)
			}
		})
	}
}

func TestChoose(t *testing.T) {
	policy := func(name string, priority int32, spec placementv1alpha1.PlacementSpec) *Policy {
		spec.Priority = priority
		p, err := Compile(&placementv1alpha1.Placement{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: spec}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	configmaps := workloadv1alpha1.GroupResource{Resource: "configmaps"}
	all := policy("all", 0, placementv1alpha1.PlacementSpec{})
	alsoAll := policy("also-all", 0, placementv1alpha1.PlacementSpec{})
	prod := policy("prod", 10, placementv1alpha1.PlacementSpec{NamespaceSelector: matchLabels("env=prod")})
	prodDeployments := policy("prod-deployments", 20, placementv1alpha1.PlacementSpec{
		NamespaceSelector: matchLabels("env=prod"), Resources: []workloadv1alpha1.GroupResource{deployments},
	})
	policies := []*Policy{prodDeployments, prod, alsoAll, all}
	for _, tc := range []struct {
		ns   labels.Set
		gr   workloadv1alpha1.GroupResource
		want *Policy
	}{
		{labels.Set{"env": "prod"}, deployments, prodDeployments},
		{labels.Set{"env": "prod"}, configmaps, prod},
		{labels.Set{"env": "dev"}, deployments, all},
		{nil, configmaps, all},
	} {
		if got := Choose(policies, tc.ns, tc.gr); got != tc.want {
			t.Errorf("%v %s: chose %v, want %s", tc.ns, tc.gr, got, tc.want.Name)
		}
	}
	if got := Choose([]*Policy{prod}, labels.Set{"env": "dev"}, deployments); got != nil {
		t.Errorf("chose %s for a namespace no policy selects", got.Name)
	}
}

func TestApplicable(t *testing.T) {
	named := func(name string, inheritance placementv1alpha1.Inheritance) *placementv1alpha1.Placement {
		return &placementv1alpha1.Placement{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: placementv1alpha1.PlacementSpec{Inheritance: inheritance}}
	}
	own := named("own", placementv1alpha1.InheritanceNone)
	orgOnly := named("org-only", placementv1alpha1.InheritanceNone)
	orgDefault := named("org-default", placementv1alpha1.InheritanceDescendants)
	platform := named("platform", placementv1alpha1.InheritanceDescendants)
	for _, tc := range []struct {
		name    string
		lineage [][]*placementv1alpha1.Placement
		level   int
		want    []*placementv1alpha1.Placement
	}{
		{"its own", [][]*placementv1alpha1.Placement{{own}, {orgDefault}, {platform}}, 0, []*placementv1alpha1.Placement{own}},
		{"the nearest default", [][]*placementv1alpha1.Placement{nil, {orgOnly, orgDefault}, {platform}}, 1, []*placementv1alpha1.Placement{orgDefault}},
		{"past ancestors without a default", [][]*placementv1alpha1.Placement{nil, {orgOnly}, {platform}}, 2, []*placementv1alpha1.Placement{platform}},
		{"none", [][]*placementv1alpha1.Placement{nil, {orgOnly}, nil}, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if level, got := Applicable(tc.lineage); level != tc.level || fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got %v from level %d, want %v from %d", got, level, tc.want, tc.level)
			}
		})
	}
}

func TestLineage(t *testing.T) {
	if got := fmt.Sprint(Lineage("root:org:team")); got != "[root:org:team root:org root]" {
		t.Errorf("lineage of root:org:team: %s", got)
	}
	if got := Lineage(logicalcluster.Root); len(got) != 1 {
		t.Errorf("lineage of root: %v", got)
	}
}
