package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	collectortracev1 "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonv1 "go.opentelemetry.io/proto/otlp/common/v1"
	tracev1 "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
)

// otlpReceiver is an OTLP/gRPC trace collector: it keeps every span it is
// sent, with the service.name of the resource that sent it.
type otlpReceiver struct {
	collectortracev1.UnimplementedTraceServiceServer
	addr string

	mu    sync.Mutex
	spans []receivedSpan
}

type receivedSpan struct {
	service string
	*tracev1.Span
}

func startOTLPReceiver(t *testing.T) *otlpReceiver {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &otlpReceiver{addr: l.Addr().String()}
	srv := grpc.NewServer()
	collectortracev1.RegisterTraceServiceServer(srv, r)
	go func() { _ = srv.Serve(l) }()
	t.Cleanup(srv.Stop)
	return r
}

func (r *otlpReceiver) Export(_ context.Context, req *collectortracev1.ExportTraceServiceRequest) (*collectortracev1.ExportTraceServiceResponse, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rs := range req.GetResourceSpans() {
		service := stringAttr(rs.GetResource().GetAttributes(), "service.name")
		for _, ss := range rs.GetScopeSpans() {
			for _, s := range ss.GetSpans() {
				r.spans = append(r.spans, receivedSpan{service: service, Span: s})
			}
		}
	}
	return &collectortracev1.ExportTraceServiceResponse{}, nil
}

func (r *otlpReceiver) received() []receivedSpan {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]receivedSpan(nil), r.spans...)
}

func (r *otlpReceiver) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.spans = nil
}

func stringAttr(attrs []*commonv1.KeyValue, key string) string {
	for _, kv := range attrs {
		if kv.GetKey() == key {
			return kv.GetValue().GetStringValue()
		}
	}
	return ""
}

// With --otlp-endpoint the hub sends each request's trace to the collector,
// down to the SQL statement of a kubectl create; without it the hub sends
// nothing, even with the OTLP exporter's environment variables set.
func TestTracing(t *testing.T) {
	t.Parallel()
	bin := buildHub(t)
	receiver := startOTLPReceiver(t)

	t.Run("off", func(t *testing.T) {
		receiver.reset()
		h := &hub{bin: bin, dataDir: t.TempDir(), port: freePort(t),
			env: []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://" + receiver.addr, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=http://" + receiver.addr}}
		h.start(t)
		k := h.admin(t)
		k.createLogicalCluster("root", "untraced")
		k.must("--server", fmt.Sprintf("https://127.0.0.1:%d/clusters/root:untraced", h.port), "create", "configmap", "c", "--from-literal=k=v")
		// Stopping flushes whatever a tracer provider would hold.
		h.stop(t)
		if got := receiver.received(); len(got) != 0 {
			t.Errorf("without --otlp-endpoint the hub exported %d spans, e.g. %q", len(got), got[0].GetName())
		}
	})

	for _, ds := range datastores {
		t.Run(ds.name, func(t *testing.T) {
			receiver.reset()
			h := &hub{bin: bin, dataDir: t.TempDir(), datastore: ds.url(t), port: freePort(t),
				flags: []string{"--otlp-endpoint", receiver.addr}}
			h.start(t)
			k := kubectl{t: t, kubeconfig: filepath.Join(h.dataDir, "admin.kubeconfig"), home: t.TempDir()}
			k.createLogicalCluster("root", "traced")
			k.must("--server", fmt.Sprintf("https://127.0.0.1:%d/clusters/root:traced", h.port), "create", "configmap", "traced", "--from-literal=k=v")

			system := map[string]string{"sqlite": "sqlite", "postgres": "postgresql"}[ds.name]
			var chain []string
			deadline := time.Now().Add(30 * time.Second)
			for {
				var err error
				if chain, err = insertTrace(receiver.received(), "/registry/configmaps/root:traced/default/traced", system); err == nil {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("no trace from the ConfigMap's POST down to its SQL insert within 30s: %v\nspans: %s", err, spanNames(receiver.received()))
				}
				time.Sleep(200 * time.Millisecond)
			}
			t.Logf("trace: %s", strings.Join(chain, " <- "))
		})
	}
}

// insertTrace finds, among spans, the sql.insert of key and checks that it
// descends, by parent span IDs within one trace, from the hub's span of
// the HTTP request that created it, and that the group commit that wrote
// it is its child. It returns the chain of span names.
func insertTrace(spans []receivedSpan, key, system string) ([]string, error) {
	byID := map[string]receivedSpan{}
	var insert *receivedSpan
	for i, s := range spans {
		byID[string(s.GetSpanId())] = s
		if s.GetName() == "sql.insert" && stringAttr(s.GetAttributes(), "canopy.key") == key {
			insert = &spans[i]
		}
	}
	if insert == nil {
		return nil, fmt.Errorf("no sql.insert span of %s", key)
	}
	for attr, want := range map[string]string{"db.system": system, "db.operation": "insert", "canopy.resource": "configmaps"} {
		if got := stringAttr(insert.GetAttributes(), attr); got != want {
			return nil, fmt.Errorf("sql.insert has %s %q, want %q", attr, got, want)
		}
	}
	committed := false
	for _, s := range spans {
		if s.GetName() == "sql.commit" && bytes.Equal(s.GetParentSpanId(), insert.GetSpanId()) && bytes.Equal(s.GetTraceId(), insert.GetTraceId()) {
			committed = true
		}
	}
	if !committed {
		return nil, fmt.Errorf("no sql.commit span under the sql.insert")
	}
	chain := []string{insert.GetName()}
	for s := *insert; ; {
		if s.service != "canopy-hub" {
			return nil, fmt.Errorf("span %s comes from service %q, want canopy-hub", s.GetName(), s.service)
		}
		if s.GetKind() == tracev1.Span_SPAN_KIND_SERVER {
			if want := "POST /api/v1/namespaces/{:namespace}/configmaps"; s.GetName() != want {
				return nil, fmt.Errorf("the server span above sql.insert is %q, want %q", s.GetName(), want)
			}
			return chain, nil
		}
		if len(s.GetParentSpanId()) == 0 {
			return nil, fmt.Errorf("the chain %v above sql.insert ends without the request's span", chain)
		}
		parent, ok := byID[string(s.GetParentSpanId())]
		if !ok {
			return nil, fmt.Errorf("the parent of %s has not arrived yet", s.GetName())
		}
		if !bytes.Equal(parent.GetTraceId(), s.GetTraceId()) {
			return nil, fmt.Errorf("%s and its parent %s are in different traces", s.GetName(), parent.GetName())
		}
		s = parent
		chain = append(chain, s.GetName())
	}
}

func spanNames(spans []receivedSpan) string {
	names := make([]string, len(spans))
	for i, s := range spans {
		names[i] = s.GetName()
	}
	return strings.Join(names, ", ")
}
