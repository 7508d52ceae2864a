package sqlstorage

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"k8s.io/apimachinery/pkg/api/apitesting"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	examplev1 "k8s.io/apiserver/pkg/apis/example/v1"
	"k8s.io/apiserver/pkg/features"
	storagetesting "k8s.io/apiserver/pkg/storage/testing"
	"k8s.io/apiserver/pkg/storage/value"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
)

// The upstream storage conformance suite, run against the raw store on
// every database. Each test gets a fresh, empty database.

func runFamily(t *testing.T, tests map[string]func(context.Context, *testing.T, *Store)) {
	for name, test := range tests {
		t.Run(name, func(t *testing.T) {
			eachDatastore(t, func(t *testing.T, url string) {
				ctx, s := setup(t, url)
				test(ctx, t, s)
			})
		})
	}
}

func TestCreate(t *testing.T) {
	eachDatastore(t, func(t *testing.T, url string) {
		ctx, s := setup(t, url)
		storagetesting.RunTestCreate(ctx, t, s, checkStoredForm(s))
	})
}

func TestCreateWithTTL(t *testing.T) {
	eachDatastore(t, func(t *testing.T, url string) {
		ctx, s := setup(t, url)
		storagetesting.RunTestCreateWithTTL(ctx, t, s)
	})
}

func TestCreateWithKeyExist(t *testing.T) {
	eachDatastore(t, func(t *testing.T, url string) {
		ctx, s := setup(t, url)
		storagetesting.RunTestCreateWithKeyExist(ctx, t, s)
	})
}

func TestGet(t *testing.T) {
	eachDatastore(t, func(t *testing.T, url string) {
		ctx, s := setup(t, url)
		storagetesting.RunTestGet(ctx, t, s)
	})
}

func TestDeleteFamily(t *testing.T) {
	tests := map[string]func(context.Context, *testing.T, *Store){
		"Unconditional": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestUnconditionalDelete(ctx, t, s)
		},
		"Conditional": func(ctx context.Context, t *testing.T, s *Store) { storagetesting.RunTestConditionalDelete(ctx, t, s) },
		"WithSuggestion": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestDeleteWithSuggestion(ctx, t, s)
		},
		"WithSuggestionAndConflict": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestDeleteWithSuggestionAndConflict(ctx, t, s)
		},
		"WithSuggestionOfDeletedObject": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestDeleteWithSuggestionOfDeletedObject(ctx, t, s)
		},
		"ValidateDeletionWithSuggestion": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestValidateDeletionWithSuggestion(ctx, t, s)
		},
		"ValidateDeletionWithOnlySuggestionValid": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestValidateDeletionWithOnlySuggestionValid(ctx, t, s)
		},
		"WithConflict": func(ctx context.Context, t *testing.T, s *Store) { storagetesting.RunTestDeleteWithConflict(ctx, t, s) },
		"PreconditionalWithSuggestion": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestPreconditionalDeleteWithSuggestion(ctx, t, s)
		},
		"PreconditionalWithOnlySuggestionPass": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestPreconditionalDeleteWithOnlySuggestionPass(ctx, t, s)
		},
		"WithSuggestionAndMissingExpectedTransformOrDecodeError": func(ctx context.Context, t *testing.T, s *Store) {
			featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.AllowUnsafeMalformedObjectDeletion, true)
			storagetesting.RunTestDeleteWithSuggestionAndMissingExpectedTransformOrDecodeError(ctx, t, s)
		},
	}
	runFamily(t, tests)
}

// failingTransformer and failingCodec break reads on demand, for the
// unsafe deletion of objects that can no longer be read.
type failingTransformer struct {
	value.Transformer
	fail atomic.Bool
}

func (f *failingTransformer) TransformFromStorage(ctx context.Context, data []byte, dataCtx value.Context) ([]byte, bool, error) {
	if f.fail.Load() {
		return nil, false, errors.New("synthetic error")
	}
	return f.Transformer.TransformFromStorage(ctx, data, dataCtx)
}

type failingCodec struct {
	runtime.Codec
	fail atomic.Bool
}

func (f *failingCodec) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	if f.fail.Load() {
		return nil, nil, errors.New("synthetic error")
	}
	return f.Codec.Decode(data, defaults, into)
}

func TestDeleteOfUnreadableObjects(t *testing.T) {
	featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.AllowUnsafeMalformedObjectDeletion, true)
	t.Run("ConflictAndMissingExpectedDecodeError", func(t *testing.T) {
		eachDatastore(t, func(t *testing.T, url string) {
			s := newPodStore(openBackend(t, url))
			codec := &failingCodec{Codec: s.codec}
			s.codec = codec
			storagetesting.RunTestDeleteWithConflictAndMissingExpectedTransformOrDecodeError(context.Background(), t, s, func(b bool) { codec.fail.Store(b) })
		})
	})
	t.Run("ExpectedTransformError", func(t *testing.T) {
		eachDatastore(t, func(t *testing.T, url string) {
			s := newPodStore(openBackend(t, url))
			tr := &failingTransformer{Transformer: s.transformer}
			s.transformer = tr
			storagetesting.RunTestDeleteExpectedTransformOrDecodeError(context.Background(), t, s, func(b bool) { tr.fail.Store(b) })
		})
	})
	t.Run("ExpectedDecodeError", func(t *testing.T) {
		eachDatastore(t, func(t *testing.T, url string) {
			s := newPodStore(openBackend(t, url))
			codec := &failingCodec{Codec: apitesting.TestCodec(codecs, examplev1.SchemeGroupVersion)}
			s.codec = codec
			storagetesting.RunTestDeleteExpectedTransformOrDecodeError(context.Background(), t, s, func(b bool) { codec.fail.Store(b) })
		})
	})
}

func TestGuaranteedUpdateFamily(t *testing.T) {
	runFamily(t, map[string]func(context.Context, *testing.T, *Store){
		"Plain": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestGuaranteedUpdate(ctx, t, withPrefixTransformer{s}, checkStoredForm(s))
		},
		"WithTTL": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestGuaranteedUpdateWithTTL(ctx, t, s)
		},
		"ChecksStoredData": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestGuaranteedUpdateChecksStoredData(ctx, t, withPrefixTransformer{s})
		},
		"WithConflict": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestGuaranteedUpdateWithConflict(ctx, t, s)
		},
		"WithSuggestionAndConflict": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestGuaranteedUpdateWithSuggestionAndConflict(ctx, t, s)
		},
		"TransformationFailure": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestTransformationFailure(ctx, t, withPrefixTransformer{s})
		},
	})
}

func TestListFamily(t *testing.T) {
	runFamily(t, map[string]func(context.Context, *testing.T, *Store){
		"List": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestList(ctx, t, s, compaction(s), false, nil)
		},
		"ConsistentList": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestConsistentList(ctx, t, s, increaseRV(s), false, true, false)
		},
		"GetListNonRecursive": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestGetListNonRecursive(ctx, t, increaseRV(s), s)
		},
		"GetListRecursivePrefix": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestGetListRecursivePrefix(ctx, t, s)
		},
		"ListPaging": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestListPaging(ctx, t, s)
		},
		"ListContinuation": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestListContinuation(ctx, t, s, checkReads(s))
		},
		"ListPaginationRareObject": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestListPaginationRareObject(ctx, t, s, checkReads(s))
		},
		"ListContinuationWithFilter": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestListContinuationWithFilter(ctx, t, s, checkReads(s))
		},
		"ListInconsistentContinuation": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestListInconsistentContinuation(ctx, t, s, compaction(s))
		},
		"ListResourceVersionMatch": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestListResourceVersionMatch(ctx, t, withPrefixTransformer{s})
		},
		"NamespaceScopedList": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestNamespaceScopedList(ctx, t, s)
		},
		"KeySchema": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestKeySchema(ctx, t, s)
		},
		"GetListWithoutErrorAggregation": func(ctx context.Context, t *testing.T, s *Store) {
			featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.AllowUnsafeMalformedObjectDeletion, false)
			storagetesting.RunTestGetListWithoutErrorAggregation(ctx, t, withTransformerOverride{s}, errors.New("bits flipped"))
		},
	})
}

func TestCompactionAndStats(t *testing.T) {
	stats := func(sizes bool) func(context.Context, *testing.T, *Store) {
		return func(ctx context.Context, t *testing.T, s *Store) {
			if sizes {
				if err := s.EnableResourceSizeEstimation(func(context.Context) ([]string, error) { return nil, nil }); err != nil {
					t.Fatal(err)
				}
			}
			storagetesting.RunTestStats(ctx, t, s, s.codec, s.transformer, sizes)
		}
	}
	runFamily(t, map[string]func(context.Context, *testing.T, *Store){
		"CompactRevision": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestCompactRevision(ctx, t, s, increaseRV(s), compaction(s))
		},
		"Stats":          stats(false),
		"StatsWithSizes": stats(true),
	})
}

func TestWatchFamily(t *testing.T) {
	tests := map[string]func(context.Context, *testing.T, *Store){
		"Watch":              func(ctx context.Context, t *testing.T, s *Store) { storagetesting.RunTestWatch(ctx, t, s) },
		"ClusterScopedWatch": func(ctx context.Context, t *testing.T, s *Store) { storagetesting.RunTestClusterScopedWatch(ctx, t, s) },
		"NamespaceScopedWatch": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestNamespaceScopedWatch(ctx, t, s)
		},
		"DeleteTriggerWatch": func(ctx context.Context, t *testing.T, s *Store) { storagetesting.RunTestDeleteTriggerWatch(ctx, t, s) },
		"WatchFromZero": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestWatchFromZero(ctx, t, s, compaction(s))
		},
		"WatchFromNonZero": func(ctx context.Context, t *testing.T, s *Store) { storagetesting.RunTestWatchFromNonZero(ctx, t, s) },
		"DelayedWatchDelivery": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestDelayedWatchDelivery(ctx, t, s)
		},
		"WatchError": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestWatchError(ctx, t, withPrefixTransformer{s})
		},
		"WatchContextCancel": func(ctx context.Context, t *testing.T, s *Store) { storagetesting.RunTestWatchContextCancel(ctx, t, s) },
		"WatcherTimeout":     func(ctx context.Context, t *testing.T, s *Store) { storagetesting.RunTestWatcherTimeout(ctx, t, s) },
		"DeleteEventHasLatestRV": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestWatchDeleteEventObjectHaveLatestRV(ctx, t, s)
		},
		"InitializationSignal": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestWatchInitializationSignal(ctx, t, s)
		},
		"ProgressNotify": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunOptionalTestProgressNotify(ctx, t, s, increaseRV(s))
		},
		"DispatchBookmarkEvents": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunTestWatchDispatchBookmarkEvents(ctx, t, s, false)
		},
		"SendInitialEventsCompat": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunSendInitialEventsBackwardCompatibility(ctx, t, s)
		},
		"Semantics": func(ctx context.Context, t *testing.T, s *Store) { storagetesting.RunWatchSemantics(ctx, t, s) },
		"SemanticInitialEventsExtended": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunWatchSemanticInitialEventsExtended(ctx, t, s)
		},
		"ListMatchSingle": func(ctx context.Context, t *testing.T, s *Store) { storagetesting.RunWatchListMatchSingle(ctx, t, s) },
		"WithUnsafeDelete": func(ctx context.Context, t *testing.T, s *Store) {
			featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.AllowUnsafeMalformedObjectDeletion, true)
			storagetesting.RunTestWatchWithUnsafeDelete(ctx, t, withTransformerOverride{s}, errors.New("bits flipped"))
		},
		"ErrorIsBlockingFurtherEvents": func(ctx context.Context, t *testing.T, s *Store) {
			storagetesting.RunWatchErrorIsBlockingFurtherEvents(ctx, t, withPrefixTransformer{s})
		},
	}
	runFamily(t, tests)
}
