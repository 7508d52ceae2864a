package hub

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/apiserver/pkg/endpoints/filters"
	"k8s.io/apiserver/pkg/endpoints/handlers/responsewriters"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"

	rbacauthorizer "github.com/canopy-dev/canopy/pkg/authorization/rbac"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
	"github.com/canopy-dev/canopy/pkg/loopback"
	"github.com/canopy-dev/canopy/pkg/registry/tenancy"
	"github.com/canopy-dev/canopy/pkg/serviceaccount"
)

// withTokenCluster answers 401 to a request whose bearer token is a
// ServiceAccount token of another logical cluster, saying so. The
// authenticator refuses such a token too, but the authentication filter
// answers every refusal with a bare "Unauthorized", which would leave the
// client guessing.
func withTokenCluster(next http.Handler, tokens *serviceaccount.Authenticator, s runtime.NegotiatedSerializer) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		scheme, token, found := strings.Cut(strings.TrimSpace(req.Header.Get("Authorization")), " ")
		if found && strings.EqualFold(scheme, "bearer") {
			if err := tokens.CheckCluster(req.Context(), strings.TrimSpace(token)); err != nil {
				responsewriters.ErrorNegotiated(apierrors.NewUnauthorized(err.Error()), s, schema.GroupVersion{}, w, req)
				return
			}
		}
		next.ServeHTTP(w, req)
	})
}

// withServedClusters answers 404 for a logical cluster that does not
// exist or is being deleted, saying why, to the users who may know: its
// members, system:masters among them. To anyone else a missing logical
// cluster looks like one in which they have no role, so that whether it
// exists is not told to those it is none of the business of: what every
// logical cluster grants everyone (discovery, reviewing one's own access)
// is served, as it would be in an empty logical cluster, and anything else
// is refused as the RBAC authorizer refuses a non-member.
//
// A request served remembers which LogicalCluster made its logical
// cluster, for logicalclusterlifecycle, and a watch ends once the
// deletion of its logical cluster begins.
func withServedClusters(next http.Handler, clusters *tenancy.Storage, members *rbacauthorizer.Authorizer, s runtime.NegotiatedSerializer) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		ctx := req.Context()
		cluster, ok := logicalcluster.ClusterFrom(ctx)
		if !ok || hubController(ctx) {
			next.ServeHTTP(w, req)
			return
		}
		ctx, err := clusters.Enter(ctx, cluster)
		if err == nil {
			if info, ok := genericapirequest.RequestInfoFrom(ctx); ok && info.Verb == "watch" {
				var done func()
				ctx, done = clusters.Follow(ctx, cluster)
				defer done()
			}
			next.ServeHTTP(w, req.WithContext(ctx))
			return
		}
		if u, ok := genericapirequest.UserFrom(ctx); ok && apierrors.IsNotFound(err) {
			member, merr := members.IsMember(ctx, cluster, u)
			if merr != nil {
				responsewriters.InternalError(w, req, merr)
				return
			}
			if !member {
				asNonMember(next, members, s, w, req)
				return
			}
		}
		var status apierrors.APIStatus
		if !errors.As(err, &status) {
			status = apierrors.NewInternalError(err)
		}
		st := status.Status()
		st.TypeMeta = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
		responsewriters.WriteRawJSON(int(st.Code), st, w)
	})
}

// hubController reports whether the request is one of the hub's own
// controllers'. They act where the hub itself does, as its direct writes
// do: in a logical cluster being deleted too, where the garbage collector
// must still remove the finalizers that hold its objects, or its purge
// would wait on them for good. Nobody else may claim their group
// (pkg/authorization/reserved).
func hubController(ctx context.Context) bool {
	u, ok := genericapirequest.UserFrom(ctx)
	return ok && slices.Contains(u.GetGroups(), loopback.Group)
}

// asNonMember serves req, of a user with no role in its logical cluster,
// which is not served, as the RBAC authorizer decides in a logical cluster
// where they have none.
func asNonMember(next http.Handler, members *rbacauthorizer.Authorizer, s runtime.NegotiatedSerializer, w http.ResponseWriter, req *http.Request) {
	attrs, err := filters.GetAuthorizerAttributes(req.Context())
	if err != nil {
		responsewriters.InternalError(w, req, err)
		return
	}
	decision, reason, _ := members.Authorize(req.Context(), attrs)
	if decision != authorizer.DecisionAllow {
		responsewriters.Forbidden(attrs, w, req, reason, s)
		return
	}
	next.ServeHTTP(w, req)
}
