package sqlstorage

import (
	"context"
	"fmt"
	"testing"
	"time"

	kubernetes "go.etcd.io/etcd/client/v3/kubernetes"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apiserver/pkg/apis/example"
	"k8s.io/apiserver/pkg/features"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/apiserver/pkg/storage/cacher"
	storagetesting "k8s.io/apiserver/pkg/storage/testing"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/utils/clock"
)

// The conformance suite again, with the store behind the upstream watch
// cache, as the hub runs it.

func podAttrs(obj runtime.Object) (labels.Set, fields.Set, error) {
	pod := obj.(*example.Pod)
	return labels.Set(pod.Labels), fields.Set{
		"metadata.name":      pod.Name,
		"metadata.namespace": pod.Namespace,
		"spec.nodeName":      pod.Spec.NodeName,
		"spec.restartPolicy": string(pod.Spec.RestartPolicy),
		"status.phase":       string(pod.Status.Phase),
	}, nil
}

// listRecorder records the range reads the store makes in the shape the
// suite expects of etcd's list requests. The client it wraps only records:
// nothing reads its answers.
type recordingClient struct{ kubernetes.Interface }

func (recordingClient) List(context.Context, string, kubernetes.ListOptions) (kubernetes.ListResponse, error) {
	return kubernetes.ListResponse{}, nil
}

type cachedSetup struct {
	ctx      context.Context
	store    *Store
	cached   *cacher.CacheDelegator
	recorder *storagetesting.KubernetesRecorder
}

func setupCached(t *testing.T, url string, clusterScoped bool) cachedSetup {
	s := newPodStore(openBackend(t, url))
	// The suite's expectations name keys under etcd's test path prefix.
	s.pathPrefix = "/registry/"
	recorder := storagetesting.NewKubernetesRecorder(recordingClient{})
	s.b.rangeRead = func(ctx context.Context, from string, rev, limit int64) {
		_, _ = recorder.List(ctx, from, kubernetes.ListOptions{Revision: rev, Limit: limit})
	}
	keyFunc := func(obj runtime.Object) (string, error) { return storage.NamespaceKeyFunc("/pods/", obj) }
	if clusterScoped {
		keyFunc = func(obj runtime.Object) (string, error) { return storage.NoNamespaceKeyFunc("/pods/", obj) }
	}
	c, err := cacher.NewCacherFromConfig(cacher.Config{
		Storage:             s,
		Versioner:           storage.APIObjectVersioner{},
		GroupResource:       schema.GroupResource{Resource: "pods"},
		EventsHistoryWindow: cacher.DefaultEventFreshDuration,
		ResourcePrefix:      "/pods/",
		KeyFunc:             keyFunc,
		GetAttrsFunc:        podAttrs,
		NewFunc:             newPod,
		NewListFunc:         newPodList,
		Codec:               s.codec,
		Clock:               clock.RealClock{},
	})
	if err != nil {
		t.Fatalf("creating the watch cache: %v", err)
	}
	ctx := context.Background()
	if err := c.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	d := cacher.NewCacheDelegator(c, s)
	t.Cleanup(func() {
		d.Stop()
		c.Stop()
	})
	return cachedSetup{ctx: ctx, store: s, cached: d, recorder: recorder}
}

func runCachedFamily(t *testing.T, tests map[string]func(*testing.T, cachedSetup)) {
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			eachDatastore(t, func(t *testing.T, url string) {
				test(t, setupCached(t, url, name == "ClusterScopedWatch"))
			})
		})
	}
}

func noStorageCheck(context.Context, *testing.T, string) {}

// The watch cache answers pages from memory, so the store's reads say
// nothing about paging through it, as upstream's cacher tests note too.
func noCallsCheck(*testing.T, uint64, uint64) {}

// compactionCached compacts the store and waits for the watch cache's own
// compactor, which polls the store every 15s, to follow.
func compactionCached(c cachedSetup) storagetesting.Compaction {
	return func(ctx context.Context, t *testing.T, resourceVersion string) {
		compaction(c.store)(ctx, t, resourceVersion)
		rv, _ := c.store.versioner.ParseResourceVersion(resourceVersion)
		err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, time.Minute, true, func(context.Context) (bool, error) {
			return c.cached.CompactRevision() >= int64(rv), nil
		})
		if err != nil {
			t.Fatalf("the watch cache did not see compaction to %d: %v", rv, err)
		}
	}
}

func TestCachedStore(t *testing.T) {
	runCachedFamily(t, map[string]func(*testing.T, cachedSetup){
		"Create":             func(t *testing.T, c cachedSetup) { storagetesting.RunTestCreate(c.ctx, t, c.cached, noStorageCheck) },
		"CreateWithTTL":      func(t *testing.T, c cachedSetup) { storagetesting.RunTestCreateWithTTL(c.ctx, t, c.cached) },
		"CreateWithKeyExist": func(t *testing.T, c cachedSetup) { storagetesting.RunTestCreateWithKeyExist(c.ctx, t, c.cached) },
		"Get":                func(t *testing.T, c cachedSetup) { storagetesting.RunTestGet(c.ctx, t, c.cached) },
		"UnconditionalDelete": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestUnconditionalDelete(c.ctx, t, c.cached)
		},
		"ConditionalDelete": func(t *testing.T, c cachedSetup) { storagetesting.RunTestConditionalDelete(c.ctx, t, c.cached) },
		"DeleteWithSuggestion": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestDeleteWithSuggestion(c.ctx, t, c.cached)
		},
		"DeleteWithSuggestionAndConflict": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestDeleteWithSuggestionAndConflict(c.ctx, t, c.cached)
		},
		"DeleteWithSuggestionOfDeletedObject": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestDeleteWithSuggestionOfDeletedObject(c.ctx, t, c.cached)
		},
		"ValidateDeletionWithSuggestion": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestValidateDeletionWithSuggestion(c.ctx, t, c.cached)
		},
		"ValidateDeletionWithOnlySuggestionValid": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestValidateDeletionWithOnlySuggestionValid(c.ctx, t, c.cached)
		},
		"DeleteWithConflict": func(t *testing.T, c cachedSetup) { storagetesting.RunTestDeleteWithConflict(c.ctx, t, c.cached) },
		"PreconditionalDeleteWithSuggestion": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestPreconditionalDeleteWithSuggestion(c.ctx, t, c.cached)
		},
		"PreconditionalDeleteWithOnlySuggestionPass": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestPreconditionalDeleteWithOnlySuggestionPass(c.ctx, t, c.cached)
		},
		"List": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestList(c.ctx, t, c.cached, compactionCached(c), true, c.recorder)
		},
		"ConsistentList": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestConsistentList(c.ctx, t, c.cached, increaseRV(c.store), true, true, true)
		},
		"GetListNonRecursive": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestGetListNonRecursive(c.ctx, t, increaseRV(c.store), c.cached)
		},
		"GetListRecursivePrefix": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestGetListRecursivePrefix(c.ctx, t, c.cached)
		},
		"ListPaging": func(t *testing.T, c cachedSetup) { storagetesting.RunTestListPaging(c.ctx, t, c.cached) },
		"ListContinuation": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestListContinuation(c.ctx, t, c.cached, noCallsCheck)
		},
		"ListPaginationRareObject": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestListPaginationRareObject(c.ctx, t, c.cached, noCallsCheck)
		},
		"ListContinuationWithFilter": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestListContinuationWithFilter(c.ctx, t, c.cached, noCallsCheck)
		},
		"NamespaceScopedList": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestNamespaceScopedList(c.ctx, t, c.cached)
		},
		"GuaranteedUpdateWithTTL": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestGuaranteedUpdateWithTTL(c.ctx, t, c.cached)
		},
		"GuaranteedUpdateWithConflict": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestGuaranteedUpdateWithConflict(c.ctx, t, c.cached)
		},
		"GuaranteedUpdateWithSuggestionAndConflict": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestGuaranteedUpdateWithSuggestionAndConflict(c.ctx, t, c.cached)
		},
		"CompactRevision": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestCompactRevision(c.ctx, t, c.cached, increaseRV(c.store), compactionCached(c))
		},
		"KeySchema": func(t *testing.T, c cachedSetup) { storagetesting.RunTestKeySchema(c.ctx, t, c.cached) },
	})
}

func TestCachedStats(t *testing.T) {
	for _, sizes := range []bool{false, true} {
		t.Run(fmt.Sprintf("SizeBasedListCostEstimate=%v", sizes), func(t *testing.T) {
			// The watch cache decides when it is built whether to ask for sizes.
			featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.SizeBasedListCostEstimate, sizes)
			eachDatastore(t, func(t *testing.T, url string) {
				c := setupCached(t, url, false)
				storagetesting.RunTestStats(c.ctx, t, c.cached, c.store.codec, c.store.transformer, sizes)
			})
		})
	}
}

func TestCachedWatch(t *testing.T) {
	runCachedFamily(t, map[string]func(*testing.T, cachedSetup){
		"Watch": func(t *testing.T, c cachedSetup) { storagetesting.RunTestWatch(c.ctx, t, c.cached) },
		// The watch cache keeps its own history, so compacting the store
		// does not expire its watches; the suite skips that half itself when
		// given no compaction. The raw store's 410s are covered above.
		"WatchFromZero":      func(t *testing.T, c cachedSetup) { storagetesting.RunTestWatchFromZero(c.ctx, t, c.cached, nil) },
		"DeleteTriggerWatch": func(t *testing.T, c cachedSetup) { storagetesting.RunTestDeleteTriggerWatch(c.ctx, t, c.cached) },
		"WatchFromNonZero":   func(t *testing.T, c cachedSetup) { storagetesting.RunTestWatchFromNonZero(c.ctx, t, c.cached) },
		"DelayedWatchDelivery": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestDelayedWatchDelivery(c.ctx, t, c.cached)
		},
		"WatcherTimeout": func(t *testing.T, c cachedSetup) { storagetesting.RunTestWatcherTimeout(c.ctx, t, c.cached) },
		"DeleteEventHasLatestRV": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestWatchDeleteEventObjectHaveLatestRV(c.ctx, t, c.cached)
		},
		"InitializationSignal": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestWatchInitializationSignal(c.ctx, t, c.cached)
		},
		"ClusterScopedWatch":   func(t *testing.T, c cachedSetup) { storagetesting.RunTestClusterScopedWatch(c.ctx, t, c.cached) },
		"NamespaceScopedWatch": func(t *testing.T, c cachedSetup) { storagetesting.RunTestNamespaceScopedWatch(c.ctx, t, c.cached) },
		"DispatchBookmarkEvents": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestWatchDispatchBookmarkEvents(c.ctx, t, c.cached, true)
		},
		"BookmarksWithCorrectResourceVersion": func(t *testing.T, c cachedSetup) {
			storagetesting.RunTestOptionalWatchBookmarksWithCorrectResourceVersion(c.ctx, t, c.cached)
		},
		"SendInitialEventsCompat": func(t *testing.T, c cachedSetup) {
			storagetesting.RunSendInitialEventsBackwardCompatibility(c.ctx, t, c.cached)
		},
		"Semantics": func(t *testing.T, c cachedSetup) { storagetesting.RunWatchSemantics(c.ctx, t, c.cached) },
		"SemanticInitialEventsExtended": func(t *testing.T, c cachedSetup) {
			storagetesting.RunWatchSemanticInitialEventsExtended(c.ctx, t, c.cached)
		},
		"ListMatchSingle": func(t *testing.T, c cachedSetup) { storagetesting.RunWatchListMatchSingle(c.ctx, t, c.cached) },
	})
}
