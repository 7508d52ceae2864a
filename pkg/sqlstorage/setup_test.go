package sqlstorage

import (
	"context"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/apitesting"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/apiserver/pkg/apis/example"
	examplev1 "k8s.io/apiserver/pkg/apis/example/v1"
	"k8s.io/apiserver/pkg/storage"
	storagetesting "k8s.io/apiserver/pkg/storage/testing"

	"github.com/canopy-dev/canopy/internal/pgtest"
)

var (
	scheme = runtime.NewScheme()
	codecs = serializer.NewCodecFactory(scheme)
)

func init() {
	metav1.AddToGroupVersion(scheme, metav1.SchemeGroupVersion)
	utilruntime.Must(example.AddToScheme(scheme))
	utilruntime.Must(examplev1.AddToScheme(scheme))
}

func TestMain(m *testing.M) { pgtest.Main(m) }

// The conformance suite prefixes every stored value with this, to check
// that the transformer is applied on every path.
const testValuePrefix = "test!"

func newPod() runtime.Object     { return &example.Pod{} }
func newPodList() runtime.Object { return &example.PodList{} }

// datastores are the databases every conformance test runs against, each
// returning a fresh, empty datastore URL.
var datastores = []struct {
	name string
	url  func(t testing.TB) string
}{
	{"sqlite", func(t testing.TB) string { return "sqlite://" + filepath.Join(t.TempDir(), "canopy.db") }},
	{"postgres", func(t testing.TB) string { return pgtest.Shared(t).NewDatabase(t) }},
}

// eachDatastore runs fn once per database, as subtests.
func eachDatastore(t *testing.T, fn func(t *testing.T, url string)) {
	for _, ds := range datastores {
		t.Run(ds.name, func(t *testing.T) { fn(t, ds.url(t)) })
	}
}

// testOptions make the background loops fast enough for tests to observe.
var testOptions = Options{
	PollInterval:     10 * time.Millisecond,
	ProgressInterval: 100 * time.Millisecond,
	CompactInterval:  -1,
}

func openBackend(t testing.TB, url string) *Backend {
	t.Helper()
	b, err := Open(context.Background(), url, testOptions)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

func newPodStore(b *Backend) *Store {
	return b.NewStore(Config{
		Codec:          apitesting.TestCodec(codecs, examplev1.SchemeGroupVersion),
		NewFunc:        newPod,
		NewListFunc:    newPodList,
		Prefix:         "",
		ResourcePrefix: "/pods/",
		GroupResource:  schema.GroupResource{Resource: "pods"},
		Transformer:    storagetesting.NewPrefixTransformer([]byte(testValuePrefix), false),
	})
}

func setup(t *testing.T, url string) (context.Context, *Store) {
	return context.Background(), newPodStore(openBackend(t, url))
}

// compaction compacts, then writes once more: etcd's compaction is itself
// a write, and the suite counts on that revision.
func compaction(s *Store) storagetesting.Compaction {
	return func(ctx context.Context, t *testing.T, resourceVersion string) {
		defer increaseRV(s)(ctx, t)
		rv, err := s.versioner.ParseResourceVersion(resourceVersion)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.b.Compact(ctx, int64(rv)); err != nil {
			t.Fatal(err)
		}
	}
}

var increaseRVKeys atomic.Int64

// increaseRV writes a key outside every resource, as the etcd tests do.
func increaseRV(s *Store) storagetesting.IncreaseRVFunc {
	return func(ctx context.Context, t *testing.T) int64 {
		o := &op{key: fmt.Sprintf("/increaseRV/%d", increaseRVKeys.Add(1)), value: []byte("ok"), done: make(chan struct{})}
		if err := s.b.submit(ctx, o); err != nil || !o.applied {
			t.Fatalf("could not increase the revision: %v", err)
		}
		return o.rev
	}
}

// withPrefixTransformer lets the suite swap the value transformer.
type withPrefixTransformer struct{ *Store }

func (s withPrefixTransformer) UpdatePrefixTransformer(modify storagetesting.PrefixTransformerModifier) func() {
	orig := s.transformer
	copied := *orig.(*storagetesting.PrefixTransformer)
	s.transformer = modify(&copied)
	return func() { s.transformer = orig }
}

type withTransformerOverride struct{ *Store }

func (s withTransformerOverride) UpdateTransformer(modify storagetesting.TransformerModifier) func() {
	orig := s.transformer
	s.transformer = modify(orig)
	return func() { s.transformer = orig }
}

// checkStoredForm is the suite's KeyValidation: what is stored is the
// transformed object with no resourceVersion in it.
func checkStoredForm(s *Store) storagetesting.KeyValidation {
	return func(ctx context.Context, t *testing.T, key string) {
		k, err := s.prepareKey(key, false)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := s.b.current(ctx, k)
		if err != nil || rec == nil {
			t.Fatalf("reading %s: %v (found: %v)", key, err, rec != nil)
		}
		obj, err := runtime.Decode(s.codec, rec.value[len(testValuePrefix):])
		if err != nil {
			t.Fatalf("stored value of %s does not decode: %v", key, err)
		}
		if pod := obj.(*example.Pod); pod.ResourceVersion != "" || pod.SelfLink != "" {
			t.Errorf("stored object has resourceVersion %q selfLink %q, want both empty", pod.ResourceVersion, pod.SelfLink)
		}
	}
}

// checkReads is the suite's CallsValidation: each object is transformed
// exactly once while paging.
func checkReads(s *Store) storagetesting.CallsValidation {
	return func(t *testing.T, pageSize, estimatedProcessedObjects uint64) {
		if reads := s.transformer.(*storagetesting.PrefixTransformer).GetReadsAndReset(); reads != estimatedProcessedObjects {
			t.Errorf("unexpected reads: %d, expected: %d", reads, estimatedProcessedObjects)
		}
	}
}

var _ storage.Interface = withPrefixTransformer{}
