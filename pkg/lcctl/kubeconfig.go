package lcctl

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	tenancyv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/tenancy/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// PreviousContext names the context, and its cluster entry, that keep the
// logical cluster `use` last switched away from. It has a cluster entry of
// its own rather than pointing at the one it came from, because that entry
// may be rewritten by a later `use` while the context must stay where it
// was.
const PreviousContext = "lc.canopy.dev/previous"

var logicalClusters = tenancyv1alpha1.SchemeGroupVersion.WithResource("logicalclusters")

// Kubeconfig is a loaded kubeconfig whose context reaches a logical
// cluster on the hub.
type Kubeconfig struct {
	access  clientcmd.ConfigAccess
	raw     clientcmdapi.Config
	context string
	// base is the hub's URL without /clusters/<name>, and current the
	// logical cluster the context's server addresses.
	base    string
	current logicalcluster.Name
	rest    *rest.Config
}

// Load reads the kubeconfig as kubectl does with rules, and takes
// contextName, if set, instead of its current context.
func Load(rules *clientcmd.ClientConfigLoadingRules, contextName string) (*Kubeconfig, error) {
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: contextName})
	raw, err := cc.RawConfig()
	if err != nil {
		return nil, err
	}
	if contextName == "" {
		contextName = raw.CurrentContext
	}
	if contextName == "" {
		return nil, errors.New("the kubeconfig has no current context; pass --context or use the hub's admin.kubeconfig")
	}
	base, current, err := contextServer(&raw, contextName)
	if err != nil {
		return nil, err
	}
	rc, err := cc.ClientConfig()
	if err != nil {
		return nil, err
	}
	return &Kubeconfig{access: cc.ConfigAccess(), raw: raw, context: contextName, base: base, current: current, rest: rc}, nil
}

// contextServer returns the base URL and logical cluster of a context.
func contextServer(cfg *clientcmdapi.Config, contextName string) (string, logicalcluster.Name, error) {
	c, ok := cfg.Contexts[contextName]
	if !ok {
		return "", "", fmt.Errorf("context %q is not in the kubeconfig", contextName)
	}
	cluster, ok := cfg.Clusters[c.Cluster]
	if !ok {
		return "", "", fmt.Errorf("context %q: cluster %q is not in the kubeconfig", contextName, c.Cluster)
	}
	base, n, err := SplitServer(cluster.Server)
	if err != nil {
		return "", "", fmt.Errorf("context %q: %w", contextName, err)
	}
	return base, n, nil
}

// Current is the logical cluster the context reaches.
func (k *Kubeconfig) Current() logicalcluster.Name { return k.current }

// Use makes a context named after the logical cluster arg names (see
// Resolve; "-" is the previous one) current, once the hub has answered
// that it serves that logical cluster, and returns its name.
func (k *Kubeconfig) Use(ctx context.Context, arg string) (logicalcluster.Name, error) {
	from := k.context
	var target logicalcluster.Name
	if arg == "-" {
		if _, ok := k.raw.Contexts[PreviousContext]; !ok {
			return "", errors.New("there is no previous logical cluster to go back to")
		}
		var err error
		from = PreviousContext
		if _, target, err = contextServer(&k.raw, PreviousContext); err != nil {
			return "", err
		}
	} else {
		var err error
		if target, err = Resolve(k.current, arg); err != nil {
			return "", err
		}
	}

	// The new context copies the user and CA of the one it comes from,
	// which for "-" is the previous context: it may be for another hub or
	// user than the current one.
	base, _, err := contextServer(&k.raw, from)
	if err != nil {
		return "", err
	}
	next := k.raw.DeepCopy()
	fromContext := k.raw.Contexts[from]
	cluster := k.raw.Clusters[fromContext.Cluster].DeepCopy()
	cluster.Server = ServerFor(base, target)
	next.Clusters[string(target)] = cluster
	c := fromContext.DeepCopy()
	c.Cluster = string(target)
	next.Contexts[string(target)] = c

	here := k.raw.Contexts[k.context].DeepCopy()
	next.Clusters[PreviousContext] = k.raw.Clusters[here.Cluster].DeepCopy()
	here.Cluster = PreviousContext
	next.Contexts[PreviousContext] = here
	next.CurrentContext = string(target)

	// Checking through the new context itself proves the entries just
	// made reach the logical cluster before anything is written.
	rc, err := clientcmd.NewDefaultClientConfig(*next, &clientcmd.ConfigOverrides{}).ClientConfig()
	if err != nil {
		return "", err
	}
	if err := served(ctx, rc); apierrors.IsNotFound(err) {
		// The hub's message already names the logical cluster and says
		// how to make it.
		return "", err
	} else if err != nil {
		return "", fmt.Errorf("logical cluster %s: %w", target, err)
	}
	if err := clientcmd.ModifyConfig(k.access, *next, true); err != nil {
		return "", err
	}
	k.raw, k.context, k.base, k.current, k.rest = *next, string(target), base, target, rc
	return target, nil
}

// served asks for the API group list of the logical cluster rc reaches:
// every user may ask it, and the hub answers 404, with a Status saying how
// to make the logical cluster, when it does not serve it.
func served(ctx context.Context, rc *rest.Config) error {
	dc, err := discovery.NewDiscoveryClientForConfig(rc)
	if err != nil {
		return err
	}
	return dc.RESTClient().Get().AbsPath("/api").Do(ctx).Error()
}

// clusterConfig is the context's client configuration aimed at logical
// cluster n on the same hub.
func (k *Kubeconfig) clusterConfig(n logicalcluster.Name) *rest.Config {
	rc := rest.CopyConfig(k.rest)
	rc.Host = ServerFor(k.base, n)
	return rc
}

// Create creates LogicalCluster name in the current logical cluster and
// waits up to timeout until the hub has set it up, returning the new
// logical cluster's name.
func (k *Kubeconfig) Create(ctx context.Context, name string, timeout time.Duration) (logicalcluster.Name, error) {
	target, err := k.current.Child(name)
	if err != nil {
		return "", err
	}
	client, err := dynamic.NewForConfig(k.clusterConfig(k.current))
	if err != nil {
		return "", err
	}
	lcs := client.Resource(logicalClusters)
	obj := &unstructured.Unstructured{}
	obj.SetAPIVersion(tenancyv1alpha1.SchemeGroupVersion.String())
	obj.SetKind("LogicalCluster")
	obj.SetName(name)
	if _, err := lcs.Create(ctx, obj, metav1.CreateOptions{}); err != nil {
		return "", err
	}

	// Polling rather than watching keeps the wait to plain GETs, which
	// also survive the hub restarting meanwhile.
	var phase tenancyv1alpha1.LogicalClusterPhase
	err = wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		got, err := lcs.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		lc, err := toLogicalCluster(got)
		if err != nil {
			return false, err
		}
		phase = lc.Status.Phase
		return phase == tenancyv1alpha1.LogicalClusterReady, nil
	})
	if wait.Interrupted(err) {
		return "", fmt.Errorf("logical cluster %s is still %q after %s", target, phase, timeout)
	}
	if err != nil {
		return "", err
	}
	return target, nil
}

// Tree lists the logical clusters nested in the current one, level by
// level. Only Ready ones are descended into: the hub serves no others.
func (k *Kubeconfig) Tree(ctx context.Context) (*Node, error) {
	root := &Node{Name: string(k.current)}
	return root, k.fillTree(ctx, root, k.current)
}

func (k *Kubeconfig) fillTree(ctx context.Context, node *Node, n logicalcluster.Name) error {
	client, err := dynamic.NewForConfig(k.clusterConfig(n))
	if err != nil {
		return err
	}
	list, err := client.Resource(logicalClusters).List(ctx, metav1.ListOptions{})
	if apierrors.IsNotFound(err) && n != k.current {
		// A child deleted since its parent was listed is simply gone from
		// the tree.
		return nil
	}
	if err != nil {
		return fmt.Errorf("listing the logical clusters in %s: %w", n, err)
	}
	for i := range list.Items {
		lc, err := toLogicalCluster(&list.Items[i])
		if err != nil {
			return err
		}
		child := &Node{Name: lc.Name, Phase: lc.Status.Phase}
		node.Children = append(node.Children, child)
		if lc.Status.Phase != tenancyv1alpha1.LogicalClusterReady {
			continue
		}
		name, err := n.Child(lc.Name)
		if err != nil {
			return err
		}
		if err := k.fillTree(ctx, child, name); err != nil {
			return err
		}
	}
	slices.SortFunc(node.Children, func(a, b *Node) int { return strings.Compare(a.Name, b.Name) })
	return nil
}

func toLogicalCluster(u *unstructured.Unstructured) (*tenancyv1alpha1.LogicalCluster, error) {
	lc := &tenancyv1alpha1.LogicalCluster{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, lc); err != nil {
		return nil, fmt.Errorf("LogicalCluster %q: %w", u.GetName(), err)
	}
	return lc, nil
}
