package difftest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
)

// Server is one side of the comparison: a kube-apiserver, or a logical
// cluster of a hub, whose rest.Config's Host holds its /clusters/ path.
type Server struct {
	Name      string
	host      string
	client    *http.Client
	discovery discovery.DiscoveryInterface
}

// requestTimeout bounds one request; a watch has its own deadline.
const requestTimeout = 30 * time.Second

// maxAnswer bounds what is read of one answer, so that a server answering
// something huge costs the harness no more than this.
const maxAnswer = 4 << 20

// NewServer is a Server talking to config's host as config's user.
func NewServer(name string, config *rest.Config) (*Server, error) {
	config = rest.CopyConfig(config)
	// The harness sends as many requests as it can; client-go's default
	// rate limit would make it measure the limiter.
	config.QPS, config.Burst = -1, 0
	client, err := rest.HTTPClientFor(config)
	if err != nil {
		return nil, err
	}
	dc, err := discovery.NewDiscoveryClientForConfigAndClient(config, client)
	if err != nil {
		return nil, err
	}
	return &Server{Name: name, host: strings.TrimSuffix(config.Host, "/"), client: client, discovery: dc}, nil
}

// Request is one HTTP request, as sent to either server.
type Request struct {
	Method string
	// Path is the API path, /api/v1/... or /apis/...
	Path        string
	Query       url.Values
	ContentType string
	Accept      string
	Body        []byte
}

func (r Request) String() string {
	s := r.Method + " " + r.Path
	if len(r.Query) > 0 {
		s += "?" + r.Query.Encode()
	}
	if r.ContentType != "" {
		s += " (" + r.ContentType + ")"
	}
	if len(r.Body) > 0 {
		s += "\n" + string(r.Body)
	}
	return s
}

// Answer is what a server answered: its code, and the body decoded as
// JSON (nil when it is not JSON, Raw holding it then).
type Answer struct {
	Code int
	Body map[string]any
	Raw  []byte
	// Err is a transport error: no answer at all.
	Err error
}

func (a Answer) String() string {
	if a.Err != nil {
		return "error: " + a.Err.Error()
	}
	b, err := json.MarshalIndent(a.Body, "", "  ")
	if a.Body == nil || err != nil {
		b = a.Raw
	}
	return fmt.Sprintf("%d %s", a.Code, b)
}

// Do sends req and reads the answer.
func (s *Server) Do(ctx context.Context, req Request) Answer {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	resp, err := s.send(ctx, req)
	if err != nil {
		return Answer{Err: err}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return Answer{Code: resp.StatusCode, Err: err}
	}
	a := Answer{Code: resp.StatusCode, Raw: raw}
	_ = json.Unmarshal(raw, &a.Body)
	return a
}

func (s *Server) send(ctx context.Context, req Request) (*http.Response, error) {
	u := s.host + req.Path
	if len(req.Query) > 0 {
		u += "?" + req.Query.Encode()
	}
	hreq, err := http.NewRequestWithContext(ctx, req.Method, u, bytes.NewReader(req.Body))
	if err != nil {
		return nil, err
	}
	if req.ContentType != "" {
		hreq.Header.Set("Content-Type", req.ContentType)
	}
	accept := req.Accept
	if accept == "" {
		accept = "application/json"
	}
	hreq.Header.Set("Accept", accept)
	return s.client.Do(hreq)
}
