package identity

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/client-go/util/cert"
	"k8s.io/client-go/util/keyutil"

	"github.com/canopy-dev/canopy/pkg/sqlstorage"
)

// Key of the identity's record in the database: outside /registry, where
// every resource's objects live, so no API serves, lists or watches it.
const (
	keyPrefix = "/canopy"
	recordKey = "/identity"
)

// The record is a Secret in JSON, so that a database administrator can
// read which identity a database holds: the CA certificate in the clear,
// each private key sealed under the identity key, bound to the CA's
// fingerprint and its own field so that no sealed key can be moved to
// another record or field.
const (
	recordType            = corev1.SecretType("canopy.dev/hub-identity")
	fingerprintAnnotation = "canopy.dev/ca-fingerprint"
)

// ErrNotFound means the database holds no identity yet.
var ErrNotFound = errors.New("the database holds no hub identity")

// WrongKeyError means the database holds an identity whose keys the
// given key cannot open: another hub's, or this hub's under another key.
type WrongKeyError struct {
	// Fingerprint is the CA fingerprint of the identity in the database.
	Fingerprint string
}

func (e *WrongKeyError) Error() string {
	return fmt.Sprintf("the database holds hub identity %s, sealed under another key", e.Fingerprint)
}

// Store reads and creates the identity record of one database.
type Store struct {
	s *sqlstorage.Store
}

// NewStore returns the identity store of the database b is open on.
func NewStore(b *sqlstorage.Backend) *Store {
	scheme := runtime.NewScheme()
	// corev1's AddToScheme registers static types only; it cannot fail.
	_ = corev1.AddToScheme(scheme)
	return &Store{s: b.NewStore(sqlstorage.Config{
		Codec:          serializer.NewCodecFactory(scheme).LegacyCodec(corev1.SchemeGroupVersion),
		NewFunc:        func() runtime.Object { return &corev1.Secret{} },
		NewListFunc:    func() runtime.Object { return &corev1.SecretList{} },
		Prefix:         keyPrefix,
		ResourcePrefix: recordKey,
		GroupResource:  corev1.Resource("hub-identity"),
	})}
}

// Fingerprint is the CA fingerprint of the identity in the database,
// which needs no key; ErrNotFound if there is none. It is computed from
// the certificate, not read from the record's annotation, which is there
// for people reading the database.
func (s *Store) Fingerprint(ctx context.Context) (string, error) {
	r, err := s.record(ctx)
	if err != nil {
		return "", err
	}
	certs, err := cert.ParseCertsPEM(r.Data[CACertFile])
	if err != nil {
		return "", fmt.Errorf("the hub identity in the database has no readable CA certificate: %w", err)
	}
	return Fingerprint(certs[0]), nil
}

// Get reads the identity in the database and opens it with k:
// ErrNotFound if there is none, a *WrongKeyError if k cannot open it.
func (s *Store) Get(ctx context.Context, k Key) (*Identity, error) {
	r, err := s.record(ctx)
	if err != nil {
		return nil, err
	}
	return open(r, k)
}

// Create stores id, sealed under k, unless the database holds an
// identity already; it returns the identity the database holds
// afterwards, opened with k, and whether it is id. Of replicas creating
// at once, one insert wins and the others get the winner's identity.
func (s *Store) Create(ctx context.Context, id *Identity, k Key) (*Identity, bool, error) {
	r, err := seal(id, k)
	if err != nil {
		return nil, false, err
	}
	err = s.s.Create(ctx, recordKey, r, nil, 0)
	if storage.IsExist(err) {
		winner, err := s.Get(ctx, k)
		return winner, false, err
	}
	if err != nil {
		return nil, false, fmt.Errorf("storing the hub identity: %w", err)
	}
	return id, true, nil
}

func (s *Store) record(ctx context.Context) (*corev1.Secret, error) {
	r := &corev1.Secret{}
	err := s.s.Get(ctx, recordKey, storage.GetOptions{}, r)
	if storage.IsNotFound(err) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("reading the hub identity: %w", err)
	}
	return r, nil
}

func seal(id *Identity, k Key) (*corev1.Secret, error) {
	fp := id.Fingerprint()
	r := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "hub-identity", Annotations: map[string]string{fingerprintAnnotation: fp}},
		Type:       recordType,
		Data:       map[string][]byte{CACertFile: id.CAPEM()},
	}
	for field, key := range map[string]crypto.PrivateKey{CAKeyFile: id.CAKey, ServiceAccountKeyFile: id.ServiceAccountKey} {
		keyPEM, err := keyutil.MarshalPrivateKeyToPEM(key)
		if err != nil {
			return nil, err
		}
		if r.Data[field], err = k.seal(keyPEM, fp+"/"+field); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func open(r *corev1.Secret, k Key) (*Identity, error) {
	certs, err := cert.ParseCertsPEM(r.Data[CACertFile])
	if err != nil {
		return nil, fmt.Errorf("the hub identity in the database has no readable CA certificate: %w", err)
	}
	id := &Identity{CA: certs[0]}
	fp := id.Fingerprint()
	if id.CAKey, err = openKey[crypto.Signer](r, k, fp, CAKeyFile); err != nil {
		return nil, err
	}
	if id.ServiceAccountKey, err = openKey[*ecdsa.PrivateKey](r, k, fp, ServiceAccountKeyFile); err != nil {
		return nil, err
	}
	if err := id.check(); err != nil {
		return nil, fmt.Errorf("the hub identity %s in the database: %w", fp, err)
	}
	return id, nil
}

// openKey opens the private key sealed in field of r, which must be a K.
func openKey[K any](r *corev1.Secret, k Key, fp, field string) (K, error) {
	var zero K
	keyPEM, err := k.open(r.Data[field], fp+"/"+field)
	if errors.Is(err, errWrongKey) {
		return zero, &WrongKeyError{Fingerprint: fp}
	}
	if err != nil {
		return zero, err
	}
	key, err := keyutil.ParsePrivateKeyPEM(keyPEM)
	if err != nil {
		return zero, fmt.Errorf("the hub identity %s in the database: %s: %w", fp, field, err)
	}
	typed, ok := key.(K)
	if !ok {
		return zero, fmt.Errorf("the hub identity %s in the database: %s is a %T, not a %T", fp, field, key, zero)
	}
	return typed, nil
}
