package admissionpolicy

import (
	"crypto/sha256"
	"sync"
)

// specKey identifies what a policy's evaluator is compiled from: its
// name, which its matchConditions' errors quote, and its spec.
type specKey [sha256.Size]byte

// evaluators are the compiled policies of one kind, one per distinct
// name and spec however many logical clusters hold it: the same platform
// policy set in a thousand logical clusters compiles once. Each is
// counted by the policies that use it and dropped with the last.
type evaluators[P object, B object, E any] struct {
	kind     *kind[P, B, E]
	mu       sync.Mutex
	compiled map[specKey]*counted[E]
}

type counted[E any] struct {
	evaluator E
	refs      int
}

func newEvaluators[P, B object, E any](k *kind[P, B, E]) *evaluators[P, B, E] {
	return &evaluators[P, B, E]{kind: k, compiled: map[specKey]*counted[E]{}}
}

// acquire returns the evaluator of p, compiling it unless another policy
// with the same name and spec holds one.
func (e *evaluators[P, B, E]) acquire(p P) (specKey, E) {
	k := e.kind.key(p)
	e.mu.Lock()
	if c, ok := e.compiled[k]; ok {
		c.refs++
		e.mu.Unlock()
		return k, c.evaluator
	}
	e.mu.Unlock()
	// Compiling takes milliseconds: requests and other policies do not
	// wait for it. Two policies compiled at once keep the first.
	v := e.kind.compile(p)
	e.mu.Lock()
	defer e.mu.Unlock()
	if c, ok := e.compiled[k]; ok {
		c.refs++
		return k, c.evaluator
	}
	e.compiled[k] = &counted[E]{evaluator: v, refs: 1}
	return k, v
}

// release drops a use of the evaluator of k.
func (e *evaluators[P, B, E]) release(k specKey) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if c, ok := e.compiled[k]; ok {
		if c.refs--; c.refs == 0 {
			delete(e.compiled, k)
		}
	}
}

// len is how many distinct evaluators are held.
func (e *evaluators[P, B, E]) len() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.compiled)
}
