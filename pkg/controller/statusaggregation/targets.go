package statusaggregation

import (
	"fmt"
	"strconv"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	workloadv1alpha1 "github.com/canopy-dev/canopy/pkg/apis/workload/v1alpha1"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// targetState is what aggregation reads of a SyncTarget.
type targetState struct {
	name string
	// down is why the target is not counted, empty when it is Ready.
	down  string
	since metav1.Time
}

// targets holds the state of the SyncTargets of every logical cluster by
// key, as the informer last told.
type targets struct {
	mu    sync.RWMutex
	byKey map[string]targetState
}

func newTargets() *targets { return &targets{byKey: map[string]targetState{}} }

// stateOf is the state of SyncTarget st, and its key.
func stateOf(st *workloadv1alpha1.SyncTarget) (string, targetState, bool) {
	cluster, err := logicalcluster.FromObject(st)
	if err != nil {
		return "", targetState{}, false
	}
	s := targetState{name: string(cluster) + ":" + st.Name, since: st.CreationTimestamp}
	ready := meta.FindStatusCondition(st.Status.Conditions, workloadv1alpha1.ConditionReady)
	evicted := meta.FindStatusCondition(st.Status.Conditions, workloadv1alpha1.ConditionEvicted)
	switch {
	case workloadv1alpha1.IsEvicted(st):
		s.since = evicted.LastTransitionTime
		s.down = "is evicted since " + s.since.UTC().Format(time.RFC3339)
	case ready == nil:
		s.down = "has not reported Ready yet"
	case ready.Status != metav1.ConditionTrue:
		s.since = ready.LastTransitionTime
		s.down = fmt.Sprintf("is NotReady since %s (%s)", s.since.UTC().Format(time.RFC3339), ready.Reason)
	default:
		s.since = ready.LastTransitionTime
	}
	return workloadv1alpha1.TargetKey(string(cluster), st.Name), s, true
}

// set records a change of a SyncTarget, and returns its key if its state
// changed.
func (t *targets) set(obj runtime.Object, deleted bool) []string {
	st, ok := obj.(*workloadv1alpha1.SyncTarget)
	if !ok {
		return nil
	}
	key, s, ok := stateOf(st)
	if !ok {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	was, had := t.byKey[key]
	if deleted {
		delete(t.byKey, key)
		return []string{key}
	}
	t.byKey[key] = s
	if had && was.down == s.down {
		return nil
	}
	return []string{key}
}

// of are the targets of keys, for an object with annotations.
func (t *targets) of(keys []string, annotations map[string]string) []Target {
	t.mu.RLock()
	defer t.mu.RUnlock()
	out := make([]Target, 0, len(keys))
	for _, key := range keys {
		target := Target{Key: key, Down: "is deleted"}
		if s, ok := t.byKey[key]; ok {
			target.Name, target.Down, target.Since = s.name, s.down, s.since
		}
		if v, ok := annotations[workloadv1alpha1.ReplicasAnnotation(key)]; ok {
			if n, err := strconv.ParseInt(v, 10, 32); err == nil {
				share := int32(n)
				target.Share = &share
			}
		}
		out = append(out, target)
	}
	return out
}
