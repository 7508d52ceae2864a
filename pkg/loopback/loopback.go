package loopback

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/http"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apiserver/pkg/authentication/authenticator"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

const (
	// Group is the group of every controller's user.
	Group = "system:canopy:controllers"
	// userPrefix starts the name of each controller's user.
	userPrefix = "system:canopy:controller:"
	// qps and burst bound each controller's requests. The loopback
	// client's default, 50 a second, would make emptying a namespace of
	// thousands of objects take minutes; the hub's own admission and
	// storage are the bound that matters.
	qps   = 500
	burst = 1000
)

// User is the user name of controller.
func User(controller string) string { return userPrefix + controller }

// IsController reports whether u is one of the hub's controllers.
func IsController(u user.Info) bool {
	return u != nil && slices.Contains(u.GetGroups(), Group)
}

// Users are the controllers' users, each with the bearer token that
// authenticates it in this process.
type Users struct {
	byToken map[string]*user.DefaultInfo
	tokens  map[string]string
}

// NewUsers makes a user and a random token for each of controllers.
func NewUsers(controllers ...string) (*Users, error) {
	u := &Users{byToken: map[string]*user.DefaultInfo{}, tokens: map[string]string{}}
	for _, c := range controllers {
		b := make([]byte, 32)
		if _, err := rand.Read(b); err != nil {
			return nil, fmt.Errorf("making the token of controller %s: %w", c, err)
		}
		token := base64.RawURLEncoding.EncodeToString(b)
		u.tokens[c] = token
		u.byToken[token] = &user.DefaultInfo{Name: User(c), Groups: []string{Group, user.AllAuthenticated}}
	}
	return u, nil
}

// AuthenticateToken is the user of token, if it is a controller's.
func (u *Users) AuthenticateToken(_ context.Context, token string) (*authenticator.Response, bool, error) {
	info, ok := u.byToken[token]
	if !ok {
		return nil, false, nil
	}
	return &authenticator.Response{User: info}, true, nil
}

// Client is a controller's client of the hub. Each request goes to the
// logical cluster its context names (logicalcluster.WithCluster); one
// whose context names none fails before it is sent.
type Client struct {
	// FieldManager is the controller's name, which its writes give as
	// their field manager.
	FieldManager string
	dynamic.Interface
}

// Client is the client of controller, over the hub's loopback
// connection, whose host and TLS config loopback holds.
func (u *Users) Client(loopback *rest.Config, controller string) (*Client, error) {
	token, ok := u.tokens[controller]
	if !ok {
		return nil, fmt.Errorf("controller %s has no user: add it to NewUsers", controller)
	}
	cfg := rest.AnonymousClientConfig(loopback)
	cfg.BearerToken = token
	cfg.UserAgent = "canopy-hub/" + controller
	cfg.QPS, cfg.Burst = qps, burst
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return clusterRoundTripper{rt} })
	d, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	return &Client{FieldManager: controller, Interface: d}, nil
}

// clusterRoundTripper sends each request to the logical cluster of its
// context.
type clusterRoundTripper struct{ next http.RoundTripper }

func (rt clusterRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	cluster, ok := logicalcluster.ClusterFrom(req.Context())
	if !ok {
		return nil, fmt.Errorf("%s %s names no logical cluster in its context", req.Method, req.URL.Path)
	}
	req = req.Clone(req.Context())
	req.URL.Path = logicalcluster.PathPrefix + string(cluster) + req.URL.Path
	if req.URL.RawPath != "" {
		req.URL.RawPath = logicalcluster.PathPrefix + string(cluster) + req.URL.RawPath
	}
	return rt.next.RoundTrip(req)
}

// Patch patches the object name of resource, in the namespace given and
// the logical cluster of ctx, or its subresource, as the controller: its
// field manager names it in the object's managedFields.
func (c *Client) Patch(ctx context.Context, resource schema.GroupVersionResource, namespace, name string, pt types.PatchType, data []byte,
	subresources ...string,
) error {
	_, err := c.Resource(resource).Namespace(namespace).Patch(ctx, name, pt, data, metav1.PatchOptions{FieldManager: c.FieldManager}, subresources...)
	return err
}

// Create creates obj, a typed object whose TypeMeta is set, as resource
// in the namespace given and the logical cluster of ctx, as the
// controller.
func (c *Client) Create(ctx context.Context, resource schema.GroupVersionResource, namespace string, obj runtime.Object) error {
	u, err := toUnstructured(obj)
	if err != nil {
		return err
	}
	_, err = c.Resource(resource).Namespace(namespace).Create(ctx, u, metav1.CreateOptions{FieldManager: c.FieldManager})
	return err
}

// Update updates obj, a typed object whose TypeMeta is set, as resource
// in the namespace given and the logical cluster of ctx, or its
// subresource, as the controller. obj's resourceVersion makes the update
// conflict with any change since it was read.
func (c *Client) Update(ctx context.Context, resource schema.GroupVersionResource, namespace string, obj runtime.Object, subresources ...string) error {
	u, err := toUnstructured(obj)
	if err != nil {
		return err
	}
	_, err = c.Resource(resource).Namespace(namespace).Update(ctx, u, metav1.UpdateOptions{FieldManager: c.FieldManager}, subresources...)
	return err
}

func toUnstructured(obj runtime.Object) (*unstructured.Unstructured, error) {
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, err
	}
	return &unstructured.Unstructured{Object: m}, nil
}

// Delete deletes the object name of resource, in the namespace given and
// the logical cluster of ctx, as the controller.
func (c *Client) Delete(ctx context.Context, resource schema.GroupVersionResource, namespace, name string, opts metav1.DeleteOptions) error {
	return c.Resource(resource).Namespace(namespace).Delete(ctx, name, opts)
}

// Versioned is resource r at the version of obj, one of its objects, as
// the hub serves it: the version a custom resource's object carries,
// which its definition serves, or that of the hub's own type, which
// typer tells.
func Versioned(typer runtime.ObjectTyper, r schema.GroupResource, obj runtime.Object) (schema.GroupVersionResource, error) {
	if v := obj.GetObjectKind().GroupVersionKind().Version; v != "" {
		return r.WithVersion(v), nil
	}
	gvks, _, err := typer.ObjectKinds(obj)
	if err != nil {
		return schema.GroupVersionResource{}, fmt.Errorf("the version of %s: %w", r, err)
	}
	return r.WithVersion(gvks[0].Version), nil
}
