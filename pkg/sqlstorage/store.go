package sqlstorage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/conversion"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/apiserver/pkg/storage/value"
	"k8s.io/apiserver/pkg/storage/value/encrypt/identity"
)

// maxPage caps one read of a list, as etcd3's store caps its range reads.
const maxPage = 10000

// Config describes one resource's store.
type Config struct {
	Codec       runtime.Codec
	NewFunc     func() runtime.Object
	NewListFunc func() runtime.Object
	// Prefix is prepended to every key, e.g. "/registry".
	Prefix string
	// ResourcePrefix is the part of a key that names the resource, e.g.
	// "/pods"; keys outside it are rejected.
	ResourcePrefix string
	GroupResource  schema.GroupResource
	// Transformer encrypts values at rest; nil stores them as they are.
	Transformer value.Transformer
	// Versioner defaults to storage.APIObjectVersioner.
	Versioner storage.Versioner
	// Share, when set, is given each object decoded for a list or a
	// watch. Those objects are read-only, since the watch cache hands
	// one copy to all its readers, so Share may make equal parts of
	// different objects one copy in memory.
	Share func(runtime.Object)
}

// Store is storage.Interface for one resource over a shared Backend. It
// holds no goroutine, timer or connection of its own.
type Store struct {
	b              *Backend
	codec          runtime.Codec
	versioner      storage.Versioner
	transformer    value.Transformer
	pathPrefix     string
	resourcePrefix string
	groupResource  schema.GroupResource
	// resource is groupResource as the label of its statements' count.
	resource    string
	newFunc     func() runtime.Object
	newListFunc func() runtime.Object
	share       func(runtime.Object)
	reportSizes atomic.Bool
}

var _ storage.Interface = (*Store)(nil)

// NewStore returns the store of one resource.
func (b *Backend) NewStore(c Config) *Store {
	s := &Store{
		b: b, codec: c.Codec, versioner: c.Versioner, transformer: c.Transformer,
		pathPrefix: strings.TrimSuffix(c.Prefix, "/") + "/", resourcePrefix: c.ResourcePrefix,
		groupResource: c.GroupResource, resource: c.GroupResource.String(), newFunc: c.NewFunc, newListFunc: c.NewListFunc, share: c.Share,
	}
	register()
	if s.versioner == nil {
		s.versioner = storage.APIObjectVersioner{}
	}
	if s.transformer == nil {
		s.transformer = identity.NewEncryptCheckTransformer()
	}
	if !strings.HasPrefix(s.pathPrefix, "/") {
		s.pathPrefix = "/" + s.pathPrefix
	}
	return s
}

// authenticatedData binds a stored value to its key, so that an encrypted
// value copied to another key fails to decrypt.
type authenticatedData string

func (d authenticatedData) AuthenticatedData() []byte { return []byte(d) }

func (s *Store) Versioner() storage.Versioner { return s.versioner }

func (s *Store) prepareKey(key string, recursive bool) (string, error) {
	key, err := storage.PrepareKey(s.resourcePrefix, key, recursive)
	if err != nil {
		return "", err
	}
	return s.pathPrefix + strings.TrimPrefix(key, "/"), nil
}

func (s *Store) decode(data []byte, out runtime.Object, rev int64) error {
	if _, err := conversion.EnforcePtr(out); err != nil {
		return fmt.Errorf("unable to convert output object to pointer: %v", err)
	}
	if _, _, err := s.codec.Decode(data, nil, out); err != nil {
		return err
	}
	return s.versioner.UpdateObject(out, uint64(rev))
}

// Get implements storage.Interface.
func (s *Store) Get(ctx context.Context, key string, opts storage.GetOptions, out runtime.Object) error {
	k, err := s.prepareKey(key, false)
	if err != nil {
		return err
	}
	l, err := s.readRange(ctx, "get", attrKey.String(k), exactKey(k), 0, 1)
	if err != nil {
		return err
	}
	if err := s.validateMinimumResourceVersion(opts.ResourceVersion, uint64(l.rev)); err != nil {
		return err
	}
	if len(l.kvs) == 0 {
		if opts.IgnoreNotFound {
			return runtime.SetZeroValue(out)
		}
		return storage.NewKeyNotFoundError(k, 0)
	}
	data, _, err := s.transformer.TransformFromStorage(ctx, l.kvs[0].value, authenticatedData(k))
	if err != nil {
		return storage.NewInternalError(err)
	}
	return s.decode(data, out, l.kvs[0].modRev)
}

func expiry(ttl uint64) int64 {
	if ttl == 0 {
		return 0
	}
	return time.Now().Add(time.Duration(ttl) * time.Second).UnixMilli()
}

// Create implements storage.Interface.
func (s *Store) Create(ctx context.Context, key string, obj, out runtime.Object, ttl uint64) error {
	k, err := s.prepareKey(key, false)
	if err != nil {
		return err
	}
	if version, err := s.versioner.ObjectResourceVersion(obj); err == nil && version != 0 {
		return storage.ErrResourceVersionSetOnCreate
	}
	if err := s.versioner.PrepareObjectForStorage(obj); err != nil {
		return fmt.Errorf("PrepareObjectForStorage failed: %v", err)
	}
	data, err := runtime.Encode(s.codec, obj)
	if err != nil {
		return err
	}
	stored, err := s.transformer.TransformToStorage(ctx, data, authenticatedData(k))
	if err != nil {
		return storage.NewInternalError(err)
	}
	o := &op{key: k, value: stored, expiresAt: expiry(ttl), charges: s.b.ledger.take(ctx), done: make(chan struct{})}
	if err := s.write(ctx, o); err != nil {
		return err
	}
	if o.refused != nil {
		return o.refused
	}
	if !o.applied {
		return storage.NewKeyExistsError(k, 0)
	}
	if out != nil {
		return s.decode(data, out, o.rev)
	}
	return nil
}

// objState is a version of an object as a write loop works on it.
type objState struct {
	obj   runtime.Object
	meta  *storage.ResponseMeta
	rev   int64
	data  []byte
	stale bool
}

// state decodes a stored version. With expectBroken (unsafe deletion of a
// corrupt object) a version that fails to transform or decode is returned
// with a nil obj, and one that decodes fine is an error.
func (s *Store) state(ctx context.Context, rec *kvRecord, key string, v reflect.Value, ignoreNotFound, expectBroken bool) (*objState, error) {
	st := &objState{meta: &storage.ResponseMeta{}}
	if u, ok := v.Addr().Interface().(runtime.Unstructured); ok {
		st.obj = u.NewEmptyInstance()
	} else {
		st.obj = reflect.New(v.Type()).Interface().(runtime.Object)
	}
	if rec == nil {
		if !ignoreNotFound {
			return nil, storage.NewKeyNotFoundError(key, 0)
		}
		if err := runtime.SetZeroValue(st.obj); err != nil {
			return nil, err
		}
		return st, nil
	}
	st.rev = rec.modRev
	st.meta.ResourceVersion = uint64(rec.modRev)
	data, stale, err := s.transformer.TransformFromStorage(ctx, rec.value, authenticatedData(key))
	if err != nil {
		if !expectBroken {
			return nil, storage.NewInternalError(err)
		}
		st.obj, st.stale = nil, true
		return st, nil
	}
	st.data, st.stale = data, stale
	if err := s.decode(data, st.obj, st.rev); err != nil {
		if !expectBroken {
			return nil, err
		}
		st.obj = nil
		return st, nil
	}
	if expectBroken {
		return nil, storage.NewInvalidObjError(key, "unsafe deletion is not allowed because the object is decodable from storage")
	}
	return st, nil
}

// cursor is the version a write loop works from. It starts from a
// caller's suggestion, which may be stale, or from what is stored.
type cursor struct {
	st      *objState
	current bool // st was read from the database, not suggested
	load    func() (*objState, error)
}

// start positions a write loop: on the suggestion when there is one,
// otherwise on what is stored.
func (s *Store) start(ctx context.Context, key string, v reflect.Value, suggestion runtime.Object, ignoreNotFound, expectBroken bool) (*cursor, error) {
	c := &cursor{load: func() (*objState, error) {
		rec, err := s.current(ctx, key)
		if err != nil {
			return nil, err
		}
		return s.state(ctx, rec, key, v, ignoreNotFound, expectBroken)
	}}
	var err error
	if suggestion != nil && !expectBroken {
		c.st, err = s.stateFromObject(suggestion)
	} else {
		c.st, err = c.load()
		c.current = true
	}
	return c, err
}

// recheck judges a failed check again on what is stored, since the
// suggestion it failed on may be stale. It returns nil to try again, or the
// error to give up with.
func (c *cursor) recheck(checkErr error) error {
	if c.current {
		return checkErr
	}
	suggested := c.st.rev
	st, err := c.load()
	if err != nil {
		return err
	}
	c.st, c.current = st, true
	if st.rev == suggested {
		return checkErr
	}
	return nil
}

// refresh reloads the stored version, e.g. to confirm a suggestion.
func (c *cursor) refresh() error {
	st, err := c.load()
	if err != nil {
		return err
	}
	c.st, c.current = st, true
	return nil
}

// stateFromObject builds the state of a cached object a caller suggests,
// which may be stale.
func (s *Store) stateFromObject(obj runtime.Object) (*objState, error) {
	rv, err := s.versioner.ObjectResourceVersion(obj)
	if err != nil {
		return nil, fmt.Errorf("couldn't get resource version: %v", err)
	}
	st := &objState{obj: obj, rev: int64(rv), meta: &storage.ResponseMeta{ResourceVersion: rv}}
	// The stored form has no resourceVersion: clear it to encode, then restore.
	if err := s.versioner.PrepareObjectForStorage(obj); err != nil {
		return nil, fmt.Errorf("PrepareObjectForStorage failed: %v", err)
	}
	if st.data, err = runtime.Encode(s.codec, obj); err != nil {
		return nil, err
	}
	if err := s.versioner.UpdateObject(st.obj, rv); err != nil {
		return nil, err
	}
	return st, nil
}

// Delete implements storage.Interface.
func (s *Store) Delete(ctx context.Context, key string, out runtime.Object, preconditions *storage.Preconditions,
	validateDeletion storage.ValidateObjectFunc, cachedExistingObject runtime.Object, opts storage.DeleteOptions) error {
	k, err := s.prepareKey(key, false)
	if err != nil {
		return err
	}
	v, err := conversion.EnforcePtr(out)
	if err != nil {
		return fmt.Errorf("unable to convert output object to pointer: %v", err)
	}
	expectBroken := opts.ExpectTransformOrDecodeError
	c, err := s.start(ctx, k, v, cachedExistingObject, false, expectBroken)
	if err != nil {
		return err
	}
	for {
		var checkErr error
		if preconditions != nil {
			checkErr = preconditions.Check(k, c.st.obj)
		}
		if checkErr == nil {
			checkErr = validateDeletion(ctx, c.st.obj)
		}
		if checkErr != nil {
			if err := c.recheck(checkErr); err != nil {
				return err
			}
			continue
		}
		o := &op{key: k, expect: c.st.rev, done: make(chan struct{})}
		if err := s.write(ctx, o); err != nil {
			return err
		}
		if !o.applied {
			if c.st, err = s.state(ctx, o.current, k, v, false, expectBroken); err != nil {
				return err
			}
			c.current = true
			continue
		}
		if expectBroken {
			return nil
		}
		return s.decode(c.st.data, out, o.rev)
	}
}

// GuaranteedUpdate implements storage.Interface.
func (s *Store) GuaranteedUpdate(ctx context.Context, key string, destination runtime.Object, ignoreNotFound bool,
	preconditions *storage.Preconditions, tryUpdate storage.UpdateFunc, cachedExistingObject runtime.Object) error {
	k, err := s.prepareKey(key, false)
	if err != nil {
		return err
	}
	v, err := conversion.EnforcePtr(destination)
	if err != nil {
		return fmt.Errorf("unable to convert output object to pointer: %v", err)
	}
	c, err := s.start(ctx, k, v, cachedExistingObject, ignoreNotFound, false)
	if err != nil {
		return err
	}
	for {
		if err := preconditions.Check(k, c.st.obj); err != nil {
			if err := c.recheck(err); err != nil {
				return err
			}
			continue
		}
		ret, ttl, err := s.updateState(c.st, tryUpdate)
		if err != nil {
			if err := c.recheck(err); err != nil {
				return err
			}
			continue
		}
		data, err := runtime.Encode(s.codec, ret)
		if err != nil {
			return err
		}
		if !c.st.stale && bytes.Equal(data, c.st.data) {
			// Nothing changes: answer with what is stored, once it is
			// certain that the suggestion was what is stored.
			if !c.current {
				if err := c.refresh(); err != nil {
					return err
				}
				if !bytes.Equal(data, c.st.data) {
					continue
				}
			}
			if !c.st.stale {
				return s.decode(c.st.data, destination, c.st.rev)
			}
		}
		stored, err := s.transformer.TransformToStorage(ctx, data, authenticatedData(k))
		if err != nil {
			return storage.NewInternalError(err)
		}
		o := &op{key: k, value: stored, expect: c.st.rev, expiresAt: expiry(ttl), done: make(chan struct{})}
		if err := s.write(ctx, o); err != nil {
			return err
		}
		if !o.applied {
			if c.st, err = s.state(ctx, o.current, k, v, ignoreNotFound, false); err != nil {
				return err
			}
			c.current = true
			continue
		}
		return s.decode(data, destination, o.rev)
	}
}

func (s *Store) updateState(st *objState, userUpdate storage.UpdateFunc) (runtime.Object, uint64, error) {
	ret, ttlPtr, err := userUpdate(st.obj, *st.meta)
	if err != nil {
		return nil, 0, err
	}
	if err := s.versioner.PrepareObjectForStorage(ret); err != nil {
		return nil, 0, fmt.Errorf("PrepareObjectForStorage failed: %v", err)
	}
	var ttl uint64
	if ttlPtr != nil {
		ttl = *ttlPtr
	}
	return ret, ttl, nil
}

// GetList implements storage.Interface.
func (s *Store) GetList(ctx context.Context, key string, opts storage.ListOptions, listObj runtime.Object) error {
	keyPrefix, err := s.prepareKey(key, opts.Recursive)
	if err != nil {
		return err
	}
	listPtr, err := meta.GetItemsPtr(listObj)
	if err != nil {
		return err
	}
	v, err := conversion.EnforcePtr(listPtr)
	if err != nil || v.Kind() != reflect.Slice {
		return fmt.Errorf("need ptr to slice: %v", err)
	}
	withRev, continueKey, err := storage.ValidateListOptions(keyPrefix, s.versioner, opts)
	if err != nil {
		return err
	}
	pred := opts.Predicate
	paging := pred.Limit > 0
	newItem := newItemFunc(listObj, v)

	r, keyAttr := exactKey(keyPrefix), attrKey.String(keyPrefix)
	if opts.Recursive {
		r, keyAttr = prefixRange(keyPrefix, continueKey), attrKeyPrefix.String(keyPrefix)
	}
	first := r
	page := maxPage
	if paging && pred.Limit < maxPage {
		page = int(pred.Limit)
	}
	var lastKey string
	var hasMore bool
	for {
		if s.b.rangeRead != nil {
			limit := int64(page)
			if !paging {
				limit = 0
			}
			from := r.from
			if r.after {
				from += "\x00"
			}
			s.b.rangeRead(ctx, from, withRev, limit)
		}
		// One row more than the page tells whether anything follows it.
		l, err := s.readRange(ctx, "list", keyAttr, r, withRev, page+1)
		if err != nil {
			return err
		}
		if withRev == 0 {
			if err := s.validateMinimumResourceVersion(opts.ResourceVersion, uint64(l.rev)); err != nil {
				return err
			}
			withRev = l.rev
		} else if withRev > l.current {
			return storage.NewTooLargeResourceVersionError(uint64(withRev), uint64(l.current), 0)
		} else if withRev < l.compacted {
			return errListCompacted(len(pred.Continue) > 0, continueKey, keyPrefix)
		}
		kvs := l.kvs
		hasMore = len(kvs) > page
		if hasMore {
			kvs = kvs[:page]
		}
		limitReached := false
		for _, kv := range kvs {
			if paging && int64(v.Len()) >= pred.Limit {
				limitReached = true
				break
			}
			lastKey = kv.key
			if err := s.appendItem(ctx, kv, pred, newItem, v); err != nil {
				return err
			}
		}
		if limitReached {
			hasMore = true
		}
		if !hasMore || limitReached || (paging && int64(v.Len()) >= pred.Limit) {
			break
		}
		// The predicate dropped items: read on, in growing pages.
		r = prefixRange(keyPrefix, lastKey+"\x00")
		page = min(page*2, maxPage)
	}
	var count int64
	if hasMore && paging && pred.Empty() {
		span := s.startSQL(ctx, "count", keyAttr)
		count, err = s.b.countRange(ctx, first, withRev)
		endSQL(span, -1, withRev, err)
		if err != nil {
			return err
		}
	}
	continueValue, remaining, err := storage.PrepareContinueToken(lastKey, keyPrefix, withRev, count, hasMore, opts)
	if err != nil {
		return err
	}
	if v.IsNil() {
		v.Set(reflect.MakeSlice(v.Type(), 0, 0))
	}
	return s.versioner.UpdateList(listObj, uint64(withRev), continueValue, remaining)
}

func (s *Store) appendItem(ctx context.Context, kv listedKV, pred storage.SelectionPredicate, newItem func() runtime.Object, v reflect.Value) error {
	data, _, err := s.transformer.TransformFromStorage(ctx, kv.value, authenticatedData(kv.key))
	if err != nil {
		return storage.NewInternalError(fmt.Errorf("unable to transform key %q: %w", kv.key, err))
	}
	if err := ctx.Err(); err != nil {
		return storage.NewTimeoutError(kv.key, "request did not complete within requested timeout")
	}
	obj, _, err := s.codec.Decode(data, nil, newItem())
	if err != nil {
		return err
	}
	if s.share != nil {
		s.share(obj)
	}
	if err := s.versioner.UpdateObject(obj, uint64(kv.modRev)); err != nil {
		return err
	}
	if matched, err := pred.Matches(obj); err == nil && matched {
		v.Set(reflect.Append(v, reflect.ValueOf(obj).Elem()))
	}
	return nil
}

func newItemFunc(listObj runtime.Object, v reflect.Value) func() runtime.Object {
	// Items of an unstructured list keep the list's group and version.
	if ul, ok := listObj.(*unstructured.UnstructuredList); ok {
		if apiVersion := ul.GetAPIVersion(); apiVersion != "" {
			return func() runtime.Object {
				return &unstructured.Unstructured{Object: map[string]any{"apiVersion": apiVersion}}
			}
		}
	}
	elem := v.Type().Elem()
	return func() runtime.Object { return reflect.New(elem).Interface().(runtime.Object) }
}

func (s *Store) validateMinimumResourceVersion(minimum string, actual uint64) error {
	if minimum == "" {
		return nil
	}
	minRV, err := s.versioner.ParseResourceVersion(minimum)
	if err != nil {
		return apierrors.NewBadRequest(fmt.Sprintf("invalid resource version: %v", err))
	}
	if minRV > actual {
		return storage.NewTooLargeResourceVersionError(minRV, actual, 0)
	}
	return nil
}

// Watch implements storage.Interface.
func (s *Store) Watch(ctx context.Context, key string, opts storage.ListOptions) (watch.Interface, error) {
	k, err := s.prepareKey(key, opts.Recursive)
	if err != nil {
		return nil, err
	}
	rev, err := s.versioner.ParseResourceVersion(opts.ResourceVersion)
	if err != nil {
		return nil, err
	}
	return s.watch(ctx, k, int64(rev), opts)
}

// Stats implements storage.Interface.
func (s *Store) Stats(ctx context.Context) (storage.Stats, error) {
	prefix, err := s.prepareKey(s.resourcePrefix, true)
	if err != nil {
		return storage.Stats{}, err
	}
	count, size, err := s.b.stats(ctx, prefixRange(prefix, ""))
	if err != nil {
		return storage.Stats{}, err
	}
	st := storage.Stats{ObjectCount: count}
	if s.reportSizes.Load() && count > 0 {
		st.EstimatedAverageObjectSizeBytes = size / count
	}
	return st, nil
}

// EnableResourceSizeEstimation implements storage.Interface. The database
// sums value sizes itself, so the key lister is not needed.
func (s *Store) EnableResourceSizeEstimation(getKeys storage.KeysFunc) error {
	if getKeys == nil {
		return errors.New("KeysFunc cannot be nil")
	}
	if s.reportSizes.Swap(true) {
		return errors.New("resource size estimation already enabled")
	}
	return nil
}

// ReadinessCheck implements storage.Interface.
func (s *Store) ReadinessCheck() error { return s.b.readiness() }

// RequestWatchProgress implements storage.Interface.
func (s *Store) RequestWatchProgress(context.Context) error {
	s.b.requestProgress()
	return nil
}

// GetCurrentResourceVersion implements storage.Interface.
func (s *Store) GetCurrentResourceVersion(ctx context.Context) (uint64, error) {
	span := s.startSQL(ctx, "revision", attribute.KeyValue{})
	rev, err := s.b.CurrentRevision(ctx)
	endSQL(span, -1, rev, err)
	if err != nil {
		return 0, err
	}
	return uint64(rev), nil
}

// CompactRevision implements storage.Interface.
func (s *Store) CompactRevision() int64 { return s.b.CompactRevision() }
