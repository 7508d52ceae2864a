package registry

import (
	"runtime"
	"sync"
	"unsafe"
	"weak"
)

// Shared makes equal parts of different objects one copy in memory. The
// watch caches hold the objects of every logical cluster, and many of
// those are largely alike: the default roles' rules in each, or a
// definition installed in many. Shared holds each distinct value weakly,
// by a key that tells its content, and forgets it once no object holds
// it. Only read-only objects, those the watch cache keeps (see Kind.Share),
// may hold shared values.
type Shared[T any] struct {
	mu   sync.Mutex
	held map[string]weak.Pointer[T]
}

// NewShared returns an empty table.
func NewShared[T any]() *Shared[T] {
	return &Shared[T]{held: map[string]weak.Pointer[T]{}}
}

// Pointer returns the value the table holds for key, holding p if it has
// none.
func (s *Shared[T]) Pointer(key string, p *T) *T {
	s.mu.Lock()
	defer s.mu.Unlock()
	if held := s.held[key].Value(); held != nil {
		return held
	}
	s.held[key] = weak.Make(p)
	runtime.AddCleanup(p, s.forget, key)
	return p
}

// Slice returns the list the table holds for key, holding list if it has
// none; the list is held by its first element, which keeps the whole
// backing array alive. Equal keys must mean lists of equal length.
func (s *Shared[T]) Slice(key string, list []T) []T {
	if len(list) == 0 {
		return list
	}
	list = list[:len(list):len(list)]
	return unsafe.Slice(s.Pointer(key, &list[0]), len(list))
}

// Len is how many distinct values the table holds.
func (s *Shared[T]) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.held)
}

// forget drops key once its value is gone, unless a new value took its
// place meanwhile.
func (s *Shared[T]) forget(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held[key].Value() == nil {
		delete(s.held, key)
	}
}
