package admissionpolicy

import (
	"crypto/sha256"
	"sync"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
)

// specKey identifies what a policy's evaluator is compiled from: its
// name, which its matchConditions' errors quote, and its spec.
type specKey [sha256.Size]byte

func keyOf(p *admissionregistrationv1.ValidatingAdmissionPolicy) specKey {
	spec, err := p.Spec.Marshal()
	if err != nil {
		// A spec that does not encode is keyed by its name alone, and
		// compiled each time it changes; it never matches another.
		return sha256.Sum256([]byte("unencodable\x00" + p.Name + "\x00" + string(p.UID)))
	}
	return sha256.Sum256(append([]byte(p.Name+"\x00"), spec...))
}

// evaluators are the compiled policies, one per distinct name and spec
// however many logical clusters hold it: the same platform policy set in
// a thousand logical clusters compiles once. Each is counted by the
// policies that use it and dropped with the last.
type evaluators struct {
	mu       sync.Mutex
	compiled map[specKey]*counted
}

type counted struct {
	validator validating.Validator
	refs      int
}

func newEvaluators() *evaluators { return &evaluators{compiled: map[specKey]*counted{}} }

// acquire returns the evaluator of p, compiling it unless another policy
// with the same name and spec holds one.
func (e *evaluators) acquire(p *admissionregistrationv1.ValidatingAdmissionPolicy) (specKey, validating.Validator) {
	k := keyOf(p)
	e.mu.Lock()
	if c, ok := e.compiled[k]; ok {
		c.refs++
		e.mu.Unlock()
		return k, c.validator
	}
	e.mu.Unlock()
	// Compiling takes milliseconds: requests and other policies do not
	// wait for it. Two policies compiled at once keep the first.
	v := compile(p)
	e.mu.Lock()
	defer e.mu.Unlock()
	if c, ok := e.compiled[k]; ok {
		c.refs++
		return k, c.validator
	}
	e.compiled[k] = &counted{validator: v, refs: 1}
	return k, v
}

// release drops a use of the evaluator of k.
func (e *evaluators) release(k specKey) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if c, ok := e.compiled[k]; ok {
		if c.refs--; c.refs == 0 {
			delete(e.compiled, k)
		}
	}
}

// len is how many distinct evaluators are held.
func (e *evaluators) len() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.compiled)
}
