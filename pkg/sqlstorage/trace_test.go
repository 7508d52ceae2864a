package sqlstorage

import (
	"context"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/apis/example"
	"k8s.io/apiserver/pkg/storage"
)

// tracedStore is a pod store whose spans go to the returned recorder.
func tracedStore(t *testing.T, url string) (*Store, *sdktrace.TracerProvider, *tracetest.SpanRecorder) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	opts := testOptions
	opts.TracerProvider = tp
	b, err := Open(context.Background(), url, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return newPodStore(b), tp, rec
}

func spanAttr(s sdktrace.ReadOnlySpan, key attribute.Key) attribute.Value {
	for _, kv := range s.Attributes() {
		if kv.Key == key {
			return kv.Value
		}
	}
	return attribute.Value{}
}

// spansNamed returns the ended spans called name.
func spansNamed(rec *tracetest.SpanRecorder, name string) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if s.Name() == name {
			out = append(out, s)
		}
	}
	return out
}

// Every statement a traced request makes is a child span of the request's,
// with the database, operation, resource, key and rows; the group commit
// its write waited for is a child of the write's span.
func TestTracingSpansOfARequest(t *testing.T) {
	systems := map[string]string{"sqlite": "sqlite", "postgres": "postgresql"}
	for _, ds := range datastores {
		t.Run(ds.name, func(t *testing.T) {
			s, tp, rec := tracedStore(t, ds.url(t))
			ctx, request := tp.Tracer("test").Start(context.Background(), "request")
			out := &example.Pod{}
			if err := s.Create(ctx, "/pods/ns/a", &example.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "ns"}}, out, 0); err != nil {
				t.Fatal(err)
			}
			if err := s.Get(ctx, "/pods/ns/a", storage.GetOptions{}, &example.Pod{}); err != nil {
				t.Fatal(err)
			}
			list := &example.PodList{}
			if err := s.GetList(ctx, "/pods/ns", storage.ListOptions{Recursive: true, Predicate: storage.Everything}, list); err != nil {
				t.Fatal(err)
			}
			request.End()
			parent := request.SpanContext()

			want := map[string]struct {
				key  attribute.KeyValue
				rows int64
			}{
				"sql.insert": {attrKey.String("/pods/ns/a"), 1},
				"sql.get":    {attrKey.String("/pods/ns/a"), 1},
				"sql.list":   {attrKeyPrefix.String("/pods/ns/"), 1},
			}
			for name, w := range want {
				spans := spansNamed(rec, name)
				if len(spans) != 1 {
					t.Fatalf("%d %s spans, want 1", len(spans), name)
				}
				sp := spans[0]
				if sp.Parent().SpanID() != parent.SpanID() || sp.SpanContext().TraceID() != parent.TraceID() {
					t.Errorf("%s is not a child of the request's span", name)
				}
				for _, kv := range []attribute.KeyValue{
					attribute.String("db.system", systems[ds.name]),
					attribute.String("db.operation", name[len("sql."):]),
					attrResource.String("pods"),
					w.key,
					attrRows.Int64(w.rows),
				} {
					if got := spanAttr(sp, kv.Key); got != kv.Value {
						t.Errorf("%s: %s = %v, want %v", name, kv.Key, got.Emit(), kv.Value.Emit())
					}
				}
			}
			insert := spansNamed(rec, "sql.insert")[0]
			if got := spanAttr(insert, attrRevision).AsInt64(); got != int64(mustRV(t, out)) {
				t.Errorf("sql.insert: revision %d, want the pod's %d", got, mustRV(t, out))
			}
			commits := spansNamed(rec, "sql.commit")
			if len(commits) != 1 || commits[0].Parent().SpanID() != insert.SpanContext().SpanID() {
				t.Fatalf("want one sql.commit, a child of sql.insert; got %d", len(commits))
			}
			if got := spanAttr(commits[0], attrBatch).AsInt64(); got != 1 {
				t.Errorf("sql.commit: batch size %d, want 1", got)
			}

			// Work no traced request asked for records nothing.
			before := len(rec.Ended())
			if err := s.Create(context.Background(), "/pods/ns/b", &example.Pod{ObjectMeta: metav1.ObjectMeta{Name: "b", Namespace: "ns"}}, nil, 0); err != nil {
				t.Fatal(err)
			}
			if after := len(rec.Ended()); after != before {
				t.Errorf("an untraced write recorded %d spans", after-before)
			}
		})
	}
}

func mustRV(t *testing.T, obj runtime.Object) uint64 {
	t.Helper()
	rv, err := storage.APIObjectVersioner{}.ObjectResourceVersion(obj)
	if err != nil {
		t.Fatal(err)
	}
	return rv
}

// A commit shared by the writes of several requests is a child of the
// first traced one and links to the others; untraced writes add nothing.
func TestTracingSharedCommit(t *testing.T) {
	s, tp, rec := tracedStore(t, datastores[0].url(t))
	tracer := tp.Tracer("test")
	var batch []*op
	var spans []trace.SpanContext
	for _, key := range []string{"/a", "/b", "/c"} {
		_, sp := tracer.Start(context.Background(), "request "+key)
		spans = append(spans, sp.SpanContext())
		batch = append(batch, &op{key: key, value: []byte("v"), span: sp.SpanContext(), done: make(chan struct{})})
		sp.End()
	}
	batch = append(batch, &op{key: "/untraced", value: []byte("v"), done: make(chan struct{})})
	span := s.b.startCommit(batch)
	s.b.commit(context.Background(), batch, nil)
	endCommit(span, batch)

	commits := spansNamed(rec, "sql.commit")
	if len(commits) != 1 {
		t.Fatalf("%d sql.commit spans, want 1", len(commits))
	}
	c := commits[0]
	if c.Parent().SpanID() != spans[0].SpanID() || c.SpanContext().TraceID() != spans[0].TraceID() {
		t.Errorf("sql.commit is not a child of the first traced write")
	}
	var linked []trace.SpanContext
	for _, l := range c.Links() {
		linked = append(linked, l.SpanContext)
	}
	if len(linked) != 2 || !linked[0].Equal(spans[1]) || !linked[1].Equal(spans[2]) {
		t.Errorf("sql.commit links %v, want the other two traced writes", linked)
	}
	if got := spanAttr(c, attrBatch).AsInt64(); got != 4 {
		t.Errorf("batch size %d, want 4", got)
	}
	if got := spanAttr(c, attrRows).AsInt64(); got != 4 {
		t.Errorf("rows %d, want 4 applied writes", got)
	}
}

// With the default no-op provider a statement's span costs no allocation.
func TestTracingOffAllocatesNothing(t *testing.T) {
	s := newPodStore(openBackend(t, datastores[0].url(t)))
	ctx := context.Background()
	if allocs := testing.AllocsPerRun(100, func() {
		span := s.startSQL(ctx, "get", attrKey.String("/pods/ns/a"))
		endSQL(span, 1, 1, nil)
	}); allocs != 0 {
		t.Errorf("an untraced statement's span allocates %v times", allocs)
	}
}
