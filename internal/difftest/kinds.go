package difftest

import (
	"fmt"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientscheme "k8s.io/client-go/kubernetes/scheme"
)

// Kind is a built-in resource both servers may serve, at one version.
type Kind struct {
	schema.GroupVersionKind
	Resource   string
	Namespaced bool
	Verbs      []string
}

// ID names the kind in reports and in divergences.yaml: group/version/Kind,
// the group left out for the core group (v1/Pod, apps/v1/Deployment).
func (k Kind) ID() string {
	if k.Group == "" {
		return k.Version + "/" + k.Kind
	}
	return k.Group + "/" + k.Version + "/" + k.Kind
}

// Can reports whether the kind's resource takes verb.
func (k Kind) Can(verb string) bool { return slices.Contains(k.Verbs, verb) }

// collectionPath is the path of the kind's resource, in namespace ns when
// it is namespaced.
func (k Kind) collectionPath(ns string) string {
	p := "/apis/" + k.Group + "/" + k.Version
	if k.Group == "" {
		p = "/api/" + k.Version
	}
	if k.Namespaced {
		p += "/namespaces/" + ns
	}
	return p + "/" + k.Resource
}

// Scheme knows the Go types of every built-in kind: client-go's, and
// CustomResourceDefinitions.
var Scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientscheme.AddToScheme, apiextensionsv1.AddToScheme} {
		if err := add(s); err != nil {
			panic(err)
		}
	}
	return s
}()

// Unserved is a built-in kind kube-apiserver serves and the hub does not,
// or serves otherwise.
type Unserved struct {
	Kind
	// Why says what the hub lacks: the resource, or this version of it.
	Why string
}

// Discover lists the built-in kinds kube serves at its preferred version
// of each group, as kubectl would use them: those hub serves too, and
// those it does not. A built-in kind is one whose Go type Scheme knows;
// subresources and kinds of other groups (the hub's own, aggregated
// APIs) are left out.
func Discover(kube, hub *Server) (served []Kind, unserved []Unserved, err error) {
	kubeKinds, err := preferredKinds(kube)
	if err != nil {
		return nil, nil, fmt.Errorf("discovering %s: %w", kube.Name, err)
	}
	hubLists, err := hub.discovery.ServerPreferredResources()
	if err != nil && len(hubLists) == 0 {
		return nil, nil, fmt.Errorf("discovering %s: %w", hub.Name, err)
	}
	hubResources := map[schema.GroupResource]string{}
	for _, list := range hubLists {
		gv, _ := schema.ParseGroupVersion(list.GroupVersion)
		for _, r := range list.APIResources {
			hubResources[schema.GroupResource{Group: gv.Group, Resource: r.Name}] = gv.Version
		}
	}
	for _, k := range kubeKinds {
		gr := schema.GroupResource{Group: k.Group, Resource: k.Resource}
		version, ok := hubResources[gr]
		switch {
		case !ok:
			unserved = append(unserved, Unserved{Kind: k, Why: "the hub does not serve " + gr.String()})
		case version != k.Version && !hubServesVersion(hub, k):
			unserved = append(unserved, Unserved{Kind: k, Why: fmt.Sprintf("the hub serves %s at %s only", gr, version)})
		default:
			served = append(served, k)
		}
	}
	return served, unserved, nil
}

func preferredKinds(s *Server) ([]Kind, error) {
	lists, err := s.discovery.ServerPreferredResources()
	if err != nil && len(lists) == 0 {
		return nil, err
	}
	var kinds []Kind
	for _, list := range lists {
		gv, _ := schema.ParseGroupVersion(list.GroupVersion)
		for _, r := range list.APIResources {
			k := Kind{GroupVersionKind: gv.WithKind(r.Kind), Resource: r.Name, Namespaced: r.Namespaced, Verbs: r.Verbs}
			if strings.Contains(r.Name, "/") || !Scheme.Recognizes(k.GroupVersionKind) {
				continue
			}
			kinds = append(kinds, k)
		}
	}
	slices.SortFunc(kinds, func(a, b Kind) int { return strings.Compare(a.ID(), b.ID()) })
	return kinds, nil
}

// hubServesVersion reports whether hub serves k's resource at k's version
// too, though it prefers another.
func hubServesVersion(hub *Server, k Kind) bool {
	list, err := hub.discovery.ServerResourcesForGroupVersion(k.GroupVersion().String())
	if err != nil {
		return false
	}
	return slices.ContainsFunc(list.APIResources, func(r metav1.APIResource) bool { return r.Name == k.Resource })
}
