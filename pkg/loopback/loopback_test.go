package loopback

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

func TestClientAddressesTheContextsCluster(t *testing.T) {
	users, err := NewUsers("placement", "garbage-collector")
	if err != nil {
		t.Fatal(err)
	}
	type seen struct{ path, auth, agent string }
	requests := make(chan seen, 1)
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests <- seen{r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("User-Agent")}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","namespace":"ns"}}`))
	}))
	defer server.Close()
	c, err := users.Client(&rest.Config{Host: server.URL}, "placement")
	if err != nil {
		t.Fatal(err)
	}
	configMaps := c.Resource(schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("ns")

	ctx := logicalcluster.WithCluster(context.Background(), "root:org:team")
	if _, err := configMaps.Get(ctx, "c", metav1.GetOptions{}); err != nil {
		t.Fatal(err)
	}
	got := <-requests
	if want := "/clusters/root:org:team/api/v1/namespaces/ns/configmaps/c"; got.path != want {
		t.Errorf("path %s, want %s", got.path, want)
	}
	token, _ := strings.CutPrefix(got.auth, "Bearer ")
	resp, ok, err := users.AuthenticateToken(ctx, token)
	if err != nil || !ok {
		t.Fatalf("the client's token does not authenticate: %v %v", ok, err)
	}
	if resp.User.GetName() != "system:canopy:controller:placement" || !IsController(resp.User) {
		t.Errorf("the token authenticates %s in %v, want the placement controller in %s", resp.User.GetName(), resp.User.GetGroups(), Group)
	}
	if !strings.HasPrefix(got.agent, "canopy-hub/placement") {
		t.Errorf("user agent %q does not name the controller", got.agent)
	}
	if c.FieldManager != "placement" {
		t.Errorf("field manager %q, want placement", c.FieldManager)
	}

	if _, err := configMaps.Get(context.Background(), "c", metav1.GetOptions{}); err == nil || !strings.Contains(err.Error(), "names no logical cluster") {
		t.Errorf("a request naming no logical cluster: %v, want it refused before it is sent", err)
	}
	if _, err := configMaps.Get(logicalcluster.WithWildcard(context.Background()), "c", metav1.GetOptions{}); err == nil {
		t.Error("a request to every logical cluster at once was sent")
	}
	if len(requests) != 0 {
		t.Errorf("%d requests sent without a logical cluster", len(requests))
	}
}

func TestUsersAreDistinct(t *testing.T) {
	users, err := NewUsers("placement", "garbage-collector")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := users.AuthenticateToken(context.Background(), "guess"); ok {
		t.Error("a token no controller holds authenticates")
	}
	var names []string
	for c, token := range users.tokens {
		resp, ok, err := users.AuthenticateToken(context.Background(), token)
		if err != nil || !ok || resp.User.GetName() != User(c) {
			t.Errorf("controller %s's token: %v %v %v", c, resp, ok, err)
			continue
		}
		names = append(names, resp.User.GetName())
	}
	slices.Sort(names)
	if want := []string{User("garbage-collector"), User("placement")}; !slices.Equal(names, want) {
		t.Errorf("users %v, want %v", names, want)
	}
	if _, err := users.Client(&rest.Config{Host: "https://127.0.0.1"}, "namespace"); err == nil {
		t.Error("a client for a controller without a user was made")
	}
}
