package serviceaccount

import (
	"context"
	"crypto/ecdsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	jose "gopkg.in/go-jose/go-jose.v2"
	"gopkg.in/go-jose/go-jose.v2/jwt"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/authentication/authenticator"
	"k8s.io/apiserver/pkg/authentication/serviceaccount"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// Audience is the audience of the hub's API: a token's request that
// names no audience gets it, and the hub's authenticator accepts tokens
// for it, as kube-apiserver does with --api-audiences. It was also the
// issuer of every token the hub issued before issuers were per logical
// cluster, which the authenticator still accepts.
const Audience = "canopy-hub"

// legacyIssuer is the iss claim of tokens issued before each logical
// cluster had an issuer of its own.
const legacyIssuer = Audience

// leeway is how far clocks may disagree on a token's validity period.
const leeway = time.Minute

// privateClaims are the claims beyond the registered ones, as Kubernetes'
// bound tokens have them, plus the logical cluster under the name of the
// annotation that marks objects with theirs.
type privateClaims struct {
	Kubernetes kubernetesClaims `json:"kubernetes.io"`
	Cluster    string           `json:"canopy.dev/cluster"`
}

type kubernetesClaims struct {
	Namespace      string `json:"namespace"`
	ServiceAccount ref    `json:"serviceaccount"`
}

type ref struct {
	Name string `json:"name"`
	UID  string `json:"uid"`
}

// Signer issues tokens with the hub's service-account key.
type Signer struct {
	signer        jose.Signer
	issuers       Issuers
	maxExpiration time.Duration
}

// NewSigner signs with key, tokens of issuers valid at most maxExpiration
// (zero for no limit). The key ID is derived from the public key, as
// Kubernetes derives it, so verifiers can tell keys apart when one is
// replaced.
func NewSigner(key *ecdsa.PrivateKey, issuers Issuers, maxExpiration time.Duration) (*Signer, error) {
	kid, err := keyID(&key.PublicKey)
	if err != nil {
		return nil, err
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: key, KeyID: kid}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return nil, err
	}
	return &Signer{signer: s, issuers: issuers, maxExpiration: maxExpiration}, nil
}

// MaxExpiration is the longest a token may be valid; zero for no limit.
func (s *Signer) MaxExpiration() time.Duration { return s.maxExpiration }

func keyID(pub *ecdsa.PublicKey) (string, error) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(der)
	return base64.RawURLEncoding.EncodeToString(sum[:]), nil
}

// DefaultAudiences are the audiences of a token whose request names none:
// the hub's own, which its authenticator accepts.
func (*Signer) DefaultAudiences() []string { return []string{Audience} }

// Issue returns a token for sa of cluster, for audiences, valid from now
// for expiration, and when it expires.
func (s *Signer) Issue(cluster logicalcluster.Name, sa *corev1.ServiceAccount, audiences []string, expiration time.Duration) (string, time.Time, error) {
	now := time.Now()
	public, private := claims(s.issuers.For(cluster), cluster, sa, audiences, now, expiration)
	token, err := jwt.Signed(s.signer).Claims(public).Claims(private).CompactSerialize()
	if err != nil {
		return "", time.Time{}, err
	}
	return token, public.Expiry.Time(), nil
}

func claims(issuer string, cluster logicalcluster.Name, sa *corev1.ServiceAccount, audiences []string, now time.Time, expiration time.Duration) (*jwt.Claims, *privateClaims) {
	// JWT times have whole seconds; truncating keeps the expiry reported
	// to the client equal to the one in the token.
	now = now.Truncate(time.Second)
	return &jwt.Claims{
			Issuer:    issuer,
			Subject:   serviceaccount.MakeUsername(sa.Namespace, sa.Name),
			Audience:  jwt.Audience(audiences),
			IssuedAt:  jwt.NewNumericDate(now),
			NotBefore: jwt.NewNumericDate(now),
			Expiry:    jwt.NewNumericDate(now.Add(expiration)),
		}, &privateClaims{
			Kubernetes: kubernetesClaims{
				Namespace:      sa.Namespace,
				ServiceAccount: ref{Name: sa.Name, UID: string(sa.UID)},
			},
			Cluster: string(cluster),
		}
}

// ErrOtherCluster is the error of a valid token used in a logical cluster
// other than its own.
var ErrOtherCluster = errors.New("the service account token belongs to another logical cluster")

// Authenticator authenticates the hub's tokens for requests to the
// logical cluster of their ServiceAccount.
type Authenticator struct {
	key *ecdsa.PublicKey
	// serviceAccounts reads ServiceAccounts in the logical cluster and
	// namespace of the context.
	serviceAccounts rest.Getter
	now             func() time.Time
}

var _ authenticator.Token = &Authenticator{}

// NewAuthenticator verifies tokens with key and looks their
// ServiceAccounts up in serviceAccounts.
func NewAuthenticator(key *ecdsa.PublicKey, serviceAccounts rest.Getter) *Authenticator {
	return &Authenticator{key: key, serviceAccounts: serviceAccounts, now: time.Now}
}

// AuthenticateToken answers false without error for tokens the hub did
// not issue, so other authenticators may try them, and an error for hub
// tokens that are invalid, expired, for another audience, for another
// logical cluster, or of a ServiceAccount that is gone or was replaced.
func (a *Authenticator) AuthenticateToken(ctx context.Context, token string) (*authenticator.Response, bool, error) {
	public, private, ok, err := a.verify(ctx, token)
	if !ok || err != nil {
		// A refused token authenticates no one: a TokenReview reports
		// it as not authenticated, with the error.
		return nil, false, err
	}
	cluster := logicalcluster.Name(private.Cluster)
	k := private.Kubernetes
	// The watch cache answers, at resourceVersion 0, so that a token does
	// not cost a database read per request; it may lag a deletion by as
	// long as the watch takes to deliver it.
	getCtx := logicalcluster.WithCluster(genericapirequest.WithNamespace(ctx, k.Namespace), cluster)
	obj, err := a.serviceAccounts.Get(getCtx, k.ServiceAccount.Name, &metav1.GetOptions{ResourceVersion: "0"})
	if apierrors.IsNotFound(err) {
		return nil, false, fmt.Errorf("service account %s/%s of logical cluster %s no longer exists", k.Namespace, k.ServiceAccount.Name, cluster)
	}
	if err != nil {
		return nil, false, err
	}
	sa, ok := obj.(*corev1.ServiceAccount)
	if !ok {
		return nil, false, fmt.Errorf("service account store returned %T", obj)
	}
	if string(sa.UID) != k.ServiceAccount.UID {
		return nil, false, fmt.Errorf("service account %s/%s of logical cluster %s was replaced since the token was issued", k.Namespace, k.ServiceAccount.Name, cluster)
	}
	return &authenticator.Response{
		Audiences: authenticator.Audiences(public.Audience).Intersect(requestedAudiences(ctx)),
		User:      serviceaccount.UserInfo(k.Namespace, k.ServiceAccount.Name, k.ServiceAccount.UID),
	}, true, nil
}

// CheckCluster returns ErrOtherCluster, wrapped, when token is a valid
// hub token of a logical cluster other than the request's, and nil
// otherwise. The authentication filter answers every failure alike, so
// the hub asks this first to tell the client why its token is refused.
func (a *Authenticator) CheckCluster(ctx context.Context, token string) error {
	_, _, _, err := a.verify(ctx, token)
	if errors.Is(err, ErrOtherCluster) {
		return err
	}
	return nil
}

// verify checks what the token itself says: signature, validity period,
// audience and logical cluster. ok is false for tokens the hub did not
// issue.
func (a *Authenticator) verify(ctx context.Context, token string) (*jwt.Claims, *privateClaims, bool, error) {
	tok, err := jwt.ParseSigned(token)
	if err != nil {
		return nil, nil, false, nil
	}
	var unverified jwt.Claims
	var unverifiedPrivate privateClaims
	if err := tok.UnsafeClaimsWithoutVerification(&unverified, &unverifiedPrivate); err != nil ||
		!hubIssuer(unverified.Issuer, unverifiedPrivate.Cluster) {
		return nil, nil, false, nil
	}
	public, private := &jwt.Claims{}, &privateClaims{}
	if err := tok.Claims(a.key, public, private); err != nil {
		return nil, nil, true, fmt.Errorf("invalid service account token: %w", err)
	}
	if err := validate(ctx, public, private, a.now()); err != nil {
		return nil, nil, true, err
	}
	return public, private, true, nil
}

// requestedAudiences are the audiences a token must have one of: those
// the context names, as a TokenReview's do, or else the hub's own.
func requestedAudiences(ctx context.Context) authenticator.Audiences {
	if auds, ok := authenticator.AudiencesFrom(ctx); ok {
		return auds
	}
	return authenticator.Audiences{Audience}
}

// validate checks verified claims at now for a request with ctx.
func validate(ctx context.Context, public *jwt.Claims, private *privateClaims, now time.Time) error {
	if err := public.ValidateWithLeeway(jwt.Expected{Time: now}, leeway); err != nil {
		return fmt.Errorf("invalid service account token: %w", err)
	}
	if !hubIssuer(public.Issuer, private.Cluster) {
		return fmt.Errorf("token issuer %q is invalid", public.Issuer)
	}
	if tokenAudiences, target := authenticator.Audiences(public.Audience), requestedAudiences(ctx); len(tokenAudiences.Intersect(target)) == 0 {
		return fmt.Errorf("token audiences %q is invalid for the target audiences %q", tokenAudiences, target)
	}
	k := private.Kubernetes
	if k.Namespace == "" || k.ServiceAccount.Name == "" || k.ServiceAccount.UID == "" ||
		public.Subject != serviceaccount.MakeUsername(k.Namespace, k.ServiceAccount.Name) {
		return errors.New("service account token names no service account")
	}
	tokenCluster, err := logicalcluster.Parse(private.Cluster)
	if err != nil {
		return fmt.Errorf("service account token names no logical cluster: %w", err)
	}
	requestCluster, ok := logicalcluster.ClusterFrom(ctx)
	if !ok {
		return fmt.Errorf("%w: %s, and the request addresses none", ErrOtherCluster, tokenCluster)
	}
	if tokenCluster != requestCluster {
		return fmt.Errorf("%w: %s, not %s", ErrOtherCluster, tokenCluster, requestCluster)
	}
	return nil
}
