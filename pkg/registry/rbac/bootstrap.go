package rbac

import (
	"context"
	"errors"
	"sync"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"

	"github.com/canopy-dev/canopy/pkg/authorization/bootstrappolicy"
	"github.com/canopy-dev/canopy/pkg/logicalcluster"
)

// bootstrap are Kubernetes' default ClusterRoles and ClusterRoleBindings
// (package bootstrappolicy), by the same names, so that anyone let into a
// logical cluster can discover its APIs and ask kubectl auth can-i there,
// and tools find the roles they bind, such as view and
// system:auth-delegator; without them a user granted configmaps could not
// run kubectl at all. They are the same for every logical cluster, so
// they are made once.
var bootstrap = sync.OnceValues(func() ([]runtime.Object, error) {
	defaults := bootstrappolicy.ClusterRoles()
	// The aggregated roles are stored with the rules the aggregation
	// controller would give them, so that binding admin grants at once
	// what it will once the controller has run.
	aggregated, err := Aggregate(defaults)
	if err != nil {
		return nil, err
	}
	var objs []runtime.Object
	for _, r := range defaults {
		if rules, ok := aggregated[r.Name]; ok {
			r.Rules = rules
		}
		objs = append(objs, r)
	}
	for _, b := range bootstrappolicy.ClusterRoleBindings() {
		objs = append(objs, b)
	}
	return objs, nil
})

// SetUp creates the default ClusterRoles and ClusterRoleBindings of a new
// logical cluster, leaving any that exist as they are. It writes to the
// stores directly: the hub sets up clusters, not a requester whose rights
// could be escalated.
func (s *Storage) SetUp(ctx context.Context, cluster logicalcluster.Name) error {
	objs, err := bootstrap()
	if err != nil {
		return err
	}
	return s.create(inCluster(ctx, cluster, ""), objs)
}

// SetUpMissing creates the default ClusterRoles and ClusterRoleBindings
// cluster lacks, as kube-apiserver creates those of its version at each
// start: so a logical cluster made by an older hub gains the roles a newer
// one starts with, such as system:auth-delegator, and one an admin
// deleted comes back. It looks them up in the watch cache, and so costs
// no write and no database read when none is missing. Existing ones are
// left as they are.
func (s *Storage) SetUpMissing(ctx context.Context, cluster logicalcluster.Name) error {
	objs, err := bootstrap()
	if err != nil {
		return err
	}
	ctx = inCluster(ctx, cluster, "")
	var missing []runtime.Object
	for _, obj := range objs {
		store := s.storeOf(obj)
		_, err := store.Get(ctx, obj.(metav1.Object).GetName(), &metav1.GetOptions{ResourceVersion: "0"})
		switch {
		case apierrors.IsNotFound(err):
			missing = append(missing, obj)
		case err != nil:
			return err
		}
	}
	return s.create(ctx, missing)
}

// create creates objs in the logical cluster of ctx, unless they exist.
func (s *Storage) create(ctx context.Context, objs []runtime.Object) error {
	// The creates go together, so that the store commits them together
	// rather than one after the other.
	errs := make([]error, len(objs))
	var wg sync.WaitGroup
	for i, obj := range objs {
		// Create fills in the object it is given.
		obj = obj.DeepCopyObject()
		store := s.storeOf(obj)
		wg.Go(func() {
			if _, err := store.Create(ctx, obj, rest.ValidateAllObjectFunc, &metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
				errs[i] = err
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// storeOf is the store of obj, a ClusterRole or ClusterRoleBinding.
func (s *Storage) storeOf(obj runtime.Object) *genericregistry.Store {
	if _, ok := obj.(*rbacv1.ClusterRoleBinding); ok {
		return s.clusterRoleBindings
	}
	return s.clusterRoles
}

// AdminsBinding is the ClusterRoleBinding that makes the admins a
// LogicalCluster names cluster-admin of its logical cluster.
const AdminsBinding = "canopy:admins"

// SetAdmins makes subjects, and only them, cluster-admin of cluster
// through AdminsBinding, which it removes when there are none. Like SetUp
// it writes to the store directly: who may set a logical cluster's admins
// was decided by the write of its LogicalCluster in the parent.
func (s *Storage) SetAdmins(ctx context.Context, cluster logicalcluster.Name, subjects []rbacv1.Subject) error {
	ctx = inCluster(ctx, cluster, "")
	if len(subjects) == 0 {
		_, _, err := s.clusterRoleBindings.Delete(ctx, AdminsBinding, rest.ValidateAllObjectFunc, &metav1.DeleteOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		return err
	}
	b := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: AdminsBinding},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "cluster-admin"},
		Subjects:   subjects,
	}
	update := func() error {
		_, _, err := s.clusterRoleBindings.Update(ctx, AdminsBinding, rest.DefaultUpdatedObjectInfo(b),
			rest.ValidateAllObjectFunc, rest.ValidateAllObjectUpdateFunc, true, &metav1.UpdateOptions{})
		return err
	}
	err := update()
	if apierrors.IsInvalid(err) {
		// An admin remade the binding for another role, which an update
		// cannot change back.
		if _, _, err := s.clusterRoleBindings.Delete(ctx, AdminsBinding, rest.ValidateAllObjectFunc, &metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return err
		}
		err = update()
	}
	return err
}
